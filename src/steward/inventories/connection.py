"""Where Ansible connects to each host of an inventory: its ``ansible_host``, ``ansible_port``
and ``ansible_connection`` as Ansible merges them (group variables by depth, then
``ansible_group_priority``, then name, ``all`` first; the host's own last), kept raw: the
health checks (``steward.health.targets``) decide what a value means and refuse what it may not.

Only these names are read (and their older ``ansible_ssh_*`` spellings): they are not secrets,
and a masked or templated value is kept as it is (a check then says why it measured nothing).
"""

from __future__ import annotations

from typing import Any

from steward.inventories.resolve import ResolvedInventory

# the variable, then the older spellings Ansible still reads for it
NAMES: dict[str, tuple[str, ...]] = {
    "host": ("ansible_host", "ansible_ssh_host"),
    "port": ("ansible_port", "ansible_ssh_port"),
    "connection": ("ansible_connection",),
}


def _depths(inventory: ResolvedInventory, parents: dict[str, list[str]]) -> dict[str, int]:
    """Each group's depth below ``all`` (its longest path), as Ansible orders group vars."""
    found: dict[str, int] = {}

    def depth(name: str, seen: frozenset[str]) -> int:
        if name == "all":
            return 0
        if name not in found:
            above = [p for p in parents.get(name, []) if p not in seen]
            found[name] = 1 + max((depth(p, seen | {p}) for p in above), default=0)
        return found[name]

    return {group.name: depth(group.name, frozenset({group.name})) for group in inventory.groups}


def _priority(variables: dict[str, Any]) -> int:
    try:
        return int(variables.get("ansible_group_priority", 1))
    except (TypeError, ValueError):
        return 1


def of(inventory: ResolvedInventory) -> dict[str, dict[str, Any]]:
    """Per host name, the connection variables that are set: ``host``, ``port``,
    ``connection`` (absent: Ansible's default)."""
    groups = {group.name: group for group in inventory.groups}
    member: dict[str, set[str]] = {}
    parents: dict[str, list[str]] = {}
    for group in inventory.groups:
        for child in group.children:
            parents.setdefault(child, []).append(group.name)

    def ancestors(name: str) -> set[str]:
        found: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current not in found:
                found.add(current)
                todo += parents.get(current, [])
        return found

    for group in inventory.groups:
        for listed in group.hosts:
            member.setdefault(listed, set()).update(ancestors(group.name))
    depths = _depths(inventory, parents)
    result: dict[str, dict[str, Any]] = {}
    for host in inventory.hosts:
        names = (member.get(host.name, set()) | {"all"}) & set(groups)
        ordered = sorted(names, key=lambda n: (depths.get(n, 0), _priority(groups[n].vars), n))
        merged: dict[str, Any] = {}
        for name in ordered:
            merged.update(groups[name].vars)
        merged.update(host.vars)
        chosen: dict[str, Any] = {}
        for key, spellings in NAMES.items():
            for spelling in spellings:
                if spelling in merged:
                    chosen[key] = merged[spelling]
                    break
        result[host.name] = chosen
    return result
