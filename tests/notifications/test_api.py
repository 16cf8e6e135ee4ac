"""The REST API of destinations and subscriptions: create, read, change, delete, each change in
the audit trail; per-kind configuration and key checks answer 422 naming the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import services
from support.builders import Workbench, assert_problem, make_key, make_project
from support.notifications import (
    destinations_url,
    make_destination,
    secret_key,
    subscribe,
    subscriptions_url,
    webhook_destination,
)

from steward.notifications import service
from steward.notifications.models import Destination
from steward.notifications.schemas import DestinationCreate

URL_SECRET = "https://127.0.0.1:9/services/T1/B1/t0ken"
CLOSED = "http://127.0.0.1:9/"  # nothing listens on the discard port


def audit(client: TestClient, object_type: str) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = client.get(
        "/api/v1/audit", params={"object_type": object_type}
    ).json()["items"]
    return records


def test_destinations_of_each_kind_round_trip_without_their_secret(client: TestClient) -> None:
    project = make_project(client)
    slack_key = secret_key(client, project, "slack-url", URL_SECRET)
    hmac_key = secret_key(client, project, "hmac", "hmac-secret-value")
    mail_key = make_key(
        client, project, name="smtp", kind="login_password", username="u", password="smtp-pw"
    )["id"]
    slack = make_destination(client, project, name="chat", kind="slack", secret_key_id=slack_key)
    teams = make_destination(client, project, name="teams", kind="teams", secret_key_id=slack_key)
    hook = make_destination(
        client,
        project,
        name="hook",
        kind="webhook",
        config={"url": "https://127.0.0.1:8443/in", "headers": {"X-Team": "ops"}},
        secret_key_id=hmac_key,
    )
    mail = make_destination(
        client,
        project,
        name="mail",
        kind="email",
        description="on call",
        config={"host": "127.0.0.1", "from_address": "s@example.org", "to": ["a@example.org"]},
        secret_key_id=mail_key,
    )
    assert slack["config"] == {}
    assert teams["config"] == {}
    assert slack["secret_key_name"] == "slack-url"
    assert hook["config"] == {"url": "https://127.0.0.1:8443/in", "headers": {"X-Team": "ops"}}
    assert mail["config"] == {
        "host": "127.0.0.1",
        "port": 587,
        "security": "starttls",
        "username": "",
        "from_address": "s@example.org",
        "to": ["a@example.org"],
        "verify_tls": True,
    }
    listed = client.get(destinations_url(project)).json()
    assert [d["name"] for d in listed["items"]] == ["chat", "hook", "mail", "teams"]
    assert listed["total"] == 4
    everything = str(listed) + str(audit(client, "destination"))
    for secret in (URL_SECRET, "t0ken", "hmac-secret-value", "smtp-pw"):
        assert secret not in everything
    assert client.get(destinations_url(project, f"/{mail['id']}")).json() == mail

    changed = client.patch(
        destinations_url(project, f"/{mail['id']}"),
        json={"enabled": False, "config": {**mail["config"], "port": 465, "security": "tls"}},
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["enabled"] is False
    assert changed.json()["config"]["port"] == 465
    [update] = [r for r in audit(client, "destination") if r["action"] == "destination:update"]
    assert update["changes"]["enabled"] == [True, False]
    assert update["object_name"] == "mail"

    # a key used by a destination is not deleted from under it
    used = client.delete(f"/api/v1/projects/{project}/keys/{hmac_key}")
    assert used.status_code == 409
    assert "hook" in used.json()["detail"]


def test_a_deleted_destination_takes_its_subscriptions_along(client: TestClient) -> None:
    project = make_project(client)
    hook = webhook_destination(client, project, CLOSED, "x" * 20)
    subscribe(client, project, destination_id=hook["id"], events=["failed"])
    deleted = client.delete(destinations_url(project, f"/{hook['id']}"))
    assert deleted.status_code == 204
    assert client.get(subscriptions_url(project)).json()["total"] == 0
    [record] = [r for r in audit(client, "destination") if r["action"] == "destination:delete"]
    assert record["detail"] == "with 1 subscription(s)"
    assert client.get(destinations_url(project, f"/{hook['id']}")).status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "slack"}, "secret_key_id"),  # Slack's URL is the secret: a key is needed
        ({"kind": "webhook", "config": {"url": "http://127.0.0.1:9/"}}, "secret_key_id"),
        ({"kind": "webhook", "config": {}}, "config.url"),
        ({"kind": "webhook", "config": {"url": "ftp://127.0.0.1/"}}, "config.url"),
        ({"kind": "email", "config": {"host": "127.0.0.1", "to": ["a@b.c"]}}, "from_address"),
        (
            {"kind": "email", "config": {"host": "h", "from_address": "a@b.c", "to": []}},
            "config.to",
        ),
        (
            {"kind": "email", "config": {"host": "h", "from_address": "a@b.c", "to": ["nope"]}},
            "config.to",
        ),
        (
            {"kind": "email", "config": {"host": "a b", "from_address": "a@b.c", "to": ["a@b.c"]}},
            "config.host",
        ),
        ({"kind": "carrier-pigeon"}, "kind"),
        ({"kind": "slack", "config": {"url": "https://x"}}, "config.url"),  # unknown field
    ],
)
def test_a_destination_that_does_not_fit_its_kind_is_refused(
    db_session: Session, body: dict[str, Any], field: str
) -> None:
    """Below HTTP: the request model, then the service (the route:
    test_a_refused_destination_is_a_422_over_http)."""
    project = services.project(db_session)

    def create() -> None:
        draft = TypeAdapter(DestinationCreate).validate_python({"name": "d", **body})
        actor = services.admin(db_session)
        keys, guard = services.cipher(), services.guard()
        service.create_destination(db_session, keys, guard, project, draft, actor=actor)

    services.refused(create, field)
    assert db_session.scalar(select(func.count()).select_from(Destination)) == 0


def test_a_refused_destination_is_a_422_over_http(client: TestClient) -> None:
    project = make_project(client)
    by_service = {"name": "d", "kind": "slack"}
    assert_problem(client.post(destinations_url(project), json=by_service), 422, "secret_key_id")
    by_model = {"name": "d", "kind": "carrier-pigeon"}
    assert_problem(client.post(destinations_url(project), json=by_model), 422, "kind")
    assert client.get(destinations_url(project)).json()["total"] == 0


def test_the_key_must_be_of_the_project_and_of_a_fitting_kind(client: TestClient) -> None:
    project = make_project(client)
    elsewhere = make_project(client, "elsewhere")
    foreign = secret_key(client, elsewhere, "foreign", URL_SECRET)
    vault = make_key(client, project, name="vault", kind="vault_password", password="v")["id"]
    not_a_url = secret_key(client, project, "word", "just-a-word")
    for key_id, cause in (
        (foreign, f"key {foreign} is not in project 'infra'"),
        (vault, "key 'vault' is of kind 'vault_password'; use a secret key"),
        (not_a_url, "key 'word' must hold the incoming-webhook URL"),
        (999_999, "key 999999 is not in project 'infra'"),
    ):
        response = client.post(
            destinations_url(project), json={"name": "c", "kind": "slack", "secret_key_id": key_id}
        )
        detail = assert_problem(response, 422, "secret_key_id")
        assert cause in detail
    assert "just-a-word" not in detail  # the key's value is never quoted


def test_a_password_is_never_sent_in_clear(client: TestClient) -> None:
    project = make_project(client)
    key = secret_key(client, project, "pw", "smtp-pw")
    config = {"host": "127.0.0.1", "security": "none", "from_address": "a@b.c", "to": ["a@b.c"]}
    response = client.post(
        destinations_url(project),
        json={"name": "m", "kind": "email", "config": config, "secret_key_id": key},
    )
    assert_problem(response, 422, "config.security")
    # without a password, a plain relay is fine
    make_destination(client, project, name="relay", kind="email", config=config)


def test_patch_checks_the_config_against_the_kind(client: TestClient) -> None:
    project = make_project(client)
    hook = webhook_destination(client, project, CLOSED, "s3cret")
    url = destinations_url(project, f"/{hook['id']}")
    assert_problem(client.patch(url, json={"config": {"host": "x"}}), 422, "config.url")
    assert_problem(client.patch(url, json={"config": {"url": "gopher://x/"}}), 422, "config.url")
    assert_problem(client.patch(url, json={"secret_key_id": None}), 422, "secret_key_id")
    assert_problem(client.patch(url, json={"kind": "email"}), 422, "kind")
    assert client.get(url).json() == hook


def test_subscriptions_of_the_project_and_of_a_template(client: TestClient, tmp_path: Path) -> None:
    bench = Workbench(client, tmp_path)
    project = bench.project_id
    deploy = bench.template("ok.yml", name="deploy")
    other = bench.template("ok.yml", name="other")
    hook = webhook_destination(client, project, CLOSED, "s3cret")
    everywhere = subscribe(client, project, destination_id=hook["id"], events=["failed"])
    assert everywhere["scope"] == "project"
    assert everywhere["destination_name"] == "hook"
    mine = subscribe(
        client,
        project,
        destination_id=hook["id"],
        events=["long_running", "failed", "failed", "fixed"],  # each once, in a fixed order
        template_id=deploy,
        long_running_minutes=30,
    )
    assert mine["scope"] == "template"
    assert mine["template_name"] == "deploy"
    assert mine["events"] == ["failed", "fixed", "long_running"]
    subscribe(client, project, destination_id=hook["id"], events=["started"], template_id=other)

    of_deploy = client.get(
        f"/api/v1/projects/{project}/templates/{deploy}/notification-subscriptions"
    ).json()
    assert [s["id"] for s in of_deploy["items"]] == [everywhere["id"], mine["id"]]
    assert client.get(subscriptions_url(project)).json()["total"] == 3

    patched = client.patch(
        subscriptions_url(project, f"/{mine['id']}"),
        json={"events": ["succeeded"], "long_running_minutes": None},
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["events"] == ["succeeded"]
    assert patched.json()["long_running_minutes"] is None
    assert client.delete(subscriptions_url(project, f"/{mine['id']}")).status_code == 204
    actions = [r["action"] for r in audit(client, "subscription")]
    assert actions == [
        "subscription:delete",
        "subscription:update",
        "subscription:create",
        "subscription:create",
        "subscription:create",
    ]
    [update] = [r for r in audit(client, "subscription") if r["action"].endswith("update")]
    assert update["object_name"] == "template 'deploy' subscription"
    assert update["changes"]["events"] == [["failed", "fixed", "long_running"], ["succeeded"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"events": ["long_running"]}, "long_running_minutes"),
        ({"events": ["failed"], "long_running_minutes": 5}, "long_running_minutes"),
        ({"events": ["long_running"], "long_running_minutes": 0.001}, "long_running_minutes"),
        ({"events": []}, "events"),
        ({"events": ["exploded"]}, "events"),
        ({"events": ["failed"], "template_id": 999_999}, "template_id"),
        ({"events": ["failed"], "schedule_id": 999_999}, "schedule_id"),
        ({"events": ["failed"], "template_id": 1, "schedule_id": 1}, "schedule_id"),
    ],
)
def test_a_subscription_that_makes_no_sense_is_refused(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    project = make_project(client)
    hook = webhook_destination(client, project, CLOSED, "s3cret")
    response = client.post(subscriptions_url(project), json={"destination_id": hook["id"], **body})
    assert_problem(response, 422, field)


def test_a_destination_of_another_project_cannot_be_subscribed_to(client: TestClient) -> None:
    project = make_project(client)
    elsewhere = make_project(client, "elsewhere")
    theirs = webhook_destination(client, elsewhere, CLOSED, "s3cret", name="theirs")
    response = client.post(
        subscriptions_url(project), json={"destination_id": theirs["id"], "events": ["failed"]}
    )
    detail = assert_problem(response, 422, "destination_id")
    assert "not in project 'infra'" in detail
    missing = client.get(destinations_url(project, f"/{theirs['id']}"))
    assert missing.status_code == 404


def test_a_project_with_destinations_can_be_deleted(client: TestClient) -> None:
    """Its keys, destinations, subscriptions and messages go together (the key's RESTRICT
    does not stand in the way of the project's cascade)."""
    project = make_project(client)
    hook = webhook_destination(client, project, CLOSED, "s3cret")
    subscribe(client, project, destination_id=hook["id"], events=["failed"])
    assert client.post(destinations_url(project, f"/{hook['id']}/test")).status_code == 202
    assert client.delete(f"/api/v1/projects/{project}").status_code == 204
    assert client.get(f"/api/v1/projects/{project}").status_code == 404
