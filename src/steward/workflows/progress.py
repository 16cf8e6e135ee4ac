"""Advancing a workflow run: one pass, claimed, in one transaction.

A pass (``run_pass``) is wanted when ``needs_pass`` is set (a node run's status change in
``runs.lifecycle``, a decision, a cancel) or an approval's deadline has come (``wake_at``). It
claims the workflow run with a conditional UPDATE (``needs_pass`` → false, ``passes``) and does
everything in that transaction: nodes whose run ended take its outcome, approvals past their
deadline fail, the nodes that follow are started or skipped (``graph.next_steps``), node runs are
launched (``runs.launch``, as the workflow's launcher), and once every node is decided the workflow
run ends. A crash rolls all of it back and leaves ``needs_pass`` set: the next tick does it again.

Locks come in one order: the runs of the nodes, then the workflow run, then its nodes. A run's
status change takes its run row, then marks the workflow run; a decision marks the workflow run,
then changes its node. So two servers passing the same workflow run wait for each other (the
second finds nothing to claim) and a pass never deadlocks with the runs it watches.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging

from pydantic import ValidationError
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import ProjectAccess, access
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.crypto import KeyCipher, MasterKeyError
from steward.errors import DomainError, NotFound, PermissionDenied
from steward.notifications import outbox as notifications
from steward.projects.models import Project
from steward.queue import RunQueue
from steward.runs import lifecycle
from steward.runs import service as runs
from steward.runs.models import LaunchType, Run
from steward.runs.service import Trigger
from steward.runs.status import Reason, RunStatus
from steward.workflows import graph, passes
from steward.workflows.models import (
    NodeKind,
    NodeStatus,
    WorkflowNodeRun,
    WorkflowRun,
    WorkflowRunStatus,
)
from steward.workflows.values import stored_launch

log = logging.getLogger(__name__)


@dataclasses.dataclass
class Done:
    """What a pass did: the runs it launched (handed to the queue when the pass commits, by
    ``runs.handoff``), and the runs to signal once it committed (``send``)."""

    runs: list[int] = dataclasses.field(default_factory=list)
    cancels: list[int] = dataclasses.field(default_factory=list)

    def send(self, queue: RunQueue) -> None:
        for run_id in self.cancels:
            queue.cancel(run_id)


# claims given up because node runs appeared between the read of the watched runs and the claim
CLAIM_ATTEMPTS = 3


def run_pass(
    session: Session, cipher: KeyCipher, queue: RunQueue, wrun_id: int, now: dt.datetime
) -> Done | None:
    """Claim and advance one workflow run; commits. None when there was nothing to claim
    (another process did it, or it needs no pass). The caller sends the ``Done``.

    On PostgreSQL the node runs under way are locked before the workflow run (the lock order).
    A pass elsewhere may launch node runs between reading them and the claim (it held the
    workflow run, this claim waited for it): this pass would then lock those runs after the
    workflow run (canceling them), against a pass that locked them first and waits for the
    workflow run — a deadlock, one of them failed by PostgreSQL (a cancel request's answer a
    500). So the claim is given up and taken again with them locked first."""
    locking = session.get_bind().dialect.name == "postgresql"
    for _attempt in range(CLAIM_ATTEMPTS):
        watched = _running_node_runs(session, wrun_id)
        if watched and locking:
            session.execute(select(Run.id).where(Run.id.in_(watched)).with_for_update())
        claimed = session.execute(
            update(WorkflowRun)
            .where(WorkflowRun.id == wrun_id, passes.wanted(now))
            .values(needs_pass=False)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            session.rollback()
            return None
        if locking and not _running_node_runs(session, wrun_id) <= watched:
            session.rollback()  # needs_pass stays set
            continue
        done = advance(session, cipher, queue, wrun_id, now)
        session.commit()
        return done
    return None  # the workflow run still wants its pass: the next tick makes it


def _running_node_runs(session: Session, wrun_id: int) -> set[int]:
    return set(
        session.scalars(
            select(WorkflowNodeRun.run_id).where(
                WorkflowNodeRun.workflow_run_id == wrun_id,
                WorkflowNodeRun.status == NodeStatus.RUNNING,
                WorkflowNodeRun.run_id.is_not(None),
            )
        )
    )


class _Pass:
    def __init__(
        self,
        session: Session,
        cipher: KeyCipher,
        queue: RunQueue,
        wrun: WorkflowRun,
        now: dt.datetime,
    ) -> None:
        self.session = session
        self.cipher = cipher
        self.queue = queue
        self.wrun = wrun
        self.now = now
        self.done = Done()
        self.nodes = list(
            session.scalars(
                select(WorkflowNodeRun)
                .where(WorkflowNodeRun.workflow_run_id == wrun.id)
                .order_by(WorkflowNodeRun.position)
                .execution_options(populate_existing=True)
            )
        )
        self.edges = [graph.Edge(e["from"], e["to"], e["on"]) for e in wrun.edges]
        self._rights: ProjectAccess | None = None

    def finish(self, node: WorkflowNodeRun, status: NodeStatus, reason: str) -> None:
        node.status = status
        node.reason = reason
        node.finished_at = self.now

    # what happened since the last pass
    def collect_runs(self) -> None:
        running = [n for n in self.nodes if n.status == NodeStatus.RUNNING]
        if not running:
            return
        found = {
            run_id: (RunStatus(status), reason)
            for run_id, status, reason in self.session.execute(
                select(Run.id, Run.status, Run.status_reason).where(
                    Run.id.in_([n.run_id for n in running]),
                    Run.workflow_run_id == self.wrun.id,  # a removed run's id may be reused
                )
            )
        }
        for node in running:
            seen = found.get(node.run_id or 0)
            if seen is None:
                self.finish(node, NodeStatus.FAILED, f"its run {node.run_id} is gone")
                continue
            status, why = seen
            if not status.is_finished:
                continue
            said = f"run {node.run_id} {status}" + (f": {why}" if why else "")
            if status is RunStatus.SUCCESSFUL:
                self.finish(node, NodeStatus.SUCCESSFUL, said)
            elif status is RunStatus.CANCELED and self.wrun.cancel_requested_at is not None:
                self.finish(node, NodeStatus.CANCELED, said)
            else:
                self.finish(node, NodeStatus.FAILED, said)

    def collect_timeouts(self) -> None:
        for node in self.nodes:
            late = node.deadline_at is not None and node.deadline_at <= self.now
            if node.status != NodeStatus.WAITING or not late:
                continue
            reason = f"timed out: not decided within {node.timeout_seconds} s"
            self.finish(node, NodeStatus.FAILED, reason)
            node.decided_at = self.now
            audit.record(
                self.session,
                None,
                AuditAction.WORKFLOW_APPROVAL_TIMEOUT,
                object_type="workflow_run",
                object_id=self.wrun.id,
                object_name=self.wrun.workflow_name,
                project_id=self.wrun.project_id,
                detail=f"node '{node.key}' ({node.name}) {reason}",
            )

    # what follows
    def cancel_rest(self) -> None:
        for node in self.nodes:
            if node.status in (NodeStatus.PENDING, NodeStatus.WAITING):
                self.finish(node, NodeStatus.CANCELED, "the workflow run was canceled")
            elif node.status == NodeStatus.RUNNING and node.run_id is not None:
                self._cancel_run(node, node.run_id)

    def _cancel_run(self, node: WorkflowNodeRun, run_id: int) -> None:
        """A queued run is canceled here (its node with it); a running one is signalled and
        its node follows when its status changes."""
        run = self.session.get(Run, run_id)
        if run is None or RunStatus(run.status).is_finished:
            return
        if run.status == RunStatus.QUEUED and lifecycle.transition(
            self.session,
            run_id,
            RunStatus.CANCELED,
            reason=Reason.CANCELED_QUEUED,
            current=RunStatus.QUEUED,
        ):
            self.finish(node, NodeStatus.CANCELED, f"run {run_id} {Reason.CANCELED_QUEUED}")
        if run.cancel_requested_at is None:
            self.session.execute(
                update(Run)
                .where(Run.id == run_id)
                .values(cancel_requested_at=self.now)
                .execution_options(synchronize_session=False)
            )
        self.done.cancels.append(run_id)

    def step(self) -> bool:
        """Start or skip what follows; True when something changed (a failed launch may
        make more nodes ready)."""
        statuses = {n.key: NodeStatus(n.status) for n in self.nodes}
        start, skip = graph.next_steps(statuses, self.edges)
        by_key = {n.key: n for n in self.nodes}
        for key in skip:
            self.finish(by_key[key], NodeStatus.SKIPPED, "no edge into it fired")
        for key in start:
            node = by_key[key]
            node.started_at = self.now
            if node.kind == NodeKind.APPROVAL:
                node.status = NodeStatus.WAITING
                if node.timeout_seconds:
                    node.deadline_at = self.now + dt.timedelta(seconds=node.timeout_seconds)
                notifications.on_approval_waiting(
                    self.session, self.wrun.project_id, self.wrun.id, node.key
                )
            else:
                self._launch(node)
        return bool(start or skip)

    def _launch(self, node: WorkflowNodeRun) -> None:
        """The node's run, launched as the workflow run's launcher through the launch gate
        (their rights now); or the node failed, saying why."""
        launcher = self._launcher()
        if isinstance(launcher, str):
            self._fail(node, launcher)
            return
        actor, rights = launcher
        try:
            assert node.template_id is not None  # noqa: S101 - a template node
            body = stored_launch(self.cipher, node.launch, node.key, self.wrun.secret_launch)
            trigger = Trigger(LaunchType.WORKFLOW, workflow_run_id=self.wrun.id)
            request = runs.Launch(rights, actor, node.template_id, body, trigger)
            run = runs.launch(self.session, request, cipher=self.cipher, queue=self.queue)
        except (NotFound, PermissionDenied) as exc:
            who = f"launcher '{actor.user.username}'"
            self._fail(node, f"{who} may no longer launch template {node.template_id}: {exc}")
        except (DomainError, ValidationError, MasterKeyError) as exc:
            self._fail(node, f"its run could not be launched: {exc}")
        else:
            node.status = NodeStatus.RUNNING
            node.run_id = run.id
            self.done.runs.append(run.id)

    def _fail(self, node: WorkflowNodeRun, problem: str) -> None:
        log.warning("workflow run %s: node '%s' failed: %s", self.wrun.id, node.key, problem)
        self.finish(node, NodeStatus.FAILED, problem)

    def _launcher(self) -> tuple[Actor, ProjectAccess] | str:
        """The launcher as the actor of the node runs, and their rights now (read once a
        pass); or why there is none."""
        launcher = (
            self.session.get(User, self.wrun.launched_by_id) if self.wrun.launched_by_id else None
        )
        if launcher is None or not launcher.is_active:
            return "its launcher was deleted" if launcher is None else "its launcher is disabled"
        actor = Actor.trigger(launcher, "workflow", self.wrun.id)
        if self._rights is None:
            project = self.session.get_one(Project, self.wrun.project_id)
            self._rights = access(self.session, actor, project)
        return actor, self._rights

    def conclude(self) -> None:
        statuses = {n.key: NodeStatus(n.status) for n in self.nodes}
        waiting = [n.deadline_at for n in self.nodes if n.status == NodeStatus.WAITING]
        deadlines = [d for d in waiting if d is not None]
        self.wrun.wake_at = min(deadlines) if deadlines else None
        if not all(s.is_finished for s in statuses.values()):
            return
        if self.wrun.cancel_requested_at is not None:
            status, reason = WorkflowRunStatus.CANCELED, "canceled on request"
        else:
            unhandled = graph.unhandled_failures(statuses, self.edges)
            if unhandled:
                names = ", ".join(f"'{k}'" for k in unhandled)
                status = WorkflowRunStatus.FAILED
                reason = f"node {names} failed and no failure or always edge handles it"
            else:
                status, reason = WorkflowRunStatus.SUCCESSFUL, ""
        self.wrun.status = status
        self.wrun.status_reason = reason
        self.wrun.finished_at = self.now
        self.wrun.wake_at = None
        log.info("workflow run %s %s %s", self.wrun.id, status, reason)


def advance(
    session: Session, cipher: KeyCipher, queue: RunQueue, wrun_id: int, now: dt.datetime
) -> Done:
    """One pass over a workflow run this transaction holds (claimed, or just created)."""
    wrun = session.get(WorkflowRun, wrun_id, populate_existing=True)
    if wrun is None or WorkflowRunStatus(wrun.status).is_finished:
        return Done()
    one = _Pass(session, cipher, queue, wrun, now)
    one.collect_runs()
    one.collect_timeouts()
    if wrun.cancel_requested_at is not None:
        one.cancel_rest()
    else:
        while one.step():
            pass
    one.conclude()
    session.flush()
    return one.done
