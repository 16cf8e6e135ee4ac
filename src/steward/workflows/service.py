"""Saving and reading workflows, launching them, deciding approvals and canceling their runs.

Advancing a workflow run is ``workflows.progress``; this module only starts it (the first pass
runs in the launch's own transaction, so the root runs exist when the launch answers).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import Action, ProjectAccess
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.crypto import KeyCipher, MasterKeyError
from steward.db import lookup, utcnow
from steward.errors import InvalidInput, InvalidState, NotFound, PermissionDenied
from steward.masking import MASK
from steward.projects import scoped
from steward.projects.models import Project
from steward.queue import RunQueue
from steward.runs import service as runs
from steward.runs.models import Run, RunKind
from steward.templates.launch import LaunchOverrides, resolve_launch
from steward.templates.models import Template
from steward.triggers import values
from steward.workflows import approvers, graph, passes, progress, usage
from steward.workflows.models import (
    NodeKind,
    NodeStatus,
    Workflow,
    WorkflowLaunchType,
    WorkflowNodeRun,
    WorkflowRun,
    WorkflowRunStatus,
    WorkflowTemplate,
    approver_must_differ,
)
from steward.workflows.schemas import (
    WorkflowCreate,
    WorkflowEdge,
    WorkflowNode,
    WorkflowRunFilters,
    WorkflowUpdate,
)
from steward.workflows.values import secret_answers, stored_launch

AUDITED_FIELDS = ("name", "description", "nodes", "edges")
RUN_GONE = "gone"  # a node's run removed by retention (``nodes_of``)


def _fields(workflow: Workflow) -> dict[str, Any]:
    """Its settings; secret answers are ``********`` in the nodes' launch values."""
    return audit.snapshot(workflow, AUDITED_FIELDS)


# --- the document --------------------------------------------------------------------------


def _templates(session: Session, project: Project, ids: set[int]) -> dict[int, Template]:
    found = session.scalars(
        select(Template).where(Template.id.in_(ids), Template.project_id == project.id)
    )
    return {t.id: t for t in found}


def _document(
    session: Session,
    cipher: KeyCipher,
    project: Project,
    nodes: Sequence[WorkflowNode],
    edges: Sequence[WorkflowEdge],
    kept: dict[str, dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], bytes | None, set[int]]:
    """(stored nodes, stored edges, sealed secrets, template ids) of a document, checked: the
    graph (``graph.check``), the templates (of this project), each node's launch values exactly
    as a launch of its template would check them. A 422 names the field."""
    plain = [node.model_dump(mode="json", exclude_none=True) for node in nodes]
    links = [graph.Edge(e.source, e.target, e.on) for e in edges]
    graph.check(plain, links)
    wanted = {n.template_id for n in nodes if n.template_id is not None}
    templates = _templates(session, project, wanted)
    stored: list[dict[str, Any]] = []
    secrets: dict[str, dict[str, Any]] = {}
    for i, node in enumerate(nodes):
        row: dict[str, Any] = {"key": node.key, "kind": str(node.kind), "name": node.name}
        if node.kind is NodeKind.APPROVAL:
            row["timeout_seconds"] = node.timeout_seconds or None
            row["approver_must_differ"] = node.approver_must_differ is not False
            stored.append(row)
            continue
        if node.kind is NodeKind.APPLY:
            stored.append(row | {"plan_node": node.plan_node})
            continue
        assert node.template_id is not None  # noqa: S101 - graph.check refused it
        template = templates.get(node.template_id)
        if template is None:
            raise InvalidInput(
                f"nodes.{i}.template_id",
                f"template {node.template_id} not found in project '{project.name}'",
            )
        refused = runs.kind_refusal(template, RunKind.PLAN) if node.kind is NodeKind.PLAN else ""
        if refused:
            raise InvalidInput(f"nodes.{i}.template_id", refused)
        body = node.launch or LaunchOverrides()
        try:
            shown, _sealed, answers = values.seal(
                session, cipher, template, body, kept.get(node.key, {})
            )
        except InvalidInput as exc:
            raise InvalidInput(f"nodes.{i}.{exc.field}", exc.reason) from None
        if answers:
            secrets[node.key] = answers
        row |= {"template_id": template.id, "launch": shown}
        stored.append(row)
    stored_edges = [e.model_dump(mode="json", by_alias=True) for e in edges]
    sealed = cipher.encrypt({"nodes": secrets}) if secrets else None
    return stored, stored_edges, sealed, wanted


def _link(session: Session, workflow: Workflow, template_ids: set[int]) -> None:
    session.execute(delete(WorkflowTemplate).where(WorkflowTemplate.workflow_id == workflow.id))
    session.add_all(WorkflowTemplate(workflow_id=workflow.id, template_id=t) for t in template_ids)


def template_names(session: Session, nodes: Sequence[dict[str, Any]]) -> dict[int, str]:
    ids = {n["template_id"] for n in nodes if n.get("template_id")}
    return lookup(session, Template.id, Template.name, ids)


# --- workflows -----------------------------------------------------------------------------


def list_for_project(
    session: Session, project: Project, *, limit: int, offset: int
) -> tuple[list[Workflow], int]:
    return scoped.list_in_project(session, Workflow, project, limit=limit, offset=offset)


def get(session: Session, project: Project, workflow_id: int) -> Workflow:
    return scoped.get_in_project(session, Workflow, project, workflow_id, "workflow")


def create(
    session: Session, project: Project, body: WorkflowCreate, *, actor: Actor, cipher: KeyCipher
) -> Workflow:
    scoped.check_name_free(session, Workflow, project, body.name, "workflow")
    nodes, edges, sealed, used = _document(session, cipher, project, body.nodes, body.edges, {})
    workflow = Workflow(
        project_id=project.id,
        name=body.name,
        description=body.description,
        nodes=nodes,
        edges=edges,
        secret_launch=sealed,
    )
    session.add(workflow)
    session.flush()  # the id its template links name
    _link(session, workflow, used)
    return audit.commit_created(session, actor, AuditAction.WORKFLOW_CREATE, workflow, _fields)


def update_workflow(
    session: Session,
    project: Project,
    workflow: Workflow,
    body: WorkflowUpdate,
    *,
    actor: Actor,
    cipher: KeyCipher,
) -> Workflow:
    before = _fields(workflow)
    changes = scoped.changes_of(session, project, workflow, body, "workflow")
    for field in ("name", "description"):
        if field in changes:
            setattr(workflow, field, changes[field])
    if body.nodes is not None or body.edges is not None:
        nodes = body.nodes
        if nodes is None:
            nodes = [WorkflowNode.model_validate(_unmasked(n)) for n in workflow.nodes]
        edges = body.edges
        if edges is None:
            edges = [WorkflowEdge.model_validate(e) for e in workflow.edges]
        kept = _kept_answers(cipher, workflow, nodes)
        stored, stored_edges, sealed, used = _document(session, cipher, project, nodes, edges, kept)
        workflow.nodes, workflow.edges, workflow.secret_launch = stored, stored_edges, sealed
        _link(session, workflow, used)
    workflow.updated_at = utcnow()
    session.flush()
    return audit.commit_updated(
        session, actor, AuditAction.WORKFLOW_UPDATE, workflow, before, _fields
    )


def _kept_answers(
    cipher: KeyCipher, workflow: Workflow, nodes: Sequence[WorkflowNode]
) -> dict[str, dict[str, Any]]:
    """The stored secret answers, by node key, that the new document keeps (an answer sent as
    ``********``). Opened only when one is kept: a document that sends every answer again
    replaces sealed answers the master key no longer opens; one that keeps them is a 409
    naming the first node that does."""
    keeping = [n.key for n in nodes if n.launch is not None and MASK in n.launch.survey.values()]
    if not keeping or workflow.secret_launch is None:
        return {}
    try:
        return secret_answers(cipher, workflow.secret_launch)
    except MasterKeyError:
        raise InvalidState(
            f"node '{keeping[0]}': its saved secret answers cannot be decrypted with the master"
            " key; send its answers again instead of ********"
        ) from None


def _unmasked(node: dict[str, Any]) -> dict[str, Any]:
    """A stored node as a request body (its ******** answers are kept by key when saved)."""
    return {k: v for k, v in node.items() if v is not None and (k != "name" or v)}


def delete_workflow(session: Session, workflow: Workflow, *, actor: Actor) -> None:
    usage.refuse_while_running(
        session, f"workflow '{workflow.name}'", WorkflowRun.workflow_id == workflow.id
    )
    audit.commit_deleted(session, actor, AuditAction.WORKFLOW_DELETE, workflow, _fields)


# --- launching -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Trigger:
    """How a workflow run is launched: by a person, or by a schedule or webhook (its owner).
    Its fields are the workflow run's columns of the same names."""

    launch_type: WorkflowLaunchType = WorkflowLaunchType.MANUAL
    schedule_id: int | None = None
    webhook_id: int | None = None


MANUAL = Trigger()


@dataclasses.dataclass(frozen=True)
class Launch:
    """One workflow launch: who asks (``actor``, with their ``rights`` in the workflow's
    project), which workflow, triggered how (a template's launch: ``runs.service.Launch``)."""

    rights: ProjectAccess
    actor: Actor
    workflow: Workflow
    trigger: Trigger = MANUAL


def launch(
    session: Session,
    request: Launch,
    *,
    cipher: KeyCipher,
    queue: RunQueue,
    planning: progress.Planning | None = None,
) -> WorkflowRun:
    """A workflow run of the document as it is now (``start``), committed, its root runs
    handed to the queue."""
    wrun, done = start(session, request, cipher=cipher, queue=queue, planning=planning)
    session.commit()
    done.send(queue)
    return wrun


def require_node_launch(
    session: Session, rights: ProjectAccess, workflow: Workflow
) -> dict[int, str]:
    """run:launch on every template node, what launching the workflow needs (403 naming the
    first node that the caller may not launch); the nodes' template names by id."""
    names = template_names(session, workflow.nodes)
    for node in workflow.nodes:
        if not NodeKind(node["kind"]).launches:
            continue
        template_id = node["template_id"]
        if Action.RUN_LAUNCH not in rights.template_actions(template_id):
            raise PermissionDenied(
                f"permission '{Action.RUN_LAUNCH}' is required on template"
                f" '{names.get(template_id, template_id)}' (node '{node['key']}') to launch"
                f" workflow '{workflow.name}'"
            )
    return names


def check_launch(
    session: Session, cipher: KeyCipher, rights: ProjectAccess, workflow: Workflow
) -> None:
    """What a launch checks first: the caller must be allowed to launch every template node
    (403 naming the first that it may not), and every node's launch values must still pass
    (422 naming the node; 409 when a node's template was deleted)."""
    names = require_node_launch(session, rights, workflow)
    templates = _templates(session, rights.project, set(names))
    for node in workflow.nodes:
        if not NodeKind(node["kind"]).launches:
            continue
        template = templates.get(node["template_id"])
        if template is None:
            raise InvalidState(f"node '{node['key']}': its template was deleted")
        try:
            body = stored_launch(
                cipher, node.get("launch", {}), node["key"], workflow.secret_launch
            )
        except MasterKeyError:
            raise InvalidState(
                f"node '{node['key']}': its saved answers cannot be decrypted with the master"
                " key; save the workflow's launch values again"
            ) from None
        try:
            resolve_launch(session, template, body)
        except InvalidInput as exc:
            raise InvalidInput(f"nodes.{node['key']}.launch.{exc.field}", exc.reason) from None


def start(
    session: Session,
    request: Launch,
    *,
    cipher: KeyCipher,
    queue: RunQueue,
    planning: progress.Planning | None = None,
) -> tuple[WorkflowRun, progress.Done]:
    """A workflow run of the document as it is now, checked as ``check_launch`` says; the root
    nodes start in the caller's transaction, which commits (then sends what is done). Without
    ``planning``, root plan nodes start at the ticker's pass."""
    actor, workflow = request.actor, request.workflow
    check_launch(session, cipher, request.rights, workflow)
    now = utcnow()
    wrun = WorkflowRun(
        project_id=request.rights.project.id,
        workflow_id=workflow.id,
        workflow_name=workflow.name,
        status=WorkflowRunStatus.RUNNING,
        launched_by_id=actor.user.id,
        **dataclasses.asdict(request.trigger),
        edges=list(workflow.edges),
        secret_launch=workflow.secret_launch,
        needs_pass=False,
        created_at=now,
    )
    session.add(wrun)
    session.flush()
    planned = {node["key"]: node.get("template_id") for node in workflow.nodes}
    for position, node in enumerate(workflow.nodes):
        applied = node.get("plan_node")
        session.add(
            WorkflowNodeRun(
                workflow_run_id=wrun.id,
                key=node["key"],
                position=position,
                kind=node["kind"],
                name=node.get("name", ""),
                # an apply node: its plan node's template (the one it applies)
                template_id=planned.get(applied) if applied else node.get("template_id"),
                launch=node.get("launch", {}),
                timeout_seconds=node.get("timeout_seconds") or None,
                approver_must_differ=approver_must_differ(node),
                plan_node=applied,
                status=NodeStatus.PENDING,
            )
        )
    session.flush()
    detail = f"workflow '{workflow.name}' ({len(workflow.nodes)} nodes) via {actor.via}"
    _audit_run(session, actor, AuditAction.WORKFLOW_LAUNCH, wrun, detail)
    done = progress.advance(session, cipher, queue, wrun.id, now, planning)
    return wrun, done


# --- workflow runs -------------------------------------------------------------------------


def list_runs(
    session: Session, project: Project, filters: WorkflowRunFilters
) -> tuple[list[tuple[WorkflowRun, str]], int | None]:
    """Newest first, keyset-paged by id, with the launcher's name."""
    query = (
        select(WorkflowRun, User.username)
        .outerjoin(User, User.id == WorkflowRun.launched_by_id)
        .where(WorkflowRun.project_id == project.id)
    )
    if filters.workflow_id is not None:
        query = query.where(WorkflowRun.workflow_id == filters.workflow_id)
    if filters.before_id is not None:
        query = query.where(WorkflowRun.id < filters.before_id)
    rows = session.execute(query.order_by(WorkflowRun.id.desc()).limit(filters.limit + 1)).all()
    page = [(wrun, name or "") for wrun, name in rows[: filters.limit]]
    next_before = page[-1][0].id if len(rows) > filters.limit else None
    return page, next_before


def get_run(session: Session, project: Project, wrun_id: int) -> WorkflowRun:
    wrun = session.get(WorkflowRun, wrun_id)
    if wrun is None or wrun.project_id != project.id:
        raise NotFound(f"workflow run {wrun_id} not found in project '{project.name}'")
    return wrun


def nodes_of(session: Session, wrun: WorkflowRun) -> list[tuple[WorkflowNodeRun, str | None]]:
    """Its nodes in document order, each with its run's status now (``gone`` once retention
    removed the run; None for a node without a run)."""
    rows = session.execute(
        select(WorkflowNodeRun, Run.id, Run.status)
        .outerjoin(  # its own run: SQLite may give a removed run's id to a later run
            Run,
            (Run.id == WorkflowNodeRun.run_id) & (Run.workflow_run_id == wrun.id),
        )
        .where(WorkflowNodeRun.workflow_run_id == wrun.id)
        .order_by(WorkflowNodeRun.position)
    ).all()
    # and on SQLite that may even be a later node's run of this workflow run: the run is the
    # node's that launched last
    owner = {n.run_id: n.key for n, _f, _s in sorted(rows, key=lambda r: _launched(r[0]))}
    return [
        (node, status if found is not None and owner[found] == node.key else RUN_GONE)
        if node.run_id is not None
        else (node, None)
        for node, found, status in rows
    ]


def _launched(node: WorkflowNodeRun) -> tuple[float, int]:
    return (node.started_at.timestamp() if node.started_at else 0.0), node.position


def launcher_name(session: Session, wrun: WorkflowRun) -> str:
    user = session.get(User, wrun.launched_by_id) if wrun.launched_by_id else None
    return user.username if user else ""


def decide(
    session: Session,
    cipher: KeyCipher,
    queue: RunQueue,
    rights: ProjectAccess,
    wrun: WorkflowRun,
    key: str,
    *,
    approve: bool,
    comment: str,
    actor: Actor,
    planning: progress.Planning | None = None,
) -> WorkflowNodeRun:
    """Approve or deny a waiting approval node: once, before its deadline (409 otherwise),
    by whom ``workflows.approvers`` allows (403 naming the permission, or the rule that its
    launcher may not approve it). What follows starts at once (a pass, as the ticker would
    do it)."""
    rights.require(approvers.PERMISSION)
    node = session.scalar(
        select(WorkflowNodeRun).where(
            WorkflowNodeRun.workflow_run_id == wrun.id, WorkflowNodeRun.key == key
        )
    )
    if node is None:
        raise NotFound(f"node '{key}' not found in workflow run {wrun.id}")
    if node.kind != NodeKind.APPROVAL:
        raise InvalidState(
            f"node '{key}' is a {node.kind} node: only approvals are decided (an apply node's"
            " plan is approved as a plan)"
        )
    if NodeStatus(node.status).is_finished:  # for good: told as such, whoever asks
        raise _not_waiting(node, late=False)
    # a pending node may start waiting before the UPDATE below: checked whatever the status read
    reason = approvers.refusal(
        rights, actor, wrun, node, launcher_name(session, wrun), approve=approve
    )
    if reason:  # a 403 naming the rule
        raise PermissionDenied(reason)
    now = utcnow()
    verb = "approved" if approve else "denied"
    reason = f"{verb} by {actor.user.username}" + (f": {comment}" if comment else "")
    status = NodeStatus.SUCCESSFUL if approve else NodeStatus.FAILED
    passes.mark(session, wrun.id)  # the workflow run first: the order every writer keeps
    decided = session.execute(
        update(WorkflowNodeRun)
        .where(
            WorkflowNodeRun.id == node.id,
            WorkflowNodeRun.status == NodeStatus.WAITING,
            (WorkflowNodeRun.deadline_at.is_(None)) | (WorkflowNodeRun.deadline_at > now),
        )
        .values(
            status=status,
            decided_by_id=actor.user.id,
            decided_by=actor.user.username,
            decided_at=now,
            reason=reason,
            finished_at=now,
        )
        .execution_options(synchronize_session=False)
    )
    if decided.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        session.refresh(node)
        # its deadline passed, not yet recorded
        raise _not_waiting(node, late=node.status == NodeStatus.WAITING)
    action = AuditAction.WORKFLOW_APPROVE if approve else AuditAction.WORKFLOW_DENY
    _audit_run(session, actor, action, wrun, f"node '{key}' ({node.name}) {reason}")
    session.commit()
    _pass(session, cipher, queue, wrun.id, planning)
    session.refresh(node)
    return node


def _not_waiting(node: WorkflowNodeRun, *, late: bool) -> InvalidState:
    state = "timed out" if late else f"is '{node.status}'"
    why = f" ({node.reason})" if node.reason and not late else ""
    return InvalidState(f"node '{node.key}' is not waiting for a decision: it {state}{why}")


def cancel(
    session: Session, cipher: KeyCipher, queue: RunQueue, wrun: WorkflowRun, *, actor: Actor
) -> WorkflowRun:
    """Cancel the node runs under way and every node not decided yet; the workflow run is
    ``canceled`` once its runs have stopped. 409 when it already ended; asking again while
    it stops changes nothing."""
    if WorkflowRunStatus(wrun.status).is_finished:
        raise InvalidState(
            f"workflow run {wrun.id} already ended ({wrun.status}); there is nothing to cancel"
        )
    marked = session.execute(
        update(WorkflowRun)
        .where(
            WorkflowRun.id == wrun.id,
            WorkflowRun.status == WorkflowRunStatus.RUNNING,
            WorkflowRun.cancel_requested_at.is_(None),
        )
        .values(cancel_requested_at=utcnow(), needs_pass=True)
        .execution_options(synchronize_session=False)
    )
    if marked.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        session.refresh(wrun)
        if wrun.status != WorkflowRunStatus.RUNNING:
            raise InvalidState(f"workflow run {wrun.id} already ended ({wrun.status})")
        return wrun  # asked twice: the first request does it
    _audit_run(session, actor, AuditAction.WORKFLOW_CANCEL, wrun, "")
    session.commit()
    _pass(session, cipher, queue, wrun.id)
    session.refresh(wrun)
    return wrun


def _pass(
    session: Session,
    cipher: KeyCipher,
    queue: RunQueue,
    wrun_id: int,
    planning: progress.Planning | None = None,
) -> None:
    done = progress.run_pass(session, cipher, queue, wrun_id, utcnow(), planning)
    if done is not None:
        done.send(queue)


def _audit_run(
    session: Session, actor: Actor, action: AuditAction, wrun: WorkflowRun, detail: str
) -> None:
    audit.record(
        session,
        actor,
        action,
        object_type="workflow_run",
        object_id=wrun.id,
        object_name=wrun.workflow_name,
        project_id=wrun.project_id,
        detail=detail,
        source_ip=actor.source_ip,
        user_agent=actor.user_agent,
    )
