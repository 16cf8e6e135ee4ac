"""The health rules below HTTP, on ``db_session``: where Ansible connects to each host (group
and host variables merged as Ansible merges them), checks kept as history and latest (an
upsert per dialect: both databases), a host's read, an inventory's "N of M unreachable now",
the periodic pass run by one server per interval, the history's retention, and composing a
pre-flight's limit."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import services
from support.health import LOOPBACK, answering, listed, refused_port
from support.hosts import static_inventory
from support.sshd import SshServer

from steward.config import Settings
from steward.db import utcnow
from steward.errors import NotFound
from steward.execution import preflight
from steward.execution.ansible.playbook import RunnerSpec
from steward.health import checks, probe, service
from steward.health.models import HealthSweep, HostCheck, Status, Trigger
from steward.health.schemas import InstanceHealthFilters
from steward.inventories import service as inventories
from steward.inventories.models import InventoryHost
from steward.inventories.resolve import Group, Host, ResolvedInventory
from steward.templates.models import Preflight

GROUPED = """
[db]
oradb01 ansible_host=10.0.0.1
oradb02 ansible_port=2201

[db:vars]
ansible_port=2200

[prod:children]
db

[prod:vars]
ansible_port=2100
ansible_host=10.9.9.9

[local]
me ansible_connection=local
"""


def test_where_ansible_connects_merges_group_then_host_variables(
    db_session: Session, tmp_path: Path
) -> None:
    project = services.project(db_session)
    inventory = static_inventory(db_session, project, tmp_path, GROUPED)
    kept = {
        row.name: row.connection
        for row in db_session.scalars(
            select(InventoryHost).where(InventoryHost.inventory_id == inventory.id)
        )
    }
    # db (depth 2) wins over prod (depth 1); the host's own value over both
    assert kept["oradb01"] == {"host": "10.0.0.1", "port": 2200}
    assert kept["oradb02"] == {"host": "10.9.9.9", "port": 2201}
    assert kept["me"] == {"connection": "local"}


def _settings(interval: float = 0) -> Settings:
    return Settings(
        health_allowed_networks=[LOOPBACK],
        health_timeout_seconds=1,
        health_interval_seconds=interval,
    )


@pytest.mark.both_databases
def test_checks_are_kept_as_history_latest_and_counts(
    db_session: Session, tmp_path: Path, sshd: SshServer
) -> None:
    down = refused_port()
    project = services.project(db_session)
    inventory = listed(
        db_session,
        project,
        {
            "up": {"host": LOOPBACK, "port": sshd.port},
            "down": {"host": LOOPBACK, "port": down},
            "me": {"connection": "local"},
        },
    )
    settings = _settings()
    first = service.check_now(db_session, settings, project, host="down")
    assert [(r.host, r.status, r.unreachable) for r in first] == [("down", Status.REFUSED, True)]
    everything = service.check_now(db_session, settings, project, inventory=inventory)
    assert sorted((r.host, r.status) for r in everything) == [
        ("down", Status.REFUSED),
        ("me", Status.LOCAL),
        ("up", Status.REACHABLE),
    ]
    read = service.host_health(db_session, project, "down")
    assert [(c.status, c.trigger) for c in read.history] == [
        (Status.REFUSED, Trigger.MANUAL),
        (Status.REFUSED, Trigger.MANUAL),
    ]
    assert [(x.inventory, x.status, x.unreachable) for x in read.latest] == [
        ("prod", Status.REFUSED, True)
    ]
    up = service.host_health(db_session, project, "up")
    assert up.latest[0].tcp_ms is not None
    assert up.latest[0].banner_ms is not None
    counts = inventories.health_counts(db_session, [inventory.id])[inventory.id]
    assert (counts.unreachable_now, counts.checked, counts.hosts) == (1, 3, 3)
    with pytest.raises(NotFound):
        service.host_health(db_session, project, "nowhere")


@pytest.mark.both_databases
def test_the_periodic_pass_runs_once_per_interval_whoever_asks(
    db_session: Session, tmp_path: Path
) -> None:
    listed(
        db_session,
        services.project(db_session),
        {"down": {"host": LOOPBACK, "port": refused_port()}},
    )
    settings = _settings(interval=600)
    assert service.sweep(db_session, Settings(health_interval_seconds=0)) == 0  # off
    assert service.sweep(db_session, settings) == 1
    assert service.sweep(db_session, settings) == 0  # another server, the same interval
    sweep = db_session.get_one(HealthSweep, service.SWEEP)
    assert sweep.hosts == 1
    assert sweep.finished_at is not None
    later = utcnow() + dt.timedelta(seconds=601)
    assert service.claim_sweep(db_session, 600, now=later) is True  # the next interval
    assert service.claim_sweep(db_session, 600, now=later) is False
    kept = db_session.scalars(select(HostCheck)).all()
    assert [(c.host, c.trigger, c.status) for c in kept] == [
        ("down", Trigger.PERIODIC, Status.REFUSED)
    ]


@pytest.mark.both_databases
def test_history_older_than_its_period_is_pruned_and_the_latest_stays(
    db_session: Session, tmp_path: Path
) -> None:
    project = services.project(db_session)
    inventory = listed(db_session, project, {"old": {"connection": "local"}})
    inventory_id, project_id = inventory.id, project.id
    result = probe.Result((inventory_id, "old"), Status.LOCAL)
    checks.record(db_session, [result], {inventory_id: project_id}, Trigger.PERIODIC,
                  at=utcnow() - dt.timedelta(days=31))  # fmt: skip
    checks.record(db_session, [result], {inventory_id: project_id}, Trigger.PERIODIC)
    db_session.flush()
    assert service.prune(db_session, 30) == 1
    read = service.host_health(db_session, project, "old")
    assert len(read.history) == 1
    assert len(read.latest) == 1


def _resolved(groups: dict[str, list[str]]) -> ResolvedInventory:
    """An inventory as Ansible resolves it, without starting ansible-inventory."""
    hosts = sorted({h for members in groups.values() for h in members})
    return ResolvedInventory(
        hosts=[Host(h, [g for g, m in groups.items() if h in m], {}) for h in hosts],
        groups=[Group("all", [], sorted(groups), {})]
        + [Group(g, members, [], {}) for g, members in groups.items()],
    )


def test_a_preflight_limit_leaves_out_exactly_the_failing_hosts() -> None:
    resolved = _resolved({"web": ["web1", "web2", "web3"], "db": ["db1"]})
    composed, refusal = preflight.compose(resolved, "web", ["web2"])
    assert (composed, refusal) == ("web,!web2", "")
    composed, _ = preflight.compose(resolved, "web:db", ["web2", "db1"])
    assert composed == "web,db,!web2,!db1"
    assert preflight.compose(resolved, "", ["db1"])[0] == "all,!db1"
    # a failing host named like a group would leave out the group: refused, not composed
    named = _resolved({"web": ["web1"], "db": ["db1"], "other": ["db"]})
    composed, refusal = preflight.compose(named, "", ["db"])
    assert composed == ""
    assert "'db'" in refusal


def test_every_check_answers_within_its_timeout() -> None:
    with answering(delay=3) as slow_listener:
        slow = slow_listener.port
        found = [probe.Target((1, "slow"), address=LOOPBACK, port=slow)]
        results = checks.run_checks(found, _settings(), checks.Limits(0.2, 4))
    assert results[0].status == Status.TIMEOUT


def test_a_preflight_where_every_host_fails_refuses_the_run_with_their_reasons() -> None:
    resolved = _resolved({"db": ["db1", "db2"]})
    spec = RunnerSpec("u", Path("/x"), Path("/x"), "p.yml", Path("/x/hosts"), limit="db")
    failing = [
        probe.Result((1, "db1"), Status.REFUSED, reason="port 22: connection refused"),
        probe.Result((1, "db2"), Status.TIMEOUT, reason="port 22: no SSH version line within 5 s"),
    ]
    every = preflight._decide(Preflight.SKIP_UNREACHABLE, spec, resolved, failing, failing)
    assert every.refusal == (
        "pre-flight: no target host is reachable: db1: port 22: connection refused;"
        " db2: port 22: no SSH version line within 5 s"
    )
    local = probe.Result((1, "db2"), Status.LOCAL)
    some = preflight._decide(
        Preflight.SKIP_UNREACHABLE, spec, resolved, [failing[0], local], failing[:1]
    )
    assert (some.refusal, some.spec.limit) == ("", "db,!db1")
    checked = preflight._decide(Preflight.CHECK, spec, resolved, failing, failing)  # control
    assert (checked.refusal, checked.spec) == ("", spec)


def test_the_instance_wide_view_counts_every_project_and_lists_the_failing_hosts(
    db_session: Session, tmp_path: Path
) -> None:
    one = listed(db_session, services.project(db_session, "one"), {
        "a1": {"connection": "local"}, "a2": {"connection": "local"}, "a3": {"connection": "local"},
    })  # fmt: skip
    two = listed(db_session, services.project(db_session, "two"), {
        "b1": {"connection": "local"}, "b2": {"connection": "local"},
    })  # fmt: skip
    projects = {one.id: one.project_id, two.id: two.project_id}
    results = [
        probe.Result((one.id, "a1"), Status.REACHABLE, tcp_ms=1.0, banner_ms=2.0),
        probe.Result((one.id, "a2"), Status.REFUSED, reason="connection refused"),
        probe.Result((two.id, "b1"), Status.TIMEOUT, reason="no answer in 2 s"),
        probe.Result((two.id, "b2"), Status.LOCAL),
    ]
    checks.record(db_session, results, projects, Trigger.PERIODIC, at=utcnow())
    db_session.flush()
    read = service.instance_health(db_session, InstanceHealthFilters())
    assert (read.unreachable, read.checked, read.hosts) == (2, 4, 5)  # a3: never checked
    assert [(i.project, i.inventory, i.host, i.status) for i in read.items] == [
        ("one", "prod", "a2", Status.REFUSED),
        ("two", "prod", "b1", Status.TIMEOUT),
    ]
    assert read.total == 2
    assert read.items[1].reason == "no answer in 2 s"
    every = service.instance_health(db_session, InstanceHealthFilters(failing=False, limit=3))
    assert [i.host for i in every.items] == ["a1", "a2", "b1"]
    assert every.total == 4
