"""What to probe for a host, from where Ansible connects (``inventories.connection``): the
address (``ansible_host``, else the host's name) and port (``ansible_port``, else 22) of an SSH
connection; ``local`` for ``ansible_connection=local``; "not measured" for any other plugin
and for values that cannot be an address or a port (templated, masked, out of range), rather
than a guess. The values come from the inventory's writers: each is checked here, the address
again by the outbound guard before any connection."""

from __future__ import annotations

from typing import Any

from steward.health.models import Status
from steward.health.probe import Target
from steward.masking import MASK
from steward.outbound import network

DEFAULT_PORT = 22
SSH_PLUGINS = frozenset(
    {"ssh", "smart", "paramiko", "paramiko_ssh", "ansible.builtin.ssh"}
    | {"ansible.builtin.paramiko_ssh", "ansible.netcommon.libssh", "libssh"}
)
LOCAL_PLUGINS = frozenset({"local", "ansible.builtin.local"})
SHOWN_MAX = 40


def _shown(value: Any) -> str:
    text = str(value)
    return text if len(text) <= SHOWN_MAX else text[:SHOWN_MAX] + "…"


def _not_measured(key: tuple[int, str], why: str) -> Target:
    return Target(key, status=Status.NOT_MEASURED, reason=f"not measured: {why}")


def _port(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        port = value
    elif isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        port = int(value.strip())
    else:
        return None
    return port if 1 <= port <= 65535 else None


def of(inventory_id: int, name: str, connection: dict[str, Any]) -> Target:
    """The target of host ``name`` of inventory ``inventory_id``."""
    key = (inventory_id, name)
    plugin = connection.get("connection", "ssh")
    if not isinstance(plugin, str) or "{" in plugin or plugin == MASK:
        return _not_measured(key, "ansible_connection is not a plain name")
    if plugin in LOCAL_PLUGINS:
        return Target(key, status=Status.LOCAL, reason="ansible_connection=local: not probed")
    if plugin not in SSH_PLUGINS:
        return _not_measured(key, f"connection plugin '{_shown(plugin)}' is not SSH")
    address = connection.get("host", name)
    if not isinstance(address, str) or "{" in address or address == MASK:
        return _not_measured(key, "ansible_host is not a plain host name or address")
    address = address.strip()
    problem = network.check_host_name(address)
    if problem is not None or address.startswith("-"):
        return _not_measured(key, f"ansible_host '{_shown(address)}' {problem or 'starts with -'}")
    raw_port = connection.get("port", DEFAULT_PORT)
    port = _port(raw_port)
    if port is None:
        return _not_measured(key, f"ansible_port '{_shown(raw_port)}' is not a port (1-65535)")
    return Target(key, address=address, port=port)
