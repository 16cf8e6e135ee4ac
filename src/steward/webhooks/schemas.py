from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any

from pydantic import BaseModel, Field, model_validator
from pydantic_core import PydanticCustomError

from steward.bounds import (
    HEADER_VALUE_MAX,
    WEBHOOK_EXTRACTORS_MAX,
    WEBHOOK_HEADERS_MAX,
    WEBHOOK_MATCHERS_MAX,
    WEBHOOK_PATH_MAX,
    Description,
    Id,
    JsonObject,
    Name,
)
from steward.schemas import NamedUpdate, OlderPage, RequestModel, ResponseModel
from steward.templates.variables import VariableName
from steward.triggers.schemas import TargetChoice, TriggerRead
from steward.webhooks.matching import MatchOp, MatchSource
from steward.webhooks.models import DeliveryOutcome, WebhookAuth
from steward.webhooks.signatures import is_credential

# dotted keys and list indexes (a.b.0.c): no empty segment, nothing but names and numbers
_SEGMENT = r"[A-Za-z0-9_$@-]{1,100}"
BODY_PATH_PATTERN = rf"^{_SEGMENT}(\.{_SEGMENT}){{0,15}}$"
BodyPath = Annotated[
    str, Field(min_length=1, max_length=WEBHOOK_PATH_MAX, pattern=BODY_PATH_PATTERN)
]
RefFrom = Annotated[
    str, Field(max_length=WEBHOOK_PATH_MAX, pattern=rf"^({_SEGMENT}(\.{_SEGMENT}){{0,15}})?$")
]
HEADER_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$"
HeaderName = Annotated[str, Field(min_length=1, max_length=100, pattern=HEADER_NAME_PATTERN)]
# printable text and tabs: a line break would start another header
HeaderValue = Annotated[
    str, Field(max_length=HEADER_VALUE_MAX, pattern=r"^[^\x00-\x08\x0a-\x1f\x7f]*$")
]
MatchScalar = Annotated[str, Field(max_length=HEADER_VALUE_MAX)] | bool | int | float | None
Extractors = Annotated[dict[VariableName, BodyPath], Field(max_length=WEBHOOK_EXTRACTORS_MAX)]
RateLimit = Annotated[int, Field(ge=1, le=1000)]
ONE_OF_MAX = 100
_BODY_PATH = re.compile(BODY_PATH_PATTERN)
_HEADER_NAME = re.compile(HEADER_NAME_PATTERN)


class Matcher(RequestModel):
    """One condition on a delivery; a webhook launches only when all of its matchers hold."""

    source: MatchSource
    path: str = Field(
        min_length=1,
        max_length=WEBHOOK_PATH_MAX,
        description="a dotted path into the JSON body (a.b.0.c), or a header name",
    )
    op: MatchOp = MatchOp.EQUALS
    value: MatchScalar | list[MatchScalar] = Field(
        default=None, description="equals: a value; one_of: a list; glob: a pattern; exists: none"
    )

    @model_validator(mode="after")
    def _check(self) -> Matcher:
        self._check_path()
        if self.op is MatchOp.EXISTS and self.value is not None:
            raise PydanticCustomError("matcher", "value: 'exists' takes no value")
        if self.op is MatchOp.ONE_OF:
            if not isinstance(self.value, list) or not 1 <= len(self.value) <= ONE_OF_MAX:
                raise PydanticCustomError(
                    "matcher", f"value: 'one_of' takes a list of 1 to {ONE_OF_MAX} values"
                )
        elif isinstance(self.value, list):
            raise PydanticCustomError("matcher", f"value: '{self.op}' takes one value, not a list")
        if self.op is MatchOp.GLOB and not isinstance(self.value, str):
            raise PydanticCustomError("matcher", "value: 'glob' takes a pattern (a string)")
        values = self.value if isinstance(self.value, list) else [self.value]
        header = self.source is MatchSource.HEADER and self.op is not MatchOp.EXISTS
        if header and not all(isinstance(v, str) for v in values):
            raise PydanticCustomError("matcher", "value: header values are strings")
        return self

    def _check_path(self) -> None:
        if self.source is MatchSource.BODY:
            if not _BODY_PATH.match(self.path):
                raise PydanticCustomError(
                    "matcher",
                    "path: a dotted path of keys and list indexes (a.b.0.c), each of letters, "
                    "digits and _$@-",
                )
            return
        if not _HEADER_NAME.match(self.path):
            raise PydanticCustomError("matcher", "path: a header name (letters, digits, '-')")
        if is_credential(self.path):
            raise PydanticCustomError(
                "matcher",
                "path: a header carrying credentials is never stored nor matched",
            )


Matchers = Annotated[list[Matcher], Field(max_length=WEBHOOK_MATCHERS_MAX)]


class WebhookCreate(RequestModel):
    name: Name
    description: Description = ""
    auth: WebhookAuth
    secret_key_id: Id = Field(description="a 'secret' key of the project: the shared secret")
    enabled: bool = True
    matchers: Matchers = Field(default_factory=list)
    extractors: Extractors = Field(
        default_factory=dict,
        description="{variable: body path}: launch extra vars (or survey answers), as data",
    )
    ref_from: RefFrom = Field(
        default="", description="body path of the branch, tag or commit to run (e.g. after)"
    )
    rate_limit_per_minute: RateLimit = 30


class WebhookTargetCreate(TargetChoice, WebhookCreate):
    """A webhook of a template or of a workflow: exactly one of ``template_id`` and
    ``workflow_id``. A workflow's webhook takes no ``extractors`` nor ``ref_from`` (its nodes
    carry their own launch values)."""


class WebhookUpdate(NamedUpdate):
    """Only the fields sent change; ``matchers`` and ``extractors`` replace the whole set.
    Saving makes the caller the webhook's owner, whose rights its deliveries launch with."""

    auth: WebhookAuth | None = None
    secret_key_id: Id | None = None
    enabled: bool | None = None
    matchers: Matchers | None = None
    extractors: Extractors | None = None
    ref_from: RefFrom | None = None
    rate_limit_per_minute: RateLimit | None = None


class WebhookRead(TriggerRead):
    url: str = Field(default="", description="where the sender posts its deliveries")
    auth: WebhookAuth
    signature_header: str = Field(default="", description="the header that proves the secret")
    delivery_header: str = Field(default="", description="the sender's delivery id header")
    secret_key_id: int
    enabled: bool
    disabled_reason: str
    matchers: list[Matcher]
    extractors: dict[str, str]
    ref_from: str
    rate_limit_per_minute: int
    owner_id: int | None
    owner: str = Field(default="", description="whose rights deliveries launch with")
    created_at: dt.datetime
    updated_at: dt.datetime


class DeliveryFilters(BaseModel):
    outcome: DeliveryOutcome | None = None
    test: bool | None = None
    before_id: Id | None = None
    limit: int = Field(default=50, ge=1, le=200)


class DeliverySummary(ResponseModel):
    id: int
    webhook_id: int
    received_at: dt.datetime
    delivery_key: str | None
    event: str
    source_ip: str
    authenticated: bool
    outcome: DeliveryOutcome
    reason: str
    status_code: int
    run_id: int | None
    workflow_run_id: int | None = Field(default=None, description="a workflow target's launch")
    test: bool
    body_truncated: bool


class DeliveryRead(DeliverySummary):
    headers: dict[str, str] = Field(description="as received; credentials shown as ********")
    body: str = Field(description="the first 64 KiB; the secret shown as ********")
    launch: dict[str, Any] = Field(description="launch values taken from the body")


class DeliveryPage(OlderPage[DeliverySummary]):
    pass


class TestDelivery(RequestModel):
    """A delivery sent by the server to the webhook through the same checks as a real one."""

    body: JsonObject | None = Field(
        default=None, description="the JSON body; default: a sample push event of the scheme"
    )
    headers: Annotated[dict[HeaderName, HeaderValue], Field(max_length=WEBHOOK_HEADERS_MAX)] = (
        Field(default_factory=dict, description="extra headers (an event header, …)")
    )
    sign: bool = Field(default=True, description="false: send it without the signature/secret")
    launch: bool = Field(default=False, description="false: dry run, report what would launch")


class DeliveryResult(BaseModel):
    """What a sender is answered when its delivery is accepted (202)."""

    delivery_id: int | None
    outcome: DeliveryOutcome
    reason: str
    run_id: int | None
    workflow_run_id: int | None = None
