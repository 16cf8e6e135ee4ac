"""Hostile requests: malformed ids in every path parameter, hostile query values, control
characters in names, and odd credentials. Whatever the request, the answer is a 4xx
problem+json that names what is wrong: never a 5xx, a stack trace, a file's content or an
injected header.

The routes are enumerated from the app itself (``app.routes``), like the access matrix, so a new
route is probed without being listed here. Each test loops over every route for one hostile
value and collects the failures, so one failing assertion lists them all.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient
from support.apps import shared_client
from support.builders import (
    PLAYBOOKS,
    assert_problem,
    inserted_run,
    make_key,
    make_local_repository,
    make_project,
    make_template,
)
from support.server import Server

from steward.api.branches import unbranched
from steward.inventories.models import Inventory
from steward.runs.models import Run
from steward.runs.status import RunStatus

pytestmark = pytest.mark.security

API = "/api/v1"
BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}  # sent with an empty JSON object
NOT_THE_API = {f"{API}/openapi.json", f"{API}/docs"}  # served under the prefix, not API routes


# --- the routes and a small world to aim them at ------------------------------------------------


def api_routes(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every API route, from ``app.routes`` (not the console nor the docs)."""
    found = set()
    for route in iter_route_contexts(unbranched(app.routes)):
        path = route.path or ""
        if not path.startswith(f"{API}/") or path in NOT_THE_API:
            continue
        for method in route.methods or ():
            if method != "HEAD":
                found.add((method, path))
    return sorted(found, key=lambda r: (r[1], r[0]))


def path_params(path: str) -> list[str]:
    return re.findall(r"{(\w+)}", path)


@dataclasses.dataclass
class World:
    """One object of every kind a path names: the params a probe does not aim at are real."""

    client: TestClient  # the admin; server errors come back as 500 responses, not exceptions
    ids: dict[str, int | str]

    def url(self, path: str, **hostile: str) -> str:
        return path.format(**{**{p: str(self.ids[p]) for p in path_params(path)}, **hostile})


@pytest.fixture(scope="module")
def world_client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """The module's app; the previews and tests the probes reach are not counted against the
    admin's budget per minute (tests/api/test_hostile_expression_budgets.py)."""
    with shared_client(request, preview_max_per_minute=100_000) as client:
        yield client


@pytest.fixture(scope="module")
def world(world_client: TestClient) -> World:
    """Built once for the module: no probe changes it (a hostile id names nothing, and every
    hostile body is refused); the one test that creates objects gives them names of its own."""
    client = world_client
    app: FastAPI = client.app  # type: ignore[assignment]
    admin = TestClient(app, raise_server_exceptions=False)
    admin.headers.update(client.headers)
    project = make_project(client)
    base = f"{API}/projects/{project}"
    repository = make_local_repository(client, project, PLAYBOOKS)
    inventory = inserted(
        app,
        Inventory(
            project_id=project, name="hosts", kind="static", format="ini", content="localhost\n"
        ),
    )
    key = make_key(client, project)["id"]
    environment = created(client, f"{base}/environments", {"name": "prod"})
    template = make_template(
        client, project, repository_id=repository, inventory_id=inventory, name="t"
    )["id"]
    team = created(client, f"{API}/teams", {"name": "ops"})
    user: int = client.get(f"{API}/auth/me").json()["id"]  # the admin: no probe reaches it
    grant = created(
        client, f"{base}/templates/{template}/grants", {"team_id": team, "permission": "view"}
    )
    token = created(client, f"{API}/users/me/tokens", {"name": "spare"})
    schedule = created(
        client,
        f"{base}/templates/{template}/schedules",
        {"name": "nightly", "kind": "cron", "expression": "0 3 1 1 *"},
    )
    webhook = client.post(
        f"{base}/templates/{template}/webhooks",
        json={"name": "push", "auth": "bearer", "secret_key_id": key},
    )
    assert webhook.status_code == 201, webhook.text
    destination = created(
        client,
        f"{base}/notification-destinations",
        {
            "name": "hook",
            "kind": "webhook",
            "config": {"url": "http://127.0.0.1:9/"},
            "secret_key_id": key,
        },
    )
    subscription = created(
        client,
        f"{base}/notification-subscriptions",
        {"destination_id": destination, "events": ["failed"]},
    )
    galaxy = created(
        client, f"{base}/galaxy-servers", {"name": "hub", "url": "https://127.0.0.1:9/api/"}
    )
    group = created(client, f"{API}/runner-groups", {"name": "dmz"})
    gate = {"key": "gate", "kind": "approval", "name": "Gate"}
    workflow = created(client, f"{base}/workflows", {"name": "flow", "nodes": [gate]})
    workflow_run = created(client, f"{base}/workflows/{workflow}/launch", {})
    return World(
        admin,
        {
            "project_id": project,
            "repository_id": repository,
            "inventory_id": inventory,
            "key_id": key,
            "environment_id": environment,
            "template_id": template,
            "team_id": team,
            "user_id": user,
            "grant_id": grant,
            "token_id": token,
            "session_id": 999_999,  # the admin's own, if there were one: none is needed
            "run_id": inserted(app, finished_run(project, template)),
            "schedule_id": schedule,
            "webhook_id": webhook.json()["id"],
            "hook_id": webhook.json()["url"].rsplit("/", 1)[-1],
            "delivery_id": 999_999,  # none is needed: a delivery is only read
            "window_id": 999_999,  # a freeze window: none is needed, a 404 at most
            "destination_id": destination,
            "subscription_id": subscription,
            "server_id": galaxy,
            "group_id": group,
            "workflow_id": workflow,
            "workflow_run_id": workflow_run,
            "key": "gate",
            "host": "localhost",  # a host name (the hosts view): known or not, a 404 at most
            "task": 1,  # a plan's task key: run_id is not a plan (409 once the key is valid)
        },
    )


def created(client: TestClient, url: str, body: dict[str, Any]) -> int:
    response = client.post(url, json=body)
    assert response.status_code == 201, response.text
    object_id: int = response.json()["id"]
    return object_id


def inserted(app: FastAPI, row: Inventory | Run) -> int:
    """Stored directly: the probes need an id, not what the API would check on the way (an
    inventory parsed by ansible-inventory, a run of a playbook); returns the id."""
    with app.state.runtime.sessions() as session:
        session.add(row)
        session.commit()
        row_id: int = row.id
        return row_id


def finished_run(project: int, template: int) -> Run:
    return inserted_run(project, template, RunStatus.SUCCESSFUL)


def problem_failure(response: httpx2.Response, allowed: set[int]) -> str | None:
    """Why ``response`` is not a problem+json answer of one of ``allowed``, or None."""
    body = response.text
    if response.status_code not in allowed:
        return f"{response.status_code} {body[:200]}"
    if response.headers.get("content-type") != "application/problem+json":
        return f"content-type {response.headers.get('content-type')}"
    if "Traceback" in body or "root:x:0:0" in body:
        return f"leaks {body[:200]}"
    problem = response.json()
    if problem.get("status") != response.status_code or not problem.get("detail"):
        return f"not a problem body: {body[:200]}"
    return None


# --- 1. hostile path parameters ----------------------------------------------------------------

BEYOND_INT64 = "99999999999999999999999"
HOSTILE_IDS = {
    "traversal": "..%2F..%2Fetc%2Fpasswd",
    "dot-dot": "%2e%2e",
    "negative": "-1",
    "zero": "0",
    "beyond-int64": BEYOND_INT64,
    "int64-max+1": "9223372036854775808",
    "below-int64": f"-{BEYOND_INT64}",
    "float": "1e3",
    "full-width-digit": "\uff11",
    "nul": "%00",
    "10k-chars": "x" * 10_000,
    "10k-digits": "9" * 10_000,
    "sql": "'; DROP TABLE runs;--",
}


def test_the_routes_are_enumerated(client: TestClient) -> None:
    """The enumeration sees what the OpenAPI document lists: no route escapes the probes."""
    schema = client.get(f"{API}/openapi.json").json()
    documented = {(method.upper(), path) for path, ops in schema["paths"].items() for method in ops}
    assert set(api_routes(client.app)) == documented  # type: ignore[arg-type]


@pytest.mark.parametrize("value", HOSTILE_IDS.values(), ids=HOSTILE_IDS.keys())
def test_a_hostile_path_parameter_is_a_4xx_problem(world: World, value: str) -> None:
    """Each path parameter of each route in turn gets ``value`` (the others are real ids)."""
    wrong = []
    for method, path in api_routes(world.client.app):  # type: ignore[arg-type]
        for param in path_params(path):
            url = world.url(path, **{param: value})
            body: dict[str, Any] | None = {} if method in BODY_METHODS else None
            response = world.client.request(method, url, json=body)
            failure = problem_failure(response, {404, 405, 422})
            if failure:
                wrong.append(f"{method} {path} [{param}]: {failure}")
    assert wrong == [], f"{len(wrong)} hostile {{param}}={value[:30]!r} answers:\n" + "\n".join(
        wrong
    )


# --- 2. hostile query parameters ----------------------------------------------------------------


def query_params(client: TestClient) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(path, name, schema) of every query parameter of a GET route, from the OpenAPI document
    (it carries the bounds: which value is out of range)."""
    schema = client.get(f"{API}/openapi.json").json()
    for path, ops in schema["paths"].items():
        for param in ops.get("get", {}).get("parameters", []):
            if param["in"] == "query":
                yield path, param["name"], param["schema"]


def _types(schema: dict[str, Any]) -> dict[str, Any]:
    """The non-null alternative of an ``anyOf`` (``int | None`` -> the int schema)."""
    for alternative in schema.get("anyOf", [schema]):
        if alternative.get("type") != "null":
            return dict(alternative)
    return schema


def hostile_query_values(schema: dict[str, Any]) -> list[str]:
    """Values of a parameter of ``schema`` that must be refused (422)."""
    kind = _types(schema)
    if kind.get("type") == "integer":
        # beyond int64 either way: refused by the bounds, or by the database's range
        values = {"1e99", "abc", "1.5", "\uff11", BEYOND_INT64, f"-{BEYOND_INT64}"}
        if "minimum" in kind:
            values |= {str(kind["minimum"] - 1)} | ({"-1"} if kind["minimum"] >= 0 else set())
        if "maximum" in kind:
            values |= {str(kind["maximum"] + 1)} | (
                {str(10**9)} if kind["maximum"] < 10**9 else set()
            )
        return sorted(values)
    if kind.get("format") == "date-time":
        return ["not-a-date", "2026-13-45T99:99:99", "99999-01-01T00:00:00"]
    if kind.get("type") == "boolean":
        return ["maybe"]
    if kind.get("type") == "array" or "$ref" in kind:  # an enum or a list of one
        return ["no-such-value"]
    if kind.get("type") == "string" and "maxLength" in kind:
        return ["x" * (kind["maxLength"] + 1)]
    return []


def query_failures(world: World) -> dict[tuple[str, str], list[str]]:
    """(path, parameter) -> why its hostile values were not a 422 naming it."""
    wrong: dict[tuple[str, str], list[str]] = {}
    for path, name, schema in query_params(world.client):
        for value in hostile_query_values(schema):
            response = world.client.get(world.url(path), params={name: value})
            failure = problem_failure(response, {422})
            if failure is None and name not in response.json()["detail"]:
                failure = f"the detail does not name {name}: {response.json()['detail']}"
            if failure:
                wrong.setdefault((path, name), []).append(
                    f"GET {path}?{name}={value:.30}: {failure}"
                )
    return wrong


# the list routes of these files take ``PageParams`` as they are: ``offset`` has no upper bound,
# and one beyond int64 crashes the query (SQLite cannot bind it, PostgreSQL overflows bigint)
UNBOUNDED_OFFSET = {
    (f"{API}/projects/{{project_id}}/{kind}", "offset")
    for kind in ("repositories", "inventories", "environments", "templates")
}


@pytest.fixture(scope="module")
def query_answers(world: World) -> dict[tuple[str, str], list[str]]:
    """``query_failures`` once for the two tests below (each hostile value of each query
    parameter is one request)."""
    return query_failures(world)


def test_a_hostile_query_value_is_a_422_naming_the_parameter(
    query_answers: dict[tuple[str, str], list[str]],
) -> None:
    wrong = [
        line
        for param, lines in query_answers.items()
        if param not in UNBOUNDED_OFFSET
        for line in lines
    ]
    assert wrong == [], f"{len(wrong)} hostile query values:\n" + "\n".join(wrong)


def test_an_offset_beyond_int64_is_a_422_on_every_list(
    query_answers: dict[tuple[str, str], list[str]],
) -> None:
    failures = query_answers
    wrong = [line for param in sorted(UNBOUNDED_OFFSET) for line in failures.get(param, [])]
    assert wrong == [], "\n".join(wrong)


def test_the_live_stream_refuses_a_position_beyond_int64(world: World) -> None:
    stream = world.url(f"{API}/projects/{{project_id}}/runs/{{run_id}}/stream")
    huge = BEYOND_INT64
    assert_problem(world.client.get(stream, params={"after": huge}), 422, "after")
    refused = world.client.get(stream, headers={"Last-Event-ID": huge})
    assert_problem(refused, 422, "last-event-id")
    assert_problem(world.client.get(stream, headers={"Last-Event-ID": "x"}), 422, "last-event-id")


# --- 3. control characters in names, and in response headers ----------------------------------

HOSTILE_NAMES = {
    "crlf": "a\r\nb",
    "lf": "a\nb",
    "nul": "a\x00b",
    "header": "x\r\nSet-Cookie: a=b",
}


def creations(world: World) -> dict[str, tuple[str, dict[str, Any]]]:
    """kind -> (url, a valid creation body but for its name)."""
    base = world.url(f"{API}/projects/{{project_id}}")
    ids = world.ids
    return {
        "project": (f"{API}/projects", {}),
        "key": (f"{base}/keys", {"kind": "secret", "value": "s3cret-value"}),
        "repository": (f"{base}/repositories", {"kind": "local", "url": str(PLAYBOOKS)}),
        "inventory": (f"{base}/inventories", {"kind": "static", "format": "ini", "content": ""}),
        "environment": (f"{base}/environments", {}),
        "template": (
            f"{base}/templates",
            {
                "playbook": "ok.yml",
                "repository_id": ids["repository_id"],
                "inventory_id": ids["inventory_id"],
            },
        ),
        "team": (f"{API}/teams", {}),
    }


@pytest.mark.parametrize("name", HOSTILE_NAMES.values(), ids=HOSTILE_NAMES.keys())
def test_a_name_with_control_characters_is_refused(world: World, name: str) -> None:
    wrong = []
    for kind, (url, body) in creations(world).items():
        response = world.client.post(url, json={**body, "name": name})
        failure = problem_failure(response, {422})
        if failure is None and "name" not in response.json()["detail"]:
            failure = f"the detail does not name name: {response.json()['detail']}"
        if failure:
            wrong.append(f"create a {kind}: {failure}")
    assert wrong == [], "\n".join(wrong)


def test_every_creation_body_is_valid_but_for_the_name(world: World) -> None:
    """The bodies above are refused for their names only: with a plain name they are created."""
    for kind, (url, body) in creations(world).items():
        response = world.client.post(url, json={**body, "name": f"plain-{kind}"})
        assert response.status_code == 201, f"{kind}: {response.text}"


def test_no_request_value_reaches_a_response_header(world: World) -> None:
    """The downloads name their file from fixed text and the run's integer id only, and a
    hostile path or query value is not echoed into any header."""
    run = world.url(f"{API}/projects/{{project_id}}/runs/{{run_id}}")
    output = world.client.get(f"{run}/output", params={"ansi": "false"})
    assert output.status_code == 200, output.text
    disposition = f'attachment; filename="run-{world.ids["run_id"]}.log"'
    assert output.headers["content-disposition"] == disposition
    export = world.client.get(f"{API}/audit/export", params={"q": "x\r\nSet-Cookie: a=b"})
    assert export.status_code == 200, export.text
    assert export.headers["content-disposition"] == 'attachment; filename="steward-audit.jsonl"'
    injected = "%0d%0aSet-Cookie:%20a=b"
    for response in (
        output,
        export,
        world.client.get(f"{run}{injected}/output"),
        world.client.get(f"{API}/projects/{injected}/"),
        world.client.get(f"{API}/projects{injected}"),
        world.client.get(f"{API}/projects/", params={"x": "a\r\nSet-Cookie: a=b"}),
    ):
        assert "set-cookie" not in response.headers, response.headers
        headers = "\n".join(f"{k}: {v}" for k, v in response.headers.multi_items())
        assert "a=b" not in headers, headers


# --- 4. odd credentials and forwarded addresses --------------------------------------------------


def test_a_10kb_garbage_bearer_token_is_a_401_problem(client: TestClient) -> None:
    anonymous = TestClient(client.app, raise_server_exceptions=False)
    for secret in ("A" * 10_240, "stw_" + "\u00e9" * 5_000, "stw_" + "' OR 1=1;--" * 900):
        authorization = f"Bearer {secret}".encode()  # raw UTF-8 bytes, as a hostile client sends
        response = anonymous.get(f"{API}/auth/me", headers={b"Authorization": authorization})
        assert problem_failure(response, {401}) is None, response.text
        assert response.headers["www-authenticate"] == "Bearer"


def test_a_garbage_session_cookie_is_a_401_problem(client: TestClient) -> None:
    anonymous = TestClient(client.app, raise_server_exceptions=False)
    for cookie in ("garbage", "x" * 4000, "' OR 1=1;--", "%00%0d%0a"):
        anonymous.cookies.set("steward_session", cookie)
        response = anonymous.get(f"{API}/auth/me")
        assert problem_failure(response, {401}) is None, response.text
        refused = anonymous.post(
            f"{API}/projects", json={"name": "p"}, headers={"X-CSRF-Token": "x"}
        )
        assert problem_failure(refused, {401}) is None, refused.text


SPOOFED_ADDRESS = "203.0.113.7"
SPOOFED = {"X-Forwarded-For": SPOOFED_ADDRESS, "X-Real-IP": "203.0.113.8", "Forwarded": "for=x"}


def recorded_addresses(api: httpx2.Client, prefix: str = API) -> dict[str, set[str]]:
    """Make one change and fail one login, both with forwarded-address headers; the source
    addresses the audit trail recorded for each (the login throttle counts the failures by it)."""
    created = api.post(f"{prefix}/projects", json={"name": "spoofed"}, headers=SPOOFED)
    assert created.status_code == 201, created.text
    failed = api.post(
        f"{prefix}/auth/login", json={"username": "admin", "password": "wrong"}, headers=SPOOFED
    )
    assert failed.status_code == 401, failed.text
    addresses = {}
    for action in ("project:create", "auth:login_failed"):
        records = api.get(f"{prefix}/audit", params={"action": action}).json()["items"]
        assert records, f"no {action} record"
        addresses[action] = {record["source_ip"] for record in records}
    return addresses


def test_x_forwarded_for_does_not_change_the_recorded_address(client: TestClient) -> None:
    """The app reads the peer's address only (``deps.client_ip``)."""
    addresses = recorded_addresses(client)
    assert addresses == {"project:create": {"testclient"}, "auth:login_failed": {"testclient"}}


@pytest.mark.sqlite_only  # a real server on its embedded default
def test_a_real_server_does_not_trust_x_forwarded_for_by_default(tmp_path: Path) -> None:
    """On a database migrated once (support.server): a first start is tests/auth/test_totp.py's
    and tests/runs/test_secrets.py's (their servers log at debug from an empty directory)."""
    with Server(tmp_path / "data").running() as server, server.api() as api:
        addresses = recorded_addresses(api, prefix="")
    assert addresses == {"project:create": {"127.0.0.1"}, "auth:login_failed": {"127.0.0.1"}}


@pytest.mark.sqlite_only
def test_a_real_server_trusts_x_forwarded_for_from_a_named_proxy_only(tmp_path: Path) -> None:
    """STEWARD_TRUSTED_PROXIES names the reverse proxy: its X-Forwarded-For is the client."""
    proxied = Server(tmp_path / "data", trusted_proxies="127.0.0.1")
    with proxied.running() as server, server.api() as api:
        addresses = recorded_addresses(api, prefix="")
    assert addresses == {
        "project:create": {SPOOFED_ADDRESS},
        "auth:login_failed": {SPOOFED_ADDRESS},
    }


def test_problem_bodies_are_json(world: World) -> None:
    """A hostile id is echoed, if at all, inside JSON: the body parses and holds no raw CR/LF."""
    response = world.client.get(f"{API}/projects/{HOSTILE_IDS['sql']}%0d%0a")
    assert response.status_code == 422, response.text
    json.loads(response.text)
    assert "\r\n" not in response.text
