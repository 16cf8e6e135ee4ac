"""Facts over time below HTTP, on ``db_session``: what a run's facts keep per host (merged as
Ansible's fact cache merges them, a point only when they changed, deltas between keyframes),
the history with its summaries, the diff of two points, and the fact cache written for a run
(the real runs: test_routes.py; hostile cases: test_hostile.py)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session
from support import services
from support.hosts import finished_run, static_inventory

from steward.db import utcnow
from steward.hosts import factdiff, factread, facts
from steward.hosts.facts import Gathered
from steward.hosts.models import HostFactPoint, HostFacts
from steward.hosts.schemas import FactsHistoryFilters
from steward.projects.models import Project
from steward.retention import service as retention
from steward.retention.service import Periods
from steward.runs.models import RunHost

LIMIT = 256 * 1024


def gathered(kernel: str = "5.10.0", **more: Any) -> dict[str, Any]:
    """Facts as ``setup`` returns them (a small host), with the values that move by themselves."""
    return {
        "ansible_kernel": kernel,
        "ansible_distribution": "Debian",
        "ansible_distribution_version": "12.1",
        "ansible_date_time": {"epoch": str(utcnow().timestamp())},
        "ansible_memfree_mb": 100,
        "ansible_memory_mb": {"real": {"total": 4096, "free": 100, "used": 3996}},
        "ansible_mounts": [
            {"mount": "/", "size_total": 100, "size_available": 40},
            {"mount": "/boot", "size_total": 10, "size_available": 5},
        ],
        "packages": {"bash": [{"version": "5.1"}], "curl": [{"version": "7.88"}]},
        **more,
    }


def keep(
    session: Session, project: Project, host: str, found: dict[str, Any], run: int | None = None
) -> int:
    run_id = run if run is not None else finished_run(session, project, RunHost(host=host))
    facts.record(session, run_id, [Gathered(host, found, [])], at=utcnow(), limit=LIMIT)
    return run_id


def points(session: Session, project: Project, host: str) -> list[HostFactPoint]:
    query = select(HostFactPoint).where(
        HostFactPoint.project_id == project.id, HostFactPoint.name == host
    )
    return list(session.scalars(query.order_by(HostFactPoint.id)))


@pytest.mark.both_databases
def test_facts_are_a_point_only_when_the_host_changed(db_session: Session) -> None:
    project = services.project(db_session)
    first = keep(db_session, project, "db1", gathered())
    again = keep(db_session, project, "db1", gathered())  # the clock and free memory moved
    assert len(points(db_session, project, "db1")) == 1
    current = db_session.get_one(HostFacts, (project.id, "db1"))
    assert current.run_id == again  # the current facts are the latest gathering's
    later = keep(db_session, project, "db1", {"ansible_kernel": "6.1.0"})  # merged, as Ansible
    kept = points(db_session, project, "db1")
    assert [p.run_id for p in kept] == [first, later]
    assert [p.chain for p in kept] == [0, 1]  # the second is a delta
    now = factread.current(db_session, project, "db1", None)
    assert now.facts["ansible_kernel"] == "6.1.0"
    assert now.facts["ansible_distribution"] == "Debian"  # kept from the first gathering
    assert now.point_id == kept[-1].id
    old = factread.current(db_session, project, "db1", kept[0].id)
    assert old.facts["ansible_kernel"] == "5.10.0"
    assert "ansible_date_time" not in old.facts  # a point keeps what the host is, not the clock


def test_a_later_batch_of_the_same_run_replaces_its_point(db_session: Session) -> None:
    project = services.project(db_session)
    keep(db_session, project, "db1", gathered())
    run = keep(db_session, project, "db1", {"steward_stage": "one"})
    keep(db_session, project, "db1", {"steward_stage": "two"}, run=run)
    kept = points(db_session, project, "db1")
    assert [p.run_id for p in kept][1:] == [run]
    assert len(kept) == 2
    assert factread.current(db_session, project, "db1", kept[1].id).facts["steward_stage"] == "two"


def test_a_long_history_is_deltas_between_keyframes(db_session: Session) -> None:
    project = services.project(db_session)
    base = gathered(ansible_cmdline={"BOOT_IMAGE": "/vmlinuz", "ro": True, "quiet": True})
    for n in range(40):
        keep(db_session, project, "db1", {**base, "ansible_kernel": f"6.1.{n}"})
    kept = points(db_session, project, "db1")
    assert len(kept) == 40
    assert max(p.chain for p in kept) == facts.KEYFRAME_EVERY - 1
    assert [p.id for p in kept if p.chain == 0] == [kept[0].id, kept[16].id, kept[32].id]
    for n in (0, 15, 16, 39):
        read = factread.current(db_session, project, "db1", kept[n].id)
        assert read.facts == factdiff.stable({**base, "ansible_kernel": f"6.1.{n}"})
    deltas = [len(p.data) for p in kept if p.chain]
    assert max(deltas) < 200  # bytes: a kernel's change, not the host's facts again


def test_the_history_says_what_changed_at_each_point(db_session: Session) -> None:
    project = services.project(db_session)
    first = keep(db_session, project, "db1", gathered())
    changed = gathered(
        kernel="6.1.0",
        ansible_mounts=[
            {"mount": "/", "size_total": 100, "size_available": 1},
            {"mount": "/data", "size_total": 500, "size_available": 500},
        ],
        packages={"bash": [{"version": "5.2"}], "jq": [{"version": "1.6"}]},
    )
    second = keep(db_session, project, "db1", changed)
    page = factread.history(db_session, project, "db1", FactsHistoryFilters())
    assert [(p.run_id, p.first) for p in page.items] == [(second, False), (first, True)]
    # 3 packages: bash changed, curl removed, jq added; 2 mounts: /boot gone, /data new
    assert page.items[0].summary == "kernel 5.10.0 → 6.1.0, 3 packages, 2 mounts"
    assert page.items[1].summary == "first facts"
    assert page.next_before_id is None
    older = factread.history(db_session, project, "db1", FactsHistoryFilters(limit=1))
    assert [p.run_id for p in older.items] == [second]
    assert older.items[0].summary == page.items[0].summary  # its point before is read too
    rest = FactsHistoryFilters(limit=1, before_id=older.next_before_id)
    assert [p.run_id for p in factread.history(db_session, project, "db1", rest).items] == [first]


def test_a_diff_names_each_change_by_its_path(db_session: Session) -> None:
    project = services.project(db_session)
    keep(db_session, project, "db1", gathered())
    keep(db_session, project, "db1", gathered(kernel="6.1.0", ansible_lvm={"vgs": {}}))
    old, new = points(db_session, project, "db1")
    found = factread.compare(db_session, project, "db1", old.id, new.id)
    assert found.summary == "kernel 5.10.0 → 6.1.0, 1 other fact"
    assert [(c.path, c.old, c.new) for c in found.changed] == [
        ("ansible_kernel", "5.10.0", "6.1.0")
    ]
    assert [(c.path, c.new) for c in found.added] == [("ansible_lvm", {"vgs": {}})]
    assert found.removed == []
    back = factread.compare(db_session, project, "db1", new.id, old.id)
    assert [c.path for c in back.removed] == ["ansible_lvm"]
    field = services.refused(
        lambda: factread.compare(db_session, project, "db1", old.id, 999), "to"
    )
    assert "no facts point 999" in field


def test_mounts_are_compared_by_mount_point() -> None:
    old = {"ansible_mounts": [{"mount": "/", "fstype": "ext4"}, {"mount": "/boot", "x": 1}]}
    new = {"ansible_mounts": [{"mount": "/boot", "x": 1}, {"mount": "/", "fstype": "xfs"}]}
    found = factdiff.diff(old, new)
    assert [(p, a, b) for p, a, b in found.changed] == [("ansible_mounts./.fstype", "ext4", "xfs")]
    assert factdiff.summary(old, new, found) == "1 mount"


def test_the_fact_cache_holds_the_inventorys_hosts(db_session: Session, tmp_path: Path) -> None:
    project = services.project(db_session)
    inventory = static_inventory(db_session, project, tmp_path)  # oradb01, oradb02, web01
    keep(db_session, project, "oradb01", gathered(kernel="6.1.0"))
    keep(db_session, project, "adhoc9", gathered())  # facts, but not in this inventory
    cache = tmp_path / "run" / "facts"
    cache.parent.mkdir()
    assert facts.write_cache(db_session, project.id, inventory.id, cache) == 1
    assert sorted(p.name for p in cache.iterdir()) == facts.cache_file_names("oradb01")
    written = json.loads((cache / "oradb01").read_text())
    assert written["ansible_kernel"] == "6.1.0"
    assert "ansible_date_time" in written  # the current facts, whole
    assert oct(cache.stat().st_mode & 0o777) == "0o700"


def test_a_delta_keeps_what_changed_inside_an_object() -> None:
    packages: dict[str, Any] = {f"p{n}": [{"version": "1"}] for n in range(500)}
    before = {"packages": packages, "k": 1, "gone": 2}
    changed = {**packages, "p7": [{"version": "2"}]}
    del changed["p9"]
    after = {"packages": changed, "k": 1, "new": 3}
    change = factdiff.delta(before, after)
    assert change == {
        "set": {"new": 3},
        "unset": ["gone"],
        "sub": {"packages": {"set": {"p7": [{"version": "2"}]}, "unset": ["p9"]}},
    }
    assert factdiff.apply(before, change) == after
    assert factdiff.apply(after, factdiff.delta(after, before)) == before


def test_old_points_are_pruned_and_the_points_kept_read_and_diff_as_before(
    db_session: Session,
) -> None:
    project = services.project(db_session)
    for n in range(20):
        keep(db_session, project, "db1", gathered(kernel=f"6.1.{n}"))
    for n in range(2):
        keep(db_session, project, "db2", gathered(kernel=f"5.{n}"))
    before = points(db_session, project, "db1")
    assert [p.chain for p in before[9:12]] == [9, 10, 11]
    read_before = {p.id: factread.current(db_session, project, "db1", p.id).facts for p in before}
    diff_before = factread.compare(db_session, project, "db1", before[10].id, before[19].id)
    old = utcnow() - dt.timedelta(days=400)
    aged = [p.id for p in before[:10]] + [p.id for p in points(db_session, project, "db2")]
    db_session.execute(
        update(HostFactPoint).where(HostFactPoint.id.in_(aged)).values(gathered_at=old)
    )
    current = {h: db_session.get_one(HostFacts, (project.id, h)).data for h in ("db1", "db2")}
    db_session.flush()

    pruned = retention.prune(db_session, Periods(facts=365))
    assert pruned.fact_points == 11  # db1's ten old points, db2's older one (its newest stays)
    assert "11 host facts points older than 365 days" in pruned.summary(Periods(facts=365))
    db_session.expire_all()
    after = points(db_session, project, "db1")
    assert [p.id for p in after] == [p.id for p in before[10:]]
    # the oldest kept is whole now, the deltas after it count from it, the next keyframe stays
    assert [p.chain for p in after[:7]] == [0, 1, 2, 3, 4, 5, 0]
    for p in after:
        assert factread.current(db_session, project, "db1", p.id).facts == read_before[p.id]
    diff_after = factread.compare(db_session, project, "db1", after[0].id, after[-1].id)
    assert diff_after == diff_before
    assert [p.run_id for p in points(db_session, project, "db2")] == [
        factread.current(db_session, project, "db2", None).run_id
    ]
    assert {h: db_session.get_one(HostFacts, (project.id, h)).data for h in current} == current
    # a point that follows is still a delta of the point before
    keep(db_session, project, "db1", gathered(kernel="6.2.0"))
    newest = points(db_session, project, "db1")[-1]
    assert newest.chain == after[-1].chain + 1
    assert (
        factread.current(db_session, project, "db1", newest.id).facts["ansible_kernel"] == "6.2.0"
    )
