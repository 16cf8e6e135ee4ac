"""Inbound webhooks as a hostile sender or user tries them, over real HTTP to a real server:
oversized, unreadable and deeply nested bodies, hostile headers, paths and refs, probing for
hook ids, and the secret looked for everywhere it must not be."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from support.webhooks import (
    SECRET,
    HookServer,
    encode,
    github_headers,
    gitlab_headers,
)

from steward.bounds import HEADER_VALUE_MAX, WEBHOOK_BODY_MAX, WEBHOOK_HEADERS_MAX

# what is checked here does not depend on the database (tests/webhooks runs on both)
pytestmark = [pytest.mark.security, pytest.mark.sqlite_only]

READS_BODY = [{"source": "body", "path": "ref", "op": "exists"}]


@pytest.fixture(scope="module")
def ids(hook_server: HookServer) -> dict[str, int]:
    ids = hook_server.project("hostile")
    ids["template"] = hook_server.template(ids, overridable=["extra_vars", "ref"])
    hook_server.unrunnable("hostile")  # the deliveries are the point: a run ends at once
    return ids


def hook(hook_server: HookServer, ids: dict[str, int], name: str, **body: Any) -> dict[str, Any]:
    return hook_server.webhook(ids, ids["template"], name=name, rate_limit_per_minute=1000, **body)


def test_oversized_bodies_are_refused_with_413_and_recorded(
    hook_server: HookServer, ids: dict[str, int]
) -> None:
    target = hook(hook_server, ids, "big", matchers=READS_BODY)
    big = b'{"ref": "' + b"x" * WEBHOOK_BODY_MAX + b'"}'
    declared = hook_server.deliver(target["url"], big, github_headers(big))
    assert declared.status_code == 413, declared.text

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"ref": "'
        for _ in range(WEBHOOK_BODY_MAX // 65536 + 1):
            yield b"x" * 65536
        yield b'"}'

    streamed = hook_server.sender.post(
        target["url"], content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert streamed.status_code == 413, streamed.text
    assert "larger than 1 MiB" in streamed.json()["detail"]
    recorded = hook_server.deliveries(target)
    assert [(d["status_code"], d["body_truncated"]) for d in recorded] == [(413, True)] * 2
    assert len(hook_server.delivery(target, recorded[0]["id"])["body"]) <= 64 * 1024


@pytest.mark.parametrize(
    ("body", "cause"),
    [
        (b"payload=%7B%22ref%22%3A1%7D", "application/json"),
        (b"\xff\xfe{not json", "not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b"", "not JSON"),
    ],
    # short ids: pytest puts the test's id in the environment of every process the test starts
    # (PYTEST_CURRENT_TEST), and one over 128 KiB makes each exec fail (E2BIG)
    ids=["form-encoded", "not-utf8", "nested-100k", "empty"],
)
def test_a_body_that_is_not_readable_json_is_refused_with_the_reason(
    hook_server: HookServer, ids: dict[str, int], body: bytes, cause: str
) -> None:
    target = hook(hook_server, ids, f"json-{len(body)}", matchers=READS_BODY)
    refused = hook_server.deliver(target["url"], body, github_headers(body))
    assert refused.status_code == 422, refused.text
    assert cause in refused.json()["detail"]
    assert hook_server.deliveries(target)[0]["outcome"] == "rejected"


def test_a_deep_value_extracted_from_the_body_is_refused_not_launched(
    hook_server: HookServer, ids: dict[str, int]
) -> None:
    target = hook(hook_server, ids, "deep", extractors={"deep": "a"})
    deep: Any = "leaf"
    for _ in range(40):
        deep = {"k": deep}
    body = encode({"a": deep})
    refused = hook_server.deliver(target["url"], body, github_headers(body))
    assert refused.status_code == 422, refused.text
    assert "nested more than 32 levels" in refused.json()["detail"]
    assert refused.json()["outcome"] == "rejected"


@pytest.mark.parametrize(
    "ref",
    [
        "--upload-pack=touch /tmp/pwned",
        "-b",
        "refs/heads/../../etc/passwd",
        "../../etc",
        "main; rm -rf /",
        "main\nx",
        "",
        "x" * 300,
    ],
)
def test_a_hostile_ref_in_the_body_is_refused_before_any_launch(
    hook_server: HookServer, ids: dict[str, int], ref: str
) -> None:
    target = hook(hook_server, ids, f"ref-{secrets.token_hex(4)}", ref_from="ref")
    body = encode({"ref": ref})
    refused = hook_server.deliver(target["url"], body, github_headers(body))
    assert refused.status_code == 422, refused.text
    assert refused.json()["detail"].startswith("ref_from: ")
    assert refused.json()["outcome"] == "rejected"
    assert hook_server.deliveries(target)[0]["run_id"] is None


def test_paths_into_the_body_cannot_leave_it(hook_server: HookServer, ids: dict[str, int]) -> None:
    url = f"/projects/{ids['project']}/templates/{ids['template']}/webhooks"
    base = {"name": "paths", "auth": "github", "secret_key_id": ids["key"]}
    for field, value in (
        ("matchers", [{"source": "body", "path": "../../etc/passwd", "op": "exists"}]),
        ("extractors", {"x": "/etc/passwd"}),
        ("extractors", {"x": "a.b/../../c"}),
        ("ref_from", "~/.ssh/id_rsa"),
    ):
        refused = hook_server.api.post(url, json={**base, field: value})
        assert refused.status_code == 422, (field, value, refused.text)
        assert field in refused.json()["detail"]
    # keys are looked up in the JSON document, never as attributes of anything
    dunder = [{"source": "body", "path": "__class__.__init__", "op": "exists"}]
    target = hook(hook_server, ids, "dunder", matchers=dunder, extractors={"x": "__dict__"})
    body = encode([])
    ignored = hook_server.deliver(target["url"], body, github_headers(body))
    assert ignored.status_code == 202, ignored.text
    assert ignored.json()["reason"].endswith("the body has no __class__.__init__")


def test_headers_are_bounded_masked_and_a_test_delivery_cannot_inject_any(
    hook_server: HookServer, ids: dict[str, int]
) -> None:
    target = hook(hook_server, ids, "headers")
    body = encode({"ref": "refs/heads/main"})
    many = {f"X-Filler-{n}": "v" for n in range(WEBHOOK_HEADERS_MAX + 20)}
    headers = {
        **many,
        **github_headers(body),
        "X-Long": "y" * (HEADER_VALUE_MAX * 5),
        "X-Api-Key": "some-other-credential",
        "Cookie": "steward_session=stolen",
    }
    accepted = hook_server.deliver(target["url"], body, headers)
    assert accepted.status_code == 202, accepted.text
    stored = hook_server.delivery(target, accepted.json()["delivery_id"])["headers"]
    assert len(stored) <= WEBHOOK_HEADERS_MAX
    assert all(len(value) <= HEADER_VALUE_MAX for value in stored.values())
    assert "some-other-credential" not in json.dumps(stored)
    assert "stolen" not in json.dumps(stored)

    test_url = f"/projects/{ids['project']}/webhooks/{target['id']}/test"
    for hostile in (
        {"X-Event\r\nX-Injected": "1"},
        {"X-Event": "push\r\nX-Injected: 1"},
        {"X-Event": "push\nX-Injected: 1"},
        {"X-Event": "a\x00b"},
        {"": "empty"},
        {"X Event": "space"},
    ):
        refused = hook_server.api.post(test_url, json={"headers": hostile})
        assert refused.status_code == 422, (hostile, refused.text)
        assert "headers" in refused.json()["detail"]


def _fastest_404_ms(hook_server: HookServer, urls: tuple[str, str], body: bytes) -> list[float]:
    """The quickest 404 of each URL over interleaved requests: the least the server does for
    it, which load on the machine can only add to."""
    fastest = [float("inf"), float("inf")]
    for _ in range(20):
        for i, url in enumerate(urls):
            started = time.perf_counter()
            answer = hook_server.deliver(url, body, github_headers(body))
            fastest[i] = min(fastest[i], (time.perf_counter() - started) * 1000)
            assert answer.status_code == 404
    return fastest


def test_probing_for_hook_ids_learns_nothing(hook_server: HookServer, ids: dict[str, int]) -> None:
    disabled = hook(hook_server, ids, "disabled", enabled=False)
    prefix = disabled["url"].rsplit("/", 1)[0]
    unknown = f"{prefix}/{secrets.token_urlsafe(24)}"
    body = encode({"ref": "refs/heads/main"})
    answers = [
        hook_server.deliver(url, body, github_headers(body))
        for url in (disabled["url"], unknown, f"{prefix}/{'a' * 5000}", f"{prefix}/%00%2e%2e")
    ]
    assert {a.status_code for a in answers} == {404}
    assert len({a.text for a in answers}) == 1
    assert hook_server.deliveries(disabled) == []

    # the same indexed lookup answers both: no timing tells a disabled hook from no hook
    disabled_ms, unknown_ms = _fastest_404_ms(hook_server, (disabled["url"], unknown), body)
    assert abs(disabled_ms - unknown_ms) <= max(2.0, 0.5 * min(disabled_ms, unknown_ms)), (
        disabled_ms,
        unknown_ms,
    )


def test_the_secret_is_never_returned_stored_logged_or_audited(
    hook_server: HookServer, ids: dict[str, int]
) -> None:
    survey = [{"variable": "password", "label": "pw", "type": "password"}]
    template = hook_server.template(ids, name="secretive", survey=survey)
    target = hook_server.webhook(
        ids, template, name="gitlab", auth="gitlab", extractors={"password": "password"}
    )
    body = encode({"note": f"the sender put it here: {SECRET}", "password": "answer-1234-pw"})
    headers = {**gitlab_headers(), "X-Echo": SECRET, "Authorization": f"Bearer {SECRET}"}
    accepted = hook_server.deliver(target["url"], body, headers)
    assert accepted.status_code == 202, accepted.text
    wrong = hook_server.deliver(target["url"], body, gitlab_headers(secret=SECRET + "x"))
    assert wrong.status_code == 401
    test = f"/projects/{ids['project']}/webhooks/{target['id']}/test"
    tested = hook_server.api.post(test, json={"body": {"password": "answer-1234-pw"}})
    assert tested.status_code == 200, tested.text

    base = f"/projects/{ids['project']}"
    seen = [
        accepted.text,
        wrong.text,
        tested.text,
        hook_server.api.get(f"{base}/webhooks/{target['id']}").text,
        hook_server.api.get(f"{base}/webhooks").text,
        hook_server.api.get(f"{base}/keys/{ids['key']}").text,
        *(
            json.dumps(hook_server.delivery(target, d["id"]))
            for d in hook_server.deliveries(target)
        ),
        hook_server.api.get("/audit/export").text,
        hook_server.api.get(f"{base}/runs/{accepted.json()['run_id']}").text,
    ]
    for text in seen:
        assert SECRET not in text
        assert "answer-1234-pw" not in text  # a password answer taken from the body
    stored = hook_server.delivery(target, accepted.json()["delivery_id"])
    assert stored["headers"]["x-gitlab-token"] == "********"
    assert stored["headers"]["x-echo"] == "********"
    assert "********" in stored["body"]
    assert stored["launch"] == {"survey": {"password": "********"}}
    assert SECRET not in hook_server.server.log.read_text()
