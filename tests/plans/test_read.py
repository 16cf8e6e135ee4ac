"""The plan read's paging, below HTTP: the task list grouped by task, unknowns first, in pages
whose cursor is a task's key; one task's results with their diffs in pages; bounds."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services
from support.runs import NoQueue

from steward.bounds import PLAN_HOSTS_PAGE_MAX, PLAN_TASKS_PAGE_MAX
from steward.errors import InvalidInput, InvalidState, NotFound
from steward.plans import read, service
from steward.plans.schemas import PlanHostParams, PlanTaskParams
from steward.runs.models import LaunchType, Run, RunChange, RunKind
from steward.templates.launch import LaunchOverrides

# (task, outcome) in the order they ran: c1 and u1 interleave, so "unknowns first" is a rule
RAN = [("c1", "change"), ("u1", "unknown"), ("c2", "change"), ("u2", "unknown"), ("c3", "change")]
HOSTS = ["web1", "web2", "web3"]


def _plan(session: Session) -> tuple[Run, object]:
    project = services.project(session)
    made = support_runs.template(session, project, plans_allowed=True)
    actor = services.admin(session)
    launching = service.Launching(
        support_runs.rights(session, actor, project), actor, services.cipher(), NoQueue()
    )
    run = service.launch_plan(
        session, launching, made.id, LaunchOverrides(), LaunchType.API, ttl_hours=24
    )
    return run, project


def _results(session: Session, run: Run) -> None:
    counter = 0
    for host in HOSTS:
        for task, outcome in RAN:
            counter += 1
            session.add(
                RunChange(
                    run_id=run.id, counter=counter, host=host, task=task,
                    task_path=f"site.yml:{task}", occurrence=1, action="copy", outcome=outcome,
                    diff=f"+{task} on {host}\n" if outcome == "change" else "",
                    reason="skipped in check mode" if outcome == "unknown" else "",
                )
            )  # fmt: skip
    session.flush()


def _all_pages(session: Session, run: Run, limit: int) -> list[list[str]]:
    pages, after = [], None
    while True:
        page = read.task_page(session, run, after, limit)
        pages.append([t.task for t in page.items])
        if page.next_after is None:
            return pages
        after = page.next_after


def test_tasks_page_unknowns_first_then_in_the_order_they_ran(db_session: Session) -> None:
    run, _ = _plan(db_session)
    _results(db_session, run)
    assert _all_pages(db_session, run, 2) == [["u1", "u2"], ["c1", "c2"], ["c3"]]
    assert _all_pages(db_session, run, 3) == [["u1", "u2", "c1"], ["c2", "c3"]]
    assert _all_pages(db_session, run, 5) == [["u1", "u2", "c1", "c2", "c3"]]
    first = read.task_page(db_session, run, None, 5).items[0]
    assert (first.outcome, first.host_count, first.result_count) == ("unknown", 3, 3)
    assert first.key == 2  # u1's first result: web1's second event
    # the same order as the plan read's first results
    assert [t.task for t in read.tasks(db_session, run.id)[0]] == ["u1", "u2", "c1", "c2", "c3"]


def test_a_tasks_hosts_page_by_counter_with_their_diffs(db_session: Session) -> None:
    run, _ = _plan(db_session)
    _results(db_session, run)
    c2 = next(t for t in read.task_page(db_session, run, None, 5).items if t.task == "c2")
    page = read.task_hosts(db_session, run, c2.key, None, 2)
    assert [(h.host, h.diff) for h in page.items] == [
        ("web1", "+c2 on web1\n"),
        ("web2", "+c2 on web2\n"),
    ]
    rest = read.task_hosts(db_session, run, c2.key, page.next_after, 2)
    assert ([h.host for h in rest.items], rest.next_after) == (["web3"], None)
    # any result of the task names it: the third host's result too
    named = read.task_hosts(db_session, run, rest.items[0].counter, None, 5)
    assert [h.host for h in named.items] == HOSTS


def test_cursors_name_results_of_the_plan(db_session: Session) -> None:
    run, _ = _plan(db_session)
    _results(db_session, run)
    with pytest.raises(InvalidInput, match=r"^after: no result of plan"):
        read.task_page(db_session, run, 999, 5)
    with pytest.raises(NotFound, match="no task 999"):
        read.task_hosts(db_session, run, 999, None, 5)
    assert read.task_page(db_session, run, 2, 5).items[0].task == "u2"  # the control


def test_a_run_that_is_not_a_plan_has_no_task_pages(db_session: Session) -> None:
    run, _ = _plan(db_session)
    run.kind = RunKind.RUN
    with pytest.raises(InvalidState, match="not a plan"):
        read.task_page(db_session, run, None, 5)
    with pytest.raises(InvalidState, match="not a plan"):
        read.task_hosts(db_session, run, 1, None, 5)


def test_page_sizes_are_bounded() -> None:
    assert PlanTaskParams(limit=PLAN_TASKS_PAGE_MAX).limit == PLAN_TASKS_PAGE_MAX
    assert PlanHostParams(limit=PLAN_HOSTS_PAGE_MAX).limit == PLAN_HOSTS_PAGE_MAX
    bounded = ((PlanTaskParams, PLAN_TASKS_PAGE_MAX), (PlanHostParams, PLAN_HOSTS_PAGE_MAX))
    for model, beyond in bounded:
        with pytest.raises(ValidationError, match="limit"):
            model(limit=beyond + 1)
        with pytest.raises(ValidationError, match="limit"):
            model(limit=0)
