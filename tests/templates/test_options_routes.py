"""``POST …/templates/{id}/survey/options`` over HTTP: the wiring (the rules are tested below
HTTP in test_options*.py, who may ask in tests/access/test_matrix.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from support.admin import ADMIN_TOKEN
from support.builders import (
    PLAYBOOKS,
    assert_problem,
    make_inventory,
    make_local_repository,
    make_project,
    make_template,
)
from support.options import Cmdb
from support.served import Served

from steward.config import Settings
from steward.server import build_app


def test_the_dialog_reads_the_options_and_the_launch_checks_them(client: TestClient) -> None:
    project_id = make_project(client)
    inventory = make_inventory(client, project_id, content="db1\ndb2\n[web]\nweb1\n")
    refs = {
        "repository_id": make_local_repository(client, project_id, PLAYBOOKS),
        "inventory_id": inventory["id"],
    }
    host = {"variable": "host", "label": "Host", "type": "choice"}
    templates = f"/api/v1/projects/{project_id}/templates"
    blocked = host | {"source": {"kind": "url", "url": "http://169.254.169.254/"}}
    refused = client.post(
        templates, json={"name": "t", "playbook": "ok.yml", **refs, "survey": [blocked]}
    )
    assert "link-local" in assert_problem(refused, 422, "survey.0.source.url")
    source = {"kind": "inventory", "pattern": "all:!web"}
    template = make_template(client, project_id, **refs, survey=[host | {"source": source}])
    assert template["survey"][0]["source"] == source | {"select": "hosts", "variable": None}
    found = client.post(f"{templates}/{template['id']}/survey/options", json={"survey": {}})
    assert found.status_code == 200, found.text
    assert found.json() == {
        "questions": [
            {"variable": "host", "choices": ["db1", "db2"], "error": None, "depends_on": []}
        ]
    }
    launched = client.post(
        f"/api/v1/projects/{project_id}/runs",
        json={"template_id": template["id"], "survey": {"host": "web1"}},
    )
    assert "must be one of: db1, db2" in assert_problem(launched, 422, "survey.host")


def test_fetches_past_the_callers_preview_rate_are_a_429(settings: Settings, cmdb: Served) -> None:
    app = build_app(settings.model_copy(update={"preview_max_per_minute": 1}), migrate=False)
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        project_id = make_project(client)
        refs = {
            "repository_id": make_local_repository(client, project_id, PLAYBOOKS),
            "inventory_id": make_inventory(client, project_id)["id"],
        }
        source = {"kind": "url", "url": cmdb.url("/broken?host={answer.host}")}
        survey = [
            {"variable": "host", "label": "Host", "type": "text"},
            {"variable": "db", "label": "Database", "type": "choice", "source": source},
        ]
        template = make_template(client, project_id, **refs, survey=survey)
        url = f"/api/v1/projects/{project_id}/templates/{template['id']}/survey/options"
        first = client.post(url, json={"survey": {"host": "a"}})
        assert first.status_code == 200, first.text  # the control: one fetch is allowed
        assert first.json()["questions"][0]["error"]
        refused = client.post(url, json={"survey": {"host": "b"}})
        assert refused.status_code == 429, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
        assert "STEWARD_PREVIEW_MAX_PER_MINUTE" in refused.json()["detail"]
        assert [path for path, _ in Cmdb.seen] == ["/broken?host=a"]
    app.state.runtime.engine.dispose()
