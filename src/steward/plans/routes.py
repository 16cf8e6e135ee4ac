from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, status

from steward.access.policy import Action
from steward.api import deps
from steward.bounds import Counter
from steward.db import utcnow
from steward.plans import approvers, inbox, read, service
from steward.plans.schemas import (
    ApprovalCreate,
    PlanCreate,
    PlanHostPage,
    PlanHostParams,
    PlanRead,
    PlanTaskPage,
    PlanTaskParams,
    WaitingPlan,
)
from steward.runs import service as runs
from steward.runs.models import LaunchType, Run
from steward.runs.schemas import RunRead
from steward.schemas import Page
from steward.templates.launch import LaunchOverrides

router = APIRouter(prefix="/projects/{project_id}", tags=["plans"])
waiting_plans = APIRouter(prefix="/approvals/plans", tags=["plans"])


def _run_read(session: deps.SessionDep, run: Run) -> RunRead:
    template, user = runs.names(session, run)
    return RunRead.model_validate(run).model_copy(
        update={"template_name": template, "launched_by": user}
    )


def _launching(launching: deps.LaunchingDep) -> service.Launching:
    return service.Launching(launching.rights, launching.actor, launching.cipher, launching.queue)


PlanLaunching = Annotated[service.Launching, Depends(_launching)]


def _applied(run: deps.ViewedRun, rights: deps.AccessDep) -> Run:
    """A visible run whose template the caller may launch: 404, 403 naming run:launch, before
    the rest is looked at."""
    rights.require_on_template(run.template_id, Action.RUN_LAUNCH)
    return run


AppliedRun = Annotated[Run, Depends(_applied)]


def _decided(run: deps.ViewedRun, rights: deps.AccessDep) -> Run:
    """A visible run the caller may decide as a plan (plan:approve in the project, run:launch
    on its template: ``approvers``), answered before the body is: 404, 403 naming it."""
    rights.require(approvers.PERMISSION)
    rights.require_on_template(run.template_id, Action.RUN_LAUNCH)
    return run


DecidedRun = Annotated[Run, Depends(_decided)]


@router.post("/templates/{template_id}/plans", status_code=status.HTTP_201_CREATED)
def launch_plan(
    template: deps.ViewedTemplate,
    body: PlanCreate,
    launching: PlanLaunching,
    session: deps.SessionDep,
    rt: deps.RuntimeDep,
) -> RunRead:
    """Queue a plan of the template: a run in check + diff mode (whatever the body says) whose
    apply is bound to it; the body is a run launch's. 409 when the template does not allow
    plans (``plans_allowed``)."""
    overrides = LaunchOverrides.model_validate(body.model_dump(exclude={"launch_type"}))
    run = service.launch_plan(
        session,
        launching,
        template.id,
        overrides,
        LaunchType(body.launch_type),
        ttl_hours=rt.settings.plan_ttl_hours,
    )
    return _run_read(session, run)


@router.get("/runs/{run_id}/plan")
def read_plan(
    run: deps.ViewedRun, rights: deps.AccessDep, actor: deps.ActorDep, session: deps.SessionDep
) -> PlanRead:
    """What the plan would change: the summary line, the counts, the hosts, its first results
    grouped by task (unknowns first) with their diffs (every task: ``…/plan/tasks``); its
    expiry, binding, approval and apply. 409 for a run that is not a plan."""
    return read.read(session, rights, actor, run)


@router.get("/runs/{run_id}/plan/tasks")
def read_plan_tasks(
    run: deps.ViewedRun, session: deps.SessionDep, page: Annotated[PlanTaskParams, Query()]
) -> PlanTaskPage:
    """The plan's tasks, unknowns first, each with its host count (its diffs:
    ``…/plan/tasks/{key}/hosts``), paged by ``limit`` and ``after`` (the last task's key).
    409 for a run that is not a plan."""
    return read.task_page(session, run, page.after, page.limit)


TaskKey = Annotated[Counter, Path(description="the task's key (``PlanTaskEntry.key``)")]


@router.get("/runs/{run_id}/plan/tasks/{task}/hosts")
def read_plan_task_hosts(
    run: deps.ViewedRun,
    task: TaskKey,
    session: deps.SessionDep,
    page: Annotated[PlanHostParams, Query()],
) -> PlanHostPage:
    """One task's results with their diffs (masked, bounded) or reasons, paged by ``limit``
    and ``after`` (the last result's counter). 409 for a run that is not a plan, 404 for a
    task it does not have."""
    return read.task_hosts(session, run, task, page.after, page.limit)


@router.post("/runs/{run_id}/apply", status_code=status.HTTP_201_CREATED)
def apply_plan(
    run: AppliedRun, launching: PlanLaunching, session: deps.SessionDep, reach: deps.ReachDep
) -> RunRead:
    """Launch the plan's apply: its commit, launch values and secret answers, check and diff
    mode off. 409 naming the cause ("plan again") when the plan did not succeed, expired, was
    applied, lacks its approval, or its template, environment, keys, values or branch moved;
    the apply fails before ansible-playbook starts when its inventory differs from the plan's."""
    applied = service.apply(session, launching, run, reach=reach)
    return _run_read(session, applied)


@router.post("/runs/{run_id}/approval")
def decide_plan(
    run: DecidedRun,
    body: ApprovalCreate,
    rights: deps.AccessDep,
    actor: deps.ActorDep,
    session: deps.SessionDep,
) -> PlanRead:
    """Approve (or reject) a plan whose template asks for approval: permission plan:approve and
    run:launch on its template; approving, someone other than its launcher (403 naming the
    rule, admins included). Audited with the comment."""
    service.decide(session, rights, actor, run, approve=body.approve, comment=body.comment)
    return read.read(session, rights, actor, run)


@waiting_plans.get("")
def list_waiting_plans(
    session: deps.SessionDep, actor: deps.ActorDep, page: deps.PageQuery
) -> Page[WaitingPlan]:
    """The approvals inbox's plans: plans waiting for an approval the caller may give, across
    projects (plan:approve there, and not their launcher), the longest waiting first."""
    items, total = inbox.waiting(session, actor, utcnow(), limit=page.limit, offset=page.offset)
    return Page.of(items, total, page)
