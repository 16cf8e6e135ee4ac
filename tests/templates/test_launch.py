from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from support.builders import (
    PLAYBOOKS,
    make_file_inventory,
    make_local_repository,
    make_project,
    make_template,
)

from steward.errors import InvalidInput
from steward.runs.params import RunParams
from steward.templates.launch import LaunchOverrides, Resolved, resolve_launch
from steward.templates.models import Template

SURVEY = [
    {"variable": "release", "label": "Release", "type": "text", "required": True},
    {"variable": "db_password", "label": "DB password", "type": "password"},
]


@pytest.fixture
def project_id(client: TestClient) -> int:
    return make_project(client)


@pytest.fixture
def template_id(client: TestClient, project_id: int) -> int:
    created = make_template(
        client,
        project_id,
        repository_id=make_local_repository(client, project_id, PLAYBOOKS),
        inventory_id=make_file_inventory(client, project_id, "hosts"),
        extra_vars={"app": "shop", "db_password": "from-template"},
        limit="web",
        tags="deploy",
        verbosity=1,
        forks=5,
        overridable=["limit", "check_mode", "extra_vars", "inventory_id", "forks"],
        survey=SURVEY,
    )
    found: int = created["id"]
    return found


def resolve(client: TestClient, template_id: int, **body: Any) -> Resolved:
    """``resolve_launch`` in a session of the app's own database, as the runs service calls it."""
    with client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        assert isinstance(session, Session)
        template = session.get_one(Template, template_id)
        return resolve_launch(session, template, LaunchOverrides.model_validate(body))


def launch(client: TestClient, template_id: int, **body: Any) -> RunParams:
    """The parameters a run of it would store."""
    return resolve(client, template_id, **body).params


def test_without_overrides_the_template_defaults_apply(
    client: TestClient, template_id: int
) -> None:
    params = launch(client, template_id, survey={"release": "1.4"})
    assert (params.limit, params.tags, params.skip_tags) == ("web", "deploy", "")
    assert (params.check_mode, params.diff_mode, params.verbosity) == (False, False, 1)
    assert (params.forks, params.timeout_seconds) == (5, None)
    assert params.extra_vars == {"app": "shop", "db_password": "from-template"}
    assert params.launch_vars == {"release": "1.4"}
    assert params.secret_extra_vars == {}


def test_allowed_overrides_and_survey_answers_are_applied(
    client: TestClient, project_id: int, template_id: int
) -> None:
    other_inventory = make_file_inventory(client, project_id, "other")
    resolved = resolve(
        client,
        template_id,
        limit="db",
        check_mode=True,
        forks=20,
        inventory_id=other_inventory,
        extra_vars={"app": "api", "debug": True},
        survey={"release": "2.0", "db_password": "hunter2"},
    )
    params = resolved.params
    assert (params.limit, params.check_mode, params.forks) == ("db", True, 20)
    assert params.inventory_id == other_inventory
    assert params.extra_vars == {"app": "shop", "db_password": "from-template"}
    assert params.launch_vars == {"app": "api", "debug": True, "release": "2.0"}
    # the secret answer apart; what the run stores names it only
    assert resolved.secrets == {"db_password": "hunter2"}
    assert params.secret_extra_vars == {"db_password": "********"}
    assert "hunter2" not in params.model_dump_json()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"tags": "all"}, "tags: this template does not allow overriding tags"),
        ({"verbosity": 4}, "verbosity: this template does not allow overriding verbosity"),
        ({"timeout_seconds": 9}, "timeout_seconds: this template does not allow overriding"),
        ({"inventory_id": 999999}, "inventory_id: inventory 999999 does not exist in this"),
        ({"extra_vars": {"release": "x"}}, "extra_vars.release: is a survey question"),
        ({"survey": {}}, "survey.release: an answer is required"),
        ({"survey": {"release": "1", "port": 1}}, "survey.port: this template's survey has no"),
    ],
)
def test_refused_overrides_and_answers_name_the_field(
    client: TestClient, template_id: int, body: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidInput) as raised:
        launch(client, template_id, **{"survey": {"release": "1"}, **body})
    assert raised.value.message.startswith(message)


def test_an_inventory_of_another_project_is_refused(client: TestClient, template_id: int) -> None:
    foreign = make_file_inventory(client, make_project(client, "other"), "foreign")
    with pytest.raises(InvalidInput) as raised:
        launch(client, template_id, inventory_id=foreign, survey={"release": "1"})
    assert raised.value.field == "inventory_id"


def test_a_null_override_means_the_template_value(client: TestClient, template_id: int) -> None:
    params = launch(client, template_id, tags=None, verbosity=None, survey={"release": "1"})
    assert (params.tags, params.verbosity) == ("deploy", 1)
