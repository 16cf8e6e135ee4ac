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
import functools
import json
import os
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from steward.db import insert_of, utcnow
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
    insert = insert_of(session)
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


# ---- retention --------------------------------------------------------------------------------

PRUNE_HOSTS_BATCH = 100  # hosts pruned per transaction


def prune(session: Session, days: int, *, now: dt.datetime | None = None) -> int:
    """Points gathered more than ``days`` ago removed; how many. Each host keeps its newest
    point (and its current facts, ``HostFacts``, are never touched). The oldest point kept of a
    host is first made whole (a keyframe holding its facts) and the deltas after it renumbered
    from it, so every point kept reads, and diffs, as before. Commits per batch of hosts."""
    cutoff = (now or utcnow()) - dt.timedelta(days=days)
    hosts = session.execute(
        select(HostFactPoint.project_id, HostFactPoint.name)
        .where(HostFactPoint.gathered_at < cutoff)
        .distinct()
        .order_by(HostFactPoint.project_id, HostFactPoint.name)
    ).all()
    removed = 0
    for start in range(0, len(hosts), PRUNE_HOSTS_BATCH):
        for project_id, name in hosts[start : start + PRUNE_HOSTS_BATCH]:
            removed += _prune_host(session, project_id, name, cutoff)
        session.commit()
    return removed


def _prune_host(session: Session, project_id: int, name: str, cutoff: dt.datetime) -> int:
    of_host = (HostFactPoint.project_id == project_id, HostFactPoint.name == name)
    newest = latest(session, project_id, name)
    if newest is None:
        return 0
    boundary = session.scalar(
        select(func.max(HostFactPoint.id)).where(
            *of_host, HostFactPoint.gathered_at < cutoff, HostFactPoint.id < newest.id
        )
    )
    if boundary is None:  # only its newest point is old: it stays
        return 0
    kept = session.scalars(
        select(HostFactPoint).where(*of_host, HostFactPoint.id > boundary)
        .order_by(HostFactPoint.id).limit(1)
    ).one()  # fmt: skip
    if kept.chain > 0:
        whole = factdiff.pack(snapshot(session, kept))  # read while the points before exist
        shift = kept.chain
        following = session.scalars(
            select(HostFactPoint)
            .where(*of_host, HostFactPoint.id > kept.id)
            .order_by(HostFactPoint.id)
            .limit(KEYFRAME_EVERY)
        ).all()
        for row in following:  # its chain, up to the next keyframe
            if row.chain == 0:
                break
            row.chain -= shift
        kept.data, kept.chain = whole, 0
        session.flush()
    gone = session.execute(delete(HostFactPoint).where(*of_host, HostFactPoint.id <= boundary))
    return int(getattr(gone, "rowcount", 0) or 0)


# ---- the fact cache (a run's private directory) -----------------------------------------------


# what Ansible's file caches refuse in a key (``BaseFileCacheModule._PATH_CHARS``: it hashes
# such a name), and what would leave the directory or end a name
UNSAFE_IN_NAMES = ("/", "..", "<", ">", "|", "\x00")


@functools.cache
def cache_schema_prefix() -> str:
    """The prefix ansible-core >= 2.19 gives a cache key (``s1_``: its cache serialization
    schema), which then holds ``{"__payload__": "<the facts' JSON>"}``; "" before 2.19."""
    try:
        from ansible._internal._json._profiles import _cache_persistence
    except ImportError:
        return ""
    return f"s{_cache_persistence._Profile.schema_id}_"


def cache_file_names(name: str) -> list[str]:
    """The files of the cache directory that hold host ``name``'s facts, for the Ansible before
    2.19 (the name) and after (prefixed); none for a name that could leave the directory or
    that Ansible would hash."""
    if name in ("", ".") or any(part in name for part in UNSAFE_IN_NAMES):
        return []
    names = [name]
    if prefix := cache_schema_prefix():
        names.append(prefix + name)
    return names


def write_cache(session: Session, project_id: int, inventory_id: int, directory: Path) -> int:
    """Write the project's current facts of the inventory's hosts (as last read; every host of
    the project with facts when the inventory's hosts were never read) as Ansible's jsonfile
    fact cache in ``directory`` (created, 0700), for the run's Ansible whatever its version; how
    many hosts. Never follows a link, never writes outside ``directory``."""
    directory.mkdir(mode=0o700)
    query = select(HostFacts.name, HostFacts.data).where(HostFacts.project_id == project_id)
    read_at = session.scalar(select(Inventory.hosts_read_at).where(Inventory.id == inventory_id))
    if read_at is not None:
        listed = select(InventoryHost.name).where(InventoryHost.inventory_id == inventory_id)
        query = query.where(HostFacts.name.in_(listed))
    prefix = cache_schema_prefix()
    written = 0
    for name, data in session.execute(query.execution_options(yield_per=200)):
        files = cache_file_names(name)
        if not files or any((directory / f).parent != directory for f in files):
            continue
        plain = zlib.decompress(data)
        for file_name in files:
            payload = plain
            if prefix and file_name.startswith(prefix) and file_name != name:
                payload = json.dumps({"__payload__": plain.decode()}).encode()
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            try:  # "s1_db" may be a host of its own (old format) and db's (new format)
                fd = os.open(directory / file_name, flags, 0o600)
            except FileExistsError:
                continue
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
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
