"""Slack, Microsoft Teams and generic webhook destinations: one JSON POST each.

The request goes to the address ``Guard.vet`` checked (``outbound.web.post``). Of the answer only
the status code is kept, with the standard phrase for it: its body and its own reason phrase
are never stored or shown (a destination may be a service that was never meant to answer the
server's viewers).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from steward.notifications.delivery import Result
from steward.outbound import network, web

if TYPE_CHECKING:
    import httpx2

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
    sent = {**headers, "Content-Type": "application/json", "User-Agent": USER_AGENT}
    response = web.post(url, body, sent, timeout=timeout, guard=guard)
    status, line = f"HTTP {response.status_code}", web.status_line(response.status_code)
    if response.is_success:
        return Result(True, status)
    if response.is_redirect:
        return Result(False, status, f"{line}: redirects are not followed")
    return Result(False, status, f"{line}: the receiver refused the message")


def failure(exc: httpx2.HTTPError) -> Result:
    """A request that got no (HTTP) answer (``web.reason``)."""
    return Result(False, "", web.reason(exc))


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
