"""The launch gate during a freeze, below HTTP on ``db_session``: every scope refuses with the
window's name and end; an override needs freeze:override and a reason, and is kept, audited
and notified; a schedule skips its occurrence, a webhook's delivery is refused."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import freezes as support
from support import runs as support_runs
from support import services
from support.runs import NoQueue
from support.schedules import create_below
from support.webhooks import SECRET, github_headers

from steward.audit.models import AuditRecord
from steward.db import utcnow
from steward.errors import Frozen, InvalidInput, PermissionDenied
from steward.freezes import service as freezes
from steward.freezes.models import FreezeOverride, FreezeWindow
from steward.freezes.schemas import FreezeWindowUpdate
from steward.notifications import messages
from steward.notifications.models import Destination, Message, RunEventKind, Subscription
from steward.projects.models import Project, ProjectRole
from steward.runs import service as runs
from steward.runs.models import Run
from steward.schedules import firing
from steward.schedules.models import Schedule
from steward.templates.launch import LaunchOverrides
from steward.templates.models import Template
from steward.webhooks import receive
from steward.webhooks import service as webhooks
from steward.webhooks.models import DeliveryOutcome, WebhookAuth
from steward.webhooks.schemas import WebhookCreate


def _setup(session: Session) -> tuple[Project, Template]:
    project = services.project(session)
    return project, support_runs.template(session, project, "ship", survey=[])


def _runs(session: Session, template: Template) -> int:
    return len(session.scalars(select(Run.id).where(Run.template_id == template.id)).all())


@pytest.mark.parametrize("scope", ["instance", "project"])
def test_a_launch_during_a_freeze_is_refused_naming_the_window_and_its_end(
    db_session: Session, scope: str
) -> None:
    project, template = _setup(db_session)
    support.window(
        db_session,
        None if scope == "instance" else project,
        timezone="Europe/Berlin",
        starts_in=dt.timedelta(hours=1),  # Berlin's clock is ahead of UTC: it holds now
        lasts=dt.timedelta(hours=3),
    )
    with pytest.raises(Frozen) as refused:
        support.launch(db_session, project, template)
    assert refused.value.message.startswith("frozen: 'Year-end freeze' until 20")
    assert "+01:00" in refused.value.message or "+02:00" in refused.value.message
    assert "freeze_override_reason" in refused.value.message
    assert _runs(db_session, template) == 0


def test_another_projects_window_and_a_past_or_coming_one_do_not_freeze(
    db_session: Session,
) -> None:  # the control of the refusals above
    project, template = _setup(db_session)
    support.window(db_session, services.project(db_session, "other"))
    support.window(db_session, project, "next week", starts_in=dt.timedelta(days=7))
    run = support.launch(db_session, project, template)
    assert run.id is not None
    assert db_session.scalar(select(FreezeOverride)) is None


def test_an_override_needs_freeze_override_then_a_reason(db_session: Session) -> None:
    project, template = _setup(db_session)
    support.window(db_session, project)
    operator = support_runs.member(db_session, project, "olga", ProjectRole.OPERATOR)
    with pytest.raises(PermissionDenied, match="'freeze:override'"):
        support.launch(db_session, project, template, operator, reason="hotfix")
    with pytest.raises(InvalidInput) as blank:
        support.launch(db_session, project, template, reason="   ")
    assert blank.value.field == "freeze_override_reason"
    assert _runs(db_session, template) == 0


def test_an_override_with_a_reason_launches_audited_and_notified(db_session: Session) -> None:
    project, template = _setup(db_session)
    window = support.window(db_session, project)
    destination = Destination(
        project_id=project.id, name="ops", kind="webhook", config={"url": "http://x"}
    )
    db_session.add(destination)
    db_session.flush()
    db_session.add(
        Subscription(
            project_id=project.id,
            destination_id=destination.id,
            events=[RunEventKind.FREEZE_OVERRIDE.value],
        )
    )
    owner = support_runs.member(db_session, project, "owen", ProjectRole.OWNER)

    run = support.launch(db_session, project, template, owner, reason=" INC-4711 outage ")

    kept = db_session.scalars(select(FreezeOverride).where(FreezeOverride.run_id == run.id)).one()
    assert (kept.window_id, kept.window_name, kept.reason) == (
        window.id,
        "Year-end freeze",
        "INC-4711 outage",
    )
    record = db_session.scalars(
        select(AuditRecord).where(AuditRecord.action == "freeze:override")
    ).one()
    assert (record.object_id, record.actor) == (run.id, "owen")
    assert "launched during freeze 'Year-end freeze'" in record.detail
    assert "INC-4711 outage" in record.detail
    message = db_session.scalars(select(Message).where(Message.run_id == run.id)).one()
    assert message.event == RunEventKind.FREEZE_OVERRIDE
    content = messages.for_run(db_session, message, "http://steward", utcnow())
    assert content["freeze_override"]["reason"] == "INC-4711 outage"
    assert "was launched during freeze 'Year-end freeze'" in content["title"]


def test_a_schedule_skips_an_occurrence_during_a_freeze_and_stays_enabled(
    db_session: Session,
) -> None:
    _project, template = _setup(db_session)
    schedule = create_below(
        db_session, template, {"name": "nightly", "kind": "cron", "expression": "0 3 * * *"}
    )

    def fire() -> list[int]:
        row = db_session.get_one(Schedule, schedule.id)
        assert row.next_fire_at is not None
        todo = firing.Plan(
            schedule_id=row.id,
            due=row.next_fire_at,
            updated_at=row.updated_at,
            next_fire_at=row.next_fire_at + dt.timedelta(days=1),
            launch=True,
        )
        return firing.fire(db_session, services.cipher(), NoQueue(), [todo], utcnow())

    window = support.window(db_session, None)
    assert fire() == []
    db_session.refresh(schedule)
    assert schedule.enabled
    assert schedule.last_skipped_at is not None
    assert schedule.last_skipped_reason.startswith("frozen: 'Year-end freeze' until ")
    record = db_session.scalars(
        select(AuditRecord).where(AuditRecord.action == "schedule:skip")
    ).one()
    assert "skipped: frozen: 'Year-end freeze'" in record.detail

    db_session.delete(window)  # the control: the next occurrence launches
    db_session.flush()
    assert len(fire()) == 1


def test_a_webhook_delivery_during_a_freeze_is_refused_with_the_reason(
    db_session: Session,
) -> None:
    project, template = _setup(db_session)
    keys = services.cipher()
    secret = services.secret_key(db_session, keys, project, "hook-secret", SECRET)
    hook = webhooks.create(
        db_session,
        project,
        template,
        WebhookCreate(name="hook", auth=WebhookAuth.GITHUB, secret_key_id=secret),
        actor=services.admin(db_session),
    )
    window = support.window(db_session, project)

    def deliver() -> receive.Received:
        body = json.dumps({"ref": "refs/heads/main"}).encode()
        headers = {k.lower(): v for k, v in github_headers(body).items()}
        inbound = receive.Inbound(body, too_large=False, headers=headers, source_ip="127.0.0.1")
        return receive.deliver(db_session, keys, NoQueue(), hook, inbound)

    refused = deliver()
    assert (refused.status, refused.outcome, refused.run_id) == (409, DeliveryOutcome.FAILED, None)
    assert refused.reason.startswith("the launch was refused: frozen: 'Year-end freeze' until")
    assert hook.enabled  # a freeze refuses the delivery, it does not stop the webhook

    db_session.delete(db_session.merge(window))  # the control
    db_session.commit()
    assert deliver().outcome == DeliveryOutcome.LAUNCHED


def test_an_update_is_checked_as_a_whole_and_audited(db_session: Session) -> None:
    project, template = _setup(db_session)
    window = support.window(db_session, project)
    admin = services.admin(db_session)
    later = window.starts_local + dt.timedelta(days=30)
    with pytest.raises(InvalidInput) as refused:  # the end before the new start
        freezes.update(db_session, admin, window, FreezeWindowUpdate(starts_local=later), utcnow())
    assert refused.value.field == "ends_local"
    db_session.rollback()
    window = db_session.get_one(FreezeWindow, window.id)
    moved = FreezeWindowUpdate(starts_local=later, ends_local=later + dt.timedelta(hours=2))
    freezes.update(db_session, admin, window, moved, utcnow())
    assert support.launch(db_session, project, template).id  # the freeze moved away
    record = db_session.scalars(
        select(AuditRecord).where(AuditRecord.action == "freeze:update")
    ).one()
    assert set(record.changes) == {"starts_local", "ends_local"}


def test_a_relaunch_during_a_freeze_is_refused_unless_overridden_with_a_reason(
    db_session: Session,
) -> None:
    project, template = _setup(db_session)
    first = support.launch(db_session, project, template)  # before the window: the control
    window = support.window(db_session, project)
    admin = services.admin(db_session)

    def relaunch(reason: str | None) -> Run:
        return runs.relaunch(
            db_session,
            rights=support_runs.rights(db_session, admin, project),
            actor=admin,
            previous=first,
            overrides=LaunchOverrides(),
            failed_only=False,
            cipher=services.cipher(),
            queue=NoQueue(),
            freeze_override_reason=reason,
        )

    with pytest.raises(Frozen):
        relaunch(None)
    with pytest.raises(InvalidInput) as blank:
        relaunch("  ")
    assert blank.value.field == "freeze_override_reason"
    assert _runs(db_session, template) == 1

    again = relaunch("INC-4712 rollback")

    assert again.relaunch_of_id == first.id
    kept = db_session.scalars(select(FreezeOverride).where(FreezeOverride.run_id == again.id)).one()
    assert (kept.window_id, kept.reason) == (window.id, "INC-4712 rollback")


@pytest.mark.parametrize("scope", ["instance", "project"])
def test_a_labelled_window_freezes_only_the_templates_carrying_one_of_its_labels(
    db_session: Session, scope: str
) -> None:
    project = services.project(db_session)
    db = support_runs.template(db_session, project, "db", survey=[], labels=["db", "prod"])
    web = support_runs.template(db_session, project, "web", survey=[], labels=["web"])
    bare = support_runs.template(db_session, project, "bare", survey=[])
    support.window(db_session, None if scope == "instance" else project, labels=["prod", "dmz"])
    with pytest.raises(Frozen) as refused:
        support.launch(db_session, project, db)
    assert refused.value.message.startswith("frozen: 'Year-end freeze' until 20")
    assert support.launch(db_session, project, web).id  # the controls: no label shared
    assert support.launch(db_session, project, bare).id
    assert [w.name for w in freezes.meeting(db_session, project.id, ["web"])] == []
    assert [w.name for w in freezes.meeting(db_session, project.id, ["db"])] == []
    assert [w.name for w in freezes.meeting(db_session, project.id, ["prod"])] == [
        "Year-end freeze"
    ]


def test_a_window_without_labels_freezes_labelled_templates_too(db_session: Session) -> None:
    project = services.project(db_session)
    template = support_runs.template(db_session, project, "db", survey=[], labels=["db"])
    support.window(db_session, project, labels=[])
    with pytest.raises(Frozen):
        support.launch(db_session, project, template)


def test_labels_changed_later_take_effect_at_the_next_launch(db_session: Session) -> None:
    project, template = _setup(db_session)
    window = support.window(db_session, project, labels=["prod"])
    assert support.launch(db_session, project, template).id  # not labelled yet
    template.labels = ["prod"]
    db_session.commit()
    with pytest.raises(Frozen):
        support.launch(db_session, project, template)
    db_session.rollback()
    admin = services.admin(db_session)
    window = db_session.get_one(FreezeWindow, window.id)
    freezes.update(db_session, admin, window, FreezeWindowUpdate(labels=["dmz", "db"]), utcnow())
    assert window.labels == ["db", "dmz"]  # kept sorted
    assert support.launch(db_session, project, template).id  # the window's labels moved away
    record = db_session.scalars(
        select(AuditRecord).where(AuditRecord.action == "freeze:update")
    ).one()
    assert record.changes["labels"] == [["prod"], ["db", "dmz"]]
