from __future__ import annotations

import http
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, status
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from steward.access.policy import Action, ProjectAccess
from steward.api import deps, problems
from steward.bounds import WEBHOOK_BODY_MAX
from steward.schemas import Page
from steward.templates.models import Template
from steward.triggers import launch as triggers
from steward.triggers import targets
from steward.triggers.schemas import TargetFilter
from steward.webhooks import receive, schemas, service, signatures
from steward.webhooks.models import Webhook
from steward.workflows.models import Workflow

router = APIRouter(prefix="/projects/{project_id}", tags=["webhooks"])
hooks = APIRouter(prefix="/hooks", tags=["webhooks"])


def _viewed(webhook_id: int, rights: deps.AccessDep, session: deps.SessionDep) -> Webhook:
    return service.get(session, rights.project, webhook_id, seen=targets.seen_by(rights))


def _written(webhook: Annotated[Webhook, Depends(_viewed)], rights: deps.AccessDep) -> Webhook:
    """Deliveries too: their bodies and headers may carry data only template writers see
    (a workflow's webhook: workflow writers)."""
    if webhook.workflow_id is not None:
        rights.require(Action.WORKFLOW_WRITE)
    else:
        rights.require_on_template(webhook.template_id, Action.TEMPLATE_WRITE)
    return webhook


def _require_launch(session: Session, rights: ProjectAccess, webhook: Webhook) -> None:
    """run:launch on its template, or on every template node of its workflow."""
    target: Template | Workflow = (
        session.get_one(Workflow, webhook.workflow_id)
        if webhook.workflow_id is not None
        else session.get_one(Template, webhook.template_id)
    )
    triggers.require_launch(session, rights, target)


def _saved(
    webhook: Annotated[Webhook, Depends(_written)], rights: deps.AccessDep, session: deps.SessionDep
) -> Webhook:
    """Whoever saves it becomes its owner: they must be allowed to launch its target."""
    _require_launch(session, rights, webhook)
    return webhook


ViewedWebhook = Annotated[Webhook, Depends(_viewed)]
WrittenWebhook = Annotated[Webhook, Depends(_written)]
SavedWebhook = Annotated[Webhook, Depends(_saved)]


def _reads(session: Session, base_url: str, webhooks: list[Webhook]) -> list[schemas.WebhookRead]:
    names = service.names(session, webhooks)
    return [
        schemas.WebhookRead.model_validate(w).model_copy(
            update={
                "url": service.receive_url(base_url, w),
                "template_name": names[w.id][0],
                "workflow_name": names[w.id][1],
                "owner": names[w.id][2],
                "signature_header": signatures.SIGNATURE_HEADER[w.auth].title(),
                "delivery_header": signatures.DELIVERY_HEADER[w.auth].title(),
            }
        )
        for w in webhooks
    ]


@router.get("/templates/{template_id}/webhooks")
def list_template_webhooks(
    template: deps.ViewedTemplate,
    rights: deps.AccessDep,
    session: deps.SessionDep,
    runtime: deps.RuntimeDep,
    page: deps.PageQuery,
) -> Page[schemas.WebhookRead]:
    """The template's webhooks, by name."""
    rows, total = service.list_for_project(
        session, rights.project, seen=targets.EVERY, template_id=template.id, **page.model_dump()
    )
    return Page.of(_reads(session, runtime.settings.url, rows), total, page)


@router.post("/templates/{template_id}/webhooks", status_code=status.HTTP_201_CREATED)
def create_webhook(
    template: deps.TriggerTemplate,
    body: schemas.WebhookCreate,
    rights: deps.AccessDep,
    session: deps.SessionDep,
    runtime: deps.RuntimeDep,
    actor: deps.ActorDep,
) -> schemas.WebhookRead:
    """A webhook launching the template; its deliveries run with the rights of whoever saved
    it last. The secret is a ``secret`` key of the project, never shown."""
    created = service.create(session, rights.project, template, body, actor=actor)
    return _reads(session, runtime.settings.url, [created])[0]


@router.post("/webhooks", status_code=status.HTTP_201_CREATED)
def create_targeted_webhook(
    body: schemas.WebhookTargetCreate,
    rights: deps.AccessDep,
    session: deps.SessionDep,
    runtime: deps.RuntimeDep,
    actor: deps.ActorDep,
) -> schemas.WebhookRead:
    """A webhook launching a template (``template_id``: template:write and run:launch on it)
    or a workflow (``workflow_id``: workflow:write and run:launch on every template node):
    exactly one. Its deliveries run with the rights of whoever saved it last. A workflow's
    webhook takes no extractors nor ref_from (its nodes carry their own launch values)."""
    target = targets.target_of(session, rights, body, kind="webhook")
    created = service.create(session, rights.project, target, body, actor=actor)
    return _reads(session, runtime.settings.url, [created])[0]


@router.get("/webhooks")
def list_webhooks(
    rights: deps.AccessDep,
    session: deps.SessionDep,
    runtime: deps.RuntimeDep,
    page: deps.PageQuery,
    only: Annotated[TargetFilter, Query()],
) -> Page[schemas.WebhookRead]:
    """The webhooks of the templates and workflows the caller may see, by name (those of one
    template or one workflow when asked)."""
    seen = targets.seen_by(rights)
    rows, total = service.list_for_project(
        session, rights.project, seen=seen, **only.model_dump(), **page.model_dump()
    )
    return Page.of(_reads(session, runtime.settings.url, rows), total, page)


@router.get("/webhooks/{webhook_id}")
def read_webhook(
    webhook: ViewedWebhook, session: deps.SessionDep, runtime: deps.RuntimeDep
) -> schemas.WebhookRead:
    return _reads(session, runtime.settings.url, [webhook])[0]


@router.patch("/webhooks/{webhook_id}")
def update_webhook(
    webhook: SavedWebhook,
    body: schemas.WebhookUpdate,
    rights: deps.AccessDep,
    session: deps.SessionDep,
    runtime: deps.RuntimeDep,
    actor: deps.ActorDep,
) -> schemas.WebhookRead:
    """Change fields; the caller becomes the owner. Enabling it clears Steward's reason."""
    updated = service.update(session, rights.project, webhook, body, actor=actor)
    return _reads(session, runtime.settings.url, [updated])[0]


@router.post("/webhooks/{webhook_id}/rotate-id")
def rotate_webhook_id(
    webhook: WrittenWebhook,
    session: deps.SessionDep,
    runtime: deps.RuntimeDep,
    actor: deps.ActorDep,
) -> schemas.WebhookRead:
    """A new unguessable receive URL; the old one answers 404 from now on."""
    rotated = service.rotate_hook_id(session, webhook, actor=actor)
    return _reads(session, runtime.settings.url, [rotated])[0]


@router.delete("/webhooks/{webhook_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_webhook(webhook: WrittenWebhook, session: deps.SessionDep, actor: deps.ActorDep) -> None:
    """Delete the webhook and its deliveries; the runs it launched stay."""
    service.delete(session, webhook, actor=actor)


@router.get("/webhooks/{webhook_id}/deliveries")
def list_deliveries(
    webhook: WrittenWebhook,
    session: deps.SessionDep,
    filters: Annotated[schemas.DeliveryFilters, Query()],
) -> schemas.DeliveryPage:
    """Every delivery received, newest first: what was answered and why."""
    rows, next_before = service.deliveries(session, webhook, filters)
    return schemas.DeliveryPage(
        items=[schemas.DeliverySummary.model_validate(d) for d in rows], next_before_id=next_before
    )


@router.get("/webhooks/{webhook_id}/deliveries/{delivery_id}")
def read_delivery(
    webhook: WrittenWebhook, delivery_id: int, session: deps.SessionDep
) -> schemas.DeliveryRead:
    """A delivery with its headers (credentials masked), body (up to 64 KiB) and launch values."""
    return schemas.DeliveryRead.model_validate(service.delivery(session, webhook, delivery_id))


@router.post("/webhooks/{webhook_id}/test", dependencies=[deps.Previewing])
def test_webhook(
    webhook: WrittenWebhook,
    body: schemas.TestDelivery,
    launching: deps.LaunchingDep,
) -> schemas.DeliveryRead:
    """Send a delivery signed with the webhook's secret through the same checks as a real one.
    Dry run by default: it answers what it would launch; ``launch: true`` launches the run."""
    session, cipher, queue = launching.session, launching.cipher, launching.queue
    if body.launch:
        _require_launch(session, launching.rights, webhook)
    sent = receive.send_test(session, cipher, queue, webhook, body, actor=launching.actor)
    return schemas.DeliveryRead.model_validate(sent)


async def _inbound(request: Request) -> receive.Inbound:
    """The request as the receive path needs it; the body read up to its limit and no more."""
    declared = request.headers.get("content-length", "")
    too_large = declared.isdigit() and int(declared) > WEBHOOK_BODY_MAX
    chunks: list[bytes] = []
    size = 0
    if not too_large:
        async for chunk in request.stream():
            size += len(chunk)
            if size > WEBHOOK_BODY_MAX:
                too_large = True
                break
            chunks.append(chunk)
    headers: dict[str, str] = {}
    for name, value in request.headers.items():  # lower-case names
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return receive.Inbound(b"".join(chunks), too_large, headers, deps.client_ip(request))


_BODY_DOC = {
    "requestBody": {
        "required": False,
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


@hooks.post(
    "/{hook_id}",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=schemas.DeliveryResult,
    openapi_extra=_BODY_DOC,
    responses={
        413: {"description": "The body is over 1 MiB"},
        429: {"description": "Over the webhook's rate limit (Retry-After)"},
    },
)
def receive_delivery(
    hook_id: str,
    inbound: Annotated[receive.Inbound, Depends(_inbound)],
    session: deps.SessionDep,
    cipher: deps.CipherDep,
    queue: deps.QueueDep,
) -> schemas.DeliveryResult | JSONResponse:
    """A sender's delivery: no login; it proves the webhook's secret (per its scheme). 202 once
    recorded (launched or ignored, and why); the run is queued, not waited for. Refusals are
    problem+json carrying ``delivery_id`` and ``outcome``: 401 unproven, 404 unknown or
    disabled, 409 a replayed delivery id (``first_delivery_id``) or a launch that failed,
    413, 422 an unreadable body or refused values, 429 rate limited."""
    received = receive.receive(session, cipher, queue, hook_id, inbound)
    if received.status < 300:
        return schemas.DeliveryResult(
            delivery_id=received.delivery_id,
            outcome=received.outcome,
            reason=received.reason,
            run_id=received.run_id,
            workflow_run_id=received.workflow_run_id,
        )
    return _refused(received)


def _refused(received: receive.Received) -> JSONResponse:
    headers = {"Retry-After": str(received.retry_after)} if received.retry_after else None
    extra: dict[str, Any] = {"delivery_id": received.delivery_id, "outcome": received.outcome}
    if received.first_delivery_id is not None:
        extra["first_delivery_id"] = received.first_delivery_id
    if received.status == 413:
        headers = {**(headers or {}), "Connection": "close"}  # the rest of the body is unread
    title = http.HTTPStatus(received.status).phrase
    return problems.problem(received.status, title, received.reason, headers=headers, **extra)
