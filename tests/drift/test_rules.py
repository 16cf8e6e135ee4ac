"""The rules of drift below HTTP, on ``db_session``: a schedule of plans (saved, fired through
the firing code), drift found by a scheduled plan on a template that last ran cleanly, one
``drift_detected`` per change of the drift, cleared by a clean plan or a successful run, and
what a partial run, a person's plan or a broken baseline change (nothing). Runs end through
``runs.lifecycle.transition``, as a worker ends them; a plan's changes are written as
``execution/changes`` writes them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services
from support.runs import NoQueue
from support.schedules import create_below

from steward.audit.models import AuditRecord
from steward.db import utcnow
from steward.drift import read
from steward.drift.models import TemplateDrift
from steward.notifications import messages
from steward.notifications.models import Destination, Message, RunEventKind, Subscription
from steward.plans import service as plans
from steward.projects.models import Project
from steward.runs import lifecycle
from steward.runs.models import LaunchType, Run, RunChange, RunKind
from steward.runs.status import RunStatus
from steward.schedules import firing
from steward.schedules.models import Schedule
from steward.templates.launch import LaunchOverrides
from steward.templates.models import Template


def _end(session: Session, run: Run, status: RunStatus = RunStatus.SUCCESSFUL) -> Run:
    assert lifecycle.transition(session, run.id, RunStatus.RUNNING)
    assert lifecycle.transition(session, run.id, status)
    session.commit()
    session.refresh(run)
    return run


def _changes(session: Session, run: Run, *changes: tuple[str, str]) -> None:
    """``(host, diff)`` results of one task that would change."""
    for counter, (host, diff) in enumerate(changes, 1):
        session.add(
            RunChange(
                run_id=run.id, counter=counter, host=host, task="write the config",
                task_path="site.yml:4", occurrence=1, action="copy", outcome="change", diff=diff,
            )
        )  # fmt: skip
    session.flush()


class Story:
    """A project, a template that allows plans, a destination wanting drift_detected, and a
    schedule of plans fired through ``schedules.firing``."""

    def __init__(self, session: Session, project: Project | None = None) -> None:
        self.session = session
        self.project = project or services.project(session)
        self.template = support_runs.template(
            session, self.project, "site", plans_allowed=True, survey=[]
        )
        destination = Destination(
            project_id=self.project.id, name="ops", kind="webhook", config={"url": "http://x"}
        )
        session.add(destination)
        session.flush()
        session.add(
            Subscription(
                project_id=self.project.id,
                destination_id=destination.id,
                events=[RunEventKind.DRIFT_DETECTED.value, RunEventKind.APPROVAL_NEEDED.value],
            )
        )
        self.schedule = create_below(
            session,
            self.template,
            {"name": "nightly", "kind": "cron", "expression": "0 3 * * *", "plan": True},
        )

    def run(self, status: RunStatus = RunStatus.SUCCESSFUL, **body: Any) -> Run:
        run = support_runs.launch(self.session, self.project, self.template, **body)
        return _end(self.session, run, status)

    def fire(self) -> Run:
        """The schedule's occurrence as the scheduler fires it: the plan it launched."""
        schedule = self.session.get_one(Schedule, self.schedule.id)
        assert schedule.next_fire_at is not None
        todo = firing.Plan(
            schedule_id=schedule.id,
            due=schedule.next_fire_at,
            updated_at=schedule.updated_at,
            next_fire_at=schedule.next_fire_at + dt.timedelta(days=1),
            launch=True,
        )
        launched = firing.fire(self.session, services.cipher(), NoQueue(), [todo], utcnow())
        self.session.refresh(schedule)
        assert len(launched) == 1, (schedule.enabled, schedule.disabled_reason)
        (run_id,) = launched
        return self.session.get_one(Run, run_id)

    def planned(self, *changes: tuple[str, str], scheduled: bool = True) -> Run:
        run = self.fire() if scheduled else self.manual_plan()
        _changes(self.session, run, *changes)
        return _end(self.session, run)

    def manual_plan(self) -> Run:
        admin = services.admin(self.session)
        launching = plans.Launching(
            support_runs.rights(self.session, admin, self.project), admin, services.cipher(),
            NoQueue(),
        )  # fmt: skip
        return plans.launch_plan(
            self.session, launching, self.template.id, LaunchOverrides(), LaunchType.UI,
            ttl_hours=24,
        )  # fmt: skip

    def drift(self) -> TemplateDrift | None:
        self.session.expire_all()
        return self.session.get(TemplateDrift, self.template.id)

    def messages(self, event: RunEventKind = RunEventKind.DRIFT_DETECTED) -> int:
        return self.session.scalar(
            select(func.count()).select_from(Message).where(Message.event == event.value)
        ) or 0  # fmt: skip


@pytest.mark.both_databases
def test_a_scheduled_plan_finds_drift_and_tells_it_once_per_change(db_session: Session) -> None:
    story = Story(db_session)
    baseline = story.run()
    first = story.planned(("web1", "-v1\n+tampered\n"), ("web2", "-v1\n+tampered\n"))
    assert (first.kind, first.schedule_id) == (RunKind.PLAN, story.schedule.id)
    assert first.params["check_mode"] is True
    drift = story.drift()
    assert drift is not None
    assert drift.drifted
    assert (drift.plan_run_id, drift.baseline_run_id) == (first.id, baseline.id)
    assert (drift.host_count, drift.task_count) == (2, 1)
    assert story.messages() == 1
    fingerprint, detected = drift.fingerprint, drift.detected_at

    second = story.planned(("web2", "-v1\n+tampered\n"), ("web1", "-v1\n+tampered\n"))
    drift = story.drift()
    assert drift is not None
    assert (drift.fingerprint, drift.detected_at) == (fingerprint, detected)  # the same drift
    assert drift.plan_run_id == second.id  # the fresh plan to apply
    assert story.messages() == 1  # not told again

    story.planned(("web1", "-v1\n+tampered again\n"))  # the drift changed: told
    assert story.messages() == 2
    detect = db_session.scalars(
        select(AuditRecord.detail).where(AuditRecord.action == "drift:detect")
    ).all()
    assert len(detect) == 2
    assert f"found drift since run {baseline.id}: 2 hosts, 1 task" in detect[0]

    clean = story.planned()  # no change: cleared, and recorded
    drift = story.drift()
    assert drift is not None
    assert not drift.drifted
    assert (drift.cleared_by_run_id, drift.cleared_reason) == (
        clean.id, f"plan {clean.id} found no change",
    )  # fmt: skip
    cleared = db_session.scalars(
        select(AuditRecord).where(AuditRecord.action == "drift:clear")
    ).one()
    assert cleared.object_id == story.template.id


@pytest.mark.parametrize("last", ["failed", "check_mode", "clean"])
def test_drift_needs_a_last_run_that_finished_cleanly(db_session: Session, last: str) -> None:
    story = Story(db_session)
    if last == "failed":
        story.run(RunStatus.FAILED)
    elif last == "check_mode":
        story.run(RunStatus.SUCCESSFUL, check_mode=True)  # a check is no apply: none before it
    else:
        story.run()  # the control
    story.planned(("web1", "+x\n"))
    drift = story.drift()
    assert bool(drift and drift.drifted) is (last == "clean")


def test_a_persons_plan_with_changes_is_no_drift_but_a_clean_one_clears_it(
    db_session: Session,
) -> None:
    story = Story(db_session)
    story.run()
    story.planned(("web1", "+x\n"), scheduled=False)  # a change being reviewed
    assert story.drift() is None
    assert story.messages() == 0
    story.planned(("web1", "+x\n"))  # the control: the schedule's plan finds it
    assert story.drift().drifted  # type: ignore[union-attr]
    clean = story.planned(scheduled=False)
    drift = story.drift()
    assert drift is not None
    assert not drift.drifted
    assert drift.cleared_by_run_id == clean.id


def test_a_successful_run_clears_drift_but_a_limited_one_does_not(db_session: Session) -> None:
    story = Story(db_session)
    story.run()
    story.planned(("web1", "+x\n"))
    story.run(limit="web2")  # spoke for one host only
    assert story.drift().drifted  # type: ignore[union-attr]
    story.run(RunStatus.FAILED)  # a failure converged nothing
    assert story.drift().drifted  # type: ignore[union-attr]
    run = story.run()  # the control
    drift = story.drift()
    assert drift is not None
    assert not drift.drifted
    assert drift.cleared_reason == f"run {run.id} succeeded: it converged the hosts"


def test_an_older_plan_ending_late_changes_nothing(db_session: Session) -> None:
    story = Story(db_session)
    story.run()
    older = story.fire()
    newer = story.planned(("web1", "+x\n"))
    _end(db_session, older)  # it found no change, but the newer plan spoke since
    drift = story.drift()
    assert drift is not None
    assert drift.drifted
    assert drift.plan_run_id == newer.id


def test_a_schedule_of_plans_needs_a_template_that_allows_them(db_session: Session) -> None:
    project = services.project(db_session)
    plain = support_runs.template(db_session, project, "plain", survey=[])
    body = {"name": "nightly", "kind": "cron", "expression": "0 3 * * *", "plan": True}
    detail = services.refused(lambda: create_below(db_session, plain, body), "plan")
    assert "does not allow plans" in detail
    allowed = support_runs.template(db_session, project, "allowed", plans_allowed=True, survey=[])
    schedule = create_below(db_session, allowed, body)  # the control
    assert schedule.plan is True


def test_a_schedule_of_plans_is_disabled_with_the_reason_once_plans_are_refused(
    db_session: Session,
) -> None:
    story = Story(db_session)
    story.template.plans_allowed = False
    db_session.flush()
    schedule = db_session.get_one(Schedule, story.schedule.id)
    todo = firing.Plan(schedule.id, schedule.next_fire_at, schedule.updated_at, None, True)  # type: ignore[arg-type]
    assert firing.fire(db_session, services.cipher(), NoQueue(), [todo], utcnow()) == []
    db_session.refresh(schedule)
    assert not schedule.enabled
    assert schedule.disabled_reason.startswith("it runs plans, and template 'site' does not allow")


def test_a_plan_waiting_for_approval_is_told_and_drift_message_carries_summary_and_link(
    db_session: Session,
) -> None:
    story = Story(db_session)
    story.template.plan_approval = True
    story.run()
    plan = story.planned(("web1", "-v1\n+tampered\n"))
    assert story.messages(RunEventKind.APPROVAL_NEEDED) == 1
    message = db_session.scalars(
        select(Message).where(Message.event == RunEventKind.DRIFT_DETECTED.value)
    ).one()
    content = messages.for_plan(db_session, message, "http://steward.test")
    assert content["title"] == f"[p] site: plan #{plan.id} found drift"
    assert "Plan: 1 host changes, 1 task, 0 unknown" in content["text"]
    assert f"http://steward.test/projects/{story.project.id}/drift" in content["text"]
    waiting = db_session.scalars(
        select(Message).where(Message.event == RunEventKind.APPROVAL_NEEDED.value)
    ).one()
    assert "waits for an approval" in messages.for_plan(db_session, waiting, "http://x")["title"]


def test_the_reads_show_drift_and_whether_it_can_be_applied(db_session: Session) -> None:
    story = Story(db_session)
    story.run()
    plan = story.planned(("web1", "-v1\n+tampered\n"))
    admin = services.admin(db_session)
    rights = support_runs.rights(db_session, admin, story.project)
    now = utcnow()
    listed = read.project_drift(db_session, rights, now)
    assert [(t.template_name, t.hosts, t.plan_run_id) for t in listed.templates] == [
        ("site", ["web1"], plan.id)
    ]
    assert listed.templates[0].can_apply, listed.templates[0].apply_refusal
    assert [h.host for h in listed.hosts] == ["web1"]
    template = db_session.get_one(Template, story.template.id)
    one = read.template_drift(db_session, rights, template, now)
    assert one.state == "drift"
    assert one.tasks[0].hosts[0].diff == "-v1\n+tampered\n"
    on_host = read.host_drift(db_session, rights, "web1", now)
    assert [t.template_id for t in on_host.templates] == [template.id]
    assert read.host_drift(db_session, rights, "web2", now).templates == []  # the control
    later = now + dt.timedelta(hours=25)
    expired = read.template_drift(db_session, rights, template, later)
    assert not expired.can_apply
    assert "expired at" in expired.apply_refusal
