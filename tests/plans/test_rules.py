"""The rules of plans below HTTP, on ``db_session``: what a plan launch forces, what refuses an
apply whatever changed around it, who may approve, and how changes and unknowns are read from
a run's events (pure)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services
from support.runs import NoQueue

from steward.audit.models import AuditRecord
from steward.db import utcnow
from steward.errors import InvalidState, PermissionDenied
from steward.execution import changes
from steward.execution.changes import Event
from steward.plans import inbox, service
from steward.projects.models import ProjectRole
from steward.runs.models import LaunchType, Plan, Run, RunKind
from steward.runs.status import RunStatus
from steward.templates.launch import LaunchOverrides


def _plan(session: Session, *, approval: bool = False, who: Any = None) -> tuple[Run, Any]:
    project = services.project(session)
    made = support_runs.template(session, project, plans_allowed=True, plan_approval=approval)
    actor = who or services.admin(session)
    launching = service.Launching(
        support_runs.rights(session, actor, project), actor, services.cipher(), NoQueue()
    )
    run = service.launch_plan(
        session, launching, made.id, LaunchOverrides(), LaunchType.API, ttl_hours=24
    )
    return run, project


def test_a_plan_runs_in_check_and_diff_mode_with_its_binding(db_session: Session) -> None:
    run, _ = _plan(db_session)
    assert run.kind == RunKind.PLAN
    assert run.params["check_mode"] is True
    assert run.params["diff_mode"] is True
    plan = db_session.get_one(Plan, run.id)
    assert set(plan.binding) == {"template", "environment", "keys", "values"}
    assert plan.expires_at - run.created_at == dt.timedelta(hours=24)


def test_a_template_that_does_not_allow_plans_refuses_one(db_session: Session) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project)  # plans_allowed off: the default
    actor = services.admin(db_session)
    launching = service.Launching(
        support_runs.rights(db_session, actor, project), actor, services.cipher(), NoQueue()
    )
    with pytest.raises(InvalidState, match="does not allow plans"):
        service.launch_plan(
            db_session, launching, made.id, LaunchOverrides(), LaunchType.API, ttl_hours=24
        )


def test_standing_refusals_name_the_cause(db_session: Session) -> None:
    run, _ = _plan(db_session, approval=True)
    plan = db_session.get_one(Plan, run.id)
    now = utcnow()
    assert "has not finished" in service.standing_refusal(run, plan, now)
    run.status = RunStatus.FAILED
    assert service.standing_refusal(run, plan, now).endswith("did not succeed (failed): plan again")
    run.status = RunStatus.SUCCESSFUL
    assert "needs an approval" in service.standing_refusal(run, plan, now)
    plan.approval = "approved"
    assert service.standing_refusal(run, plan, now) == ""  # the control
    later = plan.expires_at + dt.timedelta(seconds=1)
    assert "expired at" in service.standing_refusal(run, plan, later)
    plan.apply_run_id = run.id
    assert "applied already" in service.standing_refusal(run, plan, now)


def test_the_launcher_may_not_approve_their_own_plan_admins_included(db_session: Session) -> None:
    run, project = _plan(db_session, approval=True)
    run.status = RunStatus.SUCCESSFUL
    admin = services.admin(db_session)
    with pytest.raises(PermissionDenied, match="someone other than its launcher"):
        service.decide(
            db_session, support_runs.rights(db_session, admin, project), admin, run,
            approve=True, comment="mine",
        )  # fmt: skip
    other = support_runs.member(db_session, project, "olga", ProjectRole.OPERATOR)
    plan = service.decide(
        db_session, support_runs.rights(db_session, other, project), other, run,
        approve=True, comment="looked at the diff",
    )  # fmt: skip
    assert plan.approval == "approved"
    assert plan.approved_by_id == other.user.id
    record = db_session.scalars(
        select(AuditRecord).where(AuditRecord.action == "plan:approve")
    ).one()
    assert "looked at the diff" in record.detail
    with pytest.raises(InvalidState, match="approved already"):
        service.decide(
            db_session, support_runs.rights(db_session, other, project), other, run,
            approve=False, comment="",
        )  # fmt: skip


def test_a_viewer_may_not_approve(db_session: Session) -> None:
    run, project = _plan(db_session, approval=True)
    run.status = RunStatus.SUCCESSFUL
    viewer = support_runs.member(db_session, project, "vera", ProjectRole.VIEWER)
    with pytest.raises(PermissionDenied, match="plan:approve"):
        service.decide(
            db_session, support_runs.rights(db_session, viewer, project), viewer, run,
            approve=True, comment="",
        )  # fmt: skip


def _event(counter: int, kind: str, task: str, **data: Any) -> Event:
    changed = bool(data.pop("changed", False))
    return Event(counter, kind, "h1", task, "copy", changed, {"task_uuid": task, **data})


def test_unknowns_propagate_through_registered_variables_and_applies_flag_unplanned() -> None:
    events = [
        _event(1, "playbook_on_task_start", "probe", register=["probe"], refs=["echo"]),
        _event(2, "runner_on_skipped", "probe", task_path="site.yml:3",
               skip_msg="Command would have run if not in check mode"),
        _event(3, "playbook_on_task_start", "use", register=["used"], refs=["probe", "rc"]),
        _event(4, "runner_on_ok", "use", task_path="site.yml:6", changed=True, plan_diff="+x"),
        _event(5, "playbook_on_task_start", "later", register=[], refs=["used"]),
        _event(6, "runner_on_skipped", "later", task_path="site.yml:9", skip_msg="when"),
        _event(7, "playbook_on_task_start", "file", register=[], refs=["dest"]),
        _event(8, "runner_on_ok", "file", task_path="site.yml:12", changed=True, plan_diff="+y"),
    ]  # fmt: skip
    found = changes.rows(1, events, plan=True)
    assert [(r["task"], r["outcome"]) for r in found] == [
        ("probe", "unknown"), ("use", "unknown"), ("later", "unknown"), ("file", "change"),
    ]  # fmt: skip
    assert "'used', registered by task 'use'" in found[2]["reason"]
    assert found[3]["diff"] == "+y"
    planned = {(r["task_path"], r["host"], r["occurrence"]) for r in found}
    applied = [
        _event(1, "runner_on_ok", "file", task_path="site.yml:12", changed=True),
        _event(2, "runner_on_ok", "other", task_path="site.yml:15", changed=True),
        _event(3, "runner_on_ok", "file", task_path="site.yml:12", changed=True),  # again
    ]
    flagged = changes.rows(2, applied, plan=False, planned=planned)
    assert [(r["task"], r["occurrence"], r["unplanned"]) for r in flagged] == [
        ("file", 1, False), ("other", 1, True), ("file", 2, True),
    ]  # fmt: skip


def test_a_plans_diffs_are_bounded_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(changes, "PLAN_DIFF_RUN_MAX", 10)
    events = [
        _event(1, "runner_on_ok", "a", task_path="a:1", changed=True, plan_diff="+123456"),
        _event(2, "runner_on_ok", "b", task_path="b:1", changed=True, plan_diff="+abcdefgh"),
        _event(3, "runner_on_ok", "c", task_path="c:1", changed=True, plan_diff="+z"),
    ]
    found = changes.rows(1, events, plan=True)
    assert found[0]["diff"] == "+123456"  # under the bound: whole (the control)
    assert found[1]["diff"].startswith("+ab\n[diff cut: the plan's diffs reached")
    assert found[2]["diff"] == changes.RUN_CUT  # nothing left of the plan's bound


def test_the_inbox_lists_a_waiting_plan_to_others_only(db_session: Session) -> None:
    project = services.project(db_session)
    opal = support_runs.member(db_session, project, "opal", ProjectRole.OPERATOR)
    olga = support_runs.member(db_session, project, "olga", ProjectRole.OPERATOR)
    vera = support_runs.member(db_session, project, "vera", ProjectRole.VIEWER)
    run, _ = _plan_in(db_session, project, opal)
    run.status, run.finished_at = RunStatus.SUCCESSFUL, utcnow()
    db_session.flush()
    now = utcnow()
    items, total = inbox.waiting(db_session, olga, now, limit=10, offset=0)
    assert (total, [i.run_id for i in items]) == (1, [run.id])
    assert items[0].summary == "0 hosts change, 0 tasks, 0 unknown"
    assert inbox.waiting(db_session, opal, now, limit=10, offset=0)[1] == 0  # its launcher
    assert inbox.waiting(db_session, vera, now, limit=10, offset=0)[1] == 0  # no plan:approve
    later = db_session.get_one(Plan, run.id).expires_at
    assert inbox.waiting(db_session, olga, later, limit=10, offset=0)[1] == 0  # expired


def _plan_in(session: Session, project: Any, actor: Any) -> tuple[Run, Any]:
    made = support_runs.template(session, project, plans_allowed=True, plan_approval=True)
    launching = service.Launching(
        support_runs.rights(session, actor, project), actor, services.cipher(), NoQueue()
    )
    run = service.launch_plan(
        session, launching, made.id, LaunchOverrides(), LaunchType.API, ttl_hours=24
    )
    return run, project
