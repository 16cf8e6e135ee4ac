"""The sample a test delivery sends when the caller gives no body: a push to main, shaped like
the sender of each scheme sends it (only the fields people usually match or extract)."""

from __future__ import annotations

from typing import Any

from steward.webhooks.models import WebhookAuth

COMMIT = "0123456789abcdef0123456789abcdef01234567"

_GITHUB_PUSH: dict[str, Any] = {
    "ref": "refs/heads/main",
    "before": "0" * 40,
    "after": COMMIT,
    "repository": {"full_name": "example/site", "default_branch": "main"},
    "pusher": {"name": "steward"},
    "head_commit": {"id": COMMIT, "message": "Test delivery from Steward"},
}
_GITLAB_PUSH: dict[str, Any] = {
    "object_kind": "push",
    "ref": "refs/heads/main",
    "before": "0" * 40,
    "after": COMMIT,
    "checkout_sha": COMMIT,
    "user_username": "steward",
    "project": {"path_with_namespace": "example/site", "default_branch": "main"},
}
_GENERIC: dict[str, Any] = {"event": "push", "ref": "refs/heads/main", "after": COMMIT}

SAMPLES: dict[WebhookAuth, tuple[dict[str, str], dict[str, Any]]] = {
    WebhookAuth.GITHUB: ({"x-github-event": "push"}, _GITHUB_PUSH),
    WebhookAuth.GITLAB: ({"x-gitlab-event": "Push Hook"}, _GITLAB_PUSH),
    WebhookAuth.HMAC: ({"x-steward-event": "push"}, _GENERIC),
    WebhookAuth.BEARER: ({"x-steward-event": "push"}, _GENERIC),
}
