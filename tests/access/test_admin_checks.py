"""The policy's admin checks that were once written in routes and services (runner group choice,
project export, e-mail addresses in the people list), below HTTP: an admin passes, anyone else
is refused (or sees no e-mail). Their wiring stays in the HTTP tests of each route
(runner_groups/test_hostile.py, portability/test_hostile.py, auth/test_users.py)."""

from __future__ import annotations

import pytest

from steward.access import policy
from steward.access.actor import Actor
from steward.access.policy import Action, ProjectAccess
from steward.auth.models import TokenScope, User
from steward.errors import PermissionDenied
from steward.projects.models import Project


def actor(*, admin: bool, scope: TokenScope = TokenScope.WRITE) -> Actor:
    return Actor(user=User(username="u", is_admin=admin), scope=scope, via="token")


def rights(*actions: Action) -> ProjectAccess:
    return ProjectAccess(Project(id=1, name="infra"), frozenset(actions), {})


def test_only_an_admin_chooses_a_runner_group() -> None:
    policy.require_runner_group_choice(actor(admin=True), "runner_group_id")
    with pytest.raises(PermissionDenied, match="runner_group_id: only an admin"):
        policy.require_runner_group_choice(actor(admin=False), "runner_group_id")


def test_admins_with_any_scope_and_project_editors_export() -> None:
    viewer = rights(Action.PROJECT_VIEW)
    policy.require_export(actor(admin=True, scope=TokenScope.READ), viewer)
    policy.require_export(actor(admin=False), rights(Action.PROJECT_VIEW, Action.PROJECT_EDIT))
    with pytest.raises(PermissionDenied, match="'project:edit' is required in project 'infra'"):
        policy.require_export(actor(admin=False), viewer)


def test_only_admins_see_emails_in_the_people_list() -> None:
    assert policy.sees_emails(actor(admin=True))
    assert not policy.sees_emails(actor(admin=False))
