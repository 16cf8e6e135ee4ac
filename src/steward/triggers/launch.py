"""Launching a template or a workflow as the owner of what fires it (a schedule, a webhook, and
whatever fires next), or saying why not.

The owner's rights are read at the moment it fires, capped at the rights of a run token
(``Actor.trigger``), and the launch goes through the one gate (``runs.service.launch``, or
``workflows.service.start`` for a workflow, whose nodes launch through it). A refusal that
comes from the owner (deleted, deactivated, or no longer allowed) is an ``OwnerRefused``: the
trigger stops until someone saves it again (who then becomes its owner). Any other refusal (the
launch values, a node's template gone) is the ``DomainError`` the launch raised.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import Literal

from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import Action, ProjectAccess, access
from steward.auth.models import User
from steward.crypto import KeyCipher
from steward.errors import InvalidState, NotFound, PermissionDenied
from steward.plans import service as plans
from steward.projects.models import Project
from steward.queue import RunQueue
from steward.runs import service as runs
from steward.runs.models import LaunchType, Run
from steward.templates.launch import LaunchOverrides, resolve_launch
from steward.templates.models import Template
from steward.workflows import service as workflows
from steward.workflows.models import Workflow, WorkflowLaunchType, WorkflowRun

Target = Template | Workflow
Via = Literal["schedule", "webhook"]


class OwnerRefused(InvalidState):
    """The owner may not launch the target any more (409): the trigger stops, saying this."""


@dataclasses.dataclass(frozen=True)
class Firing:
    """Who fires: a schedule or a webhook (``via``, ``object_id``), for its owner; what it
    launches (``target``) in which project."""

    via: Via
    object_id: int
    project: Project
    owner: User | None
    target: Target
    source_ip: str = ""  # a webhook's sender
    # a template target launched as a plan (a schedule of plans), expiring after these hours
    plan_ttl_hours: float | None = None


@dataclasses.dataclass(frozen=True)
class Launched:
    """A run of a template, or a workflow run; the ids of the runs it queued."""

    run: Run | None
    workflow_run: WorkflowRun | None
    run_ids: list[int]


def describe(target: Target) -> str:
    """``template 'deploy'``, ``workflow 'pipeline'``: what a reason names."""
    kind = "workflow" if isinstance(target, Workflow) else "template"
    return f"{kind} '{target.name}'"


def as_owner(
    session: Session,
    firing: Firing,
    known: dict[tuple[int, int], ProjectAccess] | None = None,
) -> tuple[Actor, ProjectAccess]:
    """The owner as the actor of this firing (at most a run token's rights) and their rights
    in the project now (``known``: a cache for a batch of firings); ``OwnerRefused`` when the
    owner was deleted or deactivated."""
    owner = firing.owner
    if owner is None:
        raise OwnerRefused("its owner was deleted")
    if not owner.is_active:
        raise OwnerRefused(f"its owner '{owner.username}' is deactivated")
    actor = Actor.trigger(owner, firing.via, firing.object_id, firing.source_ip)
    cache = {} if known is None else known
    key = (owner.id, firing.project.id)
    if key not in cache:
        cache[key] = access(session, actor, firing.project)
    return actor, cache[key]


def launch(
    session: Session,
    firing: Firing,
    overrides: LaunchOverrides,
    *,
    cipher: KeyCipher,
    queue: RunQueue,
    known: dict[tuple[int, int], ProjectAccess] | None = None,
) -> Launched:
    """Launch the target as its owner, in the caller's transaction (its runs are queued when
    it commits). A workflow takes no ``overrides`` (its nodes carry their own). Nothing is
    added to the session when it is refused."""
    actor, rights = as_owner(session, firing, known)
    target = firing.target
    with _owners_refusal(firing):
        if isinstance(target, Workflow):
            rights.require(Action.WORKFLOW_VIEW)
            by = workflows.Trigger(WorkflowLaunchType(firing.via), **_by(firing))
            started = workflows.Launch(rights, actor, target, by)
            wrun, done = workflows.start(session, started, cipher=cipher, queue=queue)
            return Launched(None, wrun, done.runs)
        trigger = runs.Trigger(LaunchType(firing.via), **_by(firing))
        request = runs.Launch(rights, actor, target.id, overrides, trigger)
        if firing.plan_ttl_hours is not None:
            ttl = firing.plan_ttl_hours
            run = plans.plan(session, request, cipher=cipher, queue=queue, ttl_hours=ttl)
        else:
            run = runs.launch(session, request, cipher=cipher, queue=queue)
        return Launched(run, None, [run.id])


def check(
    session: Session, firing: Firing, overrides: LaunchOverrides, *, cipher: KeyCipher
) -> None:
    """What ``launch`` would refuse, launching nothing (a webhook's dry run)."""
    _actor, rights = as_owner(session, firing)
    target = firing.target
    with _owners_refusal(firing):
        if isinstance(target, Workflow):
            rights.require(Action.WORKFLOW_VIEW)
            workflows.check_launch(session, cipher, rights, target)
        else:
            resolve_launch(session, runs.launchable(session, rights, target.id), overrides)


def require_launch(session: Session, rights: ProjectAccess, target: Target) -> None:
    """At save: whoever saves a trigger becomes its owner, so they must be allowed to launch
    its target now (run:launch on the template, or on every template node of the workflow;
    403 naming the permission)."""
    if isinstance(target, Workflow):
        workflows.require_node_launch(session, rights, target)
    else:
        runs.launchable(session, rights, target.id)


def _by(firing: Firing) -> dict[str, int]:
    return {f"{firing.via}_id": firing.object_id}


@contextlib.contextmanager
def _owners_refusal(firing: Firing) -> Iterator[None]:
    """The gate's refusal (404, 403) told as the owner's: ``OwnerRefused`` naming them."""
    try:
        yield
    except (NotFound, PermissionDenied) as exc:
        who = f"its owner '{firing.owner.username if firing.owner else ''}'"
        what = describe(firing.target)
        raise OwnerRefused(f"{who} may no longer launch {what}: {exc.message}") from None
