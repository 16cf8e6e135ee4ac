"""A host's facts read back: the current ones, the points of their history (each with what
changed since the point before), and the diff of two points; for who may see the host."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.errors import InvalidInput
from steward.hosts import factdiff
from steward.hosts.factdiff import Facts
from steward.hosts.facts import KEYFRAME_EVERY, host_points, latest, replay, snapshot
from steward.hosts.models import HostFactPoint, HostFacts
from steward.hosts.schemas import (
    FactChange,
    FactDiff,
    FactPoint,
    FactPointPage,
    FactsHistoryFilters,
    FactsRead,
)
from steward.hosts.service import require_known
from steward.projects.models import Project


def _point(session: Session, project: Project, name: str, point_id: int, field: str) -> Facts:
    row = session.get(HostFactPoint, point_id)
    if row is None or row.project_id != project.id or row.name != name:
        raise InvalidInput(field, f"host '{name}' has no facts point {point_id}")
    return snapshot(session, row)


def current(session: Session, project: Project, name: str, point: int | None) -> FactsRead:
    """The host's current facts (``point``: as they were at that point of its history, less
    their volatile values); empty when no run gathered any."""
    require_known(session, project, name)
    if point is not None:
        row = session.get(HostFactPoint, point)
        facts = _point(session, project, name, point, "point")
        return FactsRead(
            name=name,
            point_id=point,
            run_id=row.run_id if row else None,
            gathered_at=row.gathered_at if row else None,
            facts=facts,
            size=len(factdiff.canonical(facts)),
            dropped=[],
        )
    stored = session.get(HostFacts, (project.id, name))
    if stored is None:
        return FactsRead(name=name, facts={}, size=0, dropped=[])
    newest = latest(session, project.id, name)
    return FactsRead(
        name=name,
        point_id=newest.id if newest else None,
        run_id=stored.run_id,
        gathered_at=stored.updated_at,
        facts=factdiff.unpack(stored.data),
        size=stored.size,
        dropped=list(stored.dropped),
    )


def history(
    session: Session, project: Project, name: str, filters: FactsHistoryFilters
) -> FactPointPage:
    """The points where the host's facts changed, newest first, each with what changed since
    the point before (a summary and how many facts)."""
    require_known(session, project, name)
    query = select(HostFactPoint.id).where(
        HostFactPoint.project_id == project.id, HostFactPoint.name == name
    )
    if filters.before_id is not None:
        query = query.where(HostFactPoint.id < filters.before_id)
    newest = session.scalar(query.order_by(HostFactPoint.id.desc()).limit(1))
    if newest is None:
        return FactPointPage(items=[], next_before_id=None)
    rows = host_points(session, project.id, name, newest, filters.limit + 1 + KEYFRAME_EVERY)
    facts = replay(rows)
    page = list(reversed(rows))[: filters.limit + 1]
    items = []
    for i, row in enumerate(page[: filters.limit]):
        before = page[i + 1] if i + 1 < len(page) else None
        if before is None:  # the oldest of the page: the one before it, if any
            index = rows.index(row)
            before = rows[index - 1] if index > 0 else None
        old = facts.get(before.id, {}) if before is not None else {}
        new = facts.get(row.id, {})
        found = factdiff.diff(old, new)
        items.append(
            FactPoint(
                id=row.id,
                run_id=row.run_id,
                gathered_at=row.gathered_at,
                first=before is None,
                summary="first facts" if before is None else factdiff.summary(old, new, found),
                changes=len(found.added) + len(found.removed) + len(found.changed),
                stored_bytes=len(row.data),
            )
        )
    more = len(page) > filters.limit
    return FactPointPage(items=items, next_before_id=items[-1].id if more else None)


def compare(session: Session, project: Project, name: str, old: int, new: int) -> FactDiff:
    """What changed from point ``old`` to point ``new`` of the host's facts (either order)."""
    require_known(session, project, name)
    before = _point(session, project, name, old, "from")
    after = _point(session, project, name, new, "to")
    found = factdiff.diff(before, after)
    return FactDiff(
        name=name,
        from_id=old,
        to_id=new,
        summary=factdiff.summary(before, after, found),
        added=[FactChange(path=p, new=v) for p, v in found.added],
        removed=[FactChange(path=p, old=v) for p, v in found.removed],
        changed=[FactChange(path=p, old=a, new=b) for p, a, b in found.changed],
        truncated=found.truncated,
    )
