"""Recording and reading the audit trail. ``record`` joins the caller's transaction."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol

from sqlalchemy import ColumnElement, String, cast, delete, or_, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit.actions import AuditAction
from steward.audit.models import AuditRecord, StreamRow
from steward.db import icontains, utcnow

# the session's ``info`` key naming the audit stream's sinks (``Runtime.build`` sets it from the
# settings): every record recorded in such a session is queued for each of them
STREAM_SINKS = "audit_stream_sinks"

# a changed value whose JSON is larger is recorded as its size and SHA-256, never in full: the
# trail stays small to page through and export however large the objects it describes
VALUE_MAX_BYTES = 1024


def snapshot(obj: object, fields: Iterable[str]) -> dict[str, Any]:
    """The named attributes of a model as JSON-able values (for before/after diffs)."""
    values: dict[str, Any] = {}
    for name in fields:
        value = getattr(obj, name)
        values[name] = value.isoformat() if isinstance(value, dt.datetime) else value
    return values


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, list[Any]]:
    """{field: [before, after]} for every field that changed; a create has before = {}."""
    fields = sorted(set(before) | set(after))
    return {f: [before.get(f), after.get(f)] for f in fields if before.get(f) != after.get(f)}


def digest(value: Any) -> dict[str, Any]:
    """``{"size": bytes, "sha256": hex}`` of ``value`` as compact JSON with sorted keys."""
    data = _json(value)
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _json(value: Any) -> bytes:
    text = json.dumps(value, default=str, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode()


def _bounded(value: Any) -> Any:
    """``value`` itself when its JSON is small, else its ``digest``."""
    return value if len(_json(value)) <= VALUE_MAX_BYTES else digest(value)


def _bounded_changes(changes: Mapping[str, Any]) -> dict[str, Any]:
    return {
        field: [_bounded(v) for v in values] if isinstance(values, list) else _bounded(values)
        for field, values in changes.items()
    }


def _bounded_detail(detail: str) -> str:
    """A long detail keeps its start and says how long it was and what it hashed to."""
    data = detail.encode()
    if len(data) <= VALUE_MAX_BYTES:
        return detail
    head = data[:200].decode(errors="ignore")
    return f"{head}… ({len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()})"


def record(
    session: Session,
    actor: Actor | None,
    action: AuditAction,
    *,
    object_type: str = "",
    object_id: int | None = None,
    object_name: str = "",
    project_id: int | None = None,
    changes: Mapping[str, list[Any]] | None = None,
    detail: str = "",
    source_ip: str = "",
    user_agent: str = "",
) -> AuditRecord:
    """Add an audit record to the session; the caller's commit makes it durable with the change,
    and with a row for each sink of the audit stream (``STREAM_SINKS``: the same transaction, so
    the stream misses no record and sends none that was rolled back).

    Every value of ``changes`` and the ``detail`` are bounded here, for every caller."""
    entry = AuditRecord(
        actor_type=actor.kind if actor else "system",
        actor_user_id=actor.user.id if actor else None,
        actor=actor.label if actor else "system",
        action=action,
        object_type=object_type,
        object_id=object_id,
        object_name=object_name[:200],
        project_id=project_id,
        source_ip=actor.source_ip if actor else source_ip,
        user_agent=(actor.user_agent if actor else user_agent)[:400],
        changes=_bounded_changes(changes or {}),
        detail=_bounded_detail(detail),
    )
    session.add(entry)
    for sink in session.info.get(STREAM_SINKS, ()):
        session.add(StreamRow(sink=sink, event=entry))
    return entry


class Named(Protocol):
    """An object as the audit trail names it (a project's objects also have ``project_id``)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


def record_change(
    session: Session,
    actor: Actor | None,
    action: AuditAction,
    obj: Named,
    changes: Mapping[str, list[Any]] | None = None,
    *,
    object_type: str = "",
    project_id: int | None = None,
    detail: str = "",
) -> AuditRecord:
    """A record of a change to ``obj``: its type defaults to the action's prefix, its project to
    ``obj.project_id`` when it has one."""
    return record(
        session,
        actor,
        action,
        object_type=object_type or action.object_type,
        object_id=obj.id,
        object_name=obj.name,
        project_id=project_id if project_id is not None else getattr(obj, "project_id", None),
        changes=changes,
        detail=detail,
    )


# what a change records of an object: the names of its audited attributes, or a function of
# it that gives their values (for the ones a domain writes down its own way)
Fields = Iterable[str] | Callable[[Any], Mapping[str, Any]]


def commit_created[T: Named](
    session: Session, actor: Actor | None, action: AuditAction, obj: T, fields: Fields, **extra: Any
) -> T:
    """Add a new ``obj``, record its creation (every audited field as changed from nothing)
    and commit: the record is durable with the object. ``extra``: ``record_change``'s."""
    session.add(obj)
    session.flush()  # the id the record names
    record_change(session, actor, action, obj, diff({}, _values(obj, fields)), **extra)
    session.commit()
    return obj


def commit_updated[T: Named](
    session: Session,
    actor: Actor | None,
    action: AuditAction,
    obj: T,
    before: Mapping[str, Any],
    fields: Fields,
    **extra: Any,
) -> T:
    """Record what changed in ``obj`` since ``before`` (its fields' values then) and commit."""
    record_change(session, actor, action, obj, diff(before, _values(obj, fields)), **extra)
    session.commit()
    return obj


def commit_deleted(
    session: Session,
    actor: Actor | None,
    action: AuditAction,
    obj: Named,
    fields: Fields,
    **extra: Any,
) -> None:
    """Record the delete of ``obj`` (every audited field as changed to nothing), delete it and
    commit."""
    record_change(session, actor, action, obj, diff(_values(obj, fields), {}), **extra)
    session.delete(obj)
    session.commit()


def _values(obj: object, fields: Fields) -> Mapping[str, Any]:
    return fields(obj) if callable(fields) else snapshot(obj, fields)


def conditions(
    *,
    project_ids: Iterable[int] | None,
    actor: str | None = None,
    action: str | None = None,
    object_type: str | None = None,
    object_id: int | None = None,
    project_id: int | None = None,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    q: str | None = None,
    instance: bool = False,
) -> list[ColumnElement[bool]]:
    """WHERE clauses of an audit query; ``project_ids`` None means every record (admins);
    ``instance``: only the records of no project (who may ask is the route's policy check)."""
    where: list[ColumnElement[bool]] = []
    if project_ids is not None:
        where.append(AuditRecord.project_id.in_(list(project_ids)))
    if instance:
        where.append(AuditRecord.project_id.is_(None))
    if actor:
        where.append(AuditRecord.actor == actor)
    if action:
        # "run" matches every run:* action; "run:launch" only itself
        where.append(
            AuditRecord.action == action
            if ":" in action
            else AuditRecord.action.like(f"{action}:%")
        )
    if object_type:
        where.append(AuditRecord.object_type == object_type)
    if object_id is not None:
        where.append(AuditRecord.object_id == object_id)
    if project_id is not None:
        where.append(AuditRecord.project_id == project_id)
    if since is not None:
        where.append(AuditRecord.created_at >= since)
    if until is not None:
        where.append(AuditRecord.created_at < until)
    if q:
        where.append(
            or_(
                *(
                    icontains(column, q)
                    for column in (
                        AuditRecord.actor,
                        AuditRecord.action,
                        AuditRecord.object_name,
                        AuditRecord.detail,
                        AuditRecord.source_ip,
                        cast(AuditRecord.changes, String),
                    )
                )
            )
        )
    return where


def page(
    session: Session, where: list[ColumnElement[bool]], *, before_id: int | None, limit: int
) -> tuple[list[AuditRecord], int | None]:
    query = select(AuditRecord).where(*where)
    if before_id is not None:
        query = query.where(AuditRecord.id < before_id)
    rows = list(session.scalars(query.order_by(AuditRecord.id.desc()).limit(limit + 1)))
    return rows[:limit], rows[limit - 1].id if len(rows) > limit else None


def stream(
    session: Session, where: list[ColumnElement[bool]], *, batch: int = 1000
) -> Iterator[AuditRecord]:
    """Every matching record, oldest first, fetched in batches (for the JSON-lines export)."""
    after = 0
    while True:
        rows = list(
            session.scalars(
                select(AuditRecord)
                .where(*where, AuditRecord.id > after)
                .order_by(AuditRecord.id)
                .limit(batch)
            )
        )
        yield from rows
        if len(rows) < batch:
            return
        after = rows[-1].id


def prune(session: Session, *, older_than_days: int) -> int:
    """Apply the retention period; the removal itself is recorded (by the system)."""
    cutoff = utcnow() - dt.timedelta(days=older_than_days)
    removed = session.execute(delete(AuditRecord).where(AuditRecord.created_at < cutoff))
    count = int(getattr(removed, "rowcount", 0) or 0)
    record(
        session,
        None,
        AuditAction.AUDIT_PRUNE,
        detail=f"removed {count} records older than {older_than_days} days",
    )
    session.commit()
    return count
