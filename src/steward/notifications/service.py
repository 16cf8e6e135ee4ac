"""Destinations and subscriptions of a project, the test message, and the message log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import Action, ProjectAccess
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.crypto import KeyCipher
from steward.db import paged_rows
from steward.errors import InvalidInput
from steward.keys import service as keys
from steward.keys.models import Key, KeyKind
from steward.notifications import messages
from steward.notifications.models import (
    Attempt,
    Destination,
    DestinationKind,
    Message,
    RunEventKind,
    Subscription,
)
from steward.notifications.schemas import (
    CONFIGS,
    DestinationCreate,
    DestinationUpdate,
    SmtpSecurity,
    SubscriptionCreate,
    SubscriptionRead,
    SubscriptionScope,
    SubscriptionUpdate,
)
from steward.outbound import network
from steward.projects import scoped
from steward.projects.models import Project
from steward.schedules.models import Schedule
from steward.templates.models import Template

KEY_KINDS: dict[DestinationKind, frozenset[KeyKind]] = {
    DestinationKind.EMAIL: frozenset({KeyKind.LOGIN_PASSWORD, KeyKind.SECRET}),
    DestinationKind.SLACK: frozenset({KeyKind.SECRET}),
    DestinationKind.TEAMS: frozenset({KeyKind.SECRET}),
    DestinationKind.WEBHOOK: frozenset({KeyKind.SECRET}),
}
KEY_NEEDED: dict[DestinationKind, str] = {
    DestinationKind.SLACK: "the incoming-webhook URL",
    DestinationKind.TEAMS: "the incoming-webhook URL",
    DestinationKind.WEBHOOK: "the HMAC secret that signs each request",
}
AUDITED_FIELDS = ("name", "description", "kind", "config", "enabled")


# --- destinations ---------------------------------------------------------------------------


def _fields(destination: Destination) -> dict[str, Any]:
    """Its settings, the key by name: the secret itself is never in the trail."""
    key = destination.secret_key_name
    return {
        **audit.snapshot(destination, AUDITED_FIELDS),
        "secret_key": f"key '{key}'" if key is not None else None,
    }


def list_destinations(
    session: Session, project: Project, *, limit: int, offset: int
) -> tuple[list[Destination], int]:
    return scoped.list_in_project(session, Destination, project, limit=limit, offset=offset)


def _config(kind: DestinationKind, config: dict[str, Any]) -> dict[str, Any]:
    """``config`` checked against the model of ``kind`` (a PATCH body carries it untyped)."""
    try:
        parsed = TypeAdapter(CONFIGS[kind]).validate_python(config)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        raise InvalidInput(f"config.{where}" if where else "config", error["msg"]) from exc
    dumped: dict[str, Any] = parsed.model_dump(mode="json")
    return dumped


def _check_reachable(kind: DestinationKind, config: dict[str, Any], guard: network.Guard) -> None:
    """An SMTP host or webhook URL the guard refuses is refused now (and at every send)."""
    if kind is DestinationKind.EMAIL:
        problem = guard.check_at_save(config["host"], int(config["port"]))
        if problem:
            raise InvalidInput("config.host", problem)
    if kind is DestinationKind.WEBHOOK:
        url = network.parse_url(config["url"])
        problem = guard.check_at_save(url.host, url.port)
        if problem:
            raise InvalidInput("config.url", problem)


def _key(
    session: Session,
    cipher: KeyCipher,
    project: Project,
    kind: DestinationKind,
    config: dict[str, Any],
    key_id: int | None,
    guard: network.Guard,
) -> Key | None:
    """The destination's key: of this project and of a kind holding one secret; for Slack and
    Teams its value must be an http(s) URL the guard lets the server reach."""
    if key_id is None:
        if kind in KEY_NEEDED:
            raise InvalidInput(
                "secret_key_id", f"a {kind} destination needs a key holding {KEY_NEEDED[kind]}"
            )
        return None
    key = session.scalar(select(Key).where(Key.id == key_id, Key.project_id == project.id))
    if key is None:
        raise InvalidInput("secret_key_id", f"key {key_id} is not in project '{project.name}'")
    allowed = KEY_KINDS[kind]
    if key.kind not in allowed:
        kinds = " or ".join(sorted(allowed))
        raise InvalidInput(
            "secret_key_id", f"key '{key.name}' is of kind '{key.kind}'; use a {kinds} key"
        )
    if kind is DestinationKind.EMAIL and config["security"] == SmtpSecurity.NONE:
        raise InvalidInput(
            "config.security",
            "'none' would send the password in clear; use starttls or tls, or no key",
        )
    if kind in (DestinationKind.SLACK, DestinationKind.TEAMS):
        value = keys.reveal(session, cipher, key.id, project.id).secret
        try:
            url = network.parse_url(value)
        except network.Refused as exc:
            raise InvalidInput(
                "secret_key_id", f"key '{key.name}' must hold the incoming-webhook URL: {exc}"
            ) from exc
        problem = guard.check_at_save(url.host, url.port)
        if problem:
            raise InvalidInput("secret_key_id", f"key '{key.name}' holds a refused URL: {problem}")
    return key


def create_destination(
    session: Session,
    cipher: KeyCipher,
    guard: network.Guard,
    project: Project,
    body: DestinationCreate,
    *,
    actor: Actor,
) -> Destination:
    scoped.check_name_free(session, Destination, project, body.name, "destination")
    kind = DestinationKind(body.kind)
    config = body.config.model_dump(mode="json")
    _check_reachable(kind, config, guard)
    key = _key(session, cipher, project, kind, config, body.secret_key_id, guard)
    destination = Destination(
        project_id=project.id,
        name=body.name,
        description=body.description,
        kind=kind,
        config=config,
        secret_key=key,
        enabled=body.enabled,
    )
    return audit.commit_created(
        session, actor, AuditAction.DESTINATION_CREATE, destination, _fields
    )


def update_destination(
    session: Session,
    cipher: KeyCipher,
    guard: network.Guard,
    project: Project,
    destination: Destination,
    body: DestinationUpdate,
    *,
    actor: Actor,
) -> Destination:
    before = _fields(destination)
    changes = scoped.changes_of(session, project, destination, body, "destination")
    kind = DestinationKind(destination.kind)
    config = _config(kind, changes["config"]) if "config" in changes else dict(destination.config)
    key_id = changes.get("secret_key_id", destination.secret_key_id)
    _check_reachable(kind, config, guard)
    key = _key(session, cipher, project, kind, config, key_id, guard)
    for field in ("name", "description", "enabled"):
        if field in changes:
            setattr(destination, field, changes[field])
    destination.config = config
    destination.secret_key = key
    session.flush()
    return audit.commit_updated(
        session, actor, AuditAction.DESTINATION_UPDATE, destination, before, _fields
    )


def delete_destination(session: Session, destination: Destination, *, actor: Actor) -> None:
    """Its subscriptions and messages go with it (recorded in the audit record's detail)."""
    count = session.scalar(
        select(func.count()).where(Subscription.destination_id == destination.id)
    )
    detail = f"with {count} subscription(s)" if count else ""
    audit.commit_deleted(
        session, actor, AuditAction.DESTINATION_DELETE, destination, _fields, detail=detail
    )


def send_test(
    session: Session, project: Project, destination: Destination, base_url: str, *, actor: Actor
) -> Message:
    """Queue a test message; the notifier delivers it like any other (never this request)."""
    content = messages.for_test(project, destination.name, actor.label, base_url)
    message = Message(
        project_id=project.id,
        destination_id=destination.id,
        run_id=None,
        event=messages.TEST_EVENT,
        content=content,
    )
    session.add(message)
    session.flush()
    audit.record_change(
        session, actor, AuditAction.DESTINATION_TEST, destination, detail=f"message {message.id}"
    )
    session.commit()
    return message


def list_messages(
    session: Session, destination: Destination, *, before_id: int | None, limit: int
) -> tuple[list[tuple[Message, list[Attempt]]], int | None]:
    """Newest first, each with its attempts (oldest first): two queries a page."""
    query = select(Message).where(Message.destination_id == destination.id)
    if before_id is not None:
        query = query.where(Message.id < before_id)
    rows = list(session.scalars(query.order_by(Message.id.desc()).limit(limit + 1)))
    page = rows[:limit]
    attempts: dict[int, list[Attempt]] = {m.id: [] for m in page}
    if page:
        for attempt in session.scalars(
            select(Attempt).where(Attempt.message_id.in_(list(attempts))).order_by(Attempt.id)
        ):
            attempts[attempt.message_id].append(attempt)
    next_before = page[-1].id if len(rows) > limit else None
    return [(m, attempts[m.id]) for m in page], next_before


# --- subscriptions --------------------------------------------------------------------------

SubscriptionRow = tuple[Subscription, str, str, str | None, str | None]


def _subscription_query() -> Any:
    return (
        select(Subscription, Destination.name, Destination.kind, Template.name, Schedule.name)
        .join(Destination, Destination.id == Subscription.destination_id)
        .outerjoin(Template, Template.id == Subscription.template_id)
        .outerjoin(Schedule, Schedule.id == Subscription.schedule_id)
    )


def read(row: SubscriptionRow) -> SubscriptionRead:
    sub, destination_name, destination_kind, template_name, schedule_name = row
    scope = (
        SubscriptionScope.SCHEDULE
        if sub.schedule_id is not None
        else SubscriptionScope.TEMPLATE
        if sub.template_id is not None
        else SubscriptionScope.PROJECT
    )
    return SubscriptionRead(
        id=sub.id,
        project_id=sub.project_id,
        scope=scope,
        destination_id=sub.destination_id,
        destination_name=destination_name,
        destination_kind=DestinationKind(destination_kind),
        template_id=sub.template_id,
        template_name=template_name,
        schedule_id=sub.schedule_id,
        schedule_name=schedule_name,
        events=list(known_events(sub.events)),
        long_running_minutes=sub.long_running_minutes,
        host_quiet_minutes=sub.host_quiet_minutes,
        created_at=sub.created_at,
    )


def known_events(events: Sequence[Any]) -> list[RunEventKind]:
    """The stored event names as kinds, in the order of ``RunEventKind``."""
    known = {e.value for e in RunEventKind}
    return [RunEventKind(e) for e in events if e in known]


def list_subscriptions(
    session: Session,
    project: Project,
    *,
    template_id: int | None = None,
    limit: int,
    offset: int,
) -> tuple[list[SubscriptionRead], int]:
    """The project's subscriptions, oldest first; with ``template_id``, those that apply to
    the template's runs: its own, its schedules' and the project-wide ones."""
    where: list[ColumnElement[bool]] = [Subscription.project_id == project.id]
    if template_id is not None:
        of_schedules = select(Schedule.id).where(Schedule.template_id == template_id)
        where.append(
            or_(
                Subscription.template_id == template_id,
                Subscription.schedule_id.in_(of_schedules),
                (Subscription.template_id.is_(None) & Subscription.schedule_id.is_(None)),
            )
        )
    query = _subscription_query().where(*where).order_by(Subscription.id)
    rows, total = paged_rows(session, query, limit=limit, offset=offset)
    return [read(tuple(r)) for r in rows], total


def get_subscription(session: Session, project: Project, subscription_id: int) -> Subscription:
    return scoped.get_in_project(session, Subscription, project, subscription_id, "subscription")


def may_change_some(rights: ProjectAccess) -> bool:
    """Whether the actor may change any subscription at all (project-wide or a template's)."""
    templates = rights.templates_allowing(Action.TEMPLATE_WRITE)
    return Action.RESOURCE_WRITE in rights.actions or templates is None or bool(templates)


def require_change(
    session: Session, rights: ProjectAccess, template_id: int | None, schedule_id: int | None
) -> str:
    """Check the right to change a subscription of this scope: ``resource:write`` for the
    project's runs, ``template:write`` on the template (a schedule's: on its template). Its
    name for the audit trail."""
    project = rights.project
    if template_id is not None and schedule_id is not None:
        raise InvalidInput("schedule_id", "give template_id or schedule_id, not both")
    if schedule_id is not None:
        schedule = session.scalar(
            select(Schedule).where(Schedule.id == schedule_id, Schedule.project_id == project.id)
        )
        if schedule is None:
            rights.require(Action.RESOURCE_WRITE)  # no template to check: who may see it all
            raise InvalidInput(
                "schedule_id", f"schedule {schedule_id} is not in project '{project.name}'"
            )
        if schedule.template_id is None:
            rights.require(Action.RESOURCE_WRITE)
        else:
            rights.require_on_template(schedule.template_id, Action.TEMPLATE_WRITE)
        return f"schedule '{schedule.name}'"
    if template_id is not None:
        rights.require_on_template(template_id, Action.TEMPLATE_WRITE)
        name = session.scalar(
            select(Template.name).where(
                Template.id == template_id, Template.project_id == project.id
            )
        )
        if name is None:
            raise InvalidInput(
                "template_id", f"template {template_id} is not in project '{project.name}'"
            )
        return f"template '{name}'"
    rights.require(Action.RESOURCE_WRITE)
    return "project-wide"


def _destination(session: Session, project: Project, destination_id: int) -> Destination:
    found = session.scalar(
        select(Destination).where(
            Destination.id == destination_id, Destination.project_id == project.id
        )
    )
    if found is None:
        raise InvalidInput(
            "destination_id", f"destination {destination_id} is not in project '{project.name}'"
        )
    return found


def _events(
    events: Sequence[RunEventKind], minutes: float | None, quiet_minutes: float | None
) -> list[str]:
    """The events as stored, checked against their thresholds: ``long_running_minutes`` is
    required with long_running, ``host_quiet_minutes`` optional with host_quiet (the instance's
    threshold otherwise); neither goes without its event."""
    if RunEventKind.LONG_RUNNING in events and minutes is None:
        raise InvalidInput("long_running_minutes", "is required with the long_running event")
    if RunEventKind.LONG_RUNNING not in events and minutes is not None:
        raise InvalidInput("long_running_minutes", "goes with the long_running event only")
    if RunEventKind.HOST_QUIET not in events and quiet_minutes is not None:
        raise InvalidInput("host_quiet_minutes", "goes with the host_quiet event only")
    return [e.value for e in RunEventKind if e in events]  # each once, in a fixed order


def _audit_fields(sub: Subscription, destination: Destination) -> dict[str, Any]:
    return {
        "destination": f"{destination.kind} '{destination.name}'",
        "events": list(sub.events),
        "long_running_minutes": sub.long_running_minutes,
        "host_quiet_minutes": sub.host_quiet_minutes,
    }


def _record(
    session: Session,
    actor: Actor,
    action: AuditAction,
    sub: Subscription,
    scope: str,
    changes: dict[str, list[Any]],
) -> None:
    audit.record(
        session,
        actor,
        action,
        object_type=action.object_type,
        object_id=sub.id,
        object_name=f"{scope} subscription",
        project_id=sub.project_id,
        changes=changes,
    )


def create_subscription(
    session: Session, rights: ProjectAccess, body: SubscriptionCreate, *, actor: Actor
) -> SubscriptionRead:
    scope = require_change(session, rights, body.template_id, body.schedule_id)
    destination = _destination(session, rights.project, body.destination_id)
    sub = Subscription(
        project_id=rights.project.id,
        destination_id=destination.id,
        template_id=body.template_id,
        schedule_id=body.schedule_id,
        events=_events(body.events, body.long_running_minutes, body.host_quiet_minutes),
        long_running_minutes=body.long_running_minutes,
        host_quiet_minutes=body.host_quiet_minutes,
    )
    session.add(sub)
    session.flush()
    changes = audit.diff({}, _audit_fields(sub, destination))
    _record(session, actor, AuditAction.SUBSCRIPTION_CREATE, sub, scope, changes)
    session.commit()
    return subscription_read(session, sub)


def subscription_read(session: Session, sub: Subscription) -> SubscriptionRead:
    row = session.execute(_subscription_query().where(Subscription.id == sub.id)).one()
    return read(tuple(row))


def update_subscription(
    session: Session,
    rights: ProjectAccess,
    sub: Subscription,
    body: SubscriptionUpdate,
    *,
    actor: Actor,
) -> SubscriptionRead:
    scope = require_change(session, rights, sub.template_id, sub.schedule_id)
    before = _audit_fields(sub, _destination(session, rights.project, sub.destination_id))
    changes = body.changes()
    destination = _destination(
        session, rights.project, changes.get("destination_id") or sub.destination_id
    )
    events = changes["events"] if "events" in changes else known_events(sub.events)
    minutes = changes.get("long_running_minutes", sub.long_running_minutes)
    quiet_minutes = changes.get("host_quiet_minutes", sub.host_quiet_minutes)
    sub.events = _events(events, minutes, quiet_minutes)
    sub.long_running_minutes = minutes
    sub.host_quiet_minutes = quiet_minutes
    sub.destination_id = destination.id
    diff = audit.diff(before, _audit_fields(sub, destination))
    _record(session, actor, AuditAction.SUBSCRIPTION_UPDATE, sub, scope, diff)
    session.commit()
    return subscription_read(session, sub)


def delete_subscription(
    session: Session, rights: ProjectAccess, sub: Subscription, *, actor: Actor
) -> None:
    scope = require_change(session, rights, sub.template_id, sub.schedule_id)
    destination = _destination(session, rights.project, sub.destination_id)
    diff = audit.diff(_audit_fields(sub, destination), {})
    _record(session, actor, AuditAction.SUBSCRIPTION_DELETE, sub, scope, diff)
    session.delete(sub)
    session.commit()
