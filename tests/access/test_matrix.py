"""Every route x every kind of actor: the expected status, and exactly the allowed list items.

Each API route must be classified in ``ROUTES`` (a new route fails the test until it is). A probe
names a row of ``WHO`` (the statuses per actor, written by hand from the rights table in the
README) and the status of an allowed actor. Probes never change what later probes see: writes
send a body the route refuses after authorization (422), deletes aim at objects still in use
(409) or not there (404).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from access.world import ACTORS, World

Y = 0  # the allowed actor's status, given by the probe

# fmt: off
#                    admin owner manag opera viewr t_ops runnr t_vwr outsd anon  o_read
WHO: dict[str, tuple[int, ...]] = {
    "anyone":         (Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y),
    "signed_in":      (Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y,    401,  Y),
    # changes one's own account (another token, password, profile, sessions): not a read token
    "account_write":  (Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y,    401,  403),
    "admin":          (Y,    403,  403,  403,  403,  403,  403,  403,  403,  401,  403),
    "directory":      (Y,    Y,    403,  403,  403,  403,  403,  403,  403,  401,  Y),
    "project":        (Y,    Y,    Y,    Y,    Y,    Y,    Y,    Y,    404,  401,  Y),
    "owner":          (Y,    Y,    403,  403,  403,  403,  403,  403,  404,  401,  403),
    # admins only, on a project the caller sees (others: 404 before the admin check)
    "project_admin":  (Y,    403,  403,  403,  403,  403,  403,  403,  404,  401,  403),
    "members":        (Y,    Y,    Y,    Y,    Y,    Y,    403,  403,  404,  401,  Y),
    "resources":      (Y,    Y,    Y,    Y,    Y,    Y,    404,  404,  404,  401,  Y),
    "resource_write": (Y,    Y,    Y,    403,  403,  403,  404,  404,  404,  401,  403),
    "template_write": (Y,    Y,    Y,    403,  403,  403,  403,  403,  404,  401,  403),
    "t1_run":         (Y,    Y,    Y,    Y,    403,  Y,    Y,    403,  404,  401,  403),
    # T2 is granted to nobody of these: grant holders of T1 do not see it
    "t2":             (Y,    Y,    Y,    Y,    Y,    Y,    404,  404,  404,  401,  Y),
    "t2_members":     (Y,    Y,    Y,    Y,    Y,    Y,    404,  404,  404,  401,  Y),
    "t2_write":       (Y,    Y,    Y,    403,  403,  403,  404,  404,  404,  401,  403),
    "t2_manage":      (Y,    Y,    403,  403,  403,  403,  404,  404,  404,  401,  403),
    "t2_run":         (Y,    Y,    Y,    Y,    403,  Y,    404,  404,  404,  401,  403),
    # workflows: seen by project viewers (not by grant holders alone), decided by operators
    "workflows":      (Y,    Y,    Y,    Y,    Y,    Y,    403,  403,  404,  401,  Y),
    "workflow_run":   (Y,    Y,    Y,    Y,    403,  Y,    403,  403,  404,  401,  403),
    # a plan's approval: plan:approve (project roles that run) and run:launch on its template
    "plan_approve":   (Y,    Y,    Y,    Y,    403,  Y,    403,  403,  404,  401,  403),
    "t2_plan_approve": (Y,   Y,    Y,    Y,    403,  Y,    404,  404,  404,  401,  403),
    # an ad-hoc command (adhoc:run): managers and owners, not operators; a run token may
    "adhoc":          (Y,    Y,    Y,    403,  403,  403,  403,  403,  404,  401,  403),
}
# fmt: on
assert all(len(row) == len(ACTORS) for row in WHO.values())

BAD = {"not_a_field": 1}  # refused with 422 once the route is allowed


@dataclasses.dataclass(frozen=True)
class Probe:
    who: str
    status: int  # of an allowed actor
    path: dict[str, str] = dataclasses.field(default_factory=dict)  # {param: world id name}
    body: dict[str, Any] | None = None


T2 = {"template_id": "t2"}
R2 = {"run_id": "r2"}

ROUTES: dict[tuple[str, str], list[Probe]] = {
    ("GET", "/health"): [Probe("anyone", 200)],
    ("GET", "/health/ready"): [Probe("anyone", 200)],
    ("GET", "/metrics"): [Probe("admin", 200)],  # Prometheus, over every project
    ("GET", "/storage"): [Probe("admin", 200)],  # the database's size, the last prune
    ("POST", "/auth/login"): [Probe("anyone", 422, body=BAD)],
    ("GET", "/auth/session"): [Probe("anyone", 401)],  # a cookie only; tokens get 401
    ("GET", "/auth/providers"): [Probe("anyone", 200)],  # the login page's SSO buttons
    # OpenID Connect is not configured in this world: there is nothing to start or finish
    ("GET", "/auth/oidc/login"): [Probe("anyone", 404)],
    ("GET", "/auth/oidc/callback"): [Probe("anyone", 404)],
    ("POST", "/auth/logout"): [Probe("signed_in", 204)],
    ("GET", "/auth/me"): [Probe("signed_in", 200)],
    ("GET", "/users/me/tokens"): [Probe("signed_in", 200)],
    ("POST", "/users/me/tokens"): [Probe("signed_in", 422, body=BAD)],
    ("DELETE", "/users/me/tokens/{token_id}"): [Probe("account_write", 404)],
    ("POST", "/users/me/password"): [Probe("signed_in", 422, body=BAD)],
    ("PATCH", "/users/me"): [Probe("signed_in", 422, body=BAD)],
    ("GET", "/users/me/sessions"): [Probe("signed_in", 200)],
    ("DELETE", "/users/me/sessions/{session_id}"): [Probe("signed_in", 404)],  # own only
    ("POST", "/users/me/totp"): [Probe("signed_in", 422, body=BAD)],
    ("POST", "/users/me/totp/confirm"): [Probe("signed_in", 422, body=BAD)],
    ("DELETE", "/users/me/totp"): [Probe("signed_in", 422, body=BAD)],
    ("GET", "/users"): [Probe("directory", 200)],  # owners pick members by name
    # admins only (AdminActor): everyone else is refused before the body is read
    ("POST", "/users"): [Probe("admin", 422, body=BAD)],
    ("PATCH", "/users/{user_id}"): [Probe("admin", 422, {"user_id": "viewer"}, BAD)],
    ("POST", "/users/{user_id}/password"): [Probe("admin", 422, {"user_id": "viewer"}, BAD)],
    # a user that is not there: a reset of a real one would end their sessions
    ("DELETE", "/users/{user_id}/totp"): [Probe("admin", 404, {"user_id": "missing"})],
    # LDAP is not configured in this world: the admin's sync is a 409 saying so
    ("POST", "/directory/sync"): [Probe("admin", 409)],
    ("GET", "/teams"): [Probe("directory", 200)],
    ("POST", "/teams"): [Probe("admin", 422, body=BAD)],
    ("GET", "/teams/{team_id}"): [Probe("directory", 200)],
    ("PATCH", "/teams/{team_id}"): [Probe("admin", 422, body=BAD)],
    ("DELETE", "/teams/{team_id}"): [Probe("admin", 204, {"team_id": "spare"})],
    ("GET", "/teams/{team_id}/members"): [Probe("directory", 200)],
    ("POST", "/teams/{team_id}/members"): [Probe("admin", 422, body=BAD)],
    ("DELETE", "/teams/{team_id}/members/{user_id}"): [
        Probe("admin", 404, {"user_id": "outsider"})  # not in the team
    ],
    # runner groups: everyone signed in sees them (a waiting run names its group); admins
    # change them and see the workers
    ("GET", "/runner-groups"): [Probe("signed_in", 200)],
    ("POST", "/runner-groups"): [Probe("admin", 422, body=BAD)],
    ("GET", "/runner-groups/{group_id}"): [Probe("signed_in", 404, {"group_id": "missing"})],
    ("PATCH", "/runner-groups/{group_id}"): [Probe("admin", 404, {"group_id": "missing"}, BAD)],
    ("DELETE", "/runner-groups/{group_id}"): [Probe("admin", 404, {"group_id": "missing"})],
    # freeze windows: the instance's are read by everyone signed in and kept by admins; a
    # project's read by who sees it, kept by who may edit it (owners)
    ("GET", "/freezes"): [Probe("signed_in", 200)],
    ("POST", "/freezes"): [Probe("admin", 422, body=BAD)],
    ("GET", "/freezes/now"): [Probe("signed_in", 200)],
    ("PATCH", "/freezes/{window_id}"): [Probe("admin", 422, {"window_id": "missing"}, BAD)],
    ("DELETE", "/freezes/{window_id}"): [Probe("admin", 404, {"window_id": "missing"})],
    ("GET", "/projects/{project_id}/freezes"): [Probe("project", 200)],
    ("POST", "/projects/{project_id}/freezes"): [Probe("owner", 422, body=BAD)],
    ("PATCH", "/projects/{project_id}/freezes/{window_id}"): [
        Probe("owner", 422, {"window_id": "missing"}, BAD)
    ],
    ("DELETE", "/projects/{project_id}/freezes/{window_id}"): [
        Probe("owner", 404, {"window_id": "missing"})
    ],
    ("GET", "/projects/{project_id}/templates/{template_id}/freezes"): [
        Probe("project", 200),
        Probe("t2", 200, T2),
    ],
    ("GET", "/workers"): [Probe("admin", 200)],
    ("GET", "/projects"): [Probe("signed_in", 200)],
    ("POST", "/projects"): [Probe("admin", 422, body=BAD)],
    ("GET", "/projects/{project_id}"): [Probe("project", 200)],
    ("PATCH", "/projects/{project_id}"): [Probe("owner", 422, body=BAD)],
    ("DELETE", "/projects/{project_id}"): [Probe("owner", 409)],  # runs are running
    ("GET", "/projects/{project_id}/export"): [Probe("owner", 200)],  # admins: any scope
    ("POST", "/projects/import"): [Probe("admin", 422, body=BAD)],
    ("GET", "/projects/{project_id}/members"): [Probe("members", 200)],
    ("PUT", "/projects/{project_id}/local-roots"): [Probe("project_admin", 422, body=BAD)],
    ("PUT", "/projects/{project_id}/members"): [Probe("owner", 422, body=BAD)],
    ("DELETE", "/projects/{project_id}/members/{user_id}"): [
        Probe("owner", 404, {"user_id": "outsider"})  # not a member
    ],
    ("DELETE", "/projects/{project_id}/members/teams/{team_id}"): [
        Probe("owner", 404, {"team_id": "watchers"})  # a grant, not a role
    ],
    ("GET", "/projects/{project_id}/keys"): [Probe("resources", 200)],
    ("POST", "/projects/{project_id}/keys"): [Probe("resource_write", 422, body=BAD)],
    ("GET", "/projects/{project_id}/keys/{key_id}"): [Probe("resources", 200)],
    ("PATCH", "/projects/{project_id}/keys/{key_id}"): [Probe("resource_write", 422, body=BAD)],
    ("DELETE", "/projects/{project_id}/keys/{key_id}"): [Probe("resource_write", 409)],
    ("GET", "/projects/{project_id}/repositories"): [Probe("resources", 200)],
    ("POST", "/projects/{project_id}/repositories"): [Probe("resource_write", 422, body=BAD)],
    ("GET", "/projects/{project_id}/repositories/{repository_id}"): [Probe("resources", 200)],
    ("PATCH", "/projects/{project_id}/repositories/{repository_id}"): [
        Probe("resource_write", 422, body=BAD)
    ],
    ("DELETE", "/projects/{project_id}/repositories/{repository_id}"): [
        Probe("resource_write", 409)
    ],
    ("POST", "/projects/{project_id}/repositories/{repository_id}/test"): [
        Probe("resource_write", 200)
    ],
    ("GET", "/projects/{project_id}/repositories/{repository_id}/playbooks"): [
        Probe("resources", 200)
    ],
    ("GET", "/projects/{project_id}/inventories"): [Probe("resources", 200)],
    ("POST", "/projects/{project_id}/inventories"): [Probe("resource_write", 422, body=BAD)],
    ("POST", "/projects/{project_id}/inventories/preview"): [
        Probe("resource_write", 422, body=BAD)
    ],
    ("GET", "/projects/{project_id}/inventories/{inventory_id}"): [Probe("resources", 200)],
    ("PATCH", "/projects/{project_id}/inventories/{inventory_id}"): [
        Probe("resource_write", 422, body=BAD)
    ],
    ("DELETE", "/projects/{project_id}/inventories/{inventory_id}"): [Probe("resource_write", 409)],
    ("GET", "/projects/{project_id}/inventories/{inventory_id}/hosts"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/environments"): [Probe("resources", 200)],
    ("POST", "/projects/{project_id}/environments"): [Probe("resource_write", 422, body=BAD)],
    ("GET", "/projects/{project_id}/environments/{environment_id}"): [Probe("resources", 200)],
    ("PATCH", "/projects/{project_id}/environments/{environment_id}"): [
        Probe("resource_write", 422, body=BAD)
    ],
    ("DELETE", "/projects/{project_id}/environments/{environment_id}"): [
        Probe("resource_write", 409)
    ],
    ("GET", "/projects/{project_id}/galaxy-servers"): [Probe("resources", 200)],
    ("POST", "/projects/{project_id}/galaxy-servers"): [Probe("resource_write", 422, body=BAD)],
    ("GET", "/projects/{project_id}/galaxy-servers/{server_id}"): [Probe("resources", 200)],
    ("PATCH", "/projects/{project_id}/galaxy-servers/{server_id}"): [
        Probe("resource_write", 422, body=BAD)
    ],
    ("DELETE", "/projects/{project_id}/galaxy-servers/{server_id}"): [
        Probe("resource_write", 404, {"server_id": "missing"})
    ],
    ("GET", "/ansible-venvs"): [Probe("signed_in", 200)],
    ("GET", "/projects/{project_id}/templates"): [Probe("project", 200)],
    ("POST", "/projects/{project_id}/templates"): [Probe("template_write", 422, body=BAD)],
    ("GET", "/projects/{project_id}/templates/{template_id}"): [
        Probe("project", 200),
        Probe("t2", 200, T2),
    ],
    ("PATCH", "/projects/{project_id}/templates/{template_id}"): [
        Probe("template_write", 422, body=BAD),
        Probe("t2_write", 422, T2, BAD),
    ],
    ("DELETE", "/projects/{project_id}/templates/{template_id}"): [
        Probe("template_write", 409),  # a run of each template is running
        Probe("t2_write", 409, T2),
    ],
    ("GET", "/projects/{project_id}/templates/{template_id}/grants"): [
        Probe("members", 200),
        Probe("t2_members", 200, T2),
    ],
    ("POST", "/projects/{project_id}/templates/{template_id}/grants"): [
        Probe("owner", 422, body=BAD),
        Probe("t2_manage", 422, T2, BAD),
    ],
    ("PATCH", "/projects/{project_id}/templates/{template_id}/grants/{grant_id}"): [
        Probe("owner", 422, body=BAD),
        Probe("t2_manage", 422, {**T2, "grant_id": "t2_grant"}, BAD),
    ],
    ("DELETE", "/projects/{project_id}/templates/{template_id}/grants/{grant_id}"): [
        Probe("owner", 404, {"grant_id": "t2_grant"}),  # a grant of another template
        Probe("t2_manage", 404, {**T2, "grant_id": "runner_grant"}),
    ],
    ("GET", "/projects/{project_id}/runs"): [Probe("project", 200)],
    ("POST", "/projects/{project_id}/runs"): [
        # T1 does not let a launch override the limit: 422 once the launch is allowed
        Probe("t1_run", 422, body={"template_id": "t1", "limit": "localhost"}),
        Probe("t2_run", 422, body={"template_id": "t2", "limit": "localhost"}),
    ],
    # a run's label and note: who may launch its template (policy.require_run_label)
    ("PATCH", "/projects/{project_id}/runs/{run_id}"): [
        Probe("t1_run", 422, body=BAD),
        Probe("t2_run", 422, R2, BAD),
    ],
    ("POST", "/projects/{project_id}/runs/{run_id}/cancel"): [
        Probe("t1_run", 409),  # already finished
        Probe("t2_run", 409, R2),
    ],
    ("GET", "/projects/{project_id}/runs/{run_id}/relaunch"): [
        Probe("t1_run", 200),
        Probe("t2_run", 200, R2),
    ],
    ("POST", "/projects/{project_id}/runs/{run_id}/relaunch"): [
        Probe("t1_run", 422, body=BAD),
        Probe("t2_run", 422, R2, BAD),
    ],
    # ids are checked once the project is seen (422 without them); a hidden run among them is
    # a 404 (tests/runs/test_hostile_compare.py)
    ("GET", "/projects/{project_id}/runs/compare"): [Probe("project", 422)],
    ("GET", "/projects/{project_id}/adhoc/modules"): [Probe("project", 200)],
    ("POST", "/projects/{project_id}/inventories/{inventory_id}/adhoc"): [
        Probe("adhoc", 422, body=BAD)
    ],
    # a survey's options now: who may launch the template (the launch checks them again)
    ("POST", "/projects/{project_id}/templates/{template_id}/survey/options"): [
        Probe("t1_run", 422, body=BAD),
        Probe("t2_run", 422, T2, BAD),
    ],
    ("GET", "/projects/{project_id}/templates/{template_id}/stats"): [
        Probe("project", 200),
        Probe("t2", 200, T2),
    ],
    ("GET", "/runs"): [Probe("signed_in", 200)],
    ("GET", "/dashboard"): [Probe("signed_in", 200)],  # over the runs the caller sees
    ("GET", "/audit"): [Probe("signed_in", 200)],
    ("GET", "/audit/export"): [Probe("signed_in", 200)],
    ("GET", "/audit/export.csv"): [Probe("signed_in", 200)],
    ("GET", "/audit/stream"): [Probe("admin", 200)],  # the audit stream's sinks and backlog
    # the approvals inbox: everyone signed in asks; each is answered what they may approve
    # (tests/workflows/test_inbox.py)
    ("GET", "/approvals"): [Probe("signed_in", 200)],
    # the hosts view: for who sees the project's inventories; every project's, admins
    ("GET", "/hosts"): [Probe("admin", 200)],
    ("GET", "/hosts/health"): [Probe("admin", 200)],
    ("GET", "/projects/{project_id}/hosts"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/hosts/{host}"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/hosts/{host}/runs"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/hosts/{host}/runs.csv"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/hosts/{host}/changes"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/hosts/{host}/facts"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/hosts/{host}/facts/history"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/hosts/{host}/metrics"): [Probe("resources", 200)],
    # from and to are required: the allowed are told so (422), the others never get that far
    ("GET", "/projects/{project_id}/hosts/{host}/facts/diff"): [Probe("resources", 422)],
    # health on the port Ansible uses: as the hosts view; checking now too (bounded per project)
    ("GET", "/projects/{project_id}/hosts/{host}/health"): [Probe("resources", 200)],
    ("POST", "/projects/{project_id}/hosts/{host}/health"): [Probe("resources", 200)],
    ("POST", "/projects/{project_id}/inventories/{inventory_id}/health"): [Probe("resources", 200)],
    ("GET", "/projects/{project_id}/runs/{run_id}/preflight"): [
        Probe("project", 200),
        Probe("t2", 200, R2),
    ],
    ("GET", "/approvals/plans"): [Probe("signed_in", 200)],
    # plans (tests/plans): T1 does not let a launch override the limit: 422 once allowed
    ("POST", "/projects/{project_id}/templates/{template_id}/plans"): [
        Probe("t1_run", 422, body={"limit": "localhost"}),
        Probe("t2_run", 422, T2, {"limit": "localhost"}),
    ],
    # r1 and r2 are runs, not plans: 409 once the caller may see (apply, decide) them
    ("GET", "/projects/{project_id}/runs/{run_id}/plan"): [
        Probe("project", 409),
        Probe("t2", 409, R2),
    ],
    ("GET", "/projects/{project_id}/runs/{run_id}/plan/tasks"): [
        Probe("project", 409),
        Probe("t2", 409, R2),
    ],
    ("GET", "/projects/{project_id}/runs/{run_id}/plan/tasks/{task}/hosts"): [
        Probe("project", 409),
        Probe("t2", 409, R2),
    ],
    ("POST", "/projects/{project_id}/runs/{run_id}/apply"): [
        Probe("t1_run", 409),
        Probe("t2_run", 409, R2),
    ],
    ("POST", "/projects/{project_id}/runs/{run_id}/approval"): [
        Probe("plan_approve", 422, body=BAD),
        Probe("t2_plan_approve", 422, R2, BAD),
    ],
    # drift (tests/drift): the templates whose runs the caller sees; a host's, for who sees
    # the project's hosts
    ("GET", "/projects/{project_id}/drift"): [Probe("project", 200)],
    ("GET", "/projects/{project_id}/templates/{template_id}/drift"): [
        Probe("project", 200),
        Probe("t2", 200, T2),
    ],
    ("GET", "/projects/{project_id}/hosts/{host}/drift"): [Probe("resources", 200)],
}
for _view in (
    "",
    "/lines",
    "/events",
    "/hosts",
    "/timeline",
    "/output",
    "/stream",
    "/metrics",
    "/metrics/export",
):
    ROUTES["GET", f"/projects/{{project_id}}/runs/{{run_id}}{_view}"] = [
        Probe("project", 200),
        Probe("t2", 200, R2),
    ]

# webhooks: seen with their template; changed, tested and their deliveries read by its writers
W = "/projects/{project_id}/webhooks/{webhook_id}"
W2 = {"webhook_id": "w2"}
ROUTES.update(
    {
        ("GET", "/projects/{project_id}/templates/{template_id}/webhooks"): [
            Probe("project", 200),
            Probe("t2", 200, T2),
        ],
        ("POST", "/projects/{project_id}/templates/{template_id}/webhooks"): [
            Probe("template_write", 422, body=BAD),
            Probe("t2_write", 422, T2, BAD),
        ],
        ("GET", "/projects/{project_id}/webhooks"): [Probe("project", 200)],
        # the target (a template or a workflow) is in the body: its rights are checked once the
        # body is read (tests/workflows/test_hostile_triggers.py)
        ("POST", "/projects/{project_id}/webhooks"): [Probe("project", 422, body=BAD)],
        ("GET", W): [Probe("project", 200), Probe("t2", 200, W2)],
        ("PATCH", W): [Probe("template_write", 422, body=BAD), Probe("t2_write", 422, W2, BAD)],
        # no delete here keeps later probes' webhook (tests/webhooks checks who may delete)
        ("DELETE", W): [Probe("project", 404, {"webhook_id": "missing"})],
        ("POST", f"{W}/rotate-id"): [Probe("template_write", 200), Probe("t2_write", 200, W2)],
        ("POST", f"{W}/test"): [
            Probe("template_write", 422, body=BAD),
            Probe("t2_write", 422, W2, BAD),
        ],
        ("GET", f"{W}/deliveries"): [Probe("template_write", 200), Probe("t2_write", 200, W2)],
        ("GET", f"{W}/deliveries/{{delivery_id}}"): [
            Probe("template_write", 200),
            Probe("t2_write", 200, {**W2, "delivery_id": "d2"}),
        ],
        # a sender's delivery: no login; an unknown hook is a 404 to everyone
        ("POST", "/hooks/{hook_id}"): [Probe("anyone", 404, {"hook_id": "missing"})],
    }
)

# schedules: seen with their template, changed by its writers; deleting one is refused while
# the run it launched runs (busy_t1, busy_t2)
S = "/projects/{project_id}/schedules/{schedule_id}"
S2 = {"schedule_id": "s2"}
ROUTES.update(
    {
        ("GET", "/projects/{project_id}/templates/{template_id}/schedules"): [
            Probe("project", 200),
            Probe("t2", 200, T2),
        ],
        ("POST", "/projects/{project_id}/templates/{template_id}/schedules"): [
            Probe("template_write", 422, body=BAD),
            Probe("t2_write", 422, T2, BAD),
        ],
        ("GET", "/projects/{project_id}/schedules"): [Probe("project", 200)],
        # as webhooks: the target's rights once the body is read
        ("POST", "/projects/{project_id}/schedules"): [Probe("project", 422, body=BAD)],
        ("POST", "/projects/{project_id}/schedules/preview"): [Probe("project", 422, body=BAD)],
        ("GET", S): [Probe("project", 200), Probe("t2", 200, S2)],
        ("GET", f"{S}/preview"): [Probe("project", 200), Probe("t2", 200, S2)],
        ("PATCH", S): [Probe("template_write", 422, body=BAD), Probe("t2_write", 422, S2, BAD)],
        ("DELETE", S): [Probe("template_write", 409), Probe("t2_write", 409, S2)],
    }
)

# workflows: viewers see them and their runs, managers change them; launching needs run:launch on
# every template (probed on a missing one); a decision or a cancel of an ended run is a 409
WF = "/projects/{project_id}/workflows/{workflow_id}"
WR = "/projects/{project_id}/workflow-runs/{workflow_run_id}"
WR_DONE = {"workflow_run_id": "wr_done"}
ROUTES.update(
    {
        ("GET", "/projects/{project_id}/workflows"): [Probe("workflows", 200)],
        ("POST", "/projects/{project_id}/workflows"): [Probe("template_write", 422, body=BAD)],
        ("GET", WF): [Probe("workflows", 200)],
        ("PATCH", WF): [Probe("template_write", 422, body=BAD)],
        ("DELETE", WF): [Probe("template_write", 409)],  # its run wr1 waits
        ("POST", f"{WF}/launch"): [Probe("workflows", 404, {"workflow_id": "missing"})],
        ("GET", "/projects/{project_id}/workflow-runs"): [Probe("workflows", 200)],
        ("GET", WR): [Probe("workflows", 200)],
        ("POST", f"{WR}/cancel"): [Probe("workflow_run", 409, WR_DONE)],
        ("POST", f"{WR}/nodes/{{key}}/approve"): [Probe("workflow_run", 409, WR_DONE)],
        ("POST", f"{WR}/nodes/{{key}}/deny"): [Probe("workflow_run", 409, WR_DONE)],
    }
)

# notifications: destinations are resources (their messages too); subscriptions are seen with
# them and changed by resource writers (a template's: by its writers)
ND = "/projects/{project_id}/notification-destinations"
NS = "/projects/{project_id}/notification-subscriptions"
NEW_SUBSCRIPTION = {"destination_id": 999_999, "events": ["failed"]}  # refused once allowed
ROUTES.update(
    {
        ("GET", ND): [Probe("resources", 200)],
        ("POST", ND): [Probe("resource_write", 422, body=BAD)],
        ("GET", f"{ND}/{{destination_id}}"): [Probe("resources", 200)],
        ("PATCH", f"{ND}/{{destination_id}}"): [Probe("resource_write", 422, body=BAD)],
        ("DELETE", f"{ND}/{{destination_id}}"): [
            Probe("resource_write", 404, {"destination_id": "missing"})
        ],
        ("POST", f"{ND}/{{destination_id}}/test"): [Probe("resource_write", 202)],
        ("GET", f"{ND}/{{destination_id}}/messages"): [Probe("resources", 200)],
        ("GET", NS): [Probe("resources", 200)],
        ("POST", NS): [
            Probe("resource_write", 422, body=NEW_SUBSCRIPTION),
            Probe("resource_write", 422, body={**NEW_SUBSCRIPTION, "template_id": "t2"}),
        ],
        ("PATCH", f"{NS}/{{subscription_id}}"): [
            Probe("resource_write", 422, body=BAD),
            Probe("resource_write", 422, {"subscription_id": "t2_subscription"}, BAD),
        ],
        ("DELETE", f"{NS}/{{subscription_id}}"): [
            Probe("resource_write", 404, {"subscription_id": "missing"})
        ],
        ("GET", "/projects/{project_id}/templates/{template_id}/notification-subscriptions"): [
            Probe("resources", 200),
            Probe("resources", 200, T2),
        ],
    }
)

DEFAULT_PATH = {
    "project_id": "p1",
    "template_id": "t1",
    "schedule_id": "s1",
    "webhook_id": "w1",
    "delivery_id": "d1",
    "run_id": "r1",
    "key_id": "key",
    "repository_id": "p1_repository",
    "inventory_id": "p1_inventory",
    "environment_id": "environment",
    "server_id": "galaxy_server",
    "team_id": "ops",
    "grant_id": "runner_grant",
    "user_id": "viewer",
    "token_id": "missing",
    "destination_id": "destination",
    "subscription_id": "subscription",
    "session_id": "missing",
    "workflow_id": "wf1",
    "workflow_run_id": "wr1",
    "key": "approval_key",
    "host": "host_name",
    "task": "missing",  # a plan's task key: r1 and r2 are not plans (409 first)
}


@pytest.fixture
def world(client: TestClient, tmp_path: Path) -> World:
    return World(client, tmp_path).build()


def _ids(world: World, names: dict[str, str]) -> dict[str, int | str]:
    known: dict[str, int | str] = {**world.ids, **world.users, "missing": 999_999}
    known["host_name"] = "localhost"  # a host of p1's inventory (path parameter {host})
    return {param: known[name] for param, name in names.items()}


def _requests(world: World) -> Iterator[tuple[str, str, str, Probe]]:
    """(method, route, url, probe) for every probe of every route."""
    for (method, route), probes in ROUTES.items():
        for probe in probes:
            url = "/api/v1" + route.format(**_ids(world, {**DEFAULT_PATH, **probe.path}))
            yield method, route, url, probe


def _body(world: World, probe: Probe) -> dict[str, Any] | None:
    if probe.body is None or "template_id" not in probe.body:
        return probe.body
    return {**probe.body, "template_id": world.ids[probe.body["template_id"]]}


def test_every_route_is_classified(client: TestClient) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    routes = {
        (method.upper(), path.removeprefix("/api/v1"))
        for path, operations in schema["paths"].items()
        for method in operations
    }
    assert routes - set(ROUTES) == set(), "classify these routes in ROUTES"
    assert set(ROUTES) - routes == set(), "these routes are gone"


def test_every_actor_gets_the_expected_status_and_list_items(world: World) -> None:
    """One world for both checks (building it launches real runs): lists first, since a few
    probes change things (the spare team is deleted)."""
    wrong = _wrong_lists(world) + _wrong_statuses(world)
    assert wrong == [], "\n".join(wrong)


def _wrong_statuses(world: World) -> list[str]:
    wrong = []
    for method, route, url, probe in _requests(world):
        for actor, expected in zip(ACTORS, WHO[probe.who], strict=True):
            expected = expected or probe.status
            response = world.clients[actor].request(method, url, json=_body(world, probe))
            if response.status_code != expected:
                wrong.append(f"{method} {route} as {actor}: {response.status_code} != {expected}")
            elif expected == 403 and not re.search("permission|admin", _detail(response)):
                wrong.append(f"{method} {route} as {actor}: 403 without the reason")
    return wrong


def _detail(response: Any) -> str:
    detail: str = response.json()["detail"]
    return detail


def _each(actors: tuple[str, ...], names: set[str] | None) -> dict[str, set[str] | None]:
    return {actor: names for actor in actors}


EVERYONE = ACTORS[:-2] + ACTORS[-1:]  # anonymous gets 401 on every list
P1_RUNS = {"r1", "r2", "busy_t1", "busy_t2"}
T1_RUNS = {"r1", "busy_t1"}
NOBODY: set[str] = set()
GRANTED = ("runner", "team_viewer")
TEAMS = {"ops", "watchers", "spare"}
# list url -> {actor: names of exactly the items returned; None: refused}; "*": everyone else
LISTS: dict[str, dict[str, set[str] | None]] = {
    "/projects": {"admin": {"p1", "p2"}, "outsider": NOBODY, "*": {"p1"}},
    "/projects/{p1}/templates": {**_each(GRANTED, {"t1"}), "*": {"t1", "t2"}},
    "/projects/{p1}/runs": {**_each(GRANTED, T1_RUNS), "*": P1_RUNS},
    "/projects/{p1}/runs?template_id={t2}": {
        **_each(GRANTED, NOBODY),
        "*": {"r2", "busy_t2"},
    },
    "/runs": {
        "admin": P1_RUNS | {"r3"},
        **_each(GRANTED, T1_RUNS),
        "outsider": NOBODY,
        "*": P1_RUNS,
    },
    "/runs?template_id={t2}": {
        **_each((*GRANTED, "outsider"), NOBODY),
        "*": {"r2", "busy_t2"},
    },
    **{
        f"/projects/{{p1}}/{kind}": {**_each(GRANTED, None), "*": {name}}
        for kind, name in (
            ("keys", "key"),
            ("environments", "environment"),
            ("inventories", "p1_inventory"),
            ("repositories", "p1_repository"),
            ("galaxy-servers", "galaxy_server"),
        )
    },
    "/teams": {**_each(("admin", "owner", "owner_read"), TEAMS), "*": None},
    "/projects/{p1}/notification-destinations": {**_each(GRANTED, None), "*": {"destination"}},
    "/projects/{p1}/notification-subscriptions": {
        **_each(GRANTED, None),
        "*": {"subscription", "t2_subscription"},
    },
    "/projects/{p1}/templates/{t1}/notification-subscriptions": {
        **_each(GRANTED, None),
        "*": {"subscription"},
    },
    "/projects/{p1}/schedules": {**_each(GRANTED, {"s1"}), "*": {"s1", "s2"}},
    "/projects/{p1}/templates/{t2}/schedules": {**_each(GRANTED, None), "*": {"s2"}},
    "/projects/{p1}/webhooks": {**_each(GRANTED, {"w1"}), "*": {"w1", "w2"}},
    "/projects/{p1}/templates/{t2}/webhooks": {**_each(GRANTED, None), "*": {"w2"}},
    # waiting for someone with workflow:approve other than its launcher, the admin
    "/approvals": {
        **_each(("owner", "manager", "operator", "team_operator"), {"wr1_gate"}),
        "*": NOBODY,
    },
    "/projects/{p1}/webhooks/{w1}/deliveries": {
        **_each(("operator", "viewer", "team_operator", *GRANTED, "owner_read"), None),
        "*": {"d1"},
    },
}


def _names(world: World, kind: str, body: Any) -> set[str]:
    """The world's names of the listed items of ``kind``."""
    listed = {item["id"] for item in body["items"]}
    return {n for n, i in world.ids.items() if world.kinds.get(n) == kind and i in listed}


def _wrong_lists(world: World) -> list[str]:
    wrong = []
    for url, allowed in LISTS.items():
        kind = url.split("?")[0].rsplit("/", 1)[-1]
        for actor in EVERYONE:
            if actor == "outsider" and "{p1}" in url:
                continue  # the project is a 404 (the status matrix checks it)
            expected = allowed.get(actor, allowed.get("*"))
            response = world.clients[actor].get("/api/v1" + url.format(**world.ids))
            if expected is None:
                if response.status_code not in (403, 404):
                    wrong.append(f"{url} as {actor}: {response.status_code}, not refused")
                continue
            if response.status_code != 200:
                wrong.append(f"{url} as {actor}: {response.status_code}, expected a list")
                continue
            names = _names(world, kind, response.json())
            if names != expected:
                wrong.append(f"{url} as {actor}: {sorted(names)} != {sorted(expected)}")
    return wrong
