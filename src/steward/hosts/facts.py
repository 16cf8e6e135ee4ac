"""Facts over time: what runs gathered about a host, kept per (project, host name).

The recorder hands each batch's facts (``setup``/``gather_facts`` and the other fact modules,
``set_fact`` with ``cacheable``; masked with the run's masker, nothing of a ``no_log`` result)
to ``record``, in the transaction that stores the batch. They merge into the host's current
facts as Ansible's fact cache merges them (a result's top-level keys replace the stored ones),
bounded to ``facts_max_bytes`` (the biggest facts left out, named). A point of the history is
added when the facts less their volatile values (``factdiff.stable``) changed: one per run and
host (a later batch of the same run replaces it), stored as a delta of top-level keys against the
point before, a whole keyframe every ``KEYFRAME_EVERY`` points (so a point is read from at most
that many rows).

``write_cache`` writes a project's current facts as Ansible's ``jsonfile`` fact cache into a
run's private directory (a template's ``use_fact_cache``)."""

from __future__ import annotations

import datetime as dt
import os
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from steward.hosts import factdiff
from steward.hosts.factdiff import Facts
from steward.hosts.models import HostFactPoint, HostFacts
from steward.inventories.models import Inventory, InventoryHost
from steward.runs.models import Run

KEYFRAME_EVERY = 16  # a point is read from its keyframe and at most 15 deltas


class Gathered(NamedTuple):
    """Facts one result gave a host (masked), and the facts the callback left out of them."""

    host: str
    facts: Facts
    dropped: list[str]


# ---- recording (the recorder's transaction) -----------------------------------------------------


def record(
    session: Session,
    run_id: int,
    found: Sequence[Gathered],
    *,
    at: dt.datetime,
    limit: int,
) -> None:
    """Merge the facts run ``run_id`` gathered (``(host, facts)`` in the order they came) into
    its project's hosts' current facts, and add a point where they changed. Hosts are taken in
    name order, each row locked (PostgreSQL), so two runs never deadlock on them."""
    if not found or limit <= 0:
        return
    project_id = session.scalar(select(Run.project_id).where(Run.id == run_id))
    if project_id is None:
        return
    gathered: dict[str, Facts] = {}
    left_out: dict[str, set[str]] = {}
    for host, facts, dropped in found:
        gathered[host] = gathered.get(host, {}) | facts
        left_out[host] = (left_out.get(host, set()) - facts.keys()) | set(dropped)
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    empty = factdiff.pack({})
    session.execute(
        insert(HostFacts)
        .values(
            [
                {
                    "project_id": project_id,
                    "name": host[:255],
                    "data": empty,
                    "size": 2,
                    "dropped": [],
                    "updated_at": at,
                }
                for host in sorted(gathered)
            ]
        )
        .on_conflict_do_nothing(index_elements=[HostFacts.project_id, HostFacts.name])
    )
    for host in sorted(gathered):
        row = session.scalars(
            select(HostFacts)
            .where(HostFacts.project_id == project_id, HostFacts.name == host[:255])
            .with_for_update()
        ).one()
        merged, dropped = factdiff.bounded(factdiff.unpack(row.data) | gathered[host], limit)
        text = factdiff.canonical(merged)
        row.data, row.size = zlib.compress(text, 6), len(text)
        row.dropped = sorted(set(dropped) | left_out[host])
        row.run_id, row.updated_at = run_id, at
        _add_point(session, project_id, row.name, run_id, factdiff.stable(merged), at)


def latest(session: Session, project_id: int, name: str) -> HostFactPoint | None:
    return session.scalars(
        select(HostFactPoint)
        .where(HostFactPoint.project_id == project_id, HostFactPoint.name == name)
        .order_by(HostFactPoint.id.desc())
        .limit(1)
    ).first()


def _add_point(
    session: Session, project_id: int, name: str, run_id: int, facts: Facts, at: dt.datetime
) -> None:
    state = factdiff.digest(facts)
    last = latest(session, project_id, name)
    if last is not None and last.run_id == run_id:  # this run's own point: made again
        session.delete(last)
        session.flush()
        last = latest(session, project_id, name)
    if last is not None and last.digest == state:
        return
    data, chain = factdiff.pack(facts), 0
    if last is not None and last.chain + 1 < KEYFRAME_EVERY:
        change = factdiff.pack(factdiff.delta(snapshot(session, last), facts))
        if len(change) < len(data):
            data, chain = change, last.chain + 1
    session.add(
        HostFactPoint(
            project_id=project_id,
            name=name,
            run_id=run_id,
            gathered_at=at,
            digest=state,
            chain=chain,
            data=data,
        )
    )
    session.flush()


def replay(rows: Sequence[HostFactPoint]) -> dict[int, Facts]:
    """The facts of each point of ``rows`` (oldest first, consecutive points of one host)
    from the first keyframe among them on."""
    out: dict[int, Facts] = {}
    facts: Facts | None = None
    for row in rows:
        value = factdiff.unpack(row.data)
        if row.chain == 0:
            facts = value
        elif facts is None:
            continue
        else:
            facts = factdiff.apply(facts, value)
        out[row.id] = facts
    return out


def host_points(
    session: Session, project_id: int, name: str, upto: int, count: int
) -> list[HostFactPoint]:
    """The ``count`` points of the host up to point ``upto`` (included), oldest first."""
    rows = session.scalars(
        select(HostFactPoint)
        .where(
            HostFactPoint.project_id == project_id,
            HostFactPoint.name == name,
            HostFactPoint.id <= upto,
        )
        .order_by(HostFactPoint.id.desc())
        .limit(count)
    ).all()
    return list(reversed(rows))


def snapshot(session: Session, point: HostFactPoint) -> Facts:
    rows = host_points(session, point.project_id, point.name, point.id, point.chain + 1)
    return replay(rows).get(point.id, {})


# ---- the fact cache (a run's private directory) -----------------------------------------------


def cache_file_name(name: str) -> str | None:
    """``name`` as a file of the cache directory, or None when it would not be one (a host
    name with "/", "..", a NUL: Ansible's jsonfile cache joins the name to its directory)."""
    if name in ("", ".", "..") or "/" in name or "\x00" in name or len(name.encode()) > 255:
        return None
    return name


def write_cache(session: Session, project_id: int, inventory_id: int, directory: Path) -> int:
    """Write the project's current facts of the inventory's hosts (as last read; every host of
    the project with facts when the inventory's hosts were never read) as Ansible's jsonfile
    fact cache in ``directory`` (created, 0700); how many hosts. Never follows a link."""
    directory.mkdir(mode=0o700)
    query = select(HostFacts.name, HostFacts.data).where(HostFacts.project_id == project_id)
    read_at = session.scalar(select(Inventory.hosts_read_at).where(Inventory.id == inventory_id))
    if read_at is not None:
        listed = select(InventoryHost.name).where(InventoryHost.inventory_id == inventory_id)
        query = query.where(HostFacts.name.in_(listed))
    written = 0
    for name, data in session.execute(query.execution_options(yield_per=200)):
        file_name = cache_file_name(name)
        if file_name is None:
            continue
        path = directory / file_name
        if path.parent != directory:
            continue
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(path, flags, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(zlib.decompress(data))
        written += 1
    return written


def stored_bytes(session: Session, project_id: int, name: str) -> list[int]:
    """The stored size of each point of a host, oldest first (benchmarks, tests)."""
    query = (
        select(HostFactPoint.data)
        .where(HostFactPoint.project_id == project_id, HostFactPoint.name == name)
        .order_by(HostFactPoint.id)
    )
    return [len(data) for data in session.scalars(query)]
