"""How a sender proves it knows a hook's secret, per scheme, and which headers carry what.

Verification compares with ``hmac.compare_digest`` only. The same functions sign the console's
test deliveries, so a test goes through exactly the checks a real sender's request does.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from steward.webhooks.models import WebhookAuth

SIGNATURE_HEADER = {
    WebhookAuth.GITHUB: "x-hub-signature-256",
    WebhookAuth.GITLAB: "x-gitlab-token",
    WebhookAuth.HMAC: "x-steward-signature-256",
    WebhookAuth.BEARER: "authorization",
}
# the sender's id of a delivery, accepted once per hook (replay protection)
DELIVERY_HEADER = {
    WebhookAuth.GITHUB: "x-github-delivery",
    WebhookAuth.GITLAB: "x-gitlab-event-uuid",
    WebhookAuth.HMAC: "x-steward-delivery",
    WebhookAuth.BEARER: "x-steward-delivery",
}
# what kind of event it is, shown in the deliveries list
EVENT_HEADER = {
    WebhookAuth.GITHUB: "x-github-event",
    WebhookAuth.GITLAB: "x-gitlab-event",
    WebhookAuth.HMAC: "x-steward-event",
    WebhookAuth.BEARER: "x-steward-event",
}
# never stored with a delivery, whatever the scheme: they carry credentials
CREDENTIAL_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "x-gitlab-token", "x-hub-signature"}
    | {"x-hub-signature-256", "x-steward-signature-256", "x-csrf-token"}
)
# nor any header whose name says it carries one (X-Api-Key, X-Auth-Token, …)
CREDENTIAL_WORDS = ("auth", "token", "secret", "signature", "password", "key", "cookie")


def is_credential(name: str) -> bool:
    lowered = name.lower()
    return lowered in CREDENTIAL_HEADERS or any(word in lowered for word in CREDENTIAL_WORDS)


def _hmac_hex(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def sign(auth: WebhookAuth, secret: str, body: bytes) -> dict[str, str]:
    """The header a correct sender of ``body`` sends (for test deliveries)."""
    auth = WebhookAuth(auth)  # as loaded from the database: a str
    header = SIGNATURE_HEADER[auth]
    if auth in (WebhookAuth.GITHUB, WebhookAuth.HMAC):
        return {header: f"sha256={_hmac_hex(secret, body)}"}
    if auth is WebhookAuth.GITLAB:
        return {header: secret}
    return {header: f"Bearer {secret}"}


def verify(auth: WebhookAuth, secret: str, body: bytes, headers: Mapping[str, str]) -> str | None:
    """Why the request does not prove knowledge of ``secret``, or None when it does.

    ``headers``: lower-case names. The reason names the header, never what it held."""
    auth = WebhookAuth(auth)  # as loaded from the database: a str
    header = SIGNATURE_HEADER[auth]
    given = headers.get(header)
    if given is None:
        return f"no {header} header"
    if auth in (WebhookAuth.GITHUB, WebhookAuth.HMAC):
        expected = f"sha256={_hmac_hex(secret, body)}"
        wrong = f"{header} does not match the body signed with the hook's secret"
    elif auth is WebhookAuth.GITLAB:
        expected, wrong = secret, f"{header} is not the hook's secret"
    else:
        scheme, _, given = given.partition(" ")
        expected, wrong = secret, f"{header} is not 'Bearer <the hook's secret>'"
        if scheme.lower() != "bearer":
            return wrong
    if not hmac.compare_digest(given.strip().encode(), expected.encode()):
        return wrong
    return None
