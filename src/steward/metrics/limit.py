"""Which of an inventory's hosts a run's ``--limit`` selects, as Ansible reads the pattern, so
that target hosts can be sampled from the run's start rather than from their first event.

Understood: names, group names (their hosts, children's included), globs (``web*``),
``all``/``*``, split into elements as Ansible splits them (commas, else colons and whitespace:
``steward.templates.patterns.host_pattern_elements``), with ``&`` (and also) and ``!`` (but not),
in Ansible's order: every plain pattern, then the intersections, then the exclusions.
Not understood (None, the caller then waits for the run's events): subscripts (``web[0:2]``),
``@file`` lists, a pattern matching nothing (Ansible's implicit localhost, hosts added by the
play), and regexes (``~web\\d+``): the limit is a launch value, and a regex of the launcher's
(``~(a+)+$``) run by Python's backtracking engine against host names could cost the server
minutes of CPU; Ansible runs it in the run's own process.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable

from steward.inventories.resolve import ResolvedInventory
from steward.templates.patterns import host_pattern_elements

GLOB = (".", "?", "*", "[")  # a pattern with one of these may match hosts even if a group matched


def _patterns(limit: str) -> list[str] | None:
    if "@" in limit or "[" in limit or "~" in limit:
        return None
    return host_pattern_elements(limit) or ["all"]


def _members(inventory: ResolvedInventory) -> dict[str, set[str]]:
    """Every group's hosts, its children's included (cycles are not Ansible's, but harmless)."""
    groups = {g.name: g for g in inventory.groups}
    found: dict[str, set[str]] = {}

    def hosts_of(name: str, seen: frozenset[str]) -> set[str]:
        if name in found:
            return found[name]
        group = groups[name]
        hosts = set(group.hosts)
        for child in group.children:
            if child in groups and child not in seen:
                hosts |= hosts_of(child, seen | {child})
        found[name] = hosts
        return hosts

    for name in groups:
        hosts_of(name, frozenset({name}))
    found["all"] = {h.name for h in inventory.hosts}
    return found


def _matching(items: Iterable[str], pattern: str) -> list[str]:
    """``pattern`` as a glob (fnmatch's translation never backtracks without bound)."""
    compiled = re.compile(fnmatch.translate(pattern))
    return [item for item in items if compiled.match(item)]


def _hosts(pattern: str, groups: dict[str, set[str]], hosts: set[str]) -> set[str] | None:
    matched_groups = _matching(groups, pattern)
    found: set[str] = set()
    for name in matched_groups:
        found |= groups[name]
    if not matched_groups or any(c in pattern for c in GLOB):
        found.update(_matching(hosts, pattern))
    return found


def selected(inventory: ResolvedInventory, limit: str) -> set[str] | None:
    """The hosts ``limit`` selects, or None when this reading of it could be wrong."""
    patterns = _patterns(limit)
    if patterns is None:
        return None
    groups = _members(inventory)
    hosts = {h.name for h in inventory.hosts}
    plain = [p for p in patterns if not p.startswith(("&", "!"))] or ["all"]
    both = [p[1:] for p in patterns if p.startswith("&")]
    but_not = [p[1:] for p in patterns if p.startswith("!")]
    chosen: set[str] = set()
    for pattern in plain:
        found = _hosts(pattern, groups, hosts)
        if not found:  # nothing, or not understood: Ansible may still find a host we do not
            return None
        chosen |= found
    for pattern in both:
        found = _hosts(pattern, groups, hosts)
        if found is None:
            return None
        chosen &= found
    for pattern in but_not:
        found = _hosts(pattern, groups, hosts)
        if found is None:
            return None
        chosen -= found
    return chosen
