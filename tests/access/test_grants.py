"""The rules of the matrix, told as stories: grant holders, launches, teams, the audit trail."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.apps import shared_client
from support.builders import assert_problem

from access.world import SECRET, World, ok

# PostgreSQL too: the visibility queries and their query counts
pytestmark = pytest.mark.both_databases


@pytest.fixture
def world(client: TestClient, tmp_path: Path) -> World:
    return World(client, tmp_path).build()


@pytest.fixture(scope="module")
def shared_world(request: pytest.FixtureRequest, module_database_url: str) -> Iterator[World]:
    """One world for the tests below that change nothing another of them looks at (a new key,
    a template's vault keys, refused writes); the tests that change grants, teams, runs or
    counts build their own (``world``)."""
    with shared_client(request, database_url=module_database_url) as client:
        # beside the app's data directory: inside its local repository roots (support.apps)
        data_dir: Path = client.app.state.runtime.settings.data_dir  # type: ignore[attr-defined]
        yield World(client, data_dir.parent).build()


def test_a_run_grant_shows_its_template_and_runs_and_nothing_else(shared_world: World) -> None:
    world = shared_world
    runner = world.clients["runner"]
    p1 = world.url("p1")

    project = ok(runner.get(p1))
    assert project["permissions"] == ["project:view"]
    assert [t["id"] for t in ok(runner.get(f"{p1}/templates"))["items"]] == [world.ids["t1"]]
    template = ok(runner.get(f"{p1}/templates/{world.ids['t1']}"))
    assert template["permissions"] == ["view", "run"]
    runs = ok(runner.get(f"{p1}/runs"))["items"]
    assert {r["id"] for r in runs} == {world.ids["r1"], world.ids["busy_t1"]}
    assert "hello world" in runner.get(f"{p1}/runs/{world.ids['r1']}/output").text

    hidden = [
        f"{p1}/templates/{world.ids['t2']}",
        f"{p1}/runs/{world.ids['r2']}",
        f"{p1}/runs/{world.ids['r2']}/lines",
        f"{p1}/keys",
        f"{p1}/keys/{world.ids['key']}",
        f"{p1}/inventories",
        f"{p1}/inventories/{world.ids['p1_inventory']}/hosts",
        f"{p1}/environments/{world.ids['environment']}",
        f"{p1}/repositories",
        world.url("p2"),
        f"{world.url('p2')}/runs/{world.ids['r3']}",
    ]
    for url in hidden:
        assert runner.get(url).status_code == 404, url  # not 403: nothing is confirmed
    assert runner.get(f"{p1}/members").status_code == 403


@pytest.mark.sqlite_only  # who may launch is the rights' rule; the run it starts is a real one
def test_who_may_launch_and_with_what(world: World) -> None:
    p1 = world.url("p1")
    t1 = {"template_id": world.ids["t1"]}

    viewer = world.clients["viewer"].post(f"{p1}/runs", json=t1)
    assert_problem(viewer, 403, "run:launch")
    assert_problem(world.clients["owner_read"].post(f"{p1}/runs", json=t1), 403, "run:launch")
    assert_problem(world.clients["team_viewer"].post(f"{p1}/runs", json=t1), 403, "run:launch")

    runner = world.clients["runner"]
    refused = runner.post(f"{p1}/runs", json={**t1, "limit": "db01"})
    assert_problem(refused, 422, "limit")  # T1 lets a launch override the tags only
    other = runner.post(f"{p1}/runs", json={"template_id": world.ids["t2"]})
    assert_problem(other, 404, str(world.ids["t2"]))

    launched = ok(runner.post(f"{p1}/runs", json={**t1, "tags": "all"}), 201)
    done = world.wait("p1", launched["id"])
    assert done["status"] == "successful", done
    assert done["launched_by"] == "runner"
    assert SECRET not in runner.get(f"{p1}/runs/{launched['id']}/output").text
    # the team operator may, through the team's role
    ok(world.clients["team_operator"].post(f"{p1}/runs/{world.ids['r2']}/relaunch", json={}), 201)


def test_a_template_read_hides_key_names_from_those_who_may_not_see_keys(
    shared_world: World,
) -> None:
    world = shared_world
    p1 = world.url("p1")
    vault = ok(
        world.admin.post(
            f"{p1}/keys", json={"name": "vault-prod", "kind": "vault_password", "password": SECRET}
        ),
        201,
    )
    url = f"{p1}/templates/{world.ids['t1']}"
    ok(world.admin.patch(url, json={"vault_key_ids": [vault["id"]]}))

    assert ok(world.clients["viewer"].get(url))["vault_keys"] == [
        {"id": vault["id"], "name": "vault-prod"}
    ]
    for holder in ("runner", "team_viewer"):
        shown = world.clients[holder].get(url).text
        assert "vault-prod" not in shown
        assert SECRET not in shown
        assert world.clients[holder].get(f"{p1}/keys/{vault['id']}").status_code == 404


def test_rights_follow_team_membership_and_every_change_is_audited(world: World) -> None:
    p1 = world.url("p1")
    team_viewer = world.clients["team_viewer"]
    t1 = f"{p1}/templates/{world.ids['t1']}"
    assert ok(team_viewer.get(t1))["permissions"] == ["view"]

    watchers = f"/api/v1/teams/{world.ids['watchers']}"
    ok(world.admin.delete(f"{watchers}/members/{world.users['team_viewer']}"), 204)
    assert team_viewer.get(t1).status_code == 404
    assert team_viewer.get(p1).status_code == 404
    assert ok(team_viewer.get("/api/v1/projects"))["items"] == []

    ok(world.admin.post(f"{watchers}/members", json={"user_id": world.users["team_viewer"]}), 201)
    ok(world.admin.put(f"{p1}/members", json={"team_id": world.ids["watchers"], "role": "viewer"}))
    assert ok(team_viewer.get(t1))["permissions"] == ["view"]
    assert ok(team_viewer.get(f"{p1}/keys"))["total"] == 1  # the team's role now shows keys
    ok(world.admin.delete(f"{t1}/grants/{world.ids['runner_grant']}"), 204)
    assert world.clients["runner"].get(t1).status_code == 404

    audit = ok(world.admin.get("/api/v1/audit", params={"limit": 1000}))["items"]
    actions = {record["action"] for record in audit}
    expected = {"team:create", "team:member_add", "team:member_remove", "member:set"}
    assert expected | {"grant:create", "grant:delete"} <= actions
    deleted = next(r for r in audit if r["action"] == "grant:delete")
    assert deleted["project_id"] == world.ids["p1"]
    assert deleted["changes"] == {"runner": ["run", None]}
    # owners read their project's trail, team changes (no project) are the admins' only
    owned = ok(world.clients["owner"].get("/api/v1/audit", params={"limit": 1000}))["items"]
    assert {r["project_id"] for r in owned} == {world.ids["p1"]}


def test_membership_names_exactly_one_holder(shared_world: World) -> None:
    world = shared_world
    members = f"{world.url('p1')}/members"
    both = {"user_id": world.users["outsider"], "team_id": world.ids["ops"], "role": "viewer"}
    assert_problem(world.admin.put(members, json=both), 422, "exactly one of user_id and team_id")
    assert_problem(world.admin.put(members, json={"role": "viewer"}), 422, "user_id")
    listed = ok(world.clients["viewer"].get(members))
    assert {(m["username"], m["team_name"], m["role"]) for m in listed} >= {
        ("owner", None, "owner"),
        (None, "ops", "operator"),
    }


def test_rights_cost_the_same_queries_for_1_and_11_items(
    world: World, statements: list[str]
) -> None:
    """Projects seen through a team, templates through grants: no query per item."""
    team_operator, runner = world.clients["team_operator"], world.clients["runner"]
    p1 = world.url("p1")

    def count(client: TestClient, url: str, items: int) -> int:
        statements.clear()
        assert ok(client.get(url))["total"] == items
        return len(statements)

    count(team_operator, "/api/v1/projects", 1)  # the first use of a token records it
    projects = count(team_operator, "/api/v1/projects", 1)
    count(runner, f"{p1}/templates", 1)
    templates = count(runner, f"{p1}/templates", 1)
    for i in range(10):
        project = ok(world.admin.post("/api/v1/projects", json={"name": f"more-{i}"}), 201)
        members = f"/api/v1/projects/{project['id']}/members"
        ok(world.admin.put(members, json={"team_id": world.ids["ops"], "role": "viewer"}))
        template = {
            "name": f"more-{i}",
            "playbook": "ok.yml",
            "repository_id": world.ids["p1_repository"],
            "inventory_id": world.ids["p1_inventory"],
        }
        created = ok(world.admin.post(f"{p1}/templates", json=template), 201)
        grant = {"user_id": world.users["runner"], "permission": "view"}
        ok(world.admin.post(f"{p1}/templates/{created['id']}/grants", json=grant), 201)
    # the credentials are resolved again first (kept for 5 s; the world grew for longer)
    count(team_operator, "/api/v1/projects", 11)
    assert count(team_operator, "/api/v1/projects", 11) == projects
    count(runner, f"{p1}/templates", 11)
    assert count(runner, f"{p1}/templates", 11) == templates
