"""Delivery by the notifier to real receivers on 127.0.0.1: generic webhooks (signed), Slack,
Teams and email over a real SMTP server; retries with backoff, giving up, every attempt
recorded, and a message left 'sending' by a dead process sent after all."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import make_project
from support.notifications import (
    HttpReceiver,
    SmtpReceiver,
    destinations_url,
    make_destination,
    messages,
    secret_key,
    settle,
    wait_messages,
    webhook_destination,
)

from steward.db import utcnow
from steward.notifications.models import Message, MessageStatus

from .conftest import BASE_URL

pytestmark = pytest.mark.loops("notifier")

HMAC_SECRET = "hmac-secret-never-shown-5b2e"
SMTP_PASSWORD = "smtp-password-never-shown-8c1a"


def send_test(client: TestClient, project_id: int, destination_id: int) -> int:
    response = client.post(destinations_url(project_id, f"/{destination_id}/test"))
    assert response.status_code == 202, response.text
    message_id: int = response.json()["message_id"]
    return message_id


def at(attempt: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(attempt["at"])


def test_a_test_message_is_posted_signed_with_its_headers(client: TestClient) -> None:
    project = make_project(client)
    with HttpReceiver() as receiver:
        destination = webhook_destination(
            client,
            project,
            receiver.url("/steward?team=ops"),
            HMAC_SECRET,
            config={"headers": {"X-Team": "ops"}},
            enabled=False,  # a test goes to a disabled destination too
        )
        message_id = send_test(client, project, destination["id"])
        [request] = receiver.wait_for(1)
        [message] = wait_messages(client, project, destination["id"], 1)

    assert request.path == "/steward?team=ops"
    assert request.signed_by(HMAC_SECRET)
    assert not request.signed_by("another secret")
    assert request.headers["x-steward-event"] == "test"
    assert request.headers["x-steward-delivery"] == str(message_id)
    assert request.headers["x-team"] == "ops"
    assert request.headers["content-type"] == "application/json"
    body = request.json()
    assert body["event"] == "test"
    assert body["title"] == "[infra] Test notification from Steward"
    assert body["url"] == f"{BASE_URL}/projects/{project}"
    assert "admin" in body["text"]  # who asked for it
    assert HMAC_SECRET not in request.body.decode()

    assert message["id"] == message_id
    assert message["status"] == "sent"
    assert message["content"] == body  # what was sent, shown in the console
    [attempt] = message["attempts"]
    assert attempt["ok"] is True
    assert attempt["status"] == "HTTP 200"
    assert attempt["error"] == ""
    assert attempt["duration_ms"] >= 0
    audit = client.get("/api/v1/audit", params={"action": "destination:test"}).json()["items"]
    assert [r["object_id"] for r in audit] == [destination["id"]]


def test_failures_are_retried_with_backoff_and_every_attempt_is_recorded(
    client: TestClient,
) -> None:
    project = make_project(client)
    with HttpReceiver([500, 502]) as receiver:
        destination = webhook_destination(client, project, receiver.url(), HMAC_SECRET)
        send_test(client, project, destination["id"])
        [message] = wait_messages(client, project, destination["id"], 1)
        requests = receiver.wait_for(3)

    assert message["status"] == "sent"
    assert message["attempt_count"] == 3
    attempts = message["attempts"]
    assert [a["status"] for a in attempts] == ["HTTP 500", "HTTP 502", "HTTP 200"]
    assert [a["ok"] for a in attempts] == [False, False, True]
    # the status and a reason of ours: what the receiver answered is not kept
    assert (
        attempts[0]["error"] == "HTTP 500 Internal Server Error: the receiver refused the message"
    )
    # backoff 0.2 s, then 0.4 s (notify_backoff_seconds * 2**(attempt-1))
    assert (at(attempts[1]) - at(attempts[0])).total_seconds() >= 0.2
    assert (at(attempts[2]) - at(attempts[1])).total_seconds() >= 0.4
    # the same delivery each time, so a receiver can tell a retry
    assert len({r.headers["x-steward-delivery"] for r in requests}) == 1
    assert message["last_error"] == ""


def test_a_message_fails_after_the_last_attempt(client: TestClient) -> None:
    project = make_project(client)
    with HttpReceiver(always=503) as receiver:
        destination = webhook_destination(client, project, receiver.url(), HMAC_SECRET)
        send_test(client, project, destination["id"])
        [message] = wait_messages(client, project, destination["id"], 1)
        settle(1.0)  # nothing more is tried
        assert len(receiver.requests) == 3

    assert message["status"] == "failed"
    assert [a["status"] for a in message["attempts"]] == ["HTTP 503"] * 3
    assert message["last_error"] == (
        "HTTP 503 Service Unavailable: the receiver refused the message"
    )
    assert message["next_attempt_at"] is None


def test_an_unreachable_receiver_is_an_attempt_with_the_error(client: TestClient) -> None:
    project = make_project(client)
    with HttpReceiver() as receiver:
        url = receiver.url()  # closed below: nothing listens there any more
    destination = webhook_destination(client, project, url, HMAC_SECRET)
    send_test(client, project, destination["id"])
    [message] = wait_messages(client, project, destination["id"], 1)
    assert message["status"] == "failed"
    assert [a["status"] for a in message["attempts"]] == ["", "", ""]
    assert message["attempts"][0]["error"].startswith("ConnectError: ")


def test_slack_and_teams_get_their_formats_and_their_url_stays_secret(
    client: TestClient,
) -> None:
    project = make_project(client)
    token = "T000/B000/sl4ck-t0ken-in-the-url"
    with HttpReceiver() as slack, HttpReceiver([404], echo_path=True) as teams:
        for kind, receiver in (("slack", slack), ("teams", teams)):
            key = secret_key(client, project, kind, receiver.url(f"/services/{token}"))
            created = make_destination(client, project, name=kind, kind=kind, secret_key_id=key)
            assert created["config"] == {}
            assert token not in str(created)
            send_test(client, project, created["id"])
        [to_slack] = slack.wait_for(1)
        to_teams = teams.wait_for(2)
        [teams_message] = wait_messages(client, project, created["id"], 1)

    body = to_slack.json()
    assert to_slack.path == f"/services/{token}"
    assert body["text"].startswith("[infra] Test notification from Steward")
    assert [b["type"] for b in body["blocks"]] == ["header", "section", "actions"]
    assert body["blocks"][2]["elements"][0]["url"] == f"{BASE_URL}/projects/{project}"

    card = to_teams[1].json()
    assert card["type"] == "message"
    [attachment] = card["attachments"]
    assert attachment["contentType"] == "application/vnd.microsoft.card.adaptive"
    content = attachment["content"]
    assert content["type"] == "AdaptiveCard"
    assert content["body"][0]["text"] == "[infra] Test notification from Steward"
    assert content["actions"][0]["url"] == f"{BASE_URL}/projects/{project}"

    # the receiver echoed the URL in its refusal: the attempt shows none of the answer
    failed = teams_message["attempts"][0]
    assert failed["status"] == "HTTP 404"
    assert failed["error"] == "HTTP 404 Not Found: the receiver refused the message"
    assert teams_message["status"] == "sent"


def email_destination(client: TestClient, project: int, port: int, **config: Any) -> dict[str, Any]:
    key = client.post(
        f"/api/v1/projects/{project}/keys",
        json={
            "name": f"smtp-{port}",
            "kind": "login_password",
            "username": "steward@example.org",
            "password": SMTP_PASSWORD,
        },
    )
    assert key.status_code == 201, key.text
    return make_destination(
        client,
        project,
        name=f"mail-{port}",
        kind="email",
        config={
            "host": "127.0.0.1",
            "port": port,
            "from_address": "steward@example.org",
            "to": ["ops@example.org", "oncall@example.org"],
            **config,
        },
        secret_key_id=key.json()["id"],
    )


def test_email_over_starttls_with_a_login(client: TestClient, tmp_path: Path) -> None:
    project = make_project(client)
    smtp = SmtpReceiver(tmp_path, "steward@example.org", SMTP_PASSWORD)
    with smtp.running():
        destination = email_destination(client, project, smtp.port, verify_tls=False)
        send_test(client, project, destination["id"])
        [message] = wait_messages(client, project, destination["id"], 1)

    assert message["status"] == "sent", message
    assert message["attempts"][0]["status"] == "SMTP 250"
    assert smtp.logins == [("steward@example.org", True)]
    [(envelope, mail)] = smtp.messages
    assert envelope.mail_from == "steward@example.org"
    assert envelope.rcpt_tos == ["ops@example.org", "oncall@example.org"]
    assert mail["Subject"] == "[infra] Test notification from Steward"
    assert mail["To"] == "ops@example.org, oncall@example.org"
    assert mail["X-Steward-Event"] == "test"
    text = mail.get_content()
    assert f"{BASE_URL}/projects/{project}" in text
    assert SMTP_PASSWORD not in text


def test_email_over_implicit_tls_with_a_secret_key(client: TestClient, tmp_path: Path) -> None:
    project = make_project(client)
    smtp = SmtpReceiver(tmp_path, "robot", SMTP_PASSWORD, implicit_tls=True)
    with smtp.running():
        key = secret_key(client, project, "smtp", SMTP_PASSWORD)
        destination = make_destination(
            client,
            project,
            name="mail",
            kind="email",
            config={
                "host": "127.0.0.1",
                "port": smtp.port,
                "security": "tls",
                "verify_tls": False,
                "username": "robot",
                "from_address": "steward@example.org",
                "to": ["ops@example.org"],
            },
            secret_key_id=key,
        )
        send_test(client, project, destination["id"])
        [message] = wait_messages(client, project, destination["id"], 1)
    assert message["status"] == "sent", message["attempts"]
    assert smtp.logins == [("robot", True)]
    assert len(smtp.messages) == 1


def test_a_self_signed_certificate_is_refused_when_verified(
    client: TestClient, tmp_path: Path
) -> None:
    project = make_project(client)
    smtp = SmtpReceiver(tmp_path, "steward@example.org", SMTP_PASSWORD)
    with smtp.running():
        destination = email_destination(client, project, smtp.port)  # verify_tls: true
        send_test(client, project, destination["id"])
        [message] = wait_messages(client, project, destination["id"], 1)
    assert message["status"] == "failed"
    assert "CERTIFICATE_VERIFY_FAILED" in message["attempts"][0]["error"]
    assert smtp.logins == []  # the password never left over an unverified channel
    assert smtp.messages == []


def test_a_refused_login_is_recorded_without_the_password(
    client: TestClient, tmp_path: Path
) -> None:
    project = make_project(client)
    smtp = SmtpReceiver(tmp_path, "steward@example.org", "the-server-wants-another")
    with smtp.running():
        destination = email_destination(client, project, smtp.port, verify_tls=False)
        send_test(client, project, destination["id"])
        [message] = wait_messages(client, project, destination["id"], 1)
    assert message["status"] == "failed"
    assert {a["status"] for a in message["attempts"]} == {"SMTP 535"}, message["attempts"]
    assert message["last_error"] == "login refused: SMTP 535 5.7.8"  # not the server's text
    assert SMTP_PASSWORD not in str(message)
    # smtplib tries PLAIN, then LOGIN, at each of the 3 attempts
    assert smtp.logins == [("steward@example.org", False)] * 6
    assert smtp.messages == []


def test_a_message_left_sending_by_a_dead_process_is_sent(client: TestClient) -> None:
    project = make_project(client)
    with HttpReceiver() as receiver:
        destination = webhook_destination(client, project, receiver.url(), HMAC_SECRET)
        runtime = client.app.state.runtime  # type: ignore[attr-defined]
        with runtime.sessions() as session:
            content = {"event": "test", "title": "left behind", "text": "left behind", "url": ""}
            for claimed_minutes_ago in (120, 0):  # a dead claim, and one under way elsewhere
                session.add(
                    Message(
                        project_id=project,
                        destination_id=destination["id"],
                        event="test",
                        status=MessageStatus.SENDING,
                        claimed_at=utcnow() - dt.timedelta(minutes=claimed_minutes_ago),
                        content=content,
                    )
                )
            session.commit()
        [request] = receiver.wait_for(1)
        settle(0.5)
        assert len(receiver.requests) == 1
    assert request.json()["title"] == "left behind"
    statuses = [m["status"] for m in messages(client, project, destination["id"])]
    assert statuses == ["sending", "sent"]
