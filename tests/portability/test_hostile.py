"""Project export and import, attacked: no secret leaves in an export, only project owners and
admins export, only those who may create projects import, a document cannot reach objects of
another project (nor any id), hostile values are refused or kept as inert data exactly as the
create endpoints do, and sizes are bounded. Never a 500."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.admin import ADMIN_PASSWORD, ADMIN_TOKEN
from support.builders import assert_problem, bearer, make_project, make_user, token
from support.portability import IMPORT_URL, export_url, full_project

from steward.config import Settings
from steward.server import build_app

# the import's refusals are the domains' own checks, the same on both databases; its one
# transaction, where they differ, is proven on both in tests/portability/test_round_trip.py
pytestmark = [pytest.mark.security, pytest.mark.sqlite_only]


def export(client: TestClient, project_id: int) -> dict[str, Any]:
    response = client.get(export_url(project_id))
    assert response.status_code == 200, response.text
    document: dict[str, Any] = response.json()
    return document


def project_names(client: TestClient) -> list[str]:
    return [p["name"] for p in client.get("/api/v1/projects?limit=200").json()["items"]]


def newest_audit_id(client: TestClient) -> int:
    items = client.get("/api/v1/audit", params={"limit": 1}).json()["items"]
    newest: int = items[0]["id"]
    return newest


def import_(client: TestClient, document: dict[str, Any], **extra: Any) -> Any:
    return client.post(IMPORT_URL, json={"document": document, **extra})


@pytest.fixture
def source(client: TestClient, tmp_path: Path) -> dict[str, Any]:
    return full_project(client, tmp_path)


@pytest.fixture
def document(client: TestClient, source: dict[str, Any]) -> dict[str, Any]:
    return export(client, source["project"])


# The refusals below change nothing (dry runs, or imports refused whole): they share one app,
# one source project and its export, and one other project (``_other_project``), built once for
# the module (``full_project`` over HTTP costs ~0.7 s a test).


@pytest.fixture(scope="module")
def shared_document(module_client: TestClient) -> dict[str, Any]:
    # beside the app's data directory: inside its local repository roots (support.apps)
    data_dir: Path = module_client.app.state.runtime.settings.data_dir  # type: ignore[attr-defined]
    source = full_project(module_client, data_dir.parent)
    return export(module_client, source["project"])


@pytest.fixture(scope="module")
def other(module_client: TestClient, shared_document: dict[str, Any]) -> dict[str, int]:
    return _other_project(module_client)


# --- no secret in an export -----------------------------------------------------------------


def test_no_secret_value_appears_anywhere_in_the_export(
    client: TestClient, source: dict[str, Any]
) -> None:
    response = client.get(export_url(source["project"]))
    assert response.status_code == 200
    text = response.text
    secrets = source["secrets"]
    for field, value in secrets.items():
        if field == "ssh_private_key":
            lines = [line for line in value.splitlines() if len(line) > 10]
            assert lines
            for line in lines:
                assert line not in text, "a line of the private key is in the export"
        else:
            assert value not in text, f"{field} is in the export"
    # nor in the import report, nor in the key list of the copy
    done = client.post(IMPORT_URL, json={"document": response.json(), "name": "copy"})
    assert done.status_code == 201, done.text
    for value in secrets.values():
        assert value.splitlines()[1 if "\n" in value else 0] not in done.text
    # the export holds the names of the keys, not a hint of their values
    keys = response.json()["keys"]
    assert {tuple(sorted(k)) for k in keys} <= {
        ("description", "kind", "name", "username"),
        ("description", "kind", "name", "vault_id"),
        ("description", "kind", "name"),
    }
    hooks = response.json()["webhooks"]
    assert all("hook_id" not in h and "url" not in h for h in hooks)
    nightly = next(s for s in response.json()["schedules"] if s["name"] == "nightly")
    assert "db_password" not in nightly["launch"]["survey"]
    assert nightly["omitted_secret_answers"] == ["db_password"]


def test_the_export_is_audited_without_content(client: TestClient, source: dict[str, Any]) -> None:
    export(client, source["project"])
    records = client.get("/api/v1/audit", params={"action": "project:export"}).json()["items"]
    assert len(records) == 1
    assert records[0]["object_id"] == source["project"]
    assert records[0]["changes"] == {}


# --- who may export and import --------------------------------------------------------------


def test_only_owners_and_admins_export(client: TestClient) -> None:
    project = make_project(client, "guarded")
    for name, role in (("manager", "manager"), ("viewer", "viewer"), ("owner2", "owner")):
        user = make_user(client, name)
        member = {"user_id": user["id"], "role": role}
        assert client.put(f"/api/v1/projects/{project}/members", json=member).status_code == 200
    make_user(client, "stranger")
    url = export_url(project)
    # not a member: the project does not exist for them
    assert_problem(client.get(url, headers=bearer(token(client, "stranger"))), 404, "project")
    # members without the owner's rights: named permission
    for name in ("manager", "viewer"):
        response = client.get(url, headers=bearer(token(client, name)))
        assert_problem(response, 403, "project:edit")
    # an owner with a write token (or a session), an admin with a read token
    assert client.get(url, headers=bearer(token(client, "owner2"))).status_code == 200
    admin_read = token(client, "admin", scope="read", password=ADMIN_PASSWORD)
    assert client.get(url, headers=bearer(admin_read)).status_code == 200
    # an owner's read token has not the owner's write rights: like other owner-only endpoints
    response = client.get(url, headers=bearer(token(client, "owner2", scope="read")))
    assert_problem(response, 403, "project:edit")


def test_only_those_who_may_create_projects_import(
    client: TestClient, document: dict[str, Any], source: dict[str, Any]
) -> None:
    user = make_user(client, "owner2")
    member = {"user_id": user["id"], "role": "owner"}
    client.put(f"/api/v1/projects/{source['project']}/members", json=member)
    before = project_names(client)
    response = client.post(
        IMPORT_URL,
        json={"document": document, "name": "mine"},
        headers=bearer(token(client, "owner2")),
    )
    assert_problem(response, 403, "admin")
    admin_read = token(client, "admin", scope="read", password=ADMIN_PASSWORD)
    response = client.post(
        IMPORT_URL, json={"document": document, "name": "mine"}, headers=bearer(admin_read)
    )
    assert_problem(response, 403, "read")
    assert project_names(client) == before


# --- a document reaches nothing outside itself ----------------------------------------------


def _other_project(client: TestClient) -> dict[str, int]:
    other = make_project(client, "other")
    base = f"/api/v1/projects/{other}"
    inventory = client.post(
        f"{base}/inventories",
        json={"name": "prod", "kind": "static", "format": "ini", "content": "web1\n"},
    ).json()["id"]
    key = client.post(
        f"{base}/keys", json={"name": "theirs", "kind": "secret", "value": "their-secret-v"}
    ).json()["id"]
    return {"project": other, "inventory": inventory, "key": key}


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        (
            lambda d, o: d["templates"][0].update(inventory="prod"),
            "templates[0].inventory",
            "no inventory named",
        ),
        (
            lambda d, o: d["templates"][0].update(inventory_id=o["inventory"]),
            "templates[0].inventory_id",
            "ids are not accepted",
        ),
        (
            lambda d, o: d["templates"][0].update(inventory=o["inventory"]),
            "templates[0].inventory",
            "by its name",
        ),
        (
            lambda d, o: d["templates"][1].update(vault_keys=["theirs"]),
            "templates[1].vault_keys[0]",
            "no key named",
        ),
        (
            lambda d, o: d["environments"][0]["secrets"][0].update(key="theirs"),
            "environments[0].secrets[0].key",
            "no key named",
        ),
        (
            lambda d, o: d["environments"][0]["secrets"][0].update(key_id=o["key"]),
            "environments[0].secrets[0].key_id",
            "ids are not accepted",
        ),
        (
            lambda d, o: d["schedules"][0]["launch"].update(inventory_id=o["inventory"]),
            "schedules[0].launch.inventory_id",
            "ids are not accepted",
        ),
        (
            lambda d, o: d["webhooks"][0].update(secret_key="theirs"),
            "webhooks[0].secret_key",
            "no key named",
        ),
        (
            lambda d, o: d["notification_subscriptions"][0].update(destination="theirs"),
            "notification_subscriptions[0].destination",
            "no notification destination named",
        ),
        (lambda d, o: d["project"].update(runner_group_id=1), "project.runner_group_id", "ids"),
        (
            lambda d, o: d["repositories"][1].update(key="theirs"),
            "repositories[1].key",
            "no key named",
        ),
        (
            lambda d, o: d["workflows"][0]["nodes"][1].update(template="elsewhere"),
            "workflows[0].nodes[1].template",
            "no template named",
        ),
        (  # templates sorted by name: full, ok (its survey's source has a key), remote-site
            lambda d, o: d["templates"][1]["survey"][0]["source"].update(key="theirs"),
            "templates[1].survey[0].source.key",
            "no key named",
        ),
        (
            lambda d, o: d["templates"][1]["survey"][0]["source"].update(key_id=o["key"]),
            "templates[1].survey[0].source.key",  # an id field is named as its name field
            "ids are not accepted",
        ),
        (
            lambda d, o: d["workflows"][0]["nodes"][1].update(template_id=1),
            "workflows[0].nodes[1].template_id",
            "ids are not accepted",
        ),
        (
            lambda d, o: d["workflows"][0]["nodes"][1]["launch"].update(
                inventory_id=o["inventory"]
            ),
            "workflows[0].nodes[1].launch.inventory_id",
            "ids are not accepted",
        ),
        (
            lambda d, o: d["workflows"][0]["nodes"][1].update(template=None, kind="template"),
            "workflows[0].nodes[1].template",
            "",
        ),
    ],
)
def test_a_document_cannot_attach_to_objects_of_another_project_or_to_ids(
    module_client: TestClient,
    shared_document: dict[str, Any],
    other: dict[str, int],
    edit: Any,
    field: str,
    message: str,
) -> None:
    client, document = module_client, shared_document
    before = project_names(client)
    hostile = copy.deepcopy(document)
    edit(hostile, other)
    for dry_run in (True, False):
        response = import_(client, hostile, name="attached", dry_run=dry_run)
        detail = assert_problem(response, 422, field)
        assert message in detail, detail
    assert project_names(client) == before  # all or nothing: not even the project
    # the other project's objects are untouched and unused
    other_keys = client.get(f"/api/v1/projects/{other['project']}/keys").json()["items"]
    assert [k["name"] for k in other_keys] == ["theirs"]


# --- hostile values: refused, or inert data as on create ------------------------------------


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (
            lambda d: d["templates"][0].update(playbook="../../../etc/passwd.yml"),
            "templates[0].playbook",
        ),
        (
            lambda d: d["templates"][0].update(playbook="/etc/ansible/site.yml"),
            "templates[0].playbook",
        ),
        (lambda d: d["inventories"][0].update(path="../../etc/hosts"), "inventories[0].path"),
        (lambda d: d["inventories"][0].update(path="/etc/hosts"), "inventories[0].path"),
        (lambda d: d["repositories"][0].update(url="/etc"), "repositories[0].url"),
        (
            lambda d: d["repositories"][1].update(url="https://u:pw@example.invalid/r.git"),
            "repositories[1].url",
        ),
        (
            lambda d: d["repositories"][1].update(ref="--upload-pack=touch /tmp/x"),
            "repositories[1].ref",
        ),
        (lambda d: d["keys"][0].update(value="a-secret-given-in-the-document"), "keys[0].value"),
        (lambda d: d["keys"][0].update(kind="root"), "keys[0]"),
        (lambda d: d["templates"][0].update(survey=[{"variable": "x"}] * 2), "templates[0].survey"),
        (
            lambda d: d["webhooks"][0].update(matchers=[d["webhooks"][0]["matchers"][0]] * 1000),
            "webhooks[0].matchers",
        ),
        (
            lambda d: d["webhooks"][0]["matchers"][0].update(source="header", path="Authorization"),
            "webhooks[0].matchers[0]",
        ),
        (
            lambda d: d["environments"][0]["env_vars"].update(LD_PRELOAD="/tmp/x.so"),
            "environments[0].env_vars",
        ),
        (
            lambda d: d["notification_destinations"][0]["config"]["headers"].update(
                Authorization="x"
            ),
            "notification_destinations[0].config.headers",
        ),
        (lambda d: d.update(keys=[d["keys"][0]] * 1001), "keys"),
        (lambda d: d["templates"].append(5), "templates[3]"),
        (lambda d: d["templates"][0].update(name=["x"]), "templates[0].name"),
        (lambda d: d["schedules"][0].update(template=None), "schedules[0].template"),
        (
            lambda d: d["schedules"][0].update(omitted_secret_answers="db_password"),
            "schedules[0].omitted_secret_answers",
        ),
        (
            lambda d: d["workflows"][0]["nodes"][1].update(omitted_secret_answers="db_password"),
            "workflows[0].nodes[1].omitted_secret_answers",
        ),
        (
            lambda d: d["workflows"][0]["edges"].append({"from": "check", "to": "gate"}),
            "workflows[0].edges[2]",
        ),
        (
            lambda d: d["workflows"][0]["nodes"][1]["launch"].update(forks=50),
            "workflows[0].nodes[1].launch.forks",
        ),
        (
            lambda d: d["workflows"][0].update(nodes=[d["workflows"][0]["nodes"][0]] * 101),
            "workflows[0].nodes",
        ),
        (lambda d: d["workflows"][0]["nodes"].append("gate"), "workflows[0].nodes[4]"),
        (lambda d: d["project"].update(name="x" * 101), "project.name"),
        (lambda d: d.update(steward_export=2), "steward_export"),
        (lambda d: d.update(extra="field"), "extra"),
    ],
)
def test_hostile_values_are_refused_naming_their_place(
    module_client: TestClient, shared_document: dict[str, Any], edit: Any, field: str
) -> None:
    client, document = module_client, shared_document
    hostile = copy.deepcopy(document)
    hostile["project"]["name"] = "hostile"
    edit(hostile)
    before = project_names(client)
    response = import_(client, hostile, dry_run=True)
    assert_problem(response, 422, field)
    assert project_names(client) == before


def test_an_unknown_version_names_the_version(
    module_client: TestClient, shared_document: dict[str, Any]
) -> None:
    client, document = module_client, shared_document
    response = import_(client, {**document, "steward_export": 99}, name="v99")
    detail = assert_problem(response, 422, "steward_export")
    assert "version 99" in detail


def test_jinja_is_kept_as_inert_data_exactly_as_the_create_endpoint_keeps_it(
    client: TestClient, source: dict[str, Any]
) -> None:
    base = f"/api/v1/projects/{source['project']}"
    hostile = {"cmd": "{{ lookup('pipe', 'touch /tmp/pwned') }}", "n": "{% raw %}{{x}}"}
    made = client.patch(
        f"{base}/templates/{source['templates']['ok']}", json={"extra_vars": hostile}
    )
    assert made.status_code == 200, made.text
    document = export(client, source["project"])
    done = import_(client, document, name="copy")
    assert done.status_code == 201, done.text
    copied = client.get(f"/api/v1/projects/{done.json()['project_id']}/templates").json()["items"]
    ok = next(t for t in copied if t["name"] == "ok")
    assert ok["extra_vars"] == made.json()["extra_vars"] == hostile


def test_names_are_only_resolved_inside_the_document_even_when_they_match_elsewhere(
    module_client: TestClient, shared_document: dict[str, Any], other: dict[str, int]
) -> None:
    """A name the document does not define is refused even though another project has an
    object of that name (``other`` has an inventory ``prod``)."""
    client, document = module_client, shared_document
    hostile = copy.deepcopy(document)
    hostile["templates"][0]["inventory"] = "prod"
    response = import_(client, hostile, name="copy")
    detail = assert_problem(response, 422, "templates[0].inventory")
    assert detail == 'templates[0].inventory: no inventory named "prod" in the document'


def test_a_taken_project_name_is_a_conflict(
    module_client: TestClient, shared_document: dict[str, Any]
) -> None:
    client, document = module_client, shared_document
    response = import_(client, document)  # the source's own name
    assert_problem(response, 409, "source")
    response = import_(client, document, name="source", dry_run=True)
    assert_problem(response, 409, "source")


def test_a_required_secret_answer_never_exported_skips_the_schedule_and_says_so(
    client: TestClient, source: dict[str, Any]
) -> None:
    base = f"/api/v1/projects/{source['project']}"
    full = source["templates"]["full"]
    survey = client.get(f"{base}/templates/{full}").json()["survey"]
    survey[1]["required"] = True
    assert client.patch(f"{base}/templates/{full}", json={"survey": survey}).status_code == 200
    document = export(client, source["project"])
    done = import_(client, document, name="copy")
    assert done.status_code == 201, done.text
    report = done.json()
    assert report["created"]["schedules"] == 1  # weekly; nightly needs the answer
    assert report["created"]["notification_subscriptions"] == 2
    reasons = {(a["kind"], a["name"]): a["reason"] for a in report["needs_attention"]}
    assert "db_password" in reasons[("schedule", "nightly")]
    assert "not imported" in reasons[("notification_subscription", "hook")]
    # the workflow whose node needs it is not made either, and says which node and answer
    assert report["created"]["workflows"] == 0
    assert "not imported: node 'deploy'" in reasons[("workflow", "release")]
    assert "db_password" in reasons[("workflow", "release")]


# --- sizes ----------------------------------------------------------------------------------


def test_a_body_over_the_server_limit_is_413(
    module_client: TestClient, shared_document: dict[str, Any]
) -> None:
    client, document = module_client, shared_document
    padded = {**document, "project": {**document["project"], "description": "x" * (5 << 20)}}
    response = import_(client, padded, name="big")
    assert response.status_code == 413, response.text
    assert response.headers["content-type"] == "application/problem+json"


@pytest.fixture
def roomy_client(settings: Settings) -> Iterator[TestClient]:
    """A server whose body limit (16 MiB) is above the export document's own limit (5 MiB)."""
    app = build_app(settings.model_copy(update={"max_body_bytes": 16 << 20}), migrate=False)
    with TestClient(app) as c:
        c.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield c
    app.state.runtime.engine.dispose()


def test_a_document_over_five_mebibytes_is_413_even_below_the_server_limit(
    roomy_client: TestClient,
) -> None:
    document = {
        "steward_export": 1,
        "project": {"name": "big", "description": "x" * (5 << 20)},
    }
    response = roomy_client.post(IMPORT_URL, json={"document": document})
    assert response.status_code == 413, response.text
    assert "5 MiB" in response.json()["detail"]
    just_under = {"steward_export": 1, "project": {"name": "big", "description": "x" * 1000}}
    assert len(json.dumps({"document": just_under})) < 5 << 20
    response = roomy_client.post(IMPORT_URL, json={"document": just_under, "dry_run": True})
    assert response.status_code == 200, response.text


def test_no_field_of_a_document_given_a_wrong_type_makes_a_500(
    module_client: TestClient, shared_document: dict[str, Any]
) -> None:
    """Every field of every object, in turn, given an object, a list or null: each answer is
    a 2xx (a value the create endpoint accepts too) or a 4xx problem naming where."""
    client, document = module_client, shared_document
    # the template on the unreachable git server costs a failed checkout on every import
    document = {
        **document,
        "templates": [t for t in document["templates"] if t["name"] != "remote-site"],
    }
    places: list[tuple[str, int, str]] = [
        (kind, i, field)
        for kind, items in document.items()
        if isinstance(items, list)
        for i, item in enumerate(items)
        for field in item
    ]
    places += [("project", -1, field) for field in document["project"]]
    assert len(places) > 100
    answers: dict[int, int] = {}
    for n, (kind, i, field) in enumerate(places):
        hostile = copy.deepcopy(document)
        target = hostile[kind] if i < 0 else hostile[kind][i]
        target[field] = [{"x": 1}, {"x": [1]}, None][n % 3]
        response = import_(client, hostile, name="fuzzed", dry_run=True)
        answers[response.status_code] = answers.get(response.status_code, 0) + 1
        assert response.status_code < 500, (kind, i, field, response.text)
        if response.status_code >= 400:
            assert response.headers["content-type"] == "application/problem+json"
    assert answers.get(422, 0) > len(places) // 2, answers
    garbage_documents: list[Any] = [[], "x", 5, {"steward_export": 1}, {"steward_export": "1"}]
    for garbage in garbage_documents:
        response = client.post(IMPORT_URL, json={"document": garbage})
        assert response.status_code == 422, response.text
