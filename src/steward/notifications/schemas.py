from __future__ import annotations

import datetime as dt
import enum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import PydanticCustomError

from steward.bounds import HOST_QUIET_MAX_MINUTES, Description, Id, JsonObject, Label, Name, Url
from steward.notifications.models import DestinationKind, MessageStatus, RunEventKind
from steward.outbound import network
from steward.schemas import (
    NamedUpdate,
    OlderPage,
    RequestModel,
    ResponseModel,
    ScopedRead,
    UpdateModel,
)

RECIPIENTS_MAX = 50
HEADERS_MAX = 20
HEADER_VALUE_MAX = 1000
LONG_RUNNING_MAX_MINUTES = 7 * 24 * 60  # a run's timeout is a week at most
LONG_RUNNING_MIN_MINUTES = 0.05  # 3 s: tests need not wait minutes
# headers Steward sets itself, or that change how the request is framed
RESERVED_HEADERS = frozenset(
    {"host", "content-length", "content-type", "transfer-encoding", "connection", "expect"}
    | {"te", "upgrade", "trailer", "keep-alive", "user-agent"}
)
# a destination's config is not secret (shown by the API, kept in the audit trail)
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})
RESERVED_PREFIX = "x-steward-"


def _host(value: str) -> str:
    problem = network.check_host_name(value)
    if problem is not None:
        raise PydanticCustomError("host", "{reason}", {"reason": problem})
    return value


def _http_url(value: str) -> str:
    try:
        network.parse_url(value)
    except network.Refused as exc:
        raise PydanticCustomError("url", "{reason}", {"reason": str(exc)}) from exc
    return value


def _headers(value: dict[str, str]) -> dict[str, str]:
    for name in value:
        lowered = name.lower()
        if lowered in RESERVED_HEADERS or lowered.startswith(RESERVED_PREFIX):
            reason = f"'{name}' is set by Steward; it may not be given"
            raise PydanticCustomError("header", "{reason}", {"reason": reason})
        if lowered in CREDENTIAL_HEADERS:
            reason = (
                f"'{name}' would be stored and shown in clear; receivers authenticate Steward "
                "by the X-Steward-Signature-256 header (HMAC of the body with the key's secret)"
            )
            raise PydanticCustomError("header", "{reason}", {"reason": reason})
    return value


HostName = Annotated[str, AfterValidator(_host)]
# an address, not a display name: no spaces, commas, brackets or line breaks (header injection)
EmailAddress = Annotated[
    str,
    Field(
        min_length=3,
        max_length=254,
        pattern=r"^[^@\s<>(),;:\"\[\]\\]{1,64}@[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$",
    ),
]
HttpUrl = Annotated[Url, AfterValidator(_http_url)]
HeaderName = Annotated[
    str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")
]
HeaderValue = Annotated[str, Field(max_length=HEADER_VALUE_MAX, pattern=r"^[^\x00-\x1f\x7f]*$")]
Headers = Annotated[
    dict[HeaderName, HeaderValue], Field(max_length=HEADERS_MAX), AfterValidator(_headers)
]


class SmtpSecurity(enum.StrEnum):
    STARTTLS = "starttls"  # plain connection upgraded with STARTTLS (port 587); required
    TLS = "tls"  # TLS from the first byte (port 465)
    NONE = "none"  # no encryption: only without a password


class EmailConfig(RequestModel):
    host: HostName
    port: int = Field(default=587, ge=1, le=65535)
    security: SmtpSecurity = SmtpSecurity.STARTTLS
    username: Label = ""  # empty: the login_password key's username, else no login
    from_address: EmailAddress
    to: list[EmailAddress] = Field(min_length=1, max_length=RECIPIENTS_MAX)
    verify_tls: bool = True  # false only for a server with a self-signed certificate


class WebhookConfig(RequestModel):
    url: HttpUrl
    headers: Headers = Field(default_factory=dict)


class ChatConfig(RequestModel):
    """Slack and Teams: nothing but the incoming-webhook URL, kept in the key store."""


CONFIGS: dict[DestinationKind, type[RequestModel]] = {
    DestinationKind.EMAIL: EmailConfig,
    DestinationKind.SLACK: ChatConfig,
    DestinationKind.TEAMS: ChatConfig,
    DestinationKind.WEBHOOK: WebhookConfig,
}


class _DestinationCreateBase(RequestModel):
    name: Name
    description: Description = ""
    enabled: bool = True


class EmailDestinationCreate(_DestinationCreateBase):
    """``secret_key_id``: the SMTP password (a ``login_password`` key, whose username is used
    when ``config.username`` is empty, or a ``secret`` key); none for a server without login."""

    kind: Literal[DestinationKind.EMAIL]
    config: EmailConfig
    secret_key_id: Id | None = None


class SlackDestinationCreate(_DestinationCreateBase):
    """``secret_key_id``: a ``secret`` key holding the incoming-webhook URL."""

    kind: Literal[DestinationKind.SLACK]
    config: ChatConfig = Field(default_factory=ChatConfig)
    secret_key_id: Id


class TeamsDestinationCreate(_DestinationCreateBase):
    """``secret_key_id``: a ``secret`` key holding the incoming-webhook (Workflows) URL."""

    kind: Literal[DestinationKind.TEAMS]
    config: ChatConfig = Field(default_factory=ChatConfig)
    secret_key_id: Id


class WebhookDestinationCreate(_DestinationCreateBase):
    """``secret_key_id``: a ``secret`` key, the HMAC-SHA256 secret of the
    ``X-Steward-Signature-256`` header."""

    kind: Literal[DestinationKind.WEBHOOK]
    config: WebhookConfig
    secret_key_id: Id


DestinationCreate = Annotated[
    EmailDestinationCreate
    | SlackDestinationCreate
    | TeamsDestinationCreate
    | WebhookDestinationCreate,
    Field(discriminator="kind"),
]


class DestinationUpdate(NamedUpdate):
    """Every field optional; ``config`` replaces the whole configuration (of the same kind);
    ``secret_key_id`` null removes an email destination's password."""

    enabled: bool | None = None
    config: JsonObject | None = None
    secret_key_id: Id | None = None

    NULLABLE = frozenset({"secret_key_id"})


class DestinationRead(ScopedRead):
    kind: DestinationKind
    config: dict[str, Any]
    secret_key_id: int | None
    secret_key_name: str | None
    enabled: bool
    created_at: dt.datetime
    updated_at: dt.datetime


Minutes = Annotated[float, Field(ge=LONG_RUNNING_MIN_MINUTES, le=LONG_RUNNING_MAX_MINUTES)]
QuietMinutes = Annotated[float, Field(ge=LONG_RUNNING_MIN_MINUTES, le=HOST_QUIET_MAX_MINUTES)]
Events = Annotated[list[RunEventKind], Field(min_length=1, max_length=len(RunEventKind))]


class SubscriptionCreate(RequestModel):
    """Runs of the whole project (neither ``template_id`` nor ``schedule_id``), of one template,
    or launched by one schedule. ``long_running_minutes`` goes with the ``long_running`` event:
    one message when a run is still running that long after it started. ``host_quiet``: one
    message per host of a running run that is on a task and gave no sign of life (a result, a
    loop's item) for ``host_quiet_minutes`` (when not given, the instance's
    ``host_quiet_minutes``, the threshold the run page flags quiet hosts at). ``approval_needed``
    (a workflow's approval waits) reaches project-wide subscriptions, a template's when one of
    the workflow run's nodes runs that template, and the schedule's that launched it."""

    destination_id: Id
    events: Events
    template_id: Id | None = None
    schedule_id: Id | None = None
    long_running_minutes: Minutes | None = None
    host_quiet_minutes: QuietMinutes | None = None


class SubscriptionUpdate(UpdateModel):
    """What it is scoped to (project, template, schedule) does not change."""

    destination_id: Id | None = None
    events: Events | None = None
    long_running_minutes: Minutes | None = None
    host_quiet_minutes: QuietMinutes | None = None

    NULLABLE = frozenset({"long_running_minutes", "host_quiet_minutes"})


class SubscriptionScope(enum.StrEnum):
    PROJECT = "project"
    TEMPLATE = "template"
    SCHEDULE = "schedule"


class SubscriptionRead(ResponseModel):
    id: int
    project_id: int
    scope: SubscriptionScope
    destination_id: int
    destination_name: str
    destination_kind: DestinationKind
    template_id: int | None
    template_name: str | None
    schedule_id: int | None
    schedule_name: str | None
    events: list[RunEventKind]
    long_running_minutes: float | None
    host_quiet_minutes: float | None = Field(
        description="host_quiet: its threshold; null: the instance's host_quiet_minutes"
    )
    created_at: dt.datetime


class AttemptRead(ResponseModel):
    at: dt.datetime
    ok: bool
    status: str = Field(description='the answer: "HTTP 200", "SMTP 250"; empty without one')
    error: str
    duration_ms: int


class MessageRead(ResponseModel):
    id: int
    destination_id: int
    run_id: int | None
    workflow_run_id: int | None = Field(
        default=None, description="approval_needed: the workflow run whose node waits"
    )
    node_key: str = Field(default="", description="approval_needed: the waiting node")
    host: str = Field(default="", description="host_quiet: the quiet host")
    event: str = Field(description="a run event, or 'test'")
    status: MessageStatus
    attempt_count: int
    next_attempt_at: dt.datetime | None = Field(description="when pending: its next attempt")
    created_at: dt.datetime
    sent_at: dt.datetime | None
    last_error: str
    content: dict[str, Any] = Field(description="what is sent; empty until the first attempt")
    attempts: list[AttemptRead] = Field(description="oldest first")


class MessagePage(OlderPage[MessageRead]):
    pass


class MessageParams(BaseModel):
    before_id: Id | None = None
    limit: int = Field(default=20, ge=1, le=200)


class TestQueued(BaseModel):
    message_id: int = Field(description="the test message, delivered by the notifier")
