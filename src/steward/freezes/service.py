"""Freeze windows: kept by admins (the instance's) and by who may edit a project (its own);
asked by the launch gate (``check_launch``: a ``Frozen`` 409 naming the window and its end, or
an override by who holds ``freeze:override``, with a reason: audited and notified). A window
with labels freezes only the templates carrying one of them (``FreezeWindow.covers``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Collection, Sequence

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session

from steward.access import policy
from steward.access.actor import Actor
from steward.access.policy import Action, ProjectAccess
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.db import paged
from steward.errors import DomainError, Frozen, InvalidInput, NotFound
from steward.freezes import windows
from steward.freezes.models import FreezeOverride, FreezeWindow
from steward.freezes.schemas import (
    FreezeStanding,
    FreezeWindowCreate,
    FreezeWindowRead,
    FreezeWindowUpdate,
    OccurrenceRead,
)
from steward.notifications import outbox
from steward.projects.models import Project
from steward.runs.models import Run
from steward.schedules import recurrence

FIELDS = ("name", "description", "starts_local", "ends_local", "timezone", "rrule", "labels")
REASON_FIELD = "freeze_override_reason"
COMING_WITHIN = dt.timedelta(days=14)  # a window starting later is not "coming" yet


def rule_of(window: FreezeWindow) -> windows.Window:
    return windows.Window(
        window.starts_local, window.ends_local, window.timezone, window.rrule or ""
    )


def _local(value: dt.datetime, field: str) -> dt.datetime:
    if value.tzinfo is not None:
        raise InvalidInput(
            field, "a wall-clock time without an offset: the window's timezone says where"
        )
    return value.replace(second=0, microsecond=0)


def create(
    session: Session,
    actor: Actor,
    project: Project | None,
    body: FreezeWindowCreate,
    now: dt.datetime,
) -> FreezeWindow:
    """A window of the instance (``project`` None) or of ``project``: checked (a 422 naming
    the field), audited. Commits."""
    window = FreezeWindow(
        project_id=project.id if project else None,
        name=body.name.strip(),
        description=body.description,
        starts_local=_local(body.starts_local, "starts_local"),
        ends_local=_local(body.ends_local, "ends_local"),
        timezone=body.timezone,
        rrule=(body.rrule or "").strip(),
        labels=body.labels,
    )
    windows.check(rule_of(window), now)
    return audit.commit_created(
        session, actor, AuditAction.FREEZE_CREATE, window, FIELDS, object_type="freeze"
    )


def update(
    session: Session,
    actor: Actor,
    window: FreezeWindow,
    body: FreezeWindowUpdate,
    now: dt.datetime,
) -> FreezeWindow:
    """The fields sent, the window checked again as a whole (a 422 naming the field), the
    change audited. Commits."""
    before = audit.snapshot(window, FIELDS)
    for field, value in body.changes().items():
        if field in ("starts_local", "ends_local"):
            value = _local(value, field)
        elif field == "rrule":
            value = (value or "").strip()
        elif field == "name":
            value = value.strip()
        setattr(window, field, value)
    windows.check(rule_of(window), now)
    return audit.commit_updated(
        session, actor, AuditAction.FREEZE_UPDATE, window, before, FIELDS, object_type="freeze"
    )


def delete(session: Session, actor: Actor, window: FreezeWindow) -> None:
    audit.commit_deleted(
        session, actor, AuditAction.FREEZE_DELETE, window, FIELDS, object_type="freeze"
    )


def get(session: Session, window_id: int, project: Project | None) -> FreezeWindow:
    """The instance's window ``window_id`` (``project`` None) or ``project``'s; else 404."""
    window = session.get(FreezeWindow, window_id)
    owner = project.id if project else None
    if window is None or window.project_id != owner:
        where = f"project '{project.name}'" if project else "the instance"
        raise NotFound(f"freeze window {window_id} not found in {where}")
    return window


def list_windows(
    session: Session, project: Project | None, *, limit: int, offset: int
) -> tuple[list[FreezeWindow], int]:
    where = (
        FreezeWindow.project_id.is_(None)
        if project is None
        else FreezeWindow.project_id == project.id
    )
    query = select(FreezeWindow).where(where).order_by(FreezeWindow.starts_local, FreezeWindow.id)
    return paged(session, query, limit=limit, offset=offset)


def _occurrence(found: windows.Occurrence | None) -> OccurrenceRead | None:
    return OccurrenceRead(starts_at=found.starts_at, ends_at=found.ends_at) if found else None


def read(window: FreezeWindow, now: dt.datetime) -> FreezeWindowRead:
    """The window with its occurrence now and its next (none when it cannot be evaluated)."""
    try:
        where = windows.standing(rule_of(window), now)
    except DomainError:
        where = windows.Standing(None, None)
    return FreezeWindowRead.model_validate(window).model_copy(
        update={"active": _occurrence(where.active), "coming": _occurrence(where.coming)}
    )


@dataclasses.dataclass(frozen=True)
class Found:
    """A window and one of its occurrences."""

    window: FreezeWindow
    occurrence: windows.Occurrence

    def shown_end(self) -> str:
        place = recurrence.zone(self.window.timezone)
        return self.occurrence.ends_at.astimezone(place).isoformat(timespec="minutes")

    def standing(self, *, active: bool) -> FreezeStanding:
        return FreezeStanding(
            window_id=self.window.id,
            scope=self.window.scope,
            project_id=self.window.project_id,
            name=self.window.name,
            labels=self.window.labels,
            starts_at=self.occurrence.starts_at,
            ends_at=self.occurrence.ends_at,
            shown_end=self.shown_end(),
            active=active,
        )


@dataclasses.dataclass(frozen=True)
class Now:
    """The freeze a launch in a project meets now (the active window ending last), the next
    to start within ``COMING_WITHIN``, and the windows that could not be evaluated."""

    active: Found | None
    coming: Found | None
    broken: list[tuple[FreezeWindow, str]]


def applicable(session: Session, project_ids: Sequence[int]) -> list[FreezeWindow]:
    """The instance's windows and those of ``project_ids``."""
    return list(
        session.scalars(select(FreezeWindow).where(applying(project_ids)).order_by(FreezeWindow.id))
    )


def applying(project_ids: Sequence[int]) -> ColumnElement[bool]:
    """``applicable``'s windows as a condition (a launch joins them to its template)."""
    return or_(FreezeWindow.project_id.is_(None), FreezeWindow.project_id.in_(project_ids))


def meeting(
    session: Session,
    project_id: int,
    labels: Collection[str],
    windows: Sequence[FreezeWindow] | None = None,
) -> list[FreezeWindow]:
    """The windows a launch in project ``project_id`` meets: the instance's and the
    project's, those with labels only when the template carries one (``labels``: its own,
    read from the template; an ad-hoc command has none). ``windows``: ``applicable``'s for
    the project when the caller read them already."""
    if windows is None:
        windows = applicable(session, [project_id])
    return [window for window in windows if window.covers(labels)]


def now_for(rows: Sequence[FreezeWindow], now: dt.datetime) -> Now:
    active: Found | None = None
    coming: Found | None = None
    broken: list[tuple[FreezeWindow, str]] = []
    for window in rows:
        try:
            where = windows.standing(rule_of(window), now)
        except DomainError as exc:
            broken.append((window, exc.message))
            continue
        if where.active and (active is None or where.active.ends_at > active.occurrence.ends_at):
            active = Found(window, where.active)
        upcoming = where.coming
        soon = upcoming is not None and upcoming.starts_at - now <= COMING_WITHIN
        if (
            soon
            and upcoming
            and (coming is None or upcoming.starts_at < coming.occurrence.starts_at)
        ):
            coming = Found(window, upcoming)
    return Now(active, coming, broken)


@dataclasses.dataclass(frozen=True)
class Override:
    """A launch during a freeze, allowed: what ``record_override`` writes once the run exists."""

    found: Found
    reason: str


def check_launch(
    session: Session,
    rights: ProjectAccess,
    reason: str | None,
    now: dt.datetime,
    *,
    labels: Collection[str],
    windows: Sequence[FreezeWindow] | None = None,
) -> Override | None:
    """The gate's question (``runs.service.launch``, templates and ad-hoc commands alike): None
    outside every freeze of the caller's project and the instance that covers ``labels`` (the
    template's own; none for an ad-hoc command); during one, a ``Frozen``
    409 naming the window and its end unless ``reason`` is given, when the caller needs
    ``freeze:override`` (403) and a reason that says something (422 on
    ``freeze_override_reason``). A window that cannot be evaluated freezes (a freeze that fails
    open is no freeze). ``windows``: ``applicable``'s for the caller's project, when read
    with the template in the launch's transaction (``runs.service``); None: read here."""
    found = now_for(meeting(session, rights.project.id, labels, windows), now)
    if found.broken:
        window, why = found.broken[0]
        raise Frozen(
            f"frozen: '{window.name}' cannot be evaluated ({why}); who keeps the window must"
            " fix or delete it"
        )
    if found.active is None:
        return None
    if reason is None:
        raise Frozen(
            f"frozen: '{found.active.window.name}' until {found.active.shown_end()};"
            f" who holds '{Action.FREEZE_OVERRIDE}' may launch with a {REASON_FIELD}"
        )
    rights.require(Action.FREEZE_OVERRIDE)
    if not reason.strip():
        raise InvalidInput(
            REASON_FIELD,
            f"a reason is required to launch during freeze '{found.active.window.name}'",
        )
    return Override(found.active, reason.strip())


def record_override(session: Session, actor: Actor, run: Run, override: Override) -> None:
    """The override of run ``run`` (flushed): kept, audited and notified in the launch's
    transaction."""
    found = override.found
    session.add(
        FreezeOverride(
            run_id=run.id,
            window_id=found.window.id,
            window_name=found.window.name,
            window_ends_at=found.occurrence.ends_at,
            reason=override.reason,
        )
    )
    audit.record(
        session,
        actor,
        AuditAction.FREEZE_OVERRIDE,
        object_type="run",
        object_id=run.id,
        object_name=str(run.template_snapshot.get("name", "")),
        project_id=run.project_id,
        changes={"freeze_override_reason": [None, override.reason]},
        detail=f"launched during freeze '{found.window.name}' (until {found.shown_end()}):"
        f" {override.reason}",
    )
    session.flush()
    outbox.on_freeze_override(session, run.id)


def visible_now(session: Session, actor: Actor, now: dt.datetime) -> list[FreezeStanding]:
    """The dashboard's: the instance's windows and those of the projects the caller sees,
    each active now or starting within ``COMING_WITHIN``, soonest end first."""
    project_ids = session.scalars(select(Project.id).where(policy.visible_projects(actor))).all()
    shown: list[FreezeStanding] = []
    for window in applicable(session, list(project_ids)):
        try:
            where = windows.standing(rule_of(window), now)
        except DomainError:
            continue
        found = where.active or where.coming
        if found and (where.active or found.starts_at - now <= COMING_WITHIN):
            shown.append(Found(window, found).standing(active=where.active is not None))
    return sorted(shown, key=lambda s: (s.starts_at, s.window_id))
