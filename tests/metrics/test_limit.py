"""Which hosts a run's limit selects, read as Ansible reads it: the hosts sampled from the
run's start. Where the reading could be wrong it says so (None) and the run's events decide."""

from __future__ import annotations

import pytest

from steward.inventories.resolve import Group, Host, ResolvedInventory
from steward.metrics.limit import selected

HOSTS = ["web1", "web2", "web10", "db1", "db2", "lb"]
INVENTORY = ResolvedInventory(
    hosts=[Host(name, [], {}) for name in HOSTS],
    groups=[
        Group("all", [], ["ungrouped", "prod"], {}),
        Group("ungrouped", ["lb"], [], {}),
        Group("prod", [], ["web", "db"], {}),
        Group("web", ["web1", "web2", "web10"], [], {}),
        Group("db", ["db1", "db2"], [], {}),
        Group("west", ["web1", "db1"], [], {}),
    ],
)


@pytest.mark.parametrize(
    ("limit", "hosts"),
    [
        ("", HOSTS),
        ("all", HOSTS),
        ("*", HOSTS),
        ("web1", ["web1"]),
        ("web", ["web1", "web2", "web10"]),
        ("prod", ["web1", "web2", "web10", "db1", "db2"]),  # children's hosts too
        ("web1,db2", ["web1", "db2"]),
        ("web1:db2", ["web1", "db2"]),
        ("web?", ["web1", "web2"]),
        ("web*", ["web1", "web2", "web10"]),
        ("web:&west", ["web1"]),
        ("all:!db", ["web1", "web2", "web10", "lb"]),
        ("!lb", ["web1", "web2", "web10", "db1", "db2"]),  # only exclusions: from all
        ("prod:!west:&db", ["db2"]),  # intersections, then exclusions, whatever the order
        (" web1 , lb ", ["web1", "lb"]),
        ("web1 lb", ["web1", "lb"]),  # whitespace separates as well (without a comma)
        ("web:&west !web1", []),
    ],
)
def test_a_limit_selects_the_hosts_ansible_would(limit: str, hosts: list[str]) -> None:
    assert selected(INVENTORY, limit) == set(hosts)


@pytest.mark.parametrize(
    "limit",
    [
        "web[0:1]",  # a subscript
        "@retry.txt",  # a file of hosts
        "localhost",  # implicit localhost, or a host the play adds
        "web1,nowhere",
        "~(unclosed",
        "all:!~(unclosed",
        "~web\\d{2}",  # a regex: never run by the server (a user's regex may backtrack for ever)
        "all:!~web1",
    ],
)
def test_a_limit_not_understood_selects_nothing_known(limit: str) -> None:
    assert selected(INVENTORY, limit) is None
