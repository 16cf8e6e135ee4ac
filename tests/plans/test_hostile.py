"""Hostile cases of plans, each with its control: another project's plan (and its tasks' pages),
a page beyond its bound, a viewer planning or
applying, the launcher approving, applying a run that is not a plan, an oversized diff; drift:
another project's, a template not granted, a viewer's "apply to fix"."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services
from support.builders import assert_problem, inserted_run, make_project
from support.runs import NoQueue
from support.schedules import create_below

from steward.access.actor import Actor
from steward.bounds import PLAN_HOSTS_PAGE_MAX, PLAN_TASKS_PAGE_MAX
from steward.db import utcnow
from steward.drift import read as drift_read
from steward.errors import InvalidState, NotFound, PermissionDenied
from steward.execution.ansible.callback.steward_events import unified_diff
from steward.grants.models import TemplateGrant
from steward.plans import read, service
from steward.projects.models import Project, ProjectMember, ProjectRole
from steward.repositories.checkout import Reach
from steward.runs import lifecycle
from steward.runs import service as runs
from steward.runs.models import LaunchType, Plan, Run, RunChange, RunKind
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


def test_another_plans_task_is_not_found_through_mine(db_session: Session) -> None:
    admin = services.admin(db_session)
    mine = _plan(db_session, services.project(db_session, "mine"), admin)
    theirs = _plan(db_session, services.project(db_session, "theirs"), admin)
    db_session.add(
        RunChange(run_id=theirs.id, counter=7, host="db1", task="secret", task_path="s.yml:1",
                  occurrence=1, action="copy", outcome="change", diff="+their secret\n")
    )  # fmt: skip
    db_session.flush()
    with pytest.raises(NotFound, match="no task 7"):
        read.task_hosts(db_session, mine, 7, None, 50)
    assert read.task_page(db_session, mine, None, 50).items == []
    # the control: their plan answers with its diff
    assert read.task_hosts(db_session, theirs, 7, None, 50).items[0].diff == "+their secret\n"


def test_task_pages_of_another_projects_plan_and_beyond_their_bound(
    module_client: TestClient,
) -> None:
    client = module_client
    mine, theirs = make_project(client, "pages-mine"), make_project(client, "pages-theirs")
    with client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        plan = inserted_run(theirs, None, RunStatus.SUCCESSFUL, kind=RunKind.PLAN)
        session.add(plan)
        session.flush()
        session.add(Plan(run_id=plan.id, expires_at=utcnow() + dt.timedelta(hours=1)))
        session.add(
            RunChange(run_id=plan.id, counter=3, host="db1", task="t", task_path="s.yml:1",
                      occurrence=1, action="copy", outcome="change", diff="+x\n")
        )  # fmt: skip
        session.commit()
        plan_id = plan.id
    tasks, hosts = f"runs/{plan_id}/plan/tasks", f"runs/{plan_id}/plan/tasks/3/hosts"
    for path in (tasks, hosts):
        assert_problem(client.get(f"/api/v1/projects/{mine}/{path}"), 404, "run")
        assert client.get(f"/api/v1/projects/{theirs}/{path}").status_code == 200  # control
    for path, bound in ((tasks, PLAN_TASKS_PAGE_MAX), (hosts, PLAN_HOSTS_PAGE_MAX)):
        url = f"/api/v1/projects/{theirs}/{path}"
        assert_problem(client.get(url, params={"limit": bound + 1}), 422, "limit")
        assert client.get(url, params={"limit": bound}).status_code == 200  # the control


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


def _drifted(session: Session, project: Project, name: str = "site") -> Run:
    """A template of ``project`` in drift: a clean run, then a scheduled plan that found a
    change on web1 (``drift.state``, as the worker's final transition runs it)."""
    made = support_runs.template(session, project, name, plans_allowed=True, survey=[])
    baseline = support_runs.launch(session, project, made)
    for status in (RunStatus.RUNNING, RunStatus.SUCCESSFUL):
        lifecycle.transition(session, baseline.id, status)
    admin = services.admin(session)
    request = runs.Launch(
        support_runs.rights(session, admin, project),
        admin,
        made.id,
        LaunchOverrides(),
        runs.Trigger(LaunchType.SCHEDULE),
    )
    plan = service.plan(session, request, cipher=services.cipher(), queue=NoQueue(), ttl_hours=24)
    plan.schedule_id = _schedule(session, made)
    session.add(
        RunChange(run_id=plan.id, counter=1, host="web1", task="t", task_path="site.yml:4",
                  occurrence=1, action="copy", outcome="change", diff="+x\n")
    )  # fmt: skip
    session.flush()
    for status in (RunStatus.RUNNING, RunStatus.SUCCESSFUL):
        lifecycle.transition(session, plan.id, status)
    session.commit()
    return plan


def _schedule(session: Session, template: Any) -> int:
    body = {
        "name": f"nightly-{template.id}",
        "kind": "cron",
        "expression": "0 3 * * *",
        "plan": True,
    }
    return create_below(session, template, body).id


def test_another_projects_drift_is_not_visible(db_session: Session) -> None:
    mine = services.project(db_session, "mine")
    theirs = services.project(db_session, "theirs")
    _drifted(db_session, theirs)
    admin = services.admin(db_session)
    now = utcnow()
    assert (
        drift_read.project_drift(
            db_session, support_runs.rights(db_session, admin, mine), now
        ).templates
        == []
    )
    assert (
        drift_read.host_drift(
            db_session, support_runs.rights(db_session, admin, mine), "web1", now
        ).templates
        == []
    )
    seen = drift_read.project_drift(db_session, support_runs.rights(db_session, admin, theirs), now)
    assert [t.template_name for t in seen.templates] == ["site"]  # the control


def test_a_grant_holder_sees_only_the_drift_of_the_template_granted(db_session: Session) -> None:
    project = services.project(db_session)
    _drifted(db_session, project, "hidden")
    granted = _drifted(db_session, project, "granted")
    guest = support_runs.member(db_session, project, "gus", ProjectRole.VIEWER)
    db_session.execute(delete(ProjectMember).where(ProjectMember.user_id == guest.user.id))
    db_session.add(
        TemplateGrant(template_id=granted.template_id, user_id=guest.user.id, permission="view")
    )
    db_session.flush()
    rights = support_runs.rights(db_session, guest, project)
    seen = drift_read.project_drift(db_session, rights, utcnow())
    assert [t.template_name for t in seen.templates] == ["granted"]
    assert [h.templates[0].template_name for h in seen.hosts] == ["granted"]
    admin_rights = support_runs.rights(db_session, services.admin(db_session), project)
    both = drift_read.project_drift(db_session, admin_rights, utcnow())  # the control
    assert [t.template_name for t in both.templates] == ["granted", "hidden"]


def test_a_viewer_sees_drift_but_may_not_apply_it(db_session: Session) -> None:
    project = services.project(db_session)
    _drifted(db_session, project)
    viewer = support_runs.member(db_session, project, "vic", ProjectRole.VIEWER)
    operator = support_runs.member(db_session, project, "opal", ProjectRole.OPERATOR)
    now = utcnow()
    (seen,) = drift_read.project_drift(
        db_session, support_runs.rights(db_session, viewer, project), now
    ).templates
    assert not seen.can_apply
    assert "run:launch" in seen.apply_refusal
    (ops,) = drift_read.project_drift(
        db_session, support_runs.rights(db_session, operator, project), now
    ).templates
    assert ops.can_apply, ops.apply_refusal  # the control
