"""Options from the template's inventory, as Steward last read it (``InventoryHost`` rows:
kept when a static inventory is saved and whenever an inventory's hosts are read), so opening
the launch dialog runs no ``ansible-inventory``.

A pattern is read as Ansible reads a ``--limit`` (``templates.patterns``): elements joined by
``,`` or ``:``; ``!x`` takes away, ``&x`` keeps only what is also in ``x``; an element is a
host name, a group name, ``all``, or a shell glob (``web*``) over both. Ansible's ``~regex``
elements and ``[0:2]`` slices are not read here: such an element matches nothing.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.inventories.models import InventoryHost
from steward.masking import MASK
from steward.templates.options.sources import InventorySource, Select
from steward.templates.patterns import host_pattern_elements


def options(
    session: Session, inventory_id: int, source: InventorySource, pattern: str
) -> list[str]:
    """The options ``source`` gives (``pattern``: its pattern with earlier answers in)."""
    hosts = list(
        session.scalars(
            select(InventoryHost)
            .where(InventoryHost.inventory_id == inventory_id)
            .order_by(InventoryHost.name)
        )
    )
    if source.select is Select.GROUPS:
        groups = sorted({str(g) for host in hosts for g in host.groups})
        return [g for g in groups if _names_match(pattern, g)]
    matched = [host for host in hosts if _host_matches(pattern, host.name, host.groups)]
    if source.select is Select.HOSTS:
        return [host.name for host in matched]
    values = (_scalar(host.vars.get(str(source.variable))) for host in matched)
    return sorted({v for v in values if v is not None and v != MASK})


HOSTS_NOW_MAX = 200  # names listed by ``reached``; the count says how many in all


def _unread(pattern: str) -> bool:
    return any(e.lstrip("!&").startswith("~") or "[" in e for e in host_pattern_elements(pattern))


def reached(
    session: Session, inventory_id: int, patterns: Iterable[str]
) -> tuple[list[str], int, list[str]]:
    """The inventory's hosts (as last read) that any of ``patterns`` selects, the first
    ``HOSTS_NOW_MAX`` by name; how many in all; and the patterns with elements not read here
    (``~regex``, ``[0:2]``: they may select more hosts when a run starts)."""
    patterns = list(patterns)
    hosts = session.scalars(
        select(InventoryHost)
        .where(InventoryHost.inventory_id == inventory_id)
        .order_by(InventoryHost.name)
    )
    found = [
        host.name
        for host in hosts
        if any(_host_matches(pattern, host.name, host.groups) for pattern in patterns)
    ]
    return found[:HOSTS_NOW_MAX], len(found), [p for p in patterns if _unread(p)]


def _scalar(value: object) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str | int | float):
        return str(value)
    return None


def _element_matches(element: str, name: str, groups: Iterable[object]) -> bool:
    if element in ("all", "*"):
        return True
    if element.startswith("~") or "[" in element:
        return False
    candidates = [name, *(str(g) for g in groups)]
    return any(fnmatch.fnmatchcase(c, element) for c in candidates)


def _host_matches(pattern: str, name: str, groups: Iterable[object]) -> bool:
    groups = list(groups)
    included = False
    required: list[bool] = []
    excluded = False
    for element in host_pattern_elements(pattern):
        if element.startswith("!"):
            excluded = excluded or _element_matches(element[1:], name, groups)
        elif element.startswith("&"):
            required.append(_element_matches(element[1:], name, groups))
        else:
            included = included or _element_matches(element, name, groups)
    return included and all(required) and not excluded


def _names_match(pattern: str, group: str) -> bool:
    """A group matches when the pattern's elements take it in (as a name or a glob)."""
    return _host_matches(pattern, group, ())
