"""Advancing a workflow run: one pass, claimed, in one transaction.

A pass (``run_pass``) is wanted when ``needs_pass`` is set (a node run's status change in
``runs.lifecycle``, a decision, a cancel) or an approval's deadline has come (``wake_at``). It
claims the workflow run with a conditional UPDATE (``needs_pass`` → false, ``passes``) and does
everything in that transaction: nodes whose run ended take its outcome, approvals past their
deadline fail, the nodes that follow are started or skipped (``graph.next_steps``), node runs are
launched (``runs.launch``, as the workflow's launcher), and once every node is decided the workflow
run ends. A crash rolls all of it back and leaves ``needs_pass`` set: the next tick does it again.

A plan node launches its template as a plan (``plans.service.plan``); an apply node applies the
plan of its plan node through the binding an apply from the API goes through
(``plans.service.bound_apply``): refused, the node fails with the refusal ("plan again"). When the
template asks for plan approvals, the apply node waits for the plan's approval (a plan's
decision, ``plans.service.decide``, marks the workflow run) until the plan expires. Both need
``Planning`` (plans' lifetime, the reach that asks whether the plan's branch moved): a pass
without it (a schedule's or webhook's launch) leaves them pending and marked for the ticker's.

Locks come in one order: the runs of the nodes, then the workflow run, then its nodes (and a
plan its apply consumes). A run's status change takes its run row, then marks the workflow run;
a decision (of an approval node or of a plan) marks the workflow run, then changes its node
(its plan). So two servers passing the same workflow run wait for each other (the
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
from steward.config import Settings
from steward.crypto import KeyCipher, MasterKeyError
from steward.errors import DomainError, NotFound, PermissionDenied
from steward.notifications import outbox as notifications
from steward.outbound.network import Guard
from steward.plans import service as plans
from steward.plans.approvers import who
from steward.projects.models import Project
from steward.queue import RunQueue
from steward.repositories.checkout import Reach
from steward.runs import lifecycle
from steward.runs import service as runs
from steward.runs.models import LaunchType, Plan, Run, RunKind
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


@dataclasses.dataclass(frozen=True)
class Planning:
    """What plan and apply nodes need besides a launch: a plan's lifetime
    (``STEWARD_PLAN_TTL_HOURS``) and the reach that asks whether its branch moved."""

    ttl_hours: float
    reach: Reach

    @classmethod
    def of(cls, settings: Settings, cipher: KeyCipher) -> Planning:
        guard = Guard.of(settings)
        reach = Reach(cipher, settings.repository_roots, guard, settings.data_dir)
        return cls(settings.plan_ttl_hours, reach)


# claims given up because node runs appeared between the read of the watched runs and the claim
CLAIM_ATTEMPTS = 3


def run_pass(
    session: Session,
    cipher: KeyCipher,
    queue: RunQueue,
    wrun_id: int,
    now: dt.datetime,
    planning: Planning | None = None,
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
        done = advance(session, cipher, queue, wrun_id, now, planning)
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
        planning: Planning | None,
    ) -> None:
        self.session = session
        self.planning = planning
        self.deferred = False  # plan or apply nodes left for a pass with ``planning``
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
            if node.status != NodeStatus.WAITING or not late or node.kind != NodeKind.APPROVAL:
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

    def collect_plan_decisions(self) -> None:
        """Apply nodes waiting for their plan's approval: applied once it is approved, failed
        once it is rejected or expired."""
        for node in self.nodes:
            if node.kind == NodeKind.APPLY and node.status == NodeStatus.WAITING:
                if self.planning is None:
                    self.deferred = True
                else:
                    self._apply(node, self.planning)

    def step(self) -> bool:
        """Start or skip what follows; True when something changed (a failed launch may
        make more nodes ready)."""
        statuses = {n.key: NodeStatus(n.status) for n in self.nodes}
        start, skip = graph.next_steps(statuses, self.edges)
        by_key = {n.key: n for n in self.nodes}
        for key in skip:
            self.finish(by_key[key], NodeStatus.SKIPPED, "no edge into it fired")
        changed = bool(skip)
        for key in start:
            node = by_key[key]
            if node.kind in (NodeKind.PLAN, NodeKind.APPLY) and self.planning is None:
                self.deferred = True
                continue
            changed = True
            node.started_at = self.now
            if node.kind == NodeKind.APPROVAL:
                node.status = NodeStatus.WAITING
                if node.timeout_seconds:
                    node.deadline_at = self.now + dt.timedelta(seconds=node.timeout_seconds)
                notifications.on_approval_waiting(
                    self.session, self.wrun.project_id, self.wrun.id, node.key
                )
            elif node.kind == NodeKind.APPLY:
                assert self.planning is not None  # noqa: S101 - deferred above
                self._apply(node, self.planning)
            else:
                self._launch(node)
        return changed

    def _apply(self, node: WorkflowNodeRun, planning: Planning) -> None:
        """The apply of its plan node's plan, bound as an apply from the API is; waiting while
        the plan waits for its approval; or the node failed, saying why ("plan again")."""
        planned = next((n for n in self.nodes if n.key == node.plan_node), None)
        if planned is None or planned.kind != NodeKind.PLAN:
            self._fail(node, f"this workflow run has no plan node '{node.plan_node}'")
            return
        run = self.session.get(Run, planned.run_id) if planned.run_id is not None else None
        if planned.status != NodeStatus.SUCCESSFUL or run is None:
            said = f"'{planned.status}'" + (f" ({planned.reason})" if planned.reason else "")
            self._fail(node, f"its plan node '{planned.key}' is {said}: there is no plan to apply")
            return
        plan = self.session.get(Plan, run.id, populate_existing=True)
        if run.workflow_run_id != self.wrun.id or run.kind != RunKind.PLAN or plan is None:
            self._fail(node, f"run {run.id} is not the plan of node '{planned.key}'")
            return
        if plan.needs_approval and not plan.approval and not plans.expired(plan, self.now):
            node.status = NodeStatus.WAITING
            node.deadline_at = plan.expires_at  # a pass then fails it: the plan expired
            node.reason = f"waiting for the approval of plan {run.id} by {who(run)}"
            return
        launcher = self._launcher()
        if isinstance(launcher, str):
            self._fail(node, launcher)
            return
        actor, rights = launcher
        launching = plans.Launching(rights, actor, self.cipher, self.queue)
        trigger = Trigger(LaunchType.WORKFLOW, workflow_run_id=self.wrun.id)
        try:
            with self.session.begin_nested():  # a refusal leaves nothing of the apply behind
                applied = plans.bound_apply(
                    self.session, launching, run, reach=planning.reach, trigger=trigger,
                    now=self.now,
                )  # fmt: skip
        except (DomainError, ValidationError, MasterKeyError) as exc:
            self._fail(node, f"the apply of plan {run.id} was refused: {exc}")
        else:
            node.status = NodeStatus.RUNNING
            node.deadline_at = None
            node.reason = ""
            node.run_id = applied.id
            self.done.runs.append(applied.id)

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
            if node.kind == NodeKind.PLAN:
                assert self.planning is not None  # noqa: S101 - deferred in ``step``
                ttl = self.planning.ttl_hours
                run = plans.plan(
                    self.session, request, cipher=self.cipher, queue=self.queue, ttl_hours=ttl
                )
            else:
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
        if self.deferred:
            self.wrun.needs_pass = True  # the ticker's pass starts them
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
    session: Session,
    cipher: KeyCipher,
    queue: RunQueue,
    wrun_id: int,
    now: dt.datetime,
    planning: Planning | None = None,
) -> Done:
    """One pass over a workflow run this transaction holds (claimed, or just created)."""
    wrun = session.get(WorkflowRun, wrun_id, populate_existing=True)
    if wrun is None or WorkflowRunStatus(wrun.status).is_finished:
        return Done()
    one = _Pass(session, cipher, queue, wrun, now, planning)
    one.collect_runs()
    one.collect_timeouts()
    if wrun.cancel_requested_at is not None:
        one.cancel_rest()
    else:
        one.collect_plan_decisions()
        while one.step():
            pass
    one.conclude()
    session.flush()
    return one.done
