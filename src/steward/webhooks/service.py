"""Webhooks of a template or of a workflow: create, change, delete, list; and their recorded
deliveries. The target (``template_id`` or ``workflow_id``) is fixed when the webhook is made; a
workflow's webhook takes no launch values from the delivery (no extractors, no ref).

Receiving a delivery is ``webhooks.receive``; this module is what people do to webhooks.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.db import lookup
from steward.errors import InvalidInput, NotFound
from steward.keys.models import Key, KeyKind
from steward.masking import MASK
from steward.projects import scoped
from steward.projects.models import Project
from steward.templates import reserved
from steward.templates.models import Template
from steward.templates.schemas import OverridableField
from steward.triggers import targets
from steward.webhooks.models import Webhook, WebhookAuth, WebhookDelivery, new_hook_id
from steward.webhooks.schemas import DeliveryFilters, WebhookCreate, WebhookUpdate
from steward.workflows.models import Workflow

WORKFLOW_VALUES = (
    "a workflow's nodes carry their own launch values: a webhook of a workflow sets none"
)

AUDITED_FIELDS = (
    "name",
    "description",
    "template_id",
    "workflow_id",
    "auth",
    "secret_key_id",
    "enabled",
    "matchers",
    "extractors",
    "ref_from",
    "rate_limit_per_minute",
    "owner_id",
)
SECRET_KINDS = frozenset({KeyKind.SECRET})
API_PREFIX = "/api/v1"


def receive_url(base_url: str, webhook: Webhook) -> str:
    """Where the sender posts: the server's public address (``Settings.url``) and the hook id."""
    return f"{base_url.rstrip('/')}{API_PREFIX}/hooks/{webhook.hook_id}"


def _fields(webhook: Webhook) -> dict[str, Any]:
    return audit.snapshot(webhook, AUDITED_FIELDS)


def survey_variables(template: Template) -> set[str]:
    return {str(q.get("variable", "")) for q in template.survey if isinstance(q, dict)}


def _check_secret_key(session: Session, project: Project, key_id: int) -> None:
    key = session.scalar(select(Key).where(Key.id == key_id, Key.project_id == project.id))
    if key is None:
        raise InvalidInput("secret_key_id", f"key {key_id} is not in project '{project.name}'")
    if key.kind not in SECRET_KINDS:
        raise InvalidInput(
            "secret_key_id",
            f"key '{key.name}' is of kind '{key.kind}'; a webhook's secret is a 'secret' key",
        )


def _check_launch_values(template: Template, webhook: Webhook) -> None:
    """What a delivery would set must be something the template lets a launch override:
    extractors become extra vars (or survey answers), never a variable Ansible reads as a
    setting (``templates.reserved``); ``ref_from`` the ref."""
    asked = survey_variables(template)
    for variable in webhook.extractors:
        if variable not in asked and OverridableField.EXTRA_VARS not in template.overridable:
            raise InvalidInput(
                f"extractors.{variable}",
                f"template '{template.name}' does not allow overriding extra_vars "
                "(nor does its survey ask this variable)",
            )
    reserved.check_for(template, webhook.extractors, field="extractors")
    if webhook.ref_from and OverridableField.REF not in template.overridable:
        raise InvalidInput(
            "ref_from", f"template '{template.name}' does not allow overriding the ref"
        )


def _check(
    session: Session, project: Project, target: Template | Workflow | None, webhook: Webhook
) -> None:
    _check_secret_key(session, project, webhook.secret_key_id)
    if isinstance(target, Template):
        _check_launch_values(target, webhook)
    elif webhook.extractors:
        raise InvalidInput("extractors", WORKFLOW_VALUES)
    elif webhook.ref_from:
        raise InvalidInput("ref_from", WORKFLOW_VALUES)


def create(
    session: Session,
    project: Project,
    target: Template | Workflow,
    body: WebhookCreate,
    *,
    actor: Actor,
) -> Webhook:
    """``target``: checked by the caller (its rights to save a webhook of it)."""
    scoped.check_name_free(session, Webhook, project, body.name, "webhook")
    webhook = Webhook(
        project_id=project.id,
        template_id=target.id if isinstance(target, Template) else None,
        workflow_id=target.id if isinstance(target, Workflow) else None,
        owner_id=actor.user.id,
        name=body.name,
        description=body.description,
        auth=body.auth,
        secret_key_id=body.secret_key_id,
        enabled=body.enabled,
        matchers=[m.model_dump(mode="json") for m in body.matchers],
        extractors=dict(body.extractors),
        ref_from=body.ref_from,
        rate_limit_per_minute=body.rate_limit_per_minute,
    )
    _check(session, project, target, webhook)
    return audit.commit_created(session, actor, AuditAction.WEBHOOK_CREATE, webhook, _fields)


def update(
    session: Session, project: Project, webhook: Webhook, body: WebhookUpdate, *, actor: Actor
) -> Webhook:
    before = _fields(webhook)
    changes = body.changes(mode="json")
    scoped.check_rename(session, project, webhook, changes, "webhook")
    for field, value in changes.items():
        setattr(webhook, field, WebhookAuth(value) if field == "auth" else value)
    if "enabled" in changes:  # switched by a person: Steward's reason no longer applies
        webhook.disabled_reason = ""
    webhook.owner_id = actor.user.id  # who last saved it: its deliveries launch as them
    # deleted with its target
    target: Template | Workflow = (
        session.get_one(Template, webhook.template_id)
        if webhook.template_id is not None
        else session.get_one(Workflow, webhook.workflow_id)
    )
    _check(session, project, target, webhook)
    return audit.commit_updated(
        session, actor, AuditAction.WEBHOOK_UPDATE, webhook, before, _fields
    )


def rotate_hook_id(session: Session, webhook: Webhook, *, actor: Actor) -> Webhook:
    """A new unguessable URL; the old one answers 404 from now on."""
    webhook.hook_id = new_hook_id()
    audit.record_change(
        session,
        actor,
        AuditAction.WEBHOOK_UPDATE,
        webhook,
        {"url": [MASK, MASK]},
        detail="new receive URL (the old one no longer answers)",
    )
    session.commit()
    return webhook


def delete(session: Session, webhook: Webhook, *, actor: Actor) -> None:
    """Its deliveries go with it; runs it launched stay (``webhook_id`` cleared)."""
    audit.commit_deleted(session, actor, AuditAction.WEBHOOK_DELETE, webhook, _fields)


def get(session: Session, project: Project, webhook_id: int, *, seen: targets.Seen) -> Webhook:
    """Any webhook ``seen`` does not show is not found, like one that does not exist."""
    return scoped.get_in_project(
        session, Webhook, project, webhook_id, "webhook", *targets.visible(Webhook, seen)
    )


def list_for_project(
    session: Session,
    project: Project,
    *,
    seen: targets.Seen,
    limit: int,
    offset: int,
    template_id: int | None = None,
    workflow_id: int | None = None,
) -> tuple[list[Webhook], int]:
    where = targets.visible(Webhook, seen, template_id=template_id, workflow_id=workflow_id)
    return scoped.list_in_project(session, Webhook, project, *where, limit=limit, offset=offset)


def names(session: Session, webhooks: Collection[Webhook]) -> dict[int, tuple[str, str, str]]:
    """``{webhook id: (template name, workflow name, owner's username)}`` for a page, in three
    queries."""
    template_ids = {w.template_id for w in webhooks if w.template_id is not None}
    workflow_ids = {w.workflow_id for w in webhooks if w.workflow_id is not None}
    owner_ids = {w.owner_id for w in webhooks if w.owner_id is not None}
    templates = lookup(session, Template.id, Template.name, template_ids)
    workflows = lookup(session, Workflow.id, Workflow.name, workflow_ids)
    owners = lookup(session, User.id, User.username, owner_ids)
    return {
        w.id: (
            templates.get(w.template_id or 0, ""),
            workflows.get(w.workflow_id or 0, ""),
            owners.get(w.owner_id or 0, ""),
        )
        for w in webhooks
    }


def deliveries(
    session: Session, webhook: Webhook, filters: DeliveryFilters
) -> tuple[list[WebhookDelivery], int | None]:
    """Newest first, keyset-paged by id."""
    query = select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook.id)
    if filters.outcome is not None:
        query = query.where(WebhookDelivery.outcome == filters.outcome)
    if filters.test is not None:
        query = query.where(WebhookDelivery.test == filters.test)
    if filters.before_id is not None:
        query = query.where(WebhookDelivery.id < filters.before_id)
    rows = list(session.scalars(query.order_by(WebhookDelivery.id.desc()).limit(filters.limit + 1)))
    page = rows[: filters.limit]
    return page, page[-1].id if len(rows) > filters.limit else None


def delivery(session: Session, webhook: Webhook, delivery_id: int) -> WebhookDelivery:
    found = session.scalar(
        select(WebhookDelivery).where(
            WebhookDelivery.id == delivery_id, WebhookDelivery.webhook_id == webhook.id
        )
    )
    if found is None:
        raise NotFound(f"delivery {delivery_id} not found for webhook '{webhook.name}'")
    return found
