"""Slack, Microsoft Teams and generic webhook destinations: one JSON POST each.

The request goes to the address ``Guard.vet`` checked (the URL's host swapped for it, the Host
header and TLS server name kept), without following redirects and without proxies from the
environment (a proxy would connect wherever it is told, past the check). Of the answer only
the status code is kept, with the standard phrase for it: its body and its own reason phrase
are never stored or shown (a destination may be a service that was never meant to answer the
server's viewers).
"""

from __future__ import annotations

import hashlib
import hmac
import http
import json
from collections.abc import Mapping
from typing import Any

import httpx2

from steward.notifications.delivery import Result
from steward.outbound import network

USER_AGENT = "Steward-Notifier/1"
SIGNATURE_HEADER = "X-Steward-Signature-256"
SLACK_TEXT_MAX = 2900  # a Slack section's text holds 3000
SLACK_HEADER_MAX = 150


def post_json(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    timeout: float,
    guard: network.Guard,
) -> Result:
    target = network.parse_url(url)
    address = guard.vet(target.host, target.port).address
    sent = {
        **headers,
        "Host": target.netloc,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    with httpx2.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        response = client.post(
            target.pinned(address), content=body, headers=sent, extensions=extensions
        )
    status, line = f"HTTP {response.status_code}", status_line(response.status_code)
    if response.is_success:
        return Result(True, status)
    if response.is_redirect:
        return Result(False, status, f"{line}: redirects are not followed")
    return Result(False, status, f"{line}: the receiver refused the message")


def status_line(code: int) -> str:
    """``HTTP 404 Not Found``: the code and the standard phrase, never the receiver's words."""
    try:
        return f"HTTP {code} {http.HTTPStatus(code).phrase}"
    except ValueError:
        return f"HTTP {code}"


def failure(exc: httpx2.HTTPError) -> Result:
    """A request that got no (HTTP) answer: timeout, refused connection, TLS error. The
    reason is ours: a protocol error would quote what the other end sent."""
    if isinstance(exc, httpx2.TimeoutException):
        return Result(False, "", f"{type(exc).__name__}: no answer in time")
    if isinstance(exc, httpx2.ConnectError):
        return Result(False, "", f"ConnectError: {exc}")  # the system's reason, or TLS's
    if isinstance(exc, httpx2.ProtocolError | httpx2.DecodingError):
        return Result(False, "", f"{type(exc).__name__}: the answer is not HTTP")
    return Result(False, "", type(exc).__name__)


def _escape(text: str) -> str:
    """Slack's mrkdwn: ``&``, ``<`` and ``>`` are control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _details(content: dict[str, Any]) -> list[str]:
    """The text's lines after the title, without the link (shown as a button)."""
    lines: list[str] = content["text"].split("\n")[1:]
    return [line for line in lines if line != content["url"]]


def slack_body(content: dict[str, Any]) -> bytes:
    """An incoming-webhook message: ``text`` (notifications, clients without blocks) and
    blocks: a header, the details, a button to the run."""
    details = _escape("\n".join(_details(content)))
    blocks: list[dict[str, Any]] = [
        {
            "type": "header",
            "text": {"type": "plain_text", "text": content["title"][:SLACK_HEADER_MAX]},
        }
    ]
    if details:
        blocks.append(
            {"type": "section", "text": {"type": "mrkdwn", "text": details[:SLACK_TEXT_MAX]}}
        )
    blocks.append(
        {
            "type": "actions",
            "elements": [
                {
                    "type": "button",
                    "text": {"type": "plain_text", "text": "Open in Steward"},
                    "url": content["url"],
                }
            ],
        }
    )
    return _json({"text": content["text"][:SLACK_TEXT_MAX], "blocks": blocks})


def teams_body(content: dict[str, Any]) -> bytes:
    """An Adaptive Card in a message: what Teams incoming webhooks and Workflows accept."""
    lines = [
        {"type": "TextBlock", "text": line, "wrap": True, "spacing": "None"}
        for line in _details(content)
    ]
    card = {
        "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
        "type": "AdaptiveCard",
        "version": "1.4",
        "body": [
            {
                "type": "TextBlock",
                "text": content["title"],
                "weight": "Bolder",
                "size": "Medium",
                "wrap": True,
            },
            *lines,
        ],
        "actions": [{"type": "Action.OpenUrl", "title": "Open in Steward", "url": content["url"]}],
    }
    attachment = {
        "contentType": "application/vnd.microsoft.card.adaptive",
        "contentUrl": None,
        "content": card,
    }
    return _json({"type": "message", "summary": content["title"], "attachments": [attachment]})


def webhook_body(content: dict[str, Any]) -> bytes:
    return _json(content)


def signature(secret: str, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 of the exact body, as GitHub signs its webhooks."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def webhook_headers(
    config: dict[str, Any], secret: str, body: bytes, *, event: str, message_id: int
) -> dict[str, str]:
    return {
        **config.get("headers", {}),
        "X-Steward-Event": event,
        "X-Steward-Delivery": str(message_id),
        SIGNATURE_HEADER: signature(secret, body),
    }


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
