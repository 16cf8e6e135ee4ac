"""Hostile inputs of the hosts view, each beside the control that shows the probe could have
succeeded: another project's hosts, a secret variable's value as a search, LIKE wildcards,
spreadsheet formulas in the export, oversized names and filters; and of its health checks: an
address the outbound rules forbid (never connected to), hostile ansible_host/ansible_port
values, another project's health, a failing host whose name is a pattern."""

from __future__ import annotations

from pathlib import Path

import pydantic
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from support import services
from support.builders import assert_problem, make_project
from support.health import LOOPBACK, answering, health_guard, listed
from support.hosts import finished_run, static_inventory

from steward.config import Settings
from steward.errors import NotFound
from steward.execution import preflight
from steward.health import checks, probe, targets
from steward.health import service as health
from steward.health.models import Status
from steward.hosts import service
from steward.hosts.schemas import HostFilters
from steward.inventories.resolve import Group, Host, ResolvedInventory
from steward.masking import MASK
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
