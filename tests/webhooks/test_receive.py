"""Deliveries over real HTTP to a real server: each scheme's proof of the secret, replays,
matchers, the rate limit and the record of every delivery."""

from __future__ import annotations

import concurrent.futures
import json
import time
from typing import Any

import httpx2
import pytest
from support.builders import post
from support.waits import wait_finished
from support.webhooks import (
    SECRET,
    HookServer,
    bearer_headers,
    encode,
    github_headers,
    gitlab_headers,
    hmac_headers,
)

PUSH_MAIN = {"ref": "refs/heads/main", "after": "a" * 40, "pusher": {"name": "alice"}}
PUSH_DEV = {**PUSH_MAIN, "ref": "refs/heads/dev"}
ON_PUSH_TO_MAIN = [
    {"source": "header", "path": "X-GitHub-Event", "op": "equals", "value": "push"},
    {"source": "body", "path": "ref", "op": "equals", "value": "refs/heads/main"},
]


def no_secret_in(*documents: Any) -> None:
    for document in documents:
        assert SECRET not in json.dumps(document)


def test_a_signed_github_push_to_main_queues_a_run_and_everything_is_recorded(
    hook_server: HookServer,
) -> None:
    ids = hook_server.project("github")
    template = hook_server.template(ids)
    hook_server.unrunnable("github")  # the delivery is the point: its run ends at once
    hook = hook_server.webhook(ids, template, matchers=ON_PUSH_TO_MAIN)
    assert hook["url"].startswith(f"{hook_server.base}/api/v1/hooks/")
    assert len(hook["url"].rsplit("/", 1)[1]) >= 32  # unguessable

    body = encode(PUSH_MAIN)
    headers = github_headers(body)
    started = time.monotonic()
    launched = hook_server.deliver(hook["url"], body, headers)
    assert launched.status_code == 202, launched.text
    assert time.monotonic() - started < 2  # answered once queued, the run is not waited for
    answer = launched.json()
    assert answer["outcome"] == "launched", answer
    assert answer["run_id"], answer
    run = hook_server.api.get(f"/projects/{ids['project']}/runs/{answer['run_id']}").json()
    assert run["launch_type"] == "webhook"
    assert run["webhook_id"] == hook["id"]

    other = encode(PUSH_DEV)
    ignored = hook_server.deliver(hook["url"], other, github_headers(other))
    assert ignored.status_code == 202, ignored.text
    assert ignored.json()["outcome"] == "ignored"
    assert ignored.json()["run_id"] is None
    assert "matcher 2 (body ref equals" in ignored.json()["reason"]
    assert '"refs/heads/dev"' in ignored.json()["reason"]

    replayed = hook_server.deliver(hook["url"], body, headers)
    assert replayed.status_code == 409, replayed.text
    assert replayed.json()["first_delivery_id"] == answer["delivery_id"]
    assert replayed.headers["content-type"] == "application/problem+json"

    forged = hook_server.deliver(hook["url"], body, github_headers(body, secret="guess"))
    assert forged.status_code == 401, forged.text
    assert "X-Hub-Signature-256".lower() in forged.json()["detail"]

    listed = hook_server.deliveries(hook)
    assert [(d["outcome"], d["status_code"]) for d in listed] == [
        ("rejected", 401),
        ("rejected", 409),
        ("ignored", 202),
        ("launched", 202),
    ]
    assert [d["authenticated"] for d in listed] == [False, True, True, True]
    assert listed[3]["run_id"] == answer["run_id"]
    assert listed[3]["delivery_key"] == headers["X-GitHub-Delivery"]
    assert listed[3]["event"] == "push"
    first = hook_server.delivery(hook, answer["delivery_id"])
    assert json.loads(first["body"]) == PUSH_MAIN
    assert first["headers"]["x-github-delivery"] == headers["X-GitHub-Delivery"]
    assert first["headers"]["x-hub-signature-256"] == "********"
    assert first["source_ip"] == "127.0.0.1"
    no_secret_in(hook, listed, first, hook_server.delivery(hook, listed[0]["id"]))


@pytest.mark.parametrize("auth", ["gitlab", "hmac", "bearer"])
def test_each_scheme_accepts_its_proof_and_refuses_a_wrong_one(
    hook_server: HookServer, auth: str
) -> None:
    ids = hook_server.project(f"scheme-{auth}")
    hook = hook_server.webhook(ids, hook_server.template(ids), auth=auth)
    hook_server.unrunnable(f"scheme-{auth}")
    body = encode({"object_kind": "push", "ref": "refs/heads/main"})

    def headers(secret: str) -> dict[str, str]:
        if auth == "gitlab":
            return gitlab_headers(secret)
        return hmac_headers(body, secret) if auth == "hmac" else bearer_headers(secret)

    good = headers(SECRET)
    accepted = hook_server.deliver(hook["url"], body, good)
    assert accepted.status_code == 202, accepted.text
    assert accepted.json()["outcome"] == "launched"
    for wrong in (headers("wrong-secret"), {"Content-Type": "application/json"}):
        refused = hook_server.deliver(hook["url"], body, wrong)
        assert refused.status_code == 401, refused.text
        assert refused.json()["outcome"] == "rejected"
        assert refused.json()["delivery_id"] is not None  # recorded
    replay = hook_server.deliver(hook["url"], body, good)
    assert replay.status_code == 409, replay.text
    assert replay.json()["first_delivery_id"] == accepted.json()["delivery_id"]

    listed = hook_server.deliveries(hook)
    assert [d["outcome"] for d in listed] == ["rejected"] * 3 + ["launched"]
    shown = [hook_server.delivery(hook, d["id"]) for d in listed]
    for delivery in shown:
        assert "authorization" not in delivery["headers"] or (
            delivery["headers"]["authorization"] == "********"
        )
    assert "no x-" in listed[1]["reason"] or "no authorization" in listed[1]["reason"]
    no_secret_in(hook, listed, shown)


@pytest.mark.both_databases
def test_the_rate_limit_answers_429_after_n_deliveries_a_minute(hook_server: HookServer) -> None:
    ids = hook_server.project("limited")
    never = [{"source": "header", "path": "X-GitHub-Event", "value": "release"}]
    hook = hook_server.webhook(
        ids, hook_server.template(ids), matchers=never, rate_limit_per_minute=3
    )
    answers = []
    for _ in range(5):
        body = encode(PUSH_MAIN)
        answers.append(hook_server.deliver(hook["url"], body, github_headers(body)))
    assert [a.status_code for a in answers] == [202, 202, 202, 429, 429]
    assert 1 <= int(answers[3].headers["retry-after"]) <= 60
    assert answers[3].json()["outcome"] == "rate_limited"
    listed = hook_server.deliveries(hook)
    assert [d["outcome"] for d in listed] == ["rate_limited"] * 2 + ["ignored"] * 3
    assert all(d["delivery_key"] is None for d in listed[:2])  # may be delivered again

    # a forged request is not counted against the senders who know the secret
    other = hook_server.webhook(
        ids, hook_server.template(ids, name="other"), name="other", rate_limit_per_minute=2
    )
    for _ in range(4):
        body = encode(PUSH_MAIN)
        forged = hook_server.deliver(other["url"], body, github_headers(body, secret="x"))
        assert forged.status_code == 401
    hook_server.unrunnable("limited")
    recorded = hook_server.deliveries(other)
    assert len(recorded) == 2  # then answered without filling the database
    body = encode({"ref": "refs/heads/main"})
    real = hook_server.deliver(other["url"], body, github_headers(body, event="release"))
    assert real.status_code == 202, real.text


def test_unknown_and_disabled_hooks_are_the_same_404(hook_server: HookServer) -> None:
    ids = hook_server.project("gone")
    hook = hook_server.webhook(ids, hook_server.template(ids))
    body = encode(PUSH_MAIN)
    patched = hook_server.api.patch(
        f"/projects/{ids['project']}/webhooks/{hook['id']}", json={"enabled": False}
    )
    assert patched.status_code == 200, patched.text
    disabled = hook_server.deliver(hook["url"], body, github_headers(body))
    unknown = hook_server.deliver(hook["url"] + "x", body, github_headers(body))
    assert disabled.status_code == unknown.status_code == 404
    assert disabled.json() == unknown.json()
    assert hook_server.deliveries(hook) == []


def test_a_webhook_whose_owner_lost_the_right_to_launch_fails_and_is_disabled(
    hook_server: HookServer,
) -> None:
    ids = hook_server.project("owner")
    template = hook_server.template(ids)
    hook_server.unrunnable("owner")
    post(hook_server.api, "/users", {"username": "hookmaker", "password": "pw-of-hookmaker-1"})
    users = hook_server.api.get("/users", params={"q": "hookmaker"}).json()["items"]
    maker = next(u for u in users if u["username"] == "hookmaker")
    members = f"/projects/{ids['project']}/members"
    assert hook_server.api.put(members, json={"user_id": maker["id"], "role": "manager"}).is_success
    with httpx2.Client(base_url=f"{hook_server.base}/api/v1") as browser:
        login = browser.post(
            "/auth/login", json={"username": "hookmaker", "password": "pw-of-hookmaker-1"}
        )
        assert login.status_code == 200, login.text
        hook = browser.post(
            f"/projects/{ids['project']}/templates/{template}/webhooks",
            json={"name": "theirs", "auth": "github", "secret_key_id": ids["key"]},
            headers={"X-CSRF-Token": login.json()["csrf_token"]},
        )
    assert hook.status_code == 201, hook.text
    assert hook.json()["owner"] == "hookmaker"
    url = hook.json()["url"]
    assert hook_server.api.delete(f"{members}/{maker['id']}").status_code == 204

    body = encode(PUSH_MAIN)
    failed = hook_server.deliver(url, body, github_headers(body))
    assert failed.status_code == 409, failed.text
    assert failed.json()["outcome"] == "failed"
    assert "hookmaker" in failed.json()["detail"]
    read = hook_server.api.get(f"/projects/{ids['project']}/webhooks/{hook.json()['id']}").json()
    assert read["enabled"] is False
    assert "may no longer launch" in read["disabled_reason"]
    audit = hook_server.api.get(
        "/audit", params={"action": "webhook:update", "object_id": read["id"]}
    ).json()["items"]
    assert any("disabled by Steward" in a["detail"] and a["actor"] == "system" for a in audit)
    assert hook_server.deliver(url, body, github_headers(body)).status_code == 404

    # saving it again makes the person saving it the owner, and it works again
    saved = hook_server.api.patch(
        f"/projects/{ids['project']}/webhooks/{read['id']}", json={"enabled": True}
    )
    assert saved.json()["owner"] == "admin"
    assert saved.json()["disabled_reason"] == ""
    again = hook_server.deliver(url, body, github_headers(body))
    assert again.status_code == 202, again.text


def test_a_test_delivery_is_signed_by_the_server_and_checked_like_a_real_one(
    hook_server: HookServer,
) -> None:
    ids = hook_server.project("tested")
    template = hook_server.template(ids, overridable=["extra_vars"])
    hook = hook_server.webhook(
        ids,
        template,
        matchers=ON_PUSH_TO_MAIN,
        extractors={"who": "pusher.name"},
        rate_limit_per_minute=1,
    )
    url = f"/projects/{ids['project']}/webhooks/{hook['id']}/test"

    def test(**body: Any) -> dict[str, Any]:
        response = hook_server.api.post(url, json=body)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        assert result["test"] is True
        return result

    dry = test()  # the sample push to main of the scheme
    assert (dry["outcome"], dry["status_code"], dry["run_id"]) == ("matched", 200, None)
    assert dry["launch"] == {"extra_vars": {"who": "steward"}}
    assert dry["headers"]["x-hub-signature-256"] == "********"
    assert test(body={"ref": "refs/heads/dev"})["reason"].startswith("matcher 2 (body ref")
    unsigned = test(sign=False)
    assert (unsigned["outcome"], unsigned["status_code"]) == ("rejected", 401)
    assert unsigned["reason"] == "no x-hub-signature-256 header"
    wrong = test(sign=False, headers={"X-Hub-Signature-256": "sha256=00"})
    assert "does not match" in wrong["reason"]
    refused = hook_server.api.post(url, json={"headers": {"X-Hub-Signature-256": "sha256=00"}})
    assert refused.status_code == 422
    assert "headers.x-hub-signature-256" in refused.json()["detail"]
    runs = hook_server.api.get(f"/projects/{ids['project']}/runs").json()["items"]
    assert runs == []  # dry runs launch nothing

    launched = test(launch=True, body={**PUSH_MAIN, "pusher": {"name": "tester"}})
    assert launched["outcome"] == "launched", launched
    run = wait_finished(hook_server.api, ids["project"], launched["run_id"])
    assert run["status"] == "successful"
    assert run["webhook_id"] == hook["id"]
    lines = hook_server.api.get(f"/projects/{ids['project']}/runs/{run['id']}/output").text
    assert "hello tester" in lines
    # test deliveries do not count against the rate limit of 1 a minute
    body = encode(PUSH_MAIN)
    assert hook_server.deliver(hook["url"], body, github_headers(body)).status_code == 202

    listed = hook_server.deliveries(hook, test=True)
    assert len(listed) == 5
    assert all(d["test"] for d in listed)
    audit = hook_server.api.get(
        "/audit", params={"action": "webhook:test", "object_id": hook["id"]}
    ).json()["items"]
    assert len(audit) == 5
    assert audit[0]["actor"] == "admin (token test-write)"
    run_audit = hook_server.api.get(
        "/audit", params={"action": "run:launch", "object_id": run["id"]}
    ).json()["items"]
    assert run_audit[0]["actor"] == f"admin (via webhook {hook['id']})"


@pytest.mark.both_databases
def test_the_same_delivery_sent_at_once_many_times_launches_one_run(
    hook_server: HookServer,
) -> None:
    ids = hook_server.project("race")
    hook = hook_server.webhook(ids, hook_server.template(ids), rate_limit_per_minute=100)
    hook_server.unrunnable("race")
    body = encode(PUSH_MAIN)
    headers = github_headers(body)

    def send(_: int) -> int:
        with httpx2.Client(timeout=60) as sender:
            return sender.post(hook["url"], content=body, headers=headers).status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        statuses = sorted(pool.map(send, range(8)))
    assert statuses == [202] + [409] * 7
    runs = hook_server.api.get(f"/projects/{ids['project']}/runs").json()["items"]
    assert len(runs) == 1
    outcomes = sorted(d["outcome"] for d in hook_server.deliveries(hook))
    assert outcomes == ["launched"] + ["rejected"] * 7
