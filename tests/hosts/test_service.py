"""The hosts view's rules below HTTP, on ``db_session``: what a run's recap keeps per host
(``hosts.seen``, an upsert written per dialect: both databases), the two sides merged and
searched, a host's runs with its own outcome, and the tasks that changed it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from support import services
from support.hosts import finished_run, recap, static_inventory

from steward.db import utcnow
from steward.errors import NotFound
from steward.hosts import seen, service
from steward.hosts.models import Outcome, ProjectHost
from steward.hosts.schemas import HostChangeFilters, HostFilters
from steward.inventories import service as inventories
from steward.inventories.models import InventoryKind
from steward.repositories.checkout import Reach
from steward.runs.models import RunEvent, RunHost
from steward.runs.schemas import RunFilters


@pytest.mark.both_databases
def test_a_recap_keeps_each_host_once_per_run_with_the_worst_outcome(db_session: Session) -> None:
    project = services.project(db_session)
    first = finished_run(db_session, project)
    at = utcnow()
    seen.record(db_session, first, [recap("db1", ok=3, changed=1), recap("db2", ok=1)], at=at)
    seen.record(db_session, first, [recap("db1", ok=3, changed=1)], at=at)  # a second recap
    second = finished_run(db_session, project)
    later = at + dt.timedelta(minutes=5)
    seen.record(db_session, second, [recap("db1", ok=2, failed=1, changed=1)], at=later)
    db_session.expire_all()
    db1 = db_session.get_one(ProjectHost, (project.id, "db1"))
    db2 = db_session.get_one(ProjectHost, (project.id, "db2"))
    assert (db1.runs, db1.last_run_id, db1.last_outcome) == (2, second, Outcome.FAILED)
    assert (db1.first_seen_at, db1.last_seen_at) == (at, later)
    assert (db2.runs, db2.last_run_id, db2.last_outcome) == (1, first, Outcome.OK)


def test_outcome_is_the_worst_that_happened() -> None:
    assert seen.outcome({"failed": 1, "unreachable": 1, "changed": 1}) == Outcome.FAILED
    assert seen.outcome({"unreachable": 2, "changed": 1}) == Outcome.UNREACHABLE
    assert seen.outcome({"changed": 1, "ok": 4}) == Outcome.CHANGED
    assert seen.outcome({"ok": 4}) == Outcome.OK


def test_inventory_hosts_and_run_hosts_are_one_list_searchable(
    db_session: Session, tmp_path: Path
) -> None:
    project = services.project(db_session)
    static_inventory(db_session, project, tmp_path)
    run = finished_run(db_session, project)
    seen.record(db_session, run, [recap("oradb01", changed=2), recap("adhoc9", ok=1)], at=utcnow())

    def names(**filters: Any) -> list[str]:
        items, total = service.list_hosts(db_session, HostFilters(**filters), project)
        assert total == len(items)
        return [item.name for item in items]

    assert names() == ["adhoc9", "oradb01", "oradb02", "web01"]
    assert names(q="DB0") == ["oradb01", "oradb02"]
    assert names(group="prod") == ["oradb01", "oradb02"]  # through the child group db
    assert names(group="app") == ["web01"]
    assert names(var="tier=gold") == ["oradb01"]
    assert names(var="tier") == ["oradb01", "oradb02"]
    assert names(var="db_password") == ["oradb02"]  # its value: test_hostile.py
    items, _ = service.list_hosts(db_session, HostFilters(q="oradb01"), project)
    assert items[0].inventories == ["prod"]
    assert items[0].groups == ["db", "prod"]
    assert (items[0].runs, items[0].last_run_id, items[0].last_outcome) == (
        1,
        run,
        Outcome.CHANGED,
    )
    page, total = service.list_hosts(db_session, HostFilters(limit=2, offset=1), project)
    assert ([h.name for h in page], total) == (["oradb01", "oradb02"], 4)


def test_a_host_reads_its_inventories_and_an_unknown_one_is_404(
    db_session: Session, tmp_path: Path
) -> None:
    project = services.project(db_session)
    static_inventory(db_session, project, tmp_path)
    host = service.read_host(db_session, project, "oradb02")
    assert [i.inventory for i in host.inventories] == ["prod"]
    assert host.inventories[0].vars == {"tier": "silver", "db_password": "********"}
    assert (host.runs, host.last_outcome) == (0, Outcome.UNKNOWN)
    with pytest.raises(NotFound, match="oradb99"):
        service.read_host(db_session, project, "oradb99")


def test_static_inventories_saved_before_the_hosts_view_are_read_once(
    db_session: Session, tmp_path: Path
) -> None:
    project = services.project(db_session)
    inventory = static_inventory(db_session, project, tmp_path)
    inventory.host_rows = []
    inventory.hosts_read_at = None
    db_session.flush()
    assert service.list_hosts(db_session, HostFilters(), project)[1] == 3
    assert inventory.hosts_read_at is not None


def test_an_edit_of_the_inventory_replaces_its_hosts(db_session: Session, tmp_path: Path) -> None:
    from steward.inventories.schemas import InventoryUpdate

    project = services.project(db_session)
    inventory = static_inventory(db_session, project, tmp_path)
    reach = Reach(services.cipher(), [], services.guard(), tmp_path)
    body = InventoryUpdate(content="[db]\noradb01\noradb03\n")
    inventories.update(
        db_session, project, inventory, body, actor=services.admin(session=db_session), reach=reach
    )
    items, _ = service.list_hosts(db_session, HostFilters(), project)
    assert [h.name for h in items] == ["oradb01", "oradb03"]
    assert inventory.kind == InventoryKind.STATIC


def test_a_hosts_runs_carry_its_own_outcome_and_the_runs_filters(db_session: Session) -> None:
    project = services.project(db_session)
    old = finished_run(
        db_session,
        project,
        RunHost(host="db1", ok=3, changed=2),
        RunHost(host="db2", failed=1),
        created_at=utcnow() - dt.timedelta(days=10),
    )
    new = finished_run(db_session, project, RunHost(host="db1", unreachable=1))
    finished_run(db_session, project, RunHost(host="db2", ok=1))  # not db1's
    actor = services.admin(db_session)
    items, next_before = service.host_runs(db_session, actor, project, "db1", RunFilters())
    assert [(i.run_id, i.outcome, i.changed) for i in items] == [
        (new, Outcome.UNREACHABLE, 0),
        (old, Outcome.CHANGED, 2),
    ]
    assert next_before is None
    since = RunFilters(since=utcnow() - dt.timedelta(days=1))
    assert [i.run_id for i in service.host_runs(db_session, actor, project, "db1", since)[0]] == [
        new
    ]
    lines = list(service.export_runs(db_session, actor, project, "db1", RunFilters()))
    assert lines[0].startswith("run_id,template,status,outcome,launched_by")
    assert [line.split(",")[0] for line in lines[1:]] == [str(new), str(old)]


def test_the_tasks_that_changed_a_host_newest_first_in_pages(db_session: Session) -> None:
    project = services.project(db_session)
    runs = []
    for _ in range(2):
        run = finished_run(db_session, project, RunHost(host="db1", changed=2, ok=1))
        runs.append(run)
        for counter, (task, changed, event) in enumerate(
            [
                ("install", True, "runner_on_ok"),
                ("check", False, "runner_on_ok"),
                ("loop item", True, "runner_item_on_ok"),  # its task's result counts once
                ("configure", True, "runner_on_ok"),
            ],
            start=1,
        ):
            db_session.add(
                RunEvent(
                    run_id=run, counter=counter, event=event, host="db1", task=task, changed=changed
                )
            )
    db_session.add(
        RunEvent(
            run_id=runs[1], counter=9, event="runner_on_ok", host="db2", task="x", changed=True
        )
    )
    db_session.flush()
    actor = services.admin(db_session)
    first = service.host_changes(db_session, actor, project, "db1", HostChangeFilters(limit=3))
    assert [(c.run_id, c.task) for c in first.items] == [
        (runs[1], "configure"),
        (runs[1], "install"),
        (runs[0], "configure"),
    ]
    rest = service.host_changes(
        db_session,
        actor,
        project,
        "db1",
        HostChangeFilters(
            limit=3,
            before_run_id=first.next_before_run_id,
            before_counter=first.next_before_counter,
        ),
    )
    assert [(c.run_id, c.task) for c in rest.items] == [(runs[0], "install")]
    assert rest.next_before_run_id is None
