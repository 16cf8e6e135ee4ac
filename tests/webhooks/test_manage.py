"""Managing webhooks through the API: every field checked by name, the secret never shown,
owners, the audit trail, who may see what, and what goes with a webhook."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import runs, services
from support.builders import (
    PLAYBOOKS,
    assert_problem,
    bearer,
    browser,
    make_inventory,
    make_key,
    make_local_repository,
    make_project,
    make_template,
    make_user,
    token,
)
from support.webhooks import SECRET, encode, github_headers

from steward.bounds import WEBHOOK_MATCHERS_MAX
from steward.webhooks import service
from steward.webhooks.models import Webhook
from steward.webhooks.schemas import WebhookCreate


@pytest.fixture
def ids(client: TestClient) -> dict[str, int]:
    """A project with a template allowing extra vars and a 'secret' key (SECRET)."""
    project = make_project(client)
    repository = make_local_repository(client, project, PLAYBOOKS)
    inventory = make_inventory(client, project)["id"]
    template = make_template(
        client,
        project,
        repository_id=repository,
        inventory_id=inventory,
        overridable=["extra_vars"],
    )["id"]
    key = make_key(client, project, name="hook-secret", value=SECRET)["id"]
    return {
        "project": project,
        "template": template,
        "key": key,
        "repository": repository,
        "inventory": inventory,
    }


def hooks_url(ids: dict[str, int], template: int | None = None) -> str:
    return f"/api/v1/projects/{ids['project']}/templates/{template or ids['template']}/webhooks"


def hook_url(ids: dict[str, int], hook_id: int, path: str = "") -> str:
    return f"/api/v1/projects/{ids['project']}/webhooks/{hook_id}{path}"


def create(client: TestClient, ids: dict[str, int], **body: Any) -> dict[str, Any]:
    body = {"name": "push", "auth": "github", "secret_key_id": ids["key"], **body}
    created = client.post(hooks_url(ids), json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"auth": "basic"}, "auth"),
        ({"secret_key_id": 999_999}, "secret_key_id"),
        ({"matchers": [{"source": "body", "path": "../../etc/passwd"}]}, "matchers.0"),
        ({"matchers": [{"source": "body", "path": "a..b"}]}, "matchers.0"),
        (
            {"matchers": [{"source": "body", "path": "ref", "op": "one_of", "value": "x"}]},
            "matchers.0",
        ),
        (
            {"matchers": [{"source": "body", "path": "ref", "op": "exists", "value": 1}]},
            "matchers.0",
        ),
        ({"matchers": [{"source": "body", "path": "ref", "op": "glob", "value": 1}]}, "matchers.0"),
        ({"matchers": [{"source": "header", "path": "X-Event", "value": 1}]}, "matchers.0"),
        (
            {"matchers": [{"source": "header", "path": "X-Gitlab-Token", "value": "t"}]},
            "matchers.0",
        ),
        ({"matchers": [{"source": "header", "path": "X-A\r\nX-B", "value": "t"}]}, "matchers.0"),
        ({"matchers": [{"source": "cookie", "path": "a"}]}, "matchers.0.source"),
        ({"matchers": [{"source": "body", "path": "a"}] * (WEBHOOK_MATCHERS_MAX + 1)}, "matchers"),
        ({"extractors": {"1bad": "a"}}, "extractors"),
        ({"extractors": {"good": "a/../b"}}, "extractors.good"),
        ({"extractors": {"good": "x" * 201}}, "extractors.good"),
        ({"ref_from": "../x"}, "ref_from"),
        ({"ref_from": "after"}, "ref_from"),  # the template does not allow overriding the ref
        ({"rate_limit_per_minute": 0}, "rate_limit_per_minute"),
        ({"name": "a/b"}, "name"),
        ({"unknown": 1}, "unknown"),
    ],
)
def test_every_field_is_checked_by_name(
    db_session: Session, body: dict[str, Any], field: str
) -> None:
    """Below HTTP (the request model's and the service's rules), on a project as ``ids``
    makes it; the route's wiring: test_a_refused_field_is_a_422_over_http."""
    project = services.project(db_session)
    template = runs.template(db_session, project, overridable=["extra_vars"], survey=[])
    key = services.secret_key(db_session, services.cipher(), project, "hook-secret", SECRET)
    base = {"name": "push", "auth": "github", "secret_key_id": key}

    def create_below() -> Webhook:
        sent = WebhookCreate.model_validate_json(json.dumps({**base, **body}))
        return service.create(db_session, project, template, sent, actor=services.admin(db_session))

    services.refused(create_below, field)
    assert db_session.scalar(select(func.count()).select_from(Webhook)) == 0


def test_a_refused_field_is_a_422_over_http(client: TestClient, ids: dict[str, int]) -> None:
    base = {"name": "push", "auth": "github", "secret_key_id": ids["key"]}
    traversal = {"matchers": [{"source": "body", "path": "../../etc/passwd"}]}
    assert_problem(client.post(hooks_url(ids), json={**base, **traversal}), 422, "matchers.0")
    assert_problem(client.post(hooks_url(ids), json={**base, "ref_from": "after"}), 422, "ref_from")
    assert client.get(hooks_url(ids)).json()["total"] == 0


def test_the_secret_is_a_secret_key_of_the_project(client: TestClient, ids: dict[str, int]) -> None:
    password = make_key(client, ids["project"], name="pw", kind="login_password", password="p")
    other_project = make_project(client, "other")
    elsewhere = make_key(client, other_project, name="theirs")
    for key, cause in ((password, "kind 'login_password'"), (elsewhere, "is not in project")):
        body = {"name": "push", "auth": "gitlab", "secret_key_id": key["id"]}
        detail = assert_problem(client.post(hooks_url(ids), json=body), 422, "secret_key_id")
        assert cause in detail


def test_extractors_need_a_template_allowing_extra_vars_or_asking_the_variable(
    client: TestClient, ids: dict[str, int]
) -> None:
    survey = [{"variable": "env", "label": "Env", "type": "choice", "choices": ["a", "b"]}]
    strict = make_template(
        client,
        ids["project"],
        name="strict",
        repository_id=ids["repository"],
        inventory_id=ids["inventory"],
        survey=survey,
    )["id"]
    body = {"name": "h", "auth": "hmac", "secret_key_id": ids["key"]}
    refused = client.post(hooks_url(ids, strict), json={**body, "extractors": {"who": "a"}})
    assert "does not allow overriding extra_vars" in assert_problem(refused, 422, "extractors.who")
    asked = client.post(hooks_url(ids, strict), json={**body, "extractors": {"env": "a"}})
    assert asked.status_code == 201, asked.text  # a survey answer, checked like one at launch


def test_a_read_shows_the_url_and_never_the_secret(client: TestClient, ids: dict[str, int]) -> None:
    matchers = [{"source": "header", "path": "X-GitHub-Event", "value": "push"}]
    hook = create(client, ids, matchers=matchers, extractors={"sha": "after"})
    assert hook["url"].startswith("http://127.0.0.1:8080/api/v1/hooks/")
    assert hook["signature_header"] == "X-Hub-Signature-256"
    assert hook["delivery_header"] == "X-Github-Delivery"
    assert hook["owner"] == "admin"
    assert hook["template_name"] == "deploy"
    assert hook["matchers"] == [{**matchers[0], "op": "equals"}]
    answers = [
        hook,
        client.get(hook_url(ids, hook["id"])).json(),
        client.get(hooks_url(ids)).json(),
        client.get(f"/api/v1/projects/{ids['project']}/webhooks").json(),
        client.patch(hook_url(ids, hook["id"]), json={"description": "d"}).json(),
        client.post(hook_url(ids, hook["id"], "/test"), json={}).json(),
        client.get(hook_url(ids, hook["id"], "/deliveries")).json(),
        client.get("/api/v1/audit").json(),
    ]
    assert SECRET not in json.dumps(answers)


def test_changes_are_audited_and_saving_makes_the_caller_the_owner(
    client: TestClient, ids: dict[str, int]
) -> None:
    hook = create(client, ids)
    make_user(client, "manager")
    members = f"/api/v1/projects/{ids['project']}/members"
    user_id = client.get("/api/v1/users").json()["items"][-1]["id"]
    assert client.put(members, json={"user_id": user_id, "role": "manager"}).status_code == 200
    manager = browser(client)
    manager.headers.update(bearer(token(client, "manager")))
    changed = manager.patch(
        hook_url(ids, hook["id"]), json={"rate_limit_per_minute": 5, "name": "renamed"}
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["owner"] == "manager"
    assert changed.json()["owner_id"] == user_id
    rotated = client.post(hook_url(ids, hook["id"], "/rotate-id"))
    assert rotated.status_code == 200
    assert rotated.json()["url"] != hook["url"]
    assert client.delete(hook_url(ids, hook["id"])).status_code == 204
    assert client.get(hook_url(ids, hook["id"])).status_code == 404

    records = client.get("/api/v1/audit", params={"object_type": "webhook"}).json()["items"]
    assert [r["action"] for r in records] == [
        "webhook:delete",
        "webhook:update",
        "webhook:update",
        "webhook:create",
    ]
    assert records[2]["changes"]["rate_limit_per_minute"] == [30, 5]
    assert records[2]["changes"]["owner_id"][1] == user_id
    assert records[2]["actor"] == "manager (token manager-write)"
    assert records[1]["changes"] == {"url": ["********", "********"]}
    assert records[3]["changes"]["auth"] == [None, "github"]


def test_a_rotated_id_leaves_the_old_url_answering_404(
    client: TestClient, ids: dict[str, int]
) -> None:
    hook = create(client, ids, matchers=[{"source": "body", "path": "never", "op": "exists"}])
    rotated = client.post(hook_url(ids, hook["id"], "/rotate-id")).json()
    body = encode({"ref": "refs/heads/main"})
    sender = browser(client)
    old = sender.post(
        hook["url"].removeprefix("http://127.0.0.1:8080"),
        content=body,
        headers=github_headers(body),
    )
    assert old.status_code == 404
    new = sender.post(
        rotated["url"].removeprefix("http://127.0.0.1:8080"),
        content=body,
        headers=github_headers(body),
    )
    assert new.status_code == 202
    assert new.json()["outcome"] == "ignored"


def test_its_key_cannot_be_deleted_and_the_template_takes_it_along(
    client: TestClient, ids: dict[str, int]
) -> None:
    hook = create(client, ids)
    refused = client.delete(f"/api/v1/projects/{ids['project']}/keys/{ids['key']}")
    assert "webhook 'push'" in assert_problem(refused, 409, "key 'hook-secret'")
    deleted = client.delete(f"/api/v1/projects/{ids['project']}/templates/{ids['template']}")
    assert deleted.status_code == 204, deleted.text
    assert client.get(hook_url(ids, hook["id"])).status_code == 404


def test_who_may_see_webhooks_and_their_deliveries(
    client: TestClient, ids: dict[str, int], tmp_path: Path
) -> None:
    hook = create(client, ids)
    assert client.post(hook_url(ids, hook["id"], "/test"), json={}).status_code == 200
    people = {}
    for name, role in (("viewer", "viewer"), ("operator", "operator"), ("outsider", None)):
        user = make_user(client, name)
        if role:
            members = f"/api/v1/projects/{ids['project']}/members"
            client.put(members, json={"user_id": user["id"], "role": role})
        people[name] = browser(client)
        people[name].headers.update(bearer(token(client, name)))
    deliveries = hook_url(ids, hook["id"], "/deliveries")
    delivery_id = client.get(deliveries).json()["items"][0]["id"]
    for name in ("viewer", "operator"):
        seen = people[name]
        assert seen.get(hook_url(ids, hook["id"])).status_code == 200
        assert seen.get(hooks_url(ids)).json()["total"] == 1
        for url in (deliveries, f"{deliveries}/{delivery_id}"):
            refused = seen.get(url)
            assert refused.status_code == 403
            assert "template:write" in refused.text
        assert seen.patch(hook_url(ids, hook["id"]), json={}).status_code == 403
        assert seen.post(hook_url(ids, hook["id"], "/test"), json={}).status_code == 403
        assert seen.delete(hook_url(ids, hook["id"])).status_code == 403
    outsider = people["outsider"]
    for url in (hook_url(ids, hook["id"]), deliveries, hooks_url(ids)):
        assert outsider.get(url).status_code == 404
    other = client.get(f"/api/v1/projects/{make_project(client, 'p2')}/webhooks/{hook['id']}")
    assert other.status_code == 404  # an id of another project
    assert client.get(f"{deliveries}/999999").status_code == 404
