from __future__ import annotations

import dataclasses
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, status

from steward.access.actor import Actor
from steward.access.policy import Action, ProjectAccess
from steward.api import deps
from steward.db import utcnow
from steward.schemas import Page
from steward.workflows import approvers, inbox, progress, schemas, service
from steward.workflows.models import NodeKind, Workflow, WorkflowRun, approver_must_differ

router = APIRouter(prefix="/projects/{project_id}", tags=["workflows"])
approvals = APIRouter(prefix="/approvals", tags=["workflows"])


def _viewer(rights: deps.AccessDep) -> ProjectAccess:
    rights.require(Action.WORKFLOW_VIEW)
    return rights


Viewer = Annotated[ProjectAccess, Depends(_viewer)]


def _editor(rights: deps.AccessDep) -> ProjectAccess:
    rights.require(Action.WORKFLOW_WRITE)
    return rights


Editor = Annotated[ProjectAccess, Depends(_editor)]


def _workflow(workflow_id: int, rights: Viewer, session: deps.SessionDep) -> Workflow:
    return service.get(session, rights.project, workflow_id)


ViewedWorkflow = Annotated[Workflow, Depends(_workflow)]


def _run(workflow_run_id: int, rights: Viewer, session: deps.SessionDep) -> WorkflowRun:
    return service.get_run(session, rights.project, workflow_run_id)


ViewedRun = Annotated[WorkflowRun, Depends(_run)]


def _planning(runtime: deps.RuntimeDep) -> progress.Planning:
    """What plan and apply nodes need (plans' lifetime, the reach asking whether a branch moved)."""
    return progress.Planning.of(runtime.settings, runtime.cipher)


PlanningDep = Annotated[progress.Planning, Depends(_planning)]
# the node keys' own pattern: a NUL or any other character no key holds is a 422 here, never a
# query (PostgreSQL refuses NUL in text with an error)
NodeKeyPath = Annotated[str, Path(max_length=schemas.KEY_MAX, pattern=schemas.KEY_PATTERN)]


def _read(
    session: deps.SessionDep, workflow: Workflow, names: dict[int, str] | None = None
) -> schemas.WorkflowRead:
    """``names``: the templates' names, when read for a whole page at once."""
    if names is None:
        names = service.template_names(session, workflow.nodes)
    nodes = [
        schemas.WorkflowNodeRead.model_validate(
            {
                **node,
                "template_name": names.get(node.get("template_id") or 0, ""),
                "approver_must_differ": approver_must_differ(node)
                if node["kind"] == NodeKind.APPROVAL
                else None,
            }
        )
        for node in workflow.nodes
    ]
    return schemas.WorkflowRead(
        id=workflow.id,
        project_id=workflow.project_id,
        name=workflow.name,
        description=workflow.description,
        nodes=nodes,
        edges=[schemas.WorkflowEdgeRead.model_validate(e) for e in workflow.edges],
        created_at=workflow.created_at,
        updated_at=workflow.updated_at,
    )


def _run_read(
    session: deps.SessionDep,
    wrun: WorkflowRun,
    rights: ProjectAccess,
    *,
    launcher: str,
    caller: Actor | None,
) -> schemas.WorkflowRunRead:
    """``caller``: for the full read (with its nodes), who asks, whose right to decide each
    approval node it says; None for a row of a list (the run alone)."""
    read = schemas.WorkflowRunRead.model_validate(wrun).model_copy(update={"launched_by": launcher})
    if caller is None:
        return read
    rows = service.nodes_of(session, wrun)
    names = service.template_names(session, [{"template_id": n.template_id} for n, _ in rows])
    nodes = [
        schemas.NodeRunRead.model_validate(node).model_copy(
            update={
                "run_status": run_status,
                "template_name": names.get(node.template_id or 0, ""),
                "approval": approvers.read(rights, caller, wrun, node, launcher)
                if node.kind == NodeKind.APPROVAL
                else None,
            }
        )
        for node, run_status in rows
    ]
    edges = [schemas.WorkflowEdgeRead.model_validate(e) for e in wrun.edges]
    can = Action.WORKFLOW_APPROVE in rights.actions
    return read.model_copy(update={"nodes": nodes, "edges": edges, "can_decide": can})


@router.get("/workflows")
def list_workflows(
    rights: Viewer, session: deps.SessionDep, page: deps.PageQuery
) -> Page[schemas.WorkflowRead]:
    """The project's workflows by name (project viewers and above)."""
    rows, total = service.list_for_project(
        session, rights.project, limit=page.limit, offset=page.offset
    )
    names = service.template_names(session, [n for w in rows for n in w.nodes])
    return Page.of([_read(session, w, names) for w in rows], total, page)


@router.post("/workflows", status_code=status.HTTP_201_CREATED)
def create_workflow(
    body: schemas.WorkflowCreate,
    rights: Editor,
    session: deps.SessionDep,
    actor: deps.ActorDep,
    cipher: deps.CipherDep,
) -> schemas.WorkflowRead:
    """Needs workflow:write (managers and owners). The document is checked as a whole: keys
    unique, edges between existing nodes, no cycle, templates of this project, each node's
    launch values as a launch of its template would check them; a 422 names the field."""
    created = service.create(session, rights.project, body, actor=actor, cipher=cipher)
    return _read(session, created)


@router.get("/workflows/{workflow_id}")
def read_workflow(workflow: ViewedWorkflow, session: deps.SessionDep) -> schemas.WorkflowRead:
    return _read(session, workflow)


@router.patch("/workflows/{workflow_id}")
def update_workflow(
    workflow: ViewedWorkflow,
    body: schemas.WorkflowUpdate,
    rights: Editor,
    session: deps.SessionDep,
    actor: deps.ActorDep,
    cipher: deps.CipherDep,
) -> schemas.WorkflowRead:
    """Only the fields sent change; ``nodes`` and ``edges`` replace the graph as a whole.
    Workflow runs under way keep the document they were launched with."""
    updated = service.update_workflow(
        session, rights.project, workflow, body, actor=actor, cipher=cipher
    )
    return _read(session, updated)


@router.delete("/workflows/{workflow_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_workflow(
    workflow: ViewedWorkflow, _rights: Editor, session: deps.SessionDep, actor: deps.ActorDep
) -> None:
    """Refused (409) while one of its runs is running; its finished runs stay."""
    service.delete_workflow(session, workflow, actor=actor)


@router.post("/workflows/{workflow_id}/launch", status_code=status.HTTP_201_CREATED)
def launch_workflow(
    workflow: ViewedWorkflow, launching: deps.LaunchingDep, planning: PlanningDep
) -> schemas.WorkflowRunRead:
    """The caller needs run:launch on every template of the workflow (403 naming the first it
    lacks); node runs are launched as the caller. The root nodes start at once."""
    session, rights, actor = launching.session, launching.rights, launching.actor
    request = service.Launch(rights, actor, workflow)
    wrun = service.launch(
        session, request, cipher=launching.cipher, queue=launching.queue, planning=planning
    )
    return _run_read(session, wrun, rights, launcher=actor.user.username, caller=actor)


@router.get("/workflow-runs")
def list_workflow_runs(
    rights: Viewer,
    session: deps.SessionDep,
    filters: Annotated[schemas.WorkflowRunFilters, Query()],
) -> schemas.WorkflowRunPage:
    """Newest first, keyset-paged by id like runs (``before_id``)."""
    rows, next_before = service.list_runs(session, rights.project, filters)
    items = [_run_read(session, w, rights, launcher=name, caller=None) for w, name in rows]
    return schemas.WorkflowRunPage(items=items, next_before_id=next_before)


@router.get("/workflow-runs/{workflow_run_id}")
def read_workflow_run(
    wrun: ViewedRun, rights: Viewer, session: deps.SessionDep, actor: deps.ActorDep
) -> schemas.WorkflowRunRead:
    """Its status and each node's: status, run, decision and why; for an approval node, who
    may decide it and whether the caller may (``approval``)."""
    launcher = service.launcher_name(session, wrun)
    return _run_read(session, wrun, rights, launcher=launcher, caller=actor)


@router.post("/workflow-runs/{workflow_run_id}/cancel")
def cancel_workflow_run(wrun: ViewedRun, launching: deps.LaunchingDep) -> schemas.WorkflowRunRead:
    """Needs run:cancel. Cancels the node runs under way and every node not decided; the
    workflow run is ``canceled`` once they stopped. 409 when it already ended."""
    launching.rights.require(Action.RUN_CANCEL)
    service.cancel(
        launching.session, launching.cipher, launching.queue, wrun, actor=launching.actor
    )
    return _moved_on(wrun, launching)


@dataclasses.dataclass(frozen=True)
class Deciding:
    """An approval node's decision as asked: the workflow run, the node's key, the caller's
    launch (what the decision starts) and what plan and apply nodes need."""

    wrun: WorkflowRun
    key: str
    launching: deps.Launching
    planning: progress.Planning

    def decide(self, approve: bool, body: schemas.Decision | None) -> schemas.WorkflowRunRead:
        launching, wrun = self.launching, self.wrun
        session = launching.session
        service.decide(
            session,
            launching.cipher,
            launching.queue,
            launching.rights,
            wrun,
            self.key,
            approve=approve,
            comment=body.comment if body is not None else "",
            actor=launching.actor,
            planning=self.planning,
        )
        session.refresh(wrun)
        return _moved_on(wrun, launching)


async def _deciding(
    wrun: ViewedRun, key: NodeKeyPath, launching: deps.LaunchingDep, planning: PlanningDep
) -> Deciding:
    return Deciding(wrun, key, launching, planning)


DecidingDep = Annotated[Deciding, Depends(_deciding)]


def _moved_on(wrun: WorkflowRun, launching: deps.Launching) -> schemas.WorkflowRunRead:
    """The workflow run as the caller who moved it on sees it."""
    launcher = service.launcher_name(launching.session, wrun)
    return _run_read(
        launching.session, wrun, launching.rights, launcher=launcher, caller=launching.actor
    )


@router.post("/workflow-runs/{workflow_run_id}/nodes/{key}/approve")
def approve_node(
    deciding: DecidingDep, body: schemas.Decision | None = None
) -> schemas.WorkflowRunRead:
    """Needs workflow:approve (operators and above; not a template grant), and someone other
    than the run's launcher (who launched it; a schedule's or webhook's owner) when the node
    says ``approver_must_differ`` (the default; admins too): 403 naming the rule. Once, while
    the node waits (409 after a decision or its timeout); what follows starts at once."""
    return deciding.decide(True, body)


@router.post("/workflow-runs/{workflow_run_id}/nodes/{key}/deny")
def deny_node(
    deciding: DecidingDep, body: schemas.Decision | None = None
) -> schemas.WorkflowRunRead:
    """As approve, except that the run's launcher may deny (withdraw) their own request; the
    node fails, and its failure edges fire."""
    return deciding.decide(False, body)


@approvals.get("")
def list_waiting_approvals(
    session: deps.SessionDep, actor: deps.ActorDep, page: deps.PageQuery
) -> Page[schemas.WaitingApproval]:
    """The approvals inbox: approval nodes waiting for a decision the caller may give, across
    projects (workflow:approve there, and not the launcher of a run whose node says
    ``approver_must_differ``), the longest waiting first; ``total`` counts them all."""
    items, total = inbox.waiting(session, actor, utcnow(), limit=page.limit, offset=page.offset)
    return Page.of(items, total, page)
