"""Host-scoped grants below HTTP: how a limit and a scope combine (checked against ansible-core's
own reading of the result), whose scope a launch carries (the union of the caller's ``run``
grants, none with a project role), and what the run stores."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services

from grants.scoping import grant, selected, team_of, user
from steward.errors import InvalidInput
from steward.grants.models import GrantPermission
from steward.projects.models import ProjectRole
from steward.runs.params import RunParams
from steward.templates.patterns import scoped_limit

# (limit, scope, the --limit the run passes)
COMBINED = [
    ("", ["dev"], "dev"),
    ("dev1", ["dev"], "dev1,&dev"),
    ("dev1,prod1", ["dev"], "dev1,prod1,&dev"),
    ("db", ["dev", "test"], "dev,test,&db"),
    ("", ["dev", "test"], "dev,test"),
    ("db,!dev1", ["dev"], "db,&dev,!dev1"),
    ("&db", ["dev", "prod"], "dev,prod,&db"),
    ("dev*", ["test", "d*"], "test,d*,&dev*"),
]


@pytest.mark.parametrize(("limit", "scope", "expected"), COMBINED)
def test_a_limit_is_intersected_with_the_scope(
    tmp_path: Path, limit: str, scope: list[str], expected: str
) -> None:
    combined = scoped_limit(limit, scope)
    assert combined == expected
    in_scope = set().union(*(selected(tmp_path, entry) for entry in scope))
    # Ansible selects exactly the hosts both the limit and the scope select
    assert selected(tmp_path, combined) == selected(tmp_path, limit) & in_scope


def test_several_patterns_against_a_scope_of_several_entries_cannot_be_said() -> None:
    with pytest.raises(ValueError, match="one host pattern"):
        scoped_limit("dev1,prod1", ["dev", "prod"])
    assert scoped_limit("dev1,prod1", ["dev"]) == "dev1,prod1,&dev"  # one entry: it can


def test_the_scope_is_the_union_of_the_callers_run_grants(db_session: Session) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project)
    junior, other = user(db_session, "junior"), user(db_session, "other")
    grant(db_session, made, ["dev"], to=junior)
    team = team_of(db_session, "testers", junior)
    grant(db_session, made, ["test", "dev"], team=team)
    assert support_runs.rights(db_session, junior, project).host_scope(made.id) == ("dev", "test")

    # a view grant's hosts limit nothing it could launch; a run grant without hosts: no limit
    grant(db_session, made, ["prod"], to=other, permission=GrantPermission.VIEW)
    assert support_runs.rights(db_session, other, project).host_scope(made.id) is None
    wide = team_of(db_session, "ops", junior)
    grant(db_session, made, [], team=wide)
    assert support_runs.rights(db_session, junior, project).host_scope(made.id) is None


def test_a_project_role_that_launches_means_no_scope(db_session: Session) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project)
    operator = support_runs.member(db_session, project, "opal", ProjectRole.OPERATOR)
    grant(db_session, made, ["dev"], to=operator)
    assert support_runs.rights(db_session, operator, project).host_scope(made.id) is None
    viewer = support_runs.member(db_session, project, "vic", ProjectRole.VIEWER)
    grant(db_session, made, ["dev"], to=viewer)  # the control: a viewer launches by the grant
    assert support_runs.rights(db_session, viewer, project).host_scope(made.id) == ("dev",)


def test_a_scoped_launch_stores_its_limit_and_scope(db_session: Session) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project, survey=[])
    junior = user(db_session, "junior")
    grant(db_session, made, ["dev", "test"], to=junior)
    run = support_runs.launch(db_session, project, made, junior, limit="db")
    params = RunParams.of(run.params, run.id)
    assert (params.limit, params.host_scope) == ("db", ["dev", "test"])
    assert params.effective_limit == "dev,test,&db"
    # what a relaunch carries is the limit as asked: intersected again at the gate
    with pytest.raises(InvalidInput, match="one host pattern") as refused:
        support_runs.launch(db_session, project, made, junior, limit="dev1,prod1")
    assert refused.value.field == "limit"
    admin_run = support_runs.launch(db_session, project, made, limit="dev1,prod1")  # control
    unscoped = RunParams.of(admin_run.params, admin_run.id)
    assert (unscoped.host_scope, unscoped.effective_limit) == (None, "dev1,prod1")
