"""Notification destinations as a hostile project manager would set them up: the server made to
post into the cloud metadata service (at save, and at send time when the address changed
since), other schemes, header and address injection, oversized configurations, another
project's key, redirects; and who may change what."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import services
from support.builders import assert_problem, bearer, make_project, make_user, token
from support.notifications import (
    HttpReceiver,
    destinations_url,
    make_destination,
    secret_key,
    subscriptions_url,
    wait_messages,
)

from steward.bounds import URL_MAX
from steward.config import Settings
from steward.notifications import service as notifications
from steward.notifications.models import Destination
from steward.notifications.schemas import DestinationCreate

pytestmark = pytest.mark.security

METADATA = "169.254.169.254"
# forms of the metadata address a hostile user would try: getaddrinfo turns each into it
METADATA_FORMS = [
    METADATA,
    "2852039166",  # the address as one decimal number
    "0xa9fea9fe",
    "169.254.43518",
    "[::ffff:169.254.169.254]",  # IPv4-mapped IPv6
    "[fe80::1]",
    "0.0.0.0",  # noqa: S104 - not a bind: Linux connects it to this machine's services
]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Retries 0.2 s apart, three at most: a refused message fails within a second."""
    return settings.model_copy(
        update={
            "notifier_tick_seconds": 0.1,
            "notify_backoff_seconds": 0.2,
            "notify_max_attempts": 3,
        }
    )


def hook_body(url: str, key_id: int, **config: Any) -> dict[str, Any]:
    return {
        "name": "hook",
        "kind": "webhook",
        "config": {"url": url, **config},
        "secret_key_id": key_id,
    }


@pytest.fixture
def project(client: TestClient) -> int:
    return make_project(client)


@pytest.fixture
def hmac_key(client: TestClient, project: int) -> int:
    return secret_key(client, project, "hmac", "hmac-secret")


class Desk:
    """A project on ``db_session`` with an HMAC key, where destinations are made through the
    service as the route makes them (the request model, then ``create_destination``)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.keys = services.cipher()
        self.project = services.project(session)
        self.hmac_key = self.secret_key("hmac", "hmac-secret")

    def secret_key(self, name: str, value: str) -> int:
        return services.secret_key(self.session, self.keys, self.project, name, value)

    def refused(self, body: dict[str, Any], field: str) -> str:
        """``body`` refused naming ``field``, and no destination saved; the 422's detail."""

        def create() -> None:
            draft = TypeAdapter(DestinationCreate).validate_python(body)
            actor = services.admin(self.session)
            notifications.create_destination(
                self.session, self.keys, services.guard(), self.project, draft, actor=actor
            )

        detail = services.refused(create, field)
        assert self.session.scalar(select(func.count()).select_from(Destination)) == 0
        return detail


@pytest.fixture
def desk(db_session: Session) -> Desk:
    return Desk(db_session)


@pytest.mark.parametrize("host", METADATA_FORMS)
def test_a_webhook_into_a_blocked_network_is_refused_at_save(
    client: TestClient, project: int, hmac_key: int, host: str
) -> None:
    response = client.post(
        destinations_url(project), json=hook_body(f"http://{host}/latest/meta-data/", hmac_key)
    )
    detail = assert_problem(response, 422, "config.url")
    assert "in the blocked network" in detail


def test_a_slack_url_or_smtp_host_into_a_blocked_network_is_refused_at_save(
    client: TestClient, project: int
) -> None:
    key = secret_key(client, project, "slack", f"https://{METADATA}/services/x")
    response = client.post(
        destinations_url(project), json={"name": "s", "kind": "slack", "secret_key_id": key}
    )
    detail = assert_problem(response, 422, "secret_key_id")
    assert "blocked network 169.254.0.0/16" in detail
    config = {"host": "2852039166", "port": 25, "from_address": "a@b.c", "to": ["a@b.c"]}
    response = client.post(
        destinations_url(project), json={"name": "m", "kind": "email", "config": config}
    )
    assert_problem(response, 422, "config.host")


@pytest.mark.loops("notifier")
def test_an_address_that_became_blocked_is_refused_at_send_time(
    client: TestClient, project: int, hmac_key: int
) -> None:
    """The key behind a Slack destination now holds the metadata URL; a webhook's stored URL
    (saved before the blocked networks changed) names the metadata address in another form.
    Neither is contacted: the tests' network guard would fail the attempt as an internal
    error, not as "refused"."""
    with HttpReceiver() as receiver:
        slack_key = secret_key(client, project, "slack", receiver.url("/services/x"))
        slack = make_destination(
            client, project, name="chat", kind="slack", secret_key_id=slack_key
        )
        hook = make_destination(client, project, **hook_body(receiver.url(), hmac_key))
    changed = client.patch(
        f"/api/v1/projects/{project}/keys/{slack_key}", json={"value": f"http://{METADATA}/x"}
    )
    assert changed.status_code == 200
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        row = session.get(Destination, hook["id"])
        assert row is not None
        row.config = {"url": "http://2852039166/latest/meta-data/", "headers": {}}
        session.commit()
    for destination in (slack, hook):
        sent = client.post(destinations_url(project, f"/{destination['id']}/test"))
        assert sent.status_code == 202
    for destination, said in (
        (slack, f"'{METADATA}' is"),
        (hook, f"'2852039166' resolves to {METADATA},"),
    ):
        [message] = wait_messages(client, project, destination["id"], 1)
        assert message["status"] == "failed"
        for attempt in message["attempts"]:
            assert attempt["error"] == (
                f"refused: {said} in the blocked network 169.254.0.0/16 (link-local: the cloud"
                " metadata service); an admin may allow it in STEWARD_OUTBOUND_ALLOWED_NETWORKS"
            )


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "gopher://127.0.0.1:6379/_FLUSHALL",
        "ftp://127.0.0.1/",
        "javascript:alert(1)",
        "dict://127.0.0.1:11211/",
        "http:///no-host",
        "http://user:password@127.0.0.1/",  # credentials would be shown in the config
        "http://127.0.0.1:99999/",
        "http://127.0.0.1/\r\nX-Injected: 1",
        "http://127.0.0.1/" + "a" * 2000,
    ],
)
def test_only_plain_http_urls_are_accepted(desk: Desk, url: str) -> None:
    """Below HTTP (test_a_hostile_destination_is_a_422_over_http: the route)."""
    desk.refused(hook_body(url, desk.hmac_key), "config.url")
    if len(url) > URL_MAX:
        return  # a key holds it, but it is no longer too long once cut to fit
    key = desk.secret_key("slack", url)
    detail = desk.refused({"name": "s", "kind": "slack", "secret_key_id": key}, "secret_key_id")
    assert url not in detail  # the key's value is never quoted


@pytest.mark.parametrize(
    ("headers", "cause"),
    [
        ({"X-Ok": "a\r\nX-Injected: 1"}, "string_pattern_mismatch"),
        ({"X-Ok": "a\nb"}, "string_pattern_mismatch"),
        ({"Bad Name": "x"}, "string_pattern_mismatch"),
        ({"X-Colon:": "x"}, "string_pattern_mismatch"),
        ({"Host": "metadata.internal"}, "set by Steward"),
        ({"content-length": "0"}, "set by Steward"),
        ({"X-Steward-Signature-256": "sha256=forged"}, "set by Steward"),
        ({"Authorization": "Bearer t"}, "stored and shown in clear"),
        ({f"X-H{i}": "v" for i in range(21)}, "at most 20"),
        ({"X-Big": "v" * 1001}, "at most 1000"),
    ],
)
def test_webhook_headers_cannot_inject_or_override(
    desk: Desk, headers: dict[str, str], cause: str
) -> None:
    body = hook_body("http://127.0.0.1:9/", desk.hmac_key, headers=headers)
    text = desk.refused(body, "config.headers")
    assert cause in text or cause.replace("_", " ") in text or "pattern" in text


@pytest.mark.parametrize(
    ("config", "field"),
    [
        ({"to": ["ops@example.org\r\nBcc: everyone@example.org"]}, "config.to"),
        ({"to": ["Ops <ops@example.org>"]}, "config.to"),
        ({"to": ["a@b.c, everyone@example.org"]}, "config.to"),
        ({"from_address": "s@example.org\nBcc: x@y.z"}, "config.from_address"),
        ({"to": [f"u{i}@example.org" for i in range(51)]}, "config.to"),
        ({"to": ["a" * 250 + "@example.org"]}, "config.to"),
        ({"host": "127.0.0.1\r\nRCPT TO:<x@y.z>"}, "config.host"),
        ({"host": "h" * 254}, "config.host"),
        ({"port": 0}, "config.port"),
        ({"security": "ssl3"}, "config.security"),
    ],
)
def test_email_addresses_and_hosts_cannot_inject(
    desk: Desk, config: dict[str, Any], field: str
) -> None:
    body = {
        "name": "m",
        "kind": "email",
        "config": {"host": "127.0.0.1", "from_address": "s@example.org", "to": ["a@b.c"], **config},
    }
    desk.refused(body, field)


def test_a_hostile_destination_is_a_422_over_http(
    client: TestClient, project: int, hmac_key: int
) -> None:
    """The route's wiring of the rules above, one of each family; nothing is saved."""
    url = "gopher://127.0.0.1:6379/_FLUSHALL"
    assert_problem(
        client.post(destinations_url(project), json=hook_body(url, hmac_key)), 422, "config.url"
    )
    body = hook_body("http://127.0.0.1:9/", hmac_key, headers={"Host": "metadata.internal"})
    assert "set by Steward" in assert_problem(
        client.post(destinations_url(project), json=body), 422, "config.headers"
    )
    key = secret_key(client, project, "slack", "file:///etc/passwd")
    slack = {"name": "s", "kind": "slack", "secret_key_id": key}
    detail = assert_problem(
        client.post(destinations_url(project), json=slack), 422, "secret_key_id"
    )
    assert "/etc/passwd" not in detail
    assert client.get(destinations_url(project)).json()["total"] == 0


def test_another_projects_key_is_not_lent(client: TestClient, project: int) -> None:
    elsewhere = make_project(client, "elsewhere")
    theirs = secret_key(client, elsewhere, "theirs", "their-hmac-secret")
    response = client.post(destinations_url(project), json=hook_body("http://127.0.0.1:9/", theirs))
    detail = assert_problem(response, 422, "secret_key_id")
    assert detail.endswith(f"key {theirs} is not in project 'infra'")
    mine = make_destination(
        client, project, **hook_body("http://127.0.0.1:9/", secret_key(client, project, "k", "v"))
    )
    response = client.patch(
        destinations_url(project, f"/{mine['id']}"), json={"secret_key_id": theirs}
    )
    assert_problem(response, 422, "secret_key_id")


@pytest.mark.loops("notifier")
def test_redirects_are_not_followed(client: TestClient, project: int, hmac_key: int) -> None:
    metadata = f"http://{METADATA}/latest/meta-data/"
    with HttpReceiver(always=307, headers={"Location": metadata}) as receiver:
        hook = make_destination(client, project, **hook_body(receiver.url(), hmac_key))
        client.post(destinations_url(project, f"/{hook['id']}/test"))
        [message] = wait_messages(client, project, hook["id"], 1)
    assert [a["error"] for a in message["attempts"]] == [
        "HTTP 307 Temporary Redirect: redirects are not followed"
    ] * 3
    assert len(receiver.requests) == 3


def test_who_may_change_destinations_and_subscriptions(
    client: TestClient, project: int, hmac_key: int
) -> None:
    """An operator sees nothing to change; the access matrix covers every route and actor."""
    hook = make_destination(client, project, **hook_body("http://127.0.0.1:9/", hmac_key))
    olga = make_user(client, "olga")["id"]
    members = client.put(
        f"/api/v1/projects/{project}/members", json={"user_id": olga, "role": "operator"}
    )
    assert members.status_code == 200, members.text
    operator = TestClient(client.app, headers=bearer(token(client, "olga")))
    listed = operator.get(destinations_url(project))
    assert listed.status_code == 200
    assert listed.json()["items"][0]["config"] == {"url": "http://127.0.0.1:9/", "headers": {}}
    for method, url, body in (
        ("POST", destinations_url(project), hook_body("http://127.0.0.1:9/", hmac_key)),
        ("POST", destinations_url(project, f"/{hook['id']}/test"), None),
        ("PATCH", destinations_url(project, f"/{hook['id']}"), {"enabled": False}),
        ("POST", subscriptions_url(project), {"destination_id": hook["id"], "events": ["failed"]}),
    ):
        response = operator.request(method, url, json=body)
        assert response.status_code == 403, (method, url, response.text)
        assert "permission" in response.json()["detail"]


def test_a_blocked_network_that_is_not_one_stops_the_server_from_starting(
    tmp_path: Path,
) -> None:
    """A typo must not silently leave the metadata service reachable."""
    # from the environment: one string, split on commas
    typo: Any = "169.254.0.0/33,fe80::/10"
    for field in ("outbound_blocked_networks", "outbound_allowed_networks"):
        with pytest.raises(ValidationError, match=re.escape("'169.254.0.0/33' is not an IP net")):
            Settings(data_dir=tmp_path, **{field: typo})
    fine: Any = " 10.0.0.0/8 , fd00::/8"
    parsed = Settings(data_dir=tmp_path, outbound_blocked_networks=fine)
    assert parsed.outbound_blocked_networks == ["10.0.0.0/8", "fd00::/8"]
    # the old per-feature lists were folded into that one: setting one is refused, never
    # dropped in silence
    renamed = "renamed to STEWARD_OUTBOUND_BLOCKED_NETWORKS"
    with pytest.raises(ValidationError, match=renamed):
        Settings(data_dir=tmp_path, notify_blocked_networks="10.0.0.0/8")
    with pytest.raises(ValidationError, match=renamed):
        Settings(data_dir=tmp_path, metrics_blocked_networks="fd00::/8")
