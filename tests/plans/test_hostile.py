"""Hostile cases of plans, each with its control: another project's plan, a viewer planning or
applying, the launcher approving, applying a run that is not a plan, an oversized diff."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services
from support.runs import NoQueue

from steward.access.actor import Actor
from steward.errors import InvalidState, NotFound, PermissionDenied
from steward.execution.ansible.callback.steward_events import unified_diff
from steward.plans import service
from steward.projects.models import Project, ProjectRole
from steward.repositories.checkout import Reach
from steward.runs import service as runs
from steward.runs.models import LaunchType, Run
from steward.runs.status import RunStatus
from steward.templates.launch import LaunchOverrides

pytestmark = pytest.mark.security


def _launching(session: Session, actor: Actor, project: Project) -> service.Launching:
    rights = support_runs.rights(session, actor, project)
    return service.Launching(rights, actor, services.cipher(), NoQueue())


def _reach() -> Reach:
    return Reach(cipher=services.cipher(), roots=(), guard=services.guard(), scratch=None)  # type: ignore[arg-type]


def _plan(session: Session, project: Project, actor: Actor, **fields: Any) -> Run:
    made = support_runs.template(session, project, plans_allowed=True, **fields)
    return service.launch_plan(
        session,
        _launching(session, actor, project),
        made.id,
        LaunchOverrides(),
        LaunchType.API,
        ttl_hours=24,
    )


def test_another_projects_plan_is_not_found(db_session: Session) -> None:
    mine = services.project(db_session, "mine")
    theirs = services.project(db_session, "theirs")
    plan = _plan(db_session, theirs, services.admin(db_session))
    with pytest.raises(NotFound):
        runs.get(db_session, mine, plan.id)  # what {project_id}/runs/{run_id}/… looks up
    assert runs.get(db_session, theirs, plan.id) is plan  # the control


def test_a_viewer_may_neither_plan_nor_apply(db_session: Session) -> None:
    project = services.project(db_session)
    viewer = support_runs.member(db_session, project, "vic", ProjectRole.VIEWER)
    operator = support_runs.member(db_session, project, "opal", ProjectRole.OPERATOR)
    with pytest.raises(PermissionDenied, match="run:launch"):
        _plan(db_session, project, viewer)
    plan = _plan(db_session, project, operator, name="ops")  # the control
    with pytest.raises(PermissionDenied, match="run:launch"):
        service.apply(db_session, _launching(db_session, viewer, project), plan, reach=_reach())
    # the control: the operator passes the permission and meets the plan's own state
    with pytest.raises(InvalidState, match="has not finished"):
        service.apply(db_session, _launching(db_session, operator, project), plan, reach=_reach())


def test_the_launcher_may_not_approve_but_may_reject(db_session: Session) -> None:
    project = services.project(db_session)
    operator = support_runs.member(db_session, project, "opal", ProjectRole.OPERATOR)
    plan = _plan(db_session, project, operator, plan_approval=True)
    plan.status = RunStatus.SUCCESSFUL
    rights = support_runs.rights(db_session, operator, project)
    with pytest.raises(PermissionDenied, match="separation of duties"):
        service.decide(db_session, rights, operator, plan, approve=True, comment="")
    decided = service.decide(db_session, rights, operator, plan, approve=False, comment="oops")
    assert decided.approval == "rejected"  # the control: withdrawing is theirs


def test_a_run_that_is_not_a_plan_is_not_applied(db_session: Session) -> None:
    project = services.project(db_session)
    admin = services.admin(db_session)
    made = support_runs.template(db_session, project, plans_allowed=True)
    normal = support_runs.launch(db_session, project, made, survey={})
    normal.status = RunStatus.SUCCESSFUL
    launching = _launching(db_session, admin, project)
    with pytest.raises(InvalidState, match="is a run, not a plan"):
        service.apply(db_session, launching, normal, reach=_reach())
    plan = _plan(db_session, project, admin, name="planned")
    assert service.plan_of(db_session, plan).run_id == plan.id  # the control


def test_an_oversized_diff_is_cut_and_says_so() -> None:
    big = {"before": "", "after": "x" * 100 + "\n" * 50_000, "after_header": "/etc/big"}
    text = unified_diff(big, 32 * 1024)
    assert len(text.encode()) <= 32 * 1024 + 40
    assert text.endswith("[diff cut at 32 KiB]\n")
    small = unified_diff({"before": "a\n", "after": "b\n"}, 32 * 1024)  # the control
    assert small == "--- before\n+++ after\n@@ -1 +1 @@\n-a\n+b\n"
