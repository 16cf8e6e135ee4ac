"""Where the server may send notifications: http(s) URLs and SMTP hosts outside the networks of
``settings.notify_blocked_networks`` (the cloud metadata service, link-local addresses, …).

Checked twice (SSRF): when a destination is saved (a 422 naming the field) and before every
send, after resolving the name; the send then connects to the very address that was checked
(``Target.address``), so a name that resolves elsewhere a moment later (DNS rebinding) gains
nothing.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import socket
import urllib.parse
from collections.abc import Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
SCHEMES = {"http": 80, "https": 443}
HOST_MAX = 253


class Refused(Exception):
    """The destination may not be reached; ``str()`` says why (no secret in it)."""


class Unresolved(Refused):
    """The host name does not resolve (now)."""


@dataclasses.dataclass(frozen=True)
class Target:
    host: str  # as given: a name or an address, for TLS and the Host header
    port: int
    address: str  # the checked address to connect to


@dataclasses.dataclass(frozen=True)
class HttpUrl:
    scheme: str
    host: str
    port: int
    netloc: str  # host[:port] as given, for the Host header
    rest: str  # path?query, what follows the netloc

    def pinned(self, address: str) -> str:
        """The URL with its host replaced by ``address`` (to connect to the checked address)."""
        shown = f"[{address}]" if ":" in address else address
        return f"{self.scheme}://{shown}:{self.port}{self.rest}"


def networks(blocked: Sequence[str]) -> list[Network]:
    """The parsed ``notify_blocked_networks`` (validated by ``Settings``)."""
    return [ipaddress.ip_network(n, strict=False) for n in blocked]


def parse_url(url: str) -> HttpUrl:
    """An http(s) URL with a host, no credentials and no control characters; ``Refused``
    otherwise. The reasons never quote the URL (a Slack URL is a secret)."""
    if any(ord(c) < 0x21 or ord(c) == 0x7F for c in url):
        raise Refused("the URL may not contain spaces or control characters")
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Refused("not a valid URL (its host or port cannot be read)") from exc
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise Refused(f"the scheme must be http or https, not '{scheme[:20]}'")
    if not parts.hostname:
        raise Refused("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise Refused("the URL may not carry credentials (user:password@)")
    rest = parts.path or "/"
    if parts.query:
        rest += f"?{parts.query}"
    host = parts.hostname
    return HttpUrl(scheme, host, port or SCHEMES[scheme], parts.netloc, rest)


def check_host_name(host: str) -> str | None:
    """Why ``host`` is not a host name or address to connect to, or None."""
    if not host or len(host) > HOST_MAX:
        return f"must be 1 to {HOST_MAX} characters"
    if any(ord(c) < 0x21 or ord(c) == 0x7F or c in "/@?#[]\\" for c in host):
        return "must be a host name or an IP address (no spaces, '/', '@' or brackets)"
    return None


def _address(raw: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    ip = ipaddress.ip_address(raw.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped  # ::ffff:169.254.169.254 is 169.254.169.254
    return ip


def blocked_by(address: str, blocked: Sequence[Network]) -> Network | None:
    ip = _address(address)
    return next((n for n in blocked if n.version == ip.version and ip in n), None)


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (an address resolves to itself, in any form
    ``getaddrinfo`` accepts: ``2852039166`` is 169.254.169.254)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise Unresolved(f"'{host}' does not resolve ({exc})") from exc
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def vet(host: str, port: int, blocked: Sequence[Network]) -> Target:
    """The address to connect to for ``host``: refused when any of its addresses is in a
    blocked network (a name must not resolve there at all)."""
    addresses = resolve(host, port)
    for address in addresses:
        network = blocked_by(address, blocked)
        if network is not None:
            raise Refused(
                f"'{host}' resolves to {_address(address)}, in the blocked network {network}"
            )
    if not addresses:
        raise Unresolved(f"'{host}' does not resolve")
    return Target(host, port, addresses[0])


def check_at_save(host: str, port: int, blocked: Sequence[Network]) -> str | None:
    """Why a destination on ``host`` may not be saved, or None. A name that does not resolve
    now is accepted (it may resolve where the server runs later); it is vetted again at every
    send."""
    try:
        vet(host, port, blocked)
    except Unresolved:
        return None
    except Refused as exc:
        return str(exc)
    return None
