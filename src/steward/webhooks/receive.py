"""A delivery from arrival to queued run: authenticate, rate-limit, refuse replays, match,
extract, launch as the webhook's owner, and record what happened.

Every step that refuses the delivery records it (with the reason and what the sender was
answered) and commits, so a delivery that launched nothing is as visible as one that did.
Two kinds of refusal come from someone who need not know the secret: a request that does not
prove it (401, 413) and one over the rate limit (429). Each kind is recorded at most
``rate_limit_per_minute`` times a minute, so nobody can fill the database through the URL.

The console's test deliveries come through ``deliver`` too, signed by the server: what they
report is what a real sender would get.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import re
import uuid
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.bounds import (
    HEADER_VALUE_MAX,
    WEBHOOK_BODY_MAX,
    WEBHOOK_BODY_STORED_MAX,
    WEBHOOK_HEADERS_MAX,
    describe_size,
)
from steward.crypto import KeyCipher
from steward.db import utcnow
from steward.errors import DomainError, InvalidInput, NotFound
from steward.keys import service as keys
from steward.masking import MASK, Masker
from steward.projects.models import Project
from steward.queue import RunQueue
from steward.templates.launch import LaunchOverrides
from steward.templates.models import Template
from steward.templates.survey import QuestionType
from steward.triggers import launch as triggers
from steward.triggers.launch import Firing, OwnerRefused, Target, describe
from steward.webhooks import matching, signatures
from steward.webhooks.models import DeliveryOutcome, Webhook, WebhookAuth, WebhookDelivery
from steward.webhooks.samples import SAMPLES
from steward.webhooks.schemas import TestDelivery
from steward.webhooks.service import survey_variables
from steward.workflows.models import Workflow

WINDOW = dt.timedelta(minutes=1)
HOOK_ID_MAX = 64
NOT_FOUND = "no enabled webhook at this address"


@dataclasses.dataclass(frozen=True)
class Inbound:
    """One request to a hook, as it arrived."""

    body: bytes  # at most WEBHOOK_BODY_MAX bytes of it
    too_large: bool
    headers: Mapping[str, str]  # lower-case names; repeated ones joined by ", "
    source_ip: str


@dataclasses.dataclass(frozen=True)
class Received:
    """What became of a delivery, and what its sender is answered."""

    status: int
    outcome: DeliveryOutcome
    reason: str
    delivery_id: int | None = None  # None: refused without a record (see the module's doc)
    run_id: int | None = None
    workflow_run_id: int | None = None  # a workflow's webhook launched it
    first_delivery_id: int | None = None  # a replay: the delivery that used the id first
    retry_after: int | None = None  # rate limited: seconds until one more is accepted


@dataclasses.dataclass
class _Window:
    """The hook's deliveries of the last minute (test deliveries left out)."""

    accepted: int = 0  # authenticated and not rate limited: what the limit counts
    unauthenticated: int = 0
    rate_limited: int = 0
    oldest_accepted: dt.datetime | None = None


@dataclasses.dataclass
class _Delivery:
    """The record being made, filled in step by step."""

    webhook: Webhook
    inbound: Inbound
    test: bool
    secrets: list[str]  # masked in what is stored: the hook's secret, password answers
    authenticated: bool = False
    delivery_key: str | None = None
    launch: dict[str, Any] = dataclasses.field(default_factory=dict)


_HOOK_ID = re.compile(r"[A-Za-z0-9_-]+")


def receive(
    session: Session, cipher: KeyCipher, queue: RunQueue, hook_id: str, inbound: Inbound
) -> Received:
    """A delivery posted by a sender to ``/hooks/{hook_id}``. An unknown id and a disabled
    webhook are the same 404 (one indexed query either way): the URL reveals nothing."""
    webhook = None
    # ids are token_urlsafe: anything else (a NUL byte, which PostgreSQL refuses in a query
    # parameter) is not asked about
    if len(hook_id) <= HOOK_ID_MAX and _HOOK_ID.fullmatch(hook_id):
        webhook = session.scalar(
            select(Webhook).where(Webhook.hook_id == hook_id, Webhook.enabled.is_(True))
        )
    if webhook is None:
        raise NotFound(NOT_FOUND)
    return deliver(session, cipher, queue, webhook, inbound)


def deliver(
    session: Session,
    cipher: KeyCipher,
    queue: RunQueue,
    webhook: Webhook,
    inbound: Inbound,
    *,
    test: bool = False,
    dry_run: bool = False,
) -> Received:
    secret = keys.reveal(session, cipher, webhook.secret_key_id, webhook.project_id).secret
    masked = [secret, *_password_answers(session, webhook, inbound.body)]
    delivery = _Delivery(webhook, inbound, test, masked)
    window = _Window() if test else _recent(session, webhook)
    limit = webhook.rate_limit_per_minute

    if not webhook.enabled:  # only a test delivery gets here: real ones are a 404
        reason = f"the webhook is disabled ({webhook.disabled_reason or 'by a person'})"
        return _record(session, delivery, 404, DeliveryOutcome.REJECTED, f"{reason}: answered 404")
    if inbound.too_large:
        reason = f"the body is larger than {describe_size(WEBHOOK_BODY_MAX)}"
        return _refuse_unproven(session, delivery, window, 413, reason)
    problem = signatures.verify(webhook.auth, secret, inbound.body, inbound.headers)
    if problem is not None:
        return _refuse_unproven(session, delivery, window, 401, problem)
    delivery.authenticated = True
    if window.accepted >= limit:
        return _rate_limited(session, delivery, window)
    replay = _replay(session, delivery)
    if replay is not None:
        return replay
    if not dry_run:
        delivery.delivery_key = _delivery_key(webhook, inbound)
    return _match_and_launch(session, cipher, queue, delivery, dry_run=dry_run)


def _password_answers(session: Session, webhook: Webhook, body: bytes) -> list[str]:
    """The answers to the template's password questions that the body carries (through the
    extractors): masked in the delivery's record, whether it was authenticated or not."""
    if not webhook.extractors or webhook.template_id is None:
        return []
    template = session.get_one(Template, webhook.template_id)
    passwords = {
        q.get("variable") for q in template.survey if q.get("type") == QuestionType.PASSWORD
    }
    paths = [path for variable, path in webhook.extractors.items() if variable in passwords]
    if not paths:
        return []
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        return []
    values = [matching.lookup(document, path) for path in paths]
    return [str(v) for v in values if isinstance(v, str | int | float) and str(v)]


def _recent(session: Session, webhook: Webhook) -> _Window:
    """One query on (webhook_id, received_at): counted in the database, so the limit holds
    across server processes (approximately: deliveries arriving at the same instant may each
    see the count below the limit)."""
    rows = session.execute(
        select(
            WebhookDelivery.authenticated,
            WebhookDelivery.outcome,
            func.count(),
            func.min(WebhookDelivery.received_at),
        )
        .where(
            WebhookDelivery.webhook_id == webhook.id,
            WebhookDelivery.received_at >= utcnow() - WINDOW,
            WebhookDelivery.test.is_(False),
        )
        .group_by(WebhookDelivery.authenticated, WebhookDelivery.outcome)
    )
    window = _Window()
    for authenticated, outcome, count, oldest in rows:
        if not authenticated:
            window.unauthenticated += count
        elif outcome == DeliveryOutcome.RATE_LIMITED:
            window.rate_limited += count
        else:
            window.accepted += count
            if window.oldest_accepted is None or oldest < window.oldest_accepted:
                window.oldest_accepted = oldest
    return window


def _refuse_unproven(
    session: Session, delivery: _Delivery, window: _Window, status: int, reason: str
) -> Received:
    if window.unauthenticated >= delivery.webhook.rate_limit_per_minute:
        return Received(status, DeliveryOutcome.REJECTED, f"{reason} (not recorded: too many)")
    return _record(session, delivery, status, DeliveryOutcome.REJECTED, reason)


def _rate_limited(session: Session, delivery: _Delivery, window: _Window) -> Received:
    limit = delivery.webhook.rate_limit_per_minute
    oldest = window.oldest_accepted or utcnow()
    retry_after = max(1, math.ceil((oldest + WINDOW - utcnow()).total_seconds()))
    reason = f"more than {limit} deliveries in a minute"
    if window.rate_limited >= limit:
        reason += " (not recorded: too many)"
        received = Received(429, DeliveryOutcome.RATE_LIMITED, reason)
    else:
        received = _record(session, delivery, 429, DeliveryOutcome.RATE_LIMITED, reason)
    return dataclasses.replace(received, retry_after=retry_after)


def _delivery_key(webhook: Webhook, inbound: Inbound) -> str | None:
    return inbound.headers.get(signatures.DELIVERY_HEADER[webhook.auth]) or None


def _replay(session: Session, delivery: _Delivery) -> Received | None:
    """A delivery id seen before on this hook: refused (409) naming the first delivery."""
    header = signatures.DELIVERY_HEADER[delivery.webhook.auth]
    key = _delivery_key(delivery.webhook, delivery.inbound)
    if key is None:
        return None
    if len(key) > 200:
        return _record(
            session, delivery, 422, DeliveryOutcome.REJECTED, f"{header} is over 200 characters"
        )
    first = session.scalar(
        select(WebhookDelivery.id).where(
            WebhookDelivery.webhook_id == delivery.webhook.id, WebhookDelivery.delivery_key == key
        )
    )
    if first is None:
        return None
    reason = f"replay: {header} {matching.shown(key)} was received before (delivery {first})"
    received = _record(session, delivery, 409, DeliveryOutcome.REJECTED, reason)
    return dataclasses.replace(received, first_delivery_id=first)


def _needs_body(webhook: Webhook) -> bool:
    reads_body = any(m.get("source") == matching.MatchSource.BODY for m in webhook.matchers)
    return reads_body or bool(webhook.extractors) or bool(webhook.ref_from)


def _parse(body: bytes) -> Any:
    """The JSON document, or ValueError with the reason."""
    try:
        return json.loads(body)
    except RecursionError:
        raise ValueError("the body is not JSON that can be read: nested too deeply") from None
    except ValueError as exc:
        hint = " (a GitHub webhook needs the content type application/json)"
        hint = hint if body.startswith(b"payload=") else ""
        raise ValueError(f"the body is not JSON: {exc}{hint}") from None


def _first_miss(webhook: Webhook, document: Any, headers: Mapping[str, str]) -> str | None:
    for i, m in enumerate(webhook.matchers):
        source, path, op, value = m["source"], m["path"], m["op"], m.get("value")
        why = matching.miss(source, path, op, value, document, headers)
        if why is not None:
            return f"matcher {i + 1} ({matching.describe(source, path, op, value)}): {why}"
    return None


def _match_and_launch(
    session: Session, cipher: KeyCipher, queue: RunQueue, delivery: _Delivery, *, dry_run: bool
) -> Received:
    """Match the body, extract its launch values, and launch the target as the webhook's owner
    (``triggers.launch``): the run (or workflow run) and the delivery record in one
    transaction, so a replay racing this one fails on the unique delivery id and launches
    nothing. An owner who may no longer launch it stops the webhook."""
    webhook, headers = delivery.webhook, delivery.inbound.headers
    document: Any = None
    if _needs_body(webhook):
        try:
            document = _parse(delivery.inbound.body)
        except ValueError as exc:
            return _record(session, delivery, 422, DeliveryOutcome.REJECTED, str(exc))
    if webhook.auth == WebhookAuth.GITHUB and headers.get("x-github-event") == "ping":
        reason = "GitHub's ping: the URL and the secret are right"
        return _record(session, delivery, 202, DeliveryOutcome.IGNORED, reason)
    miss = _first_miss(webhook, document, headers)
    if miss is not None:
        return _record(session, delivery, 202, DeliveryOutcome.IGNORED, miss)
    target = _target(session, webhook)
    overrides = LaunchOverrides()
    if isinstance(target, Template):
        try:
            overrides = _overrides(webhook, target, document, delivery)
        except ValueError as exc:
            return _record(session, delivery, 422, DeliveryOutcome.REJECTED, str(exc))
    owner = session.get(User, webhook.owner_id) if webhook.owner_id is not None else None
    project = session.get_one(Project, webhook.project_id)
    firing = Firing("webhook", webhook.id, project, owner, target, delivery.inbound.source_ip)
    try:
        if dry_run:
            triggers.check(session, firing, overrides, cipher=cipher)
        else:
            launched = triggers.launch(session, firing, overrides, cipher=cipher, queue=queue)
    except OwnerRefused as exc:
        session.rollback()
        if not dry_run:
            _disable(session, webhook, exc.message)
        return _record(session, delivery, 409, DeliveryOutcome.FAILED, exc.message)
    except DomainError as exc:
        session.rollback()
        status = 422 if isinstance(exc, InvalidInput) else 409
        reason = f"the launch was refused: {exc.message}"
        return _record(session, delivery, status, DeliveryOutcome.FAILED, reason)
    if dry_run:
        what = "a run with these values" if isinstance(target, Template) else describe(target)
        return _record(
            session, delivery, 200, DeliveryOutcome.MATCHED, f"dry run: it would launch {what}"
        )
    run_id = launched.run.id if launched.run else None
    wrun_id = launched.workflow_run.id if launched.workflow_run else None
    reason = f"launched run {run_id}" if run_id else f"launched workflow run {wrun_id}"
    return _record(
        session, delivery, 202, DeliveryOutcome.LAUNCHED, reason, run_id, workflow_run_id=wrun_id
    )


def _target(session: Session, webhook: Webhook) -> Target:
    """Its template or its workflow (a webhook is deleted with its target)."""
    if webhook.workflow_id is not None:
        return session.get_one(Workflow, webhook.workflow_id)
    return session.get_one(Template, webhook.template_id)


def _overrides(
    webhook: Webhook, template: Template, document: Any, delivery: _Delivery
) -> LaunchOverrides:
    """The launch values from the body: extractors go to survey answers when the survey asks
    the variable, else to extra vars; ``ref_from`` to the ref. ValueError says what is wrong."""
    values = matching.extract(webhook.extractors, document)
    asked = survey_variables(template)
    launch: dict[str, Any] = {}
    extra_vars = {k: v for k, v in values.items() if k not in asked}
    survey = {k: v for k, v in values.items() if k in asked}
    if extra_vars:
        launch["extra_vars"] = extra_vars
    if survey:
        launch["survey"] = survey
    if webhook.ref_from:
        launch["ref"] = matching.ref_of(document, webhook.ref_from)
    delivery.launch = launch
    try:
        return LaunchOverrides.model_validate(launch)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error.get("loc", ()))
        raise ValueError(f"{field}: {error.get('msg', 'invalid')}") from None


def _disable(session: Session, webhook: Webhook, problem: str) -> None:
    """Stop the webhook (further deliveries: 404) until someone saves it again, which makes
    them its owner."""
    webhook.enabled = False
    webhook.disabled_reason = f"{problem}; saving the webhook again makes you its owner"
    audit.record_change(
        session,
        None,
        AuditAction.WEBHOOK_UPDATE,
        webhook,
        {"enabled": [True, False]},
        detail=f"disabled by Steward: {problem}",
    )


def _stored_headers(inbound: Inbound, masker: Masker) -> dict[str, str]:
    """At most ``WEBHOOK_HEADERS_MAX``, each cut to ``HEADER_VALUE_MAX``; credentials masked."""
    kept: dict[str, str] = {}
    for name, value in list(inbound.headers.items())[:WEBHOOK_HEADERS_MAX]:
        shown = MASK if signatures.is_credential(name) else masker.text(value)
        kept[name[:100]] = shown[:HEADER_VALUE_MAX]
    return kept


def _record(
    session: Session,
    delivery: _Delivery,
    status: int,
    outcome: DeliveryOutcome,
    reason: str,
    run_id: int | None = None,
    *,
    workflow_run_id: int | None = None,
) -> Received:
    """Add the delivery record and commit it with whatever the session holds (a run).

    The sender's delivery id is kept (used up) only when the delivery launched a run or was
    ignored: after a refusal or a failed launch, the sender may deliver it again. A commit
    that finds the id taken (a replay racing this delivery) rolls everything back and
    records the replay instead."""
    inbound, webhook = delivery.inbound, delivery.webhook
    masker = Masker(delivery.secrets)
    body = inbound.body[:WEBHOOK_BODY_STORED_MAX].decode(errors="replace")
    event = inbound.headers.get(signatures.EVENT_HEADER[webhook.auth], "")
    keeps_key = outcome in (DeliveryOutcome.LAUNCHED, DeliveryOutcome.IGNORED)
    reason = masker.text(reason)
    row = WebhookDelivery(
        webhook_id=webhook.id,
        delivery_key=delivery.delivery_key if keeps_key else None,
        event=masker.text(event)[:100],
        source_ip=inbound.source_ip[:64],
        headers=_stored_headers(inbound, masker),
        body=masker.text(body),
        body_truncated=len(inbound.body) > WEBHOOK_BODY_STORED_MAX or inbound.too_large,
        authenticated=delivery.authenticated,
        outcome=outcome,
        reason=reason,
        status_code=status,
        launch=masker.data(delivery.launch),
        run_id=run_id,
        workflow_run_id=workflow_run_id,
        test=delivery.test,
    )
    session.add(row)
    try:
        session.flush()
        delivery_id = row.id
        session.commit()
    except IntegrityError:
        if row.delivery_key is None:
            raise
        session.rollback()
        delivery.delivery_key = None
        replay = _replay(session, delivery)
        if replay is None:  # not the delivery id after all
            raise
        return replay
    return Received(status, outcome, reason, delivery_id, run_id, workflow_run_id)


def send_test(
    session: Session,
    cipher: KeyCipher,
    queue: RunQueue,
    webhook: Webhook,
    body: TestDelivery,
    *,
    actor: Actor,
) -> WebhookDelivery:
    """A delivery made and signed by the server with the webhook's secret, through ``deliver``
    like any other; a dry run (``launch`` false) reports what it would launch, launching
    nothing. Recorded with ``test`` set, and in the audit trail."""
    sample_headers, sample_body = SAMPLES[webhook.auth]
    signature = signatures.SIGNATURE_HEADER[webhook.auth]
    given = {name.lower(): value for name, value in body.headers.items()}
    if body.sign and signature in given:
        raise InvalidInput(
            f"headers.{signature}",
            "set by the server from the secret (send sign: false to give it)",
        )
    raw = json.dumps(sample_body if body.body is None else body.body).encode()
    delivery_header = signatures.DELIVERY_HEADER[webhook.auth]
    headers = {
        "content-type": "application/json",
        "user-agent": "Steward-Test-Delivery",
        delivery_header: f"test-{uuid.uuid4()}",
        **sample_headers,
        **given,
    }
    if body.sign:
        secret = keys.reveal(session, cipher, webhook.secret_key_id, webhook.project_id).secret
        headers |= signatures.sign(webhook.auth, secret, raw)
    inbound = Inbound(raw, too_large=False, headers=headers, source_ip=actor.source_ip)
    received = deliver(session, cipher, queue, webhook, inbound, test=True, dry_run=not body.launch)
    mode = "launch" if body.launch else "dry run"
    audit.record_change(
        session,
        actor,
        AuditAction.WEBHOOK_TEST,
        webhook,
        detail=f"test delivery {received.delivery_id} ({mode}): {received.outcome}",
    )
    session.commit()
    return session.get_one(WebhookDelivery, received.delivery_id)
