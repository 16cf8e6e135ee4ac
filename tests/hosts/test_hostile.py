"""Hostile inputs of the hosts view, each beside the control that shows the probe could have
succeeded: another project's hosts, a secret variable's value as a search, LIKE wildcards,
spreadsheet formulas in the export, oversized names and filters; and of its health checks: an
address the outbound rules forbid (never connected to), hostile ansible_host/ansible_port
values, another project's health, a failing host whose name is a pattern."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pydantic
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from support import services
from support.builders import assert_problem, make_project
from support.health import LOOPBACK, answering, health_guard, listed
from support.hosts import finished_run, metric_chunk, static_inventory

from steward.bounds import FACTS_MAX_BYTES
from steward.config import Settings
from steward.db import utcnow
from steward.errors import NotFound
from steward.execution import preflight
from steward.execution.recorder import Numbering, batch_rows
from steward.health import checks, probe, targets
from steward.health import service as health
from steward.health.models import Status
from steward.hosts import factdiff, factread, facts, hostmetrics, service
from steward.hosts.facts import Gathered
from steward.hosts.models import HostFacts
from steward.hosts.schemas import FactsHistoryFilters, HostFilters, HostMetricsQuery
from steward.inventories.resolve import Group, Host, ResolvedInventory
from steward.masking import MASK, Masker
from steward.outbound import network
from steward.projects.models import Project
from steward.runs.models import RunHost
from steward.runs.schemas import RunFilters

pytestmark = pytest.mark.security


def names(session: Session, project: Project, **filters: str) -> list[str]:
    items, _ = service.list_hosts(session, HostFilters.model_validate(filters), project)
    return [item.name for item in items]


def test_another_projects_hosts_stay_there(db_session: Session, tmp_path: Path) -> None:
    mine, theirs = services.project(db_session, "mine"), services.project(db_session, "theirs")
    static_inventory(db_session, theirs, tmp_path)
    finished_run(db_session, theirs, RunHost(host="secretdb", changed=1))
    assert names(db_session, theirs) == ["oradb01", "oradb02", "secretdb", "web01"]  # control
    assert names(db_session, mine) == []
    with pytest.raises(NotFound):
        service.host_runs(db_session, services.admin(db_session), mine, "secretdb", RunFilters())
    assert service.host_runs(  # control: in its own project
        db_session, services.admin(db_session), theirs, "secretdb", RunFilters()
    )[0]


def test_a_secret_variables_value_is_never_a_match(db_session: Session, tmp_path: Path) -> None:
    project = services.project(db_session)
    static_inventory(db_session, project, tmp_path)
    assert names(db_session, project, var="tier=silver") == ["oradb02"]  # control
    assert names(db_session, project, var="db_password=hunter2") == []
    assert names(db_session, project, var="db_password=********") == []


def test_like_wildcards_in_the_search_match_themselves(db_session: Session, tmp_path: Path) -> None:
    project = services.project(db_session)
    static_inventory(db_session, project, tmp_path)
    assert names(db_session, project, q="db0") == ["oradb01", "oradb02"]  # control
    assert names(db_session, project, q="%") == []
    assert names(db_session, project, q="oradb0_") == []


def test_a_formula_in_an_exported_cell_is_quoted(db_session: Session) -> None:
    project = services.project(db_session)
    finished_run(db_session, project, RunHost(host="db1"), label='=HYPERLINK("x")')
    finished_run(db_session, project, RunHost(host="db1"), label="baseline")
    actor = services.admin(db_session)
    lines = list(service.export_runs(db_session, actor, project, "db1", RunFilters()))
    assert lines[1].rstrip("\r\n").endswith(",baseline")  # control: as written
    assert lines[2].rstrip("\r\n").endswith(',"\'=HYPERLINK(""x"")"')


@pytest.mark.parametrize("field", ["q", "group", "var"])
def test_oversized_filters_are_refused_by_name(field: str) -> None:
    HostFilters.model_validate({field: "x" * 200})  # control
    with pytest.raises(pydantic.ValidationError, match=field):
        HostFilters.model_validate({field: "x" * 1000})


@pytest.mark.sqlite_only
def test_an_oversized_host_name_is_a_422_naming_it(client: TestClient) -> None:
    project = make_project(client)
    base = f"/api/v1/projects/{project}/hosts"
    assert_problem(client.get(f"{base}/{'h' * 255}"), 404, "")  # control: a name, not known
    assert_problem(client.get(f"{base}/{'h' * 256}"), 422, "host")
    assert_problem(client.get(f"{base}/{'h' * 256}/runs"), 422, "host")


# ---- facts over time ------------------------------------------------------------------------


def _gathered(session: Session, project: Project, host: str, found: dict[str, object]) -> None:
    run = finished_run(session, project, RunHost(host=host))
    facts.record(session, run, [Gathered(host, found, [])], at=utcnow(), limit=FACTS_MAX_BYTES)


def test_another_projects_facts_stay_there(db_session: Session) -> None:
    mine, theirs = services.project(db_session, "mine"), services.project(db_session, "theirs")
    _gathered(db_session, theirs, "secretdb", {"ansible_kernel": "6.1"})
    _gathered(db_session, theirs, "secretdb", {"ansible_kernel": "6.2"})
    read = factread.current(db_session, theirs, "secretdb", None)  # control: in its project
    assert read.facts == {"ansible_kernel": "6.2"}
    with pytest.raises(NotFound):
        factread.current(db_session, mine, "secretdb", None)
    _gathered(db_session, mine, "secretdb", {"ansible_kernel": "5.10"})  # a host of the same name
    assert factread.current(db_session, mine, "secretdb", None).facts == {"ansible_kernel": "5.10"}
    points = factread.history(db_session, theirs, "secretdb", FactsHistoryFilters()).items
    assert len(points) == 2  # control: their points, read in their project
    for point in (p.id for p in points):  # their points named in my project are not my host's
        services.refused(partial(factread.current, db_session, mine, "secretdb", point), "point")
        services.refused(
            partial(factread.compare, db_session, mine, "secretdb", point, point), "from"
        )


def test_a_key_store_secret_in_a_cacheable_fact_is_masked(db_session: Session) -> None:
    project = services.project(db_session)
    secret = "s3cr3t-from-the-key-store"
    event = {
        "event": "runner_on_ok",
        "event_data": {"host": "db1", "task": "set_fact", "res": {"ansible_facts": {}}},
        "facts": {"db_password": secret, f"key_{secret}": 1},
        "facts_bytes": 80,
        "facts_dropped": [],
    }
    plain = batch_rows(1, [event], Masker([]), Numbering(), set()).facts  # control: as sent
    assert plain[0].facts["db_password"] == secret
    rows = batch_rows(1, [event], Masker([secret]), Numbering(), set())
    assert rows.facts[0].facts == {"db_password": MASK, f"key_{MASK}": 1}
    assert "facts" not in rows.events[0]["data"]  # sent beside the event, not in its data
    assert secret not in json.dumps(rows.events[0], default=str)
    run = finished_run(db_session, project, RunHost(host="db1"))
    facts.record(db_session, run, rows.facts, at=utcnow(), limit=FACTS_MAX_BYTES)
    stored = factread.current(db_session, project, "db1", None)
    assert secret not in json.dumps(stored.model_dump(mode="json"))
    assert stored.facts["db_password"] == MASK


def test_an_oversized_fact_set_is_bounded_naming_what_was_left_out(db_session: Session) -> None:
    project = services.project(db_session)
    huge = {
        "ansible_kernel": "6.1",
        "packages": {f"pkg{n}": [{"v": "1" * 50}] for n in range(20_000)},
    }
    run = finished_run(db_session, project, RunHost(host="db1"))
    facts.record(db_session, run, [Gathered("db1", huge, [])], at=utcnow(), limit=64 * 1024)
    stored = db_session.get_one(HostFacts, (project.id, "db1"))
    assert stored.size <= 64 * 1024
    assert stored.dropped == ["packages"]
    assert len(stored.data) < 1024  # compressed
    read = factread.current(db_session, project, "db1", None)
    assert read.facts == {"ansible_kernel": "6.1"}  # control: what fits is kept
    bounded, dropped = factdiff.bounded(huge, 10 * 1024 * 1024)  # control: under a bigger bound
    assert (bounded, dropped) == (huge, [])


HOSTILE_NAMES = ("../../escape", "a/../../b", "..", "x|y", "s1_../z", "db1/../../c")


def test_a_host_name_cannot_leave_the_fact_cache(db_session: Session, tmp_path: Path) -> None:
    project = services.project(db_session)
    for name in HOSTILE_NAMES:
        _gathered(db_session, project, name, {"ansible_kernel": "evil"})
        assert db_session.get(HostFacts, (project.id, name)) is not None  # control: it has facts
    _gathered(db_session, project, "db1", {"ansible_kernel": "6.1"})
    inventory = static_inventory(db_session, project, tmp_path, content="db1\n")
    inventory.hosts_read_at = None  # never read: every host of the project is a candidate
    db_session.flush()
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    written = facts.write_cache(db_session, project.id, inventory.id, run_dir / "facts")
    assert written == 1  # control: db1's facts are written
    assert sorted(p.name for p in (run_dir / "facts").iterdir()) == facts.cache_file_names("db1")
    leaked = [p for p in tmp_path.rglob("*") if p.is_file() and p.parent != run_dir / "facts"]
    assert leaked == []
    assert not (tmp_path.parent / "escape").exists()


# --- health on the port Ansible uses ------------------------------------------------------------


def _check(target: probe.Target, guard: network.Guard) -> probe.Result:
    return probe.check_all([target], guard, timeout=2, concurrency=1)[0]


@pytest.mark.parametrize("address", ["127.0.0.1", "localhost", "127.1", "::ffff:127.0.0.1"])
def test_an_address_the_outbound_rules_forbid_is_never_connected_to(address: str) -> None:
    with answering() as listener:
        target = probe.Target((1, "h"), address=address, port=listener.port)
        blocked = _check(target, health_guard())  # loopback: refused unless allowed
        assert blocked.status == Status.BLOCKED
        assert blocked.reason.startswith("not checked: ")
        assert listener.accepted == 0
        allowed = _check(  # control: the same listener, loopback allowed for health checks
            probe.Target((1, "h"), address="127.0.0.1", port=listener.port),
            health_guard(LOOPBACK),
        )
        assert allowed.status == Status.REACHABLE
        assert listener.accepted == 1


def test_the_health_allow_list_opens_nothing_to_web_requests() -> None:
    settings = Settings(health_allowed_networks=["127.0.0.1"])
    assert checks.guard(settings).refusal("127.0.0.1", "127.0.0.1") is None  # control
    assert network.Guard.of(settings).refusal("127.0.0.1", "127.0.0.1") is not None
    metadata = checks.guard(settings).refusal("169.254.169.254", "169.254.169.254")
    assert metadata is not None
    assert "link-local" in metadata


@pytest.mark.parametrize(
    "connection",
    [
        {"port": "22 -oProxyCommand=touch /tmp/pwned"},
        {"port": 70000},
        {"port": 0},
        {"port": True},
        {"port": "{{ lookup('pipe', 'id') }}"},
        {"port": "\uff12\uff12"},  # full-width digits: int() would take them
        {"host": "-oProxyCommand=id"},
        {"host": "{{ inventory_hostname }}.example"},
        {"host": "a b"},
        {"host": "evil@127.0.0.1"},
        {"host": "x" * 300},
        {"host": MASK},
        {"connection": "{{ conn }}"},
        {"connection": "community.general.chroot"},
    ],
)
def test_a_hostile_connection_value_is_not_measured_and_nothing_connects(
    connection: dict[str, object],
) -> None:
    with answering() as listener:
        where: dict[str, object] = {"host": LOOPBACK, "port": listener.port}
        result = _check(targets.of(1, "h", {**where, **connection}), health_guard(LOOPBACK))
        assert result.status == Status.NOT_MEASURED, result
        assert result.reason.startswith("not measured: ")
        assert len(result.reason) < 200
        assert listener.accepted == 0
        control = _check(targets.of(1, "h", where), health_guard(LOOPBACK))
        assert control.status == Status.REACHABLE
        assert listener.accepted == 1


def test_another_projects_host_health_stays_there(db_session: Session) -> None:
    mine, theirs = services.project(db_session, "mine"), services.project(db_session, "theirs")
    listed(db_session, theirs, {"secretdb": {"connection": "local"}})
    settings = Settings()
    checked = health.check_now(db_session, settings, theirs, host="secretdb")  # control
    assert [(c.host, c.status) for c in checked] == [("secretdb", Status.LOCAL)]
    assert [c.status for c in health.host_health(db_session, theirs, "secretdb").history] == [
        Status.LOCAL
    ]
    with pytest.raises(NotFound):
        health.host_health(db_session, mine, "secretdb")
    with pytest.raises(NotFound):
        health.check_now(db_session, settings, mine, host="secretdb")
    listed(db_session, mine, {"secretdb": {"connection": "local"}}, name="mine")
    # the same name in my inventory: only my own checks, never theirs
    assert health.host_health(db_session, mine, "secretdb").history == []


def test_a_failing_host_named_like_a_pattern_is_not_left_out_by_a_pattern() -> None:
    hosts = ["web1", "web*", "db[0:1]", "~.*", "fe80::1", "all"]
    resolved = ResolvedInventory(
        hosts=[Host(h, [], {}) for h in hosts], groups=[Group("all", hosts, [], {})]
    )
    for name in hosts[1:]:
        composed, refusal = preflight.compose(resolved, "", [name])
        assert composed == ""
        assert "cannot be left out of the run safely" in refusal
    assert preflight.compose(resolved, "", ["web1"]) == ("all,!web1", "")  # control


def test_another_projects_metrics_of_a_host_of_the_same_name_stay_there(
    db_session: Session,
) -> None:
    mine, theirs = services.project(db_session, "mine"), services.project(db_session, "theirs")
    own = finished_run(db_session, mine, RunHost(host="db1"))
    other = finished_run(db_session, theirs, RunHost(host="db1"))
    db_session.add_all(
        [
            metric_chunk(own, "db1", 1_000, [{"cpu.user": 5}]),
            metric_chunk(other, "db1", 1_000, [{"cpu.user": 99}]),
        ]
    )
    db_session.flush()
    admin = services.admin(db_session)
    read = partial(hostmetrics.host_metrics, db_session, admin)
    assert [p.run_id for p in read(theirs, "db1", HostMetricsQuery()).runs] == [other]  # control
    assert [p.run_id for p in read(mine, "db1", HostMetricsQuery()).runs] == [own]
