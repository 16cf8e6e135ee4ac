"""The outbound-address guard: where the server may connect when a user names the destination
(notification URLs and SMTP hosts, pmproxy endpoints, Galaxy servers, git servers).

Refused by default (``DEFAULT_BLOCKED``): loopback, "this network" and unspecified addresses,
link-local (the cloud metadata service), multicast, broadcast and reserved addresses, and the
server's own listen address (``STEWARD_HOST`` when it is not a wildcard); the private ranges
(``PRIVATE``) too when ``STEWARD_OUTBOUND_BLOCK_PRIVATE`` is on; and whatever
``STEWARD_OUTBOUND_BLOCKED_NETWORKS`` adds. An admin allows networks or single addresses with
``STEWARD_OUTBOUND_ALLOWED_NETWORKS``. The most specific entry decides (as a routing table
does): allowing ``10.0.0.0/8`` does not open a blocked ``10.1.0.0/16`` nor the listen address
``10.0.0.5``; on a tie the allow-list wins. IPv4-mapped IPv6 addresses are checked as the IPv4
address they carry, and every numeric spelling ``getaddrinfo`` accepts (``127.1``,
``2130706433``) resolves to the address it means before it is checked.

Checked twice (SSRF): when a destination is saved (a 422 naming the field) and before every
connection, after resolving the name; the connection then goes to the very address that was
checked (``Target.address``), so a name that resolves elsewhere a moment later (DNS rebinding)
gains nothing. A name that resolves to several addresses is refused when any of them is.
"""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
import socket
import urllib.parse
from collections.abc import Iterable
from typing import Protocol

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
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


# refused unless allowed: (network, what it is), as reasons name them
DEFAULT_BLOCKED: tuple[tuple[str, str], ...] = (
    ("127.0.0.0/8", "loopback: this machine's own services"),
    ("::1/128", "loopback: this machine's own services"),
    ("0.0.0.0/8", "'this network': Linux connects it to this machine"),
    ("::/128", "the unspecified address"),
    ("::/96", "IPv4-compatible IPv6 (deprecated)"),
    ("169.254.0.0/16", "link-local: the cloud metadata service"),
    ("fe80::/10", "link-local"),
    ("224.0.0.0/4", "multicast"),
    ("ff00::/8", "multicast"),
    ("240.0.0.0/4", "reserved, and broadcast"),
)
# refused when STEWARD_OUTBOUND_BLOCK_PRIVATE is on
PRIVATE: tuple[tuple[str, str], ...] = (
    ("10.0.0.0/8", "a private network"),
    ("172.16.0.0/12", "a private network"),
    ("192.168.0.0/16", "a private network"),
    ("100.64.0.0/10", "shared address space (carrier-grade NAT, VPN overlays)"),
    ("fc00::/7", "a private network (unique local)"),
    ("fec0::/10", "a private network (site-local, deprecated)"),
)
LISTEN = "the server's own listen address (STEWARD_HOST)"
ADMIN_SETTING = "STEWARD_OUTBOUND_ALLOWED_NETWORKS"
WILDCARDS = frozenset({"", "0.0.0.0", "::", "*"})  # noqa: S104 - names, not a bind


def network(value: str) -> Network:
    """A network or a single address (a host's /32 or /128); ``ValueError`` otherwise."""
    return ipaddress.ip_network(value.strip(), strict=False)


def address(raw: str) -> Address:
    """An address as ``getaddrinfo`` gives it; an IPv4-mapped IPv6 address is the IPv4 one
    (``::ffff:127.0.0.1`` is 127.0.0.1)."""
    ip = ipaddress.ip_address(raw.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


@dataclasses.dataclass(frozen=True)
class Rule:
    network: Network
    allowed: bool
    why: str  # what the network is (for a refusal's reason)


@dataclasses.dataclass(frozen=True)
class Guard:
    """Where the server may connect; built from the settings (``of``) by every consumer."""

    rules: tuple[Rule, ...]

    @classmethod
    def of(cls, settings: OutboundSettings) -> Guard:
        rules = [Rule(network(n), False, why) for n, why in DEFAULT_BLOCKED]
        if settings.outbound_block_private:
            rules += [Rule(network(n), False, why) for n, why in PRIVATE]
        rules += [Rule(ip_network, False, LISTEN) for ip_network in listen_networks(settings.host)]
        rules += [
            Rule(network(n), False, "blocked by STEWARD_OUTBOUND_BLOCKED_NETWORKS")
            for n in settings.outbound_blocked_networks
        ]
        rules += [
            Rule(network(n), True, f"allowed by {ADMIN_SETTING}")
            for n in settings.outbound_allowed_networks
        ]
        return cls(tuple(rules))

    def decide(self, raw: str) -> Rule | None:
        """The rule that decides for this address: the most specific one matching, the allow
        rule on a tie; None when nothing matches (allowed)."""
        ip = address(raw)
        found = [r for r in self.rules if r.network.version == ip.version and ip in r.network]
        if not found:
            return None
        return max(found, key=lambda r: (r.network.prefixlen, r.allowed))

    def refusal(self, host: str, raw: str) -> str | None:
        """Why ``host`` may not be reached at the address ``raw`` it resolved to, or None."""
        rule = self.decide(raw)
        if rule is None or rule.allowed:
            return None
        ip = address(raw)
        shown = f"'{host}' is" if str(ip) == host else f"'{host}' resolves to {ip},"
        if rule.why == LISTEN:
            where = LISTEN
        else:
            where = f"in the blocked network {rule.network} ({rule.why})"
        return f"{shown} {where}; an admin may allow it in {ADMIN_SETTING}"

    def allowing(self, networks: Iterable[str], setting: str) -> Guard:
        """This guard with ``networks`` allowed too (``setting`` names where, for reasons):
        for connections of one kind only (health checks: ``STEWARD_HEALTH_ALLOWED_NETWORKS``)."""
        extra = [Rule(network(n), True, f"allowed by {setting}") for n in networks]
        return Guard(self.rules + tuple(extra))

    def vet(self, host: str, port: int) -> Target:
        """The address to connect to for ``host``: ``Refused`` when any of its addresses is
        refused (a name must not resolve there at all), ``Unresolved`` when it has none."""
        return self.choose(host, port, resolve(host, port))

    def choose(self, host: str, port: int, addresses: list[str]) -> Target:
        """``vet`` once ``host`` is resolved to ``addresses`` (by a caller that resolves
        without blocking: the health checks' event loop)."""
        for raw in addresses:
            reason = self.refusal(host, raw)
            if reason is not None:
                raise Refused(reason)
        if not addresses:
            raise Unresolved(f"'{host}' does not resolve")
        return Target(host, port, addresses[0])

    def check_at_save(self, host: str, port: int) -> str | None:
        """Why a destination on ``host`` may not be saved, or None. A name that does not
        resolve now is accepted (it may resolve where the server runs later); it is vetted
        again before every connection."""
        try:
            self.vet(host, port)
        except Unresolved:
            return None
        except Refused as exc:
            return str(exc)
        return None


class OutboundSettings(Protocol):
    """What the guard reads of ``config.Settings``."""

    host: str
    outbound_allowed_networks: list[str]
    outbound_blocked_networks: list[str]
    outbound_block_private: bool


@functools.lru_cache(maxsize=16)
def _listen_addresses(host: str) -> tuple[str, ...]:
    try:
        return tuple(resolve(host, 0))
    except Unresolved:
        return ()


def listen_networks(host: str) -> list[Network]:
    """The address(es) the server listens on, as /32 or /128 networks; none for a wildcard
    (every address of the machine: loopback stays refused, the others cannot be listed)."""
    if host.strip() in WILDCARDS:
        return []
    found = []
    for raw in _listen_addresses(host.strip()):
        ip = address(raw)
        if not ip.is_unspecified:
            found.append(ipaddress.ip_network(ip))
    return found


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (an address resolves to itself, in any form
    ``getaddrinfo`` accepts: ``2852039166`` is 169.254.169.254, ``127.1`` is 127.0.0.1)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise Unresolved(f"'{host}' does not resolve ({exc})") from exc
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def check_networks(values: Iterable[str]) -> None:
    """``ValueError`` naming the first value that is not a network or an address."""
    for value in values:
        try:
            network(value)
        except ValueError as exc:
            raise ValueError(
                f"{value!r} is not an IP network or address (e.g. 10.0.0.0/8, 192.0.2.7)"
            ) from exc
