"""Notification destinations and subscriptions of a project.

Destinations are resources: seen with ``resource:view`` (their messages and attempts too),
changed and tested with ``resource:write``. Subscriptions name destinations, so they are seen
with ``resource:view``; a project-wide one is changed with ``resource:write``, a template's or
a schedule's with ``template:write`` on that template.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated

from fastapi import APIRouter, Depends, Query, status
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import Action, ProjectAccess
from steward.api.deps import (
    AccessDep,
    ActorDep,
    CipherDep,
    OutboundDep,
    PageQuery,
    ResourceView,
    ResourceWrite,
    RuntimeDep,
    SessionDep,
    ViewedTemplate,
    edited_object,
    viewed_object,
)
from steward.crypto import KeyCipher
from steward.errors import PermissionDenied
from steward.notifications import service
from steward.notifications.models import Destination, Subscription
from steward.notifications.schemas import (
    AttemptRead,
    DestinationCreate,
    DestinationRead,
    DestinationUpdate,
    MessagePage,
    MessageParams,
    MessageRead,
    SubscriptionCreate,
    SubscriptionRead,
    SubscriptionUpdate,
    TestQueued,
)
from steward.outbound.network import Guard
from steward.projects.models import Project
from steward.schemas import Page
from steward.templates.models import Template

router = APIRouter(prefix="/projects/{project_id}", tags=["notifications"])

DESTINATIONS = "/notification-destinations"
SUBSCRIPTIONS = "/notification-subscriptions"

ViewedDestination = Annotated[Destination, viewed_object(Destination, "destination")]
EditedDestination = Annotated[Destination, edited_object(Destination, "destination")]


@router.get(DESTINATIONS)
def list_destinations(
    project: ResourceView, session: SessionDep, page: PageQuery
) -> Page[DestinationRead]:
    """By name; the secret (SMTP password, incoming-webhook URL, HMAC secret) is a key of the
    key store, named here, never shown."""
    rows, total = service.list_destinations(session, project, limit=page.limit, offset=page.offset)
    return Page.of([DestinationRead.model_validate(d) for d in rows], total, page)


@dataclasses.dataclass(frozen=True)
class Saving:
    """A create or an update of a destination as asked: resource:write in the project, the
    caller, the key cipher (its secret key) and the outbound guard (where it sends)."""

    project: Project
    session: Session
    actor: Actor
    cipher: KeyCipher
    guard: Guard

    def create(self, body: DestinationCreate) -> DestinationRead:
        created = service.create_destination(
            self.session, self.cipher, self.guard, self.project, body, actor=self.actor
        )
        return DestinationRead.model_validate(created)

    def update(self, destination: Destination, body: DestinationUpdate) -> DestinationRead:
        updated = service.update_destination(
            self.session, self.cipher, self.guard, self.project, destination, body, actor=self.actor
        )
        return DestinationRead.model_validate(updated)


async def _saving(
    project: ResourceWrite,
    session: SessionDep,
    actor: ActorDep,
    cipher: CipherDep,
    guard: OutboundDep,
) -> Saving:
    return Saving(project, session, actor, cipher, guard)


SavingDep = Annotated[Saving, Depends(_saving)]


@router.post(DESTINATIONS, status_code=status.HTTP_201_CREATED)
def create_destination(body: DestinationCreate, saving: SavingDep) -> DestinationRead:
    """The SMTP host or webhook URL (for Slack and Teams: the URL in the key) must be somewhere
    the server may connect (not loopback, link-local, its own address… unless
    ``STEWARD_OUTBOUND_ALLOWED_NETWORKS`` allows it); it is checked again before every send."""
    return saving.create(body)


@router.get(DESTINATIONS + "/{destination_id}")
def read_destination(destination: ViewedDestination) -> DestinationRead:
    return DestinationRead.model_validate(destination)


@router.patch(DESTINATIONS + "/{destination_id}")
def update_destination(
    destination: EditedDestination, body: DestinationUpdate, saving: SavingDep
) -> DestinationRead:
    return saving.update(destination, body)


@router.delete(DESTINATIONS + "/{destination_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_destination(
    destination: EditedDestination, session: SessionDep, actor: ActorDep
) -> None:
    """Its subscriptions and messages are deleted with it."""
    service.delete_destination(session, destination, actor=actor)


@router.post(DESTINATIONS + "/{destination_id}/test", status_code=status.HTTP_202_ACCEPTED)
def test_destination(
    destination: EditedDestination,
    project: ResourceWrite,
    session: SessionDep,
    actor: ActorDep,
    runtime: RuntimeDep,
) -> TestQueued:
    """Queue a test message (also to a disabled destination); the notifier sends it within a
    tick. Follow it in ``…/messages``."""
    message = service.send_test(session, project, destination, runtime.settings.url, actor=actor)
    return TestQueued(message_id=message.id)


@router.get(DESTINATIONS + "/{destination_id}/messages")
def list_messages(
    destination: ViewedDestination,
    session: SessionDep,
    params: Annotated[MessageParams, Query()],
) -> MessagePage:
    """Newest first, each with every attempt (when, the answer, the error)."""
    rows, next_before = service.list_messages(
        session, destination, before_id=params.before_id, limit=params.limit
    )
    items = [
        MessageRead(
            id=m.id,
            destination_id=m.destination_id,
            run_id=m.run_id,
            workflow_run_id=m.workflow_run_id,
            node_key=m.node_key,
            host=m.host,
            event=m.event,
            status=m.status,
            attempt_count=m.attempts,
            next_attempt_at=m.next_attempt_at if m.status == "pending" else None,
            created_at=m.created_at,
            sent_at=m.sent_at,
            last_error=m.last_error,
            content=m.content,
            attempts=[AttemptRead.model_validate(a) for a in attempts],
        )
        for m, attempts in rows
    ]
    return MessagePage(items=items, next_before_id=next_before)


def _subscription_writer(rights: AccessDep) -> ProjectAccess:
    """May see subscriptions (404 otherwise) and change some: project-wide ones or a
    template's (403 otherwise); which one exactly is checked on the subscription's scope."""
    rights.require(Action.RESOURCE_VIEW)
    if not service.may_change_some(rights):
        raise PermissionDenied(
            f"permission '{Action.RESOURCE_WRITE}' or '{Action.TEMPLATE_WRITE}' is required"
            f" in project '{rights.project.name}'"
        )
    return rights


SubscriptionWriter = Annotated[ProjectAccess, Depends(_subscription_writer)]


def _subscription(
    subscription_id: int, rights: SubscriptionWriter, session: SessionDep
) -> Subscription:
    return service.get_subscription(session, rights.project, subscription_id)


EditedSubscription = Annotated[Subscription, Depends(_subscription)]


@router.get(SUBSCRIPTIONS)
def list_subscriptions(
    project: ResourceView, session: SessionDep, page: PageQuery
) -> Page[SubscriptionRead]:
    """Every subscription of the project: project-wide, per template and per schedule."""
    rows, total = service.list_subscriptions(session, project, limit=page.limit, offset=page.offset)
    return Page.of(rows, total, page)


@router.post(SUBSCRIPTIONS, status_code=status.HTTP_201_CREATED)
def create_subscription(
    body: SubscriptionCreate, rights: SubscriptionWriter, session: SessionDep, actor: ActorDep
) -> SubscriptionRead:
    """Events of the project's runs (``resource:write``), of one template's or of one
    schedule's (``template:write`` on the template) to one of the project's destinations."""
    return service.create_subscription(session, rights, body, actor=actor)


@router.patch(SUBSCRIPTIONS + "/{subscription_id}")
def update_subscription(
    subscription: EditedSubscription,
    body: SubscriptionUpdate,
    rights: SubscriptionWriter,
    session: SessionDep,
    actor: ActorDep,
) -> SubscriptionRead:
    return service.update_subscription(session, rights, subscription, body, actor=actor)


@router.delete(SUBSCRIPTIONS + "/{subscription_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_subscription(
    subscription: EditedSubscription,
    rights: SubscriptionWriter,
    session: SessionDep,
    actor: ActorDep,
) -> None:
    service.delete_subscription(session, rights, subscription, actor=actor)


def _template_seen(template: ViewedTemplate, rights: AccessDep) -> Template:
    """The template, if the caller sees it (404), and may see destinations (404)."""
    rights.require(Action.RESOURCE_VIEW)
    return template


@router.get("/templates/{template_id}" + SUBSCRIPTIONS)
def list_template_subscriptions(
    template: Annotated[Template, Depends(_template_seen)],
    rights: AccessDep,
    session: SessionDep,
    page: PageQuery,
) -> Page[SubscriptionRead]:
    """What is told about the template's runs: its own subscriptions, its schedules' and the
    project-wide ones (``scope`` says which)."""
    rows, total = service.list_subscriptions(
        session,
        rights.project,
        template_id=template.id,
        limit=page.limit,
        offset=page.offset,
    )
    return Page.of(rows, total, page)
