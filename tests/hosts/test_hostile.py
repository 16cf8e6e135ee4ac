"""Hostile inputs of the hosts view, each beside the control that shows the probe could have
succeeded: another project's hosts, a secret variable's value as a search, LIKE wildcards,
spreadsheet formulas in the export, oversized names and filters."""

from __future__ import annotations

from pathlib import Path

import pydantic
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from support import services
from support.builders import assert_problem, make_project
from support.hosts import finished_run, static_inventory

from steward.errors import NotFound
from steward.hosts import service
from steward.hosts.schemas import HostFilters
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
