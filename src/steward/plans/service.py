"""Plans and their bound applies: a plan is a run of a template (``Run.kind`` plan) in check +
diff mode, launched through the launch gate; its apply is another run through the gate (kind
apply, ``plan_id``), pinned to the plan's commit with its launch values, refused (409, "plan
again") when anything it was bound to moved (``binding``), and checked again while it executes
(``execution/binding``: the resolved inventory, the commit). What would change is read from
``run_changes`` (``execution/changes``); four eyes: ``approvers``."""

from __future__ import annotations

import dataclasses
import datetime as dt

from sqlalchemy import update
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import ProjectAccess
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.crypto import KeyCipher
from steward.db import utcnow
from steward.errors import Conflict, InvalidState, PermissionDenied
from steward.plans import approvers, binding
from steward.queue import RunQueue
from steward.repositories import git
from steward.repositories.checkout import Reach
from steward.repositories.models import Repository
from steward.repositories.service import test_access
from steward.runs import relaunch as relaunch_values
from steward.runs import service as runs
from steward.runs.models import LaunchType, Plan, Run, RunKind
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from steward.templates.launch import LaunchOverrides, resolve_launch
from steward.templates.models import Template
from steward.workflows import passes

PLAN_AGAIN = "plan again"
FULL_COMMIT = 40


@dataclasses.dataclass(frozen=True)
class Launching:
    """Who launches, with which rights, and where the run goes (a route's ``LaunchingDep``)."""

    rights: ProjectAccess
    actor: Actor
    cipher: KeyCipher
    queue: RunQueue


def launch_plan(
    session: Session,
    launching: Launching,
    template_id: int,
    overrides: LaunchOverrides,
    launch_type: LaunchType,
    *,
    ttl_hours: float,
) -> Run:
    """A plan of the template by a person (``plan``). Commits."""
    request = runs.Launch(
        launching.rights, launching.actor, template_id, overrides, runs.Trigger(launch_type)
    )
    run = plan(
        session, request, cipher=launching.cipher, queue=launching.queue, ttl_hours=ttl_hours
    )
    session.commit()
    return run


def plan(
    session: Session, request: runs.Launch, *, cipher: KeyCipher, queue: RunQueue, ttl_hours: float
) -> Run:
    """A plan of ``request``'s template: through the launch gate as a run of kind plan
    (run:launch, the values checked, the template must allow plans; check and diff mode
    forced), with its binding and expiry, in the caller's transaction (a person's request, or
    a schedule's occurrence: ``triggers.launch``)."""
    request = dataclasses.replace(request, kind=RunKind.PLAN)
    run = runs.launch(session, request, cipher=cipher, queue=queue)
    template = session.get_one(Template, request.template_id)
    params = RunParams.of(run.params, run.id)
    session.add(
        Plan(
            run_id=run.id,
            expires_at=run.created_at + dt.timedelta(hours=ttl_hours),
            binding=binding.binding(session, template, params),
            needs_approval=template.plan_approval,
        )
    )
    return run


def plan_of(session: Session, run: Run) -> Plan:
    """The binding of a plan run; 409 naming the cause for a run that is not a plan."""
    plan = session.get(Plan, run.id) if run.kind == RunKind.PLAN else None
    if plan is None:
        raise InvalidState(f"run {run.id} is a {run.kind}, not a plan: only a plan is applied")
    return plan


def expired(plan: Plan, now: dt.datetime) -> bool:
    return now >= plan.expires_at


def standing_refusal(run: Run, plan: Plan, now: dt.datetime) -> str:
    """Why the plan cannot be applied whatever changed around it ('' when it can): not a
    success, applied already, expired, rejected, or waiting for an approval."""
    status = RunStatus(run.status)
    if status is not RunStatus.SUCCESSFUL:
        if not status.is_finished:
            return f"plan {run.id} has not finished ({status}): apply it once it succeeded"
        return f"plan {run.id} did not succeed ({status}): {PLAN_AGAIN}"
    if plan.apply_run_id is not None:
        return f"plan {run.id} was applied already by run {plan.apply_run_id}: {PLAN_AGAIN}"
    if expired(plan, now):
        when = plan.expires_at.isoformat(timespec="seconds")
        return f"plan {run.id} expired at {when}: {PLAN_AGAIN}"
    if plan.approval == approvers.REJECTED:
        return f"plan {run.id} was rejected: {PLAN_AGAIN}"
    if plan.needs_approval and plan.approval != approvers.APPROVED:
        return f"plan {run.id} needs an approval before it is applied: {approvers.who(run)}"
    return ""


def _head_moved(session: Session, reach: Reach, run: Run, params: RunParams) -> str:
    """'' when the plan's branch is still at the commit it ran, else why not: the branch asked
    now (``git ls-remote`` through the outbound rules, as the repository's check does; a local
    repository: its current commit). A commit given at launch cannot move."""
    if params.ref and len(params.ref) == FULL_COMMIT and git.COMMIT.fullmatch(params.ref):
        return ""
    repo = session.get(Repository, params.repository_id)
    if repo is None or repo.project_id != run.project_id:
        return f"the plan's repository no longer exists: {PLAN_AGAIN}"
    if params.ref:  # a branch or tag given at launch: asked instead of the repository's own
        repo = _with_ref(repo, params.ref)
    try:
        now = test_access(session, reach.cipher, repo, reach.scratch, reach.roots, reach.guard)
    except Exception as exc:  # noqa: BLE001 - an unreachable repository refuses the apply
        message = getattr(exc, "message", type(exc).__name__)
        raise Conflict(
            f"the repository could not be asked whether its branch moved since plan {run.id}:"
            f" {message}"
        ) from None
    if now.commit and now.commit != run.commit_hash:
        branch = params.ref or repo.ref or "HEAD"
        return (
            f"'{branch}' moved since the plan (from {run.commit_hash[:12]} to"
            f" {now.commit[:12]}): {PLAN_AGAIN}"
        )
    return ""


def _with_ref(repo: Repository, ref: str) -> Repository:
    """A transient copy of ``repo`` naming ``ref`` (never added to the session)."""
    copy = Repository(**{c.key: getattr(repo, c.key) for c in Repository.__table__.columns})
    copy.ref = ref
    return copy


def apply(
    session: Session,
    launching: Launching,
    run: Run,
    *,
    reach: Reach,
    now: dt.datetime | None = None,
) -> Run:
    """The apply of plan ``run`` by a person (``bound_apply``). Commits."""
    applied = bound_apply(session, launching, run, reach=reach, now=now)
    session.commit()
    return applied


def bound_apply(
    session: Session,
    launching: Launching,
    run: Run,
    *,
    reach: Reach,
    trigger: runs.Trigger | None = None,
    now: dt.datetime | None = None,
) -> Run:
    """The apply of plan ``run``: refused (409 naming what changed, "plan again") unless it
    stands (``standing_refusal``) and its template, environment, keys, launch values and
    branch are as they were; then through the launch gate with kind apply, the plan's commit
    pinned, its launch values and secret answers, check and diff mode off. The plan is
    consumed by a conditional update: two applies at once, one wins. In the caller's
    transaction (a person's request: ``apply``; a workflow's apply node, ``trigger`` its
    workflow run: ``workflows.progress``)."""
    plan = plan_of(session, run)
    template = runs.relaunched_template(session, launching.rights, run)
    refused = standing_refusal(run, plan, now or utcnow())
    if refused:
        raise InvalidState(refused)
    overrides, _granted = relaunch_values.overrides(
        session, launching.cipher, run, template, LaunchOverrides(), failed_only=False
    )
    overrides = overrides.model_copy(update={"ref": run.commit_hash})
    granted = frozenset({"ref"})
    resolved = resolve_launch(session, template, overrides, granted=granted).params
    params = runs.scoped(launching.rights, template, resolved)  # as the apply will store them
    changed = binding.changed(plan.binding, binding.binding(session, template, params))
    if changed:
        said = ", ".join(changed[:-1]) + (" and " if len(changed) > 1 else "") + changed[-1]
        raise Conflict(f"{said} changed since plan {run.id}: {PLAN_AGAIN}")
    moved = _head_moved(session, reach, run, RunParams.of(run.params, run.id))
    if moved:
        raise Conflict(moved)
    request = runs.Launch(
        launching.rights,
        launching.actor,
        template.id,
        overrides,
        trigger or runs.Trigger(LaunchType.API),
        granted,
        kind=RunKind.APPLY,
        plan_id=run.id,
    )
    applied = runs.launch(session, request, cipher=launching.cipher, queue=launching.queue)
    consumed = session.execute(
        update(Plan)
        .where(Plan.run_id == run.id, Plan.apply_run_id.is_(None))
        .values(apply_run_id=applied.id)
    )
    if consumed.rowcount != 1:  # type: ignore[attr-defined]
        raise InvalidState(f"plan {run.id} was applied already: {PLAN_AGAIN}")
    return applied


def decide(
    session: Session,
    rights: ProjectAccess,
    actor: Actor,
    run: Run,
    *,
    approve: bool,
    comment: str,
    now: dt.datetime | None = None,
) -> Plan:
    """Approve or reject plan ``run`` (``approvers``: plan:approve and run:launch on its
    template; approving, someone other than its launcher). Audited with the comment. Commits."""
    plan = plan_of(session, run)
    refused = approvers.refusal(rights, actor, run, approve=approve)
    if refused:
        raise PermissionDenied(refused)
    if not plan.needs_approval:
        raise InvalidState(f"plan {run.id} needs no approval (its template did not ask for one)")
    if plan.approval:
        raise InvalidState(f"plan {run.id} was {plan.approval} already")
    if RunStatus(run.status) is not RunStatus.SUCCESSFUL:
        raise InvalidState(
            f"plan {run.id} did not succeed ({run.status}): there is nothing to approve"
        )
    moment = now or utcnow()
    if approve and expired(plan, moment):
        raise InvalidState(f"plan {run.id} expired: {PLAN_AGAIN}")
    decision = approvers.APPROVED if approve else approvers.REJECTED
    if run.workflow_run_id is not None:  # its apply node waits: the workflow run first, the
        passes.mark(session, run.workflow_run_id)  # order every writer keeps
    done = session.execute(
        update(Plan)
        .where(Plan.run_id == run.id, Plan.approval == "")
        .values(
            approval=decision,
            approved_by_id=actor.user.id,
            approval_comment=comment.strip(),
            decided_at=moment,
        )
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise InvalidState(f"plan {run.id} was decided already")
    audit.record(
        session,
        actor,
        AuditAction.PLAN_APPROVE if approve else AuditAction.PLAN_REJECT,
        object_type="run",
        object_id=run.id,
        object_name=run.name,
        project_id=run.project_id,
        changes={"approval": ["", decision], "comment": ["", comment.strip()]},
        detail=f"plan {run.id} of {run.name} {decision}"
        + (f": {comment.strip()}" if comment.strip() else ""),
    )
    session.commit()
    session.refresh(plan)
    return plan
