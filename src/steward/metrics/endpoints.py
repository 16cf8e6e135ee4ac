"""Where a target host's metrics come from: its pmproxy's REST API.

An inventory's ``metrics_endpoint`` is a URL template, e.g. ``http://{host}:44322``; ``{host}``
becomes each host's address (its ``ansible_host``, else its inventory name). A host variable
``steward_pmproxy_url`` overrides it for that host (a URL, ``{host}`` allowed; ``off`` or empty:
that host is not sampled). Empty on the inventory: no target host is sampled. pmproxy may also
be a gateway to each host's pmcd: ``http://gateway:44322/?hostspec={host}`` (pmproxy connects to
``hostspec``, Steward only to the gateway).

The server connects to these URLs itself, so they are vetted like every outbound destination
(``outbound.network``): http(s) only, no credentials, and never an address the guard refuses
(loopback, link-local, the server's own address… unless an admin allows it).
"""

from __future__ import annotations

import dataclasses
import urllib.parse
from collections.abc import Mapping
from typing import Any

from steward.bounds import METRICS_ENDPOINT_MAX
from steward.outbound import network

PLACEHOLDER = "{host}"
HOST_VARIABLE = "steward_pmproxy_url"
OFF = "off"
ENDPOINT_MAX = METRICS_ENDPOINT_MAX
DEFAULT_TEMPLATE = "http://{host}:44322"  # pmproxy's port
_STAND_IN = "host.invalid"  # what ``{host}`` is checked as at save time


@dataclasses.dataclass(frozen=True)
class Endpoint:
    url: network.HttpUrl  # the pmproxy to ask
    hostspec: str  # the pmcd pmproxy should reach, "" for its own


class Unusable(Exception):
    """``str()`` says why a host has no endpoint to sample (a gap reason, no secret in it)."""


def check_template(value: str, guard: network.Guard) -> str | None:
    """Why an inventory's ``metrics_endpoint`` may not be saved, or None ("" is allowed: off)."""
    if not value:
        return None
    if len(value) > ENDPOINT_MAX:
        return f"must be at most {ENDPOINT_MAX} characters"
    if "{" in value.replace(PLACEHOLDER, "") or "}" in value.replace(PLACEHOLDER, ""):
        return f"the only placeholder allowed is {PLACEHOLDER}"
    try:
        endpoint = parse(value.replace(PLACEHOLDER, _STAND_IN))
    except Unusable as exc:
        return str(exc)
    if _STAND_IN in endpoint.url.host:
        return None  # the host is each host's address: vetted when sampled
    return guard.check_at_save(endpoint.url.host, endpoint.url.port)


def parse(url: str) -> Endpoint:
    """A pmproxy URL: http(s), a host, no credentials; its query may only name ``hostspec``."""
    try:
        parsed = network.parse_url(url)
    except network.Refused as exc:
        raise Unusable(str(exc)) from exc
    query = urllib.parse.urlsplit(url).query
    fields = urllib.parse.parse_qs(query, keep_blank_values=True) if query else {}
    unknown = sorted(set(fields) - {"hostspec"})
    if unknown:
        raise Unusable(f"the only query parameter allowed is hostspec, not '{unknown[0][:40]}'")
    hostspec = fields.get("hostspec", [""])[-1]
    base = dataclasses.replace(parsed, rest=urllib.parse.urlsplit(url).path.rstrip("/"))
    return Endpoint(base, hostspec)


def for_host(template: str, name: str, variables: Mapping[str, Any]) -> Endpoint | None:
    """The endpoint of host ``name`` (None: not sampled); ``Unusable`` when its variables make
    a URL that cannot be used."""
    chosen = template
    override = variables.get(HOST_VARIABLE)
    if override is not None:
        if not isinstance(override, str):
            raise Unusable(f"{HOST_VARIABLE} must be a string")
        chosen = "" if override.strip().lower() == OFF else override.strip()
    if not chosen:
        return None
    if len(chosen) > ENDPOINT_MAX:
        raise Unusable(f"{HOST_VARIABLE} must be at most {ENDPOINT_MAX} characters")
    address = variables.get("ansible_host", name)
    if not isinstance(address, str) or "{{" in address:
        raise Unusable("ansible_host is not a plain address; set steward_pmproxy_url")
    problem = network.check_host_name(address)
    if problem is not None:
        raise Unusable(f"the host's address {problem}")
    shown = f"[{address}]" if ":" in address else address
    return parse(chosen.replace(PLACEHOLDER, shown))
