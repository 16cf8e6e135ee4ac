import tomllib
from pathlib import Path

from fastapi.testclient import TestClient

from steward import __version__


def test_health_answers_without_authentication(client: TestClient) -> None:
    anonymous = client.get("/api/v1/health", headers={"Authorization": ""})
    assert anonymous.status_code == 200
    assert anonymous.json() == {"status": "ok", "version": __version__}
    # the installed package's, from pyproject.toml
    assert (
        __version__
        == tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"][
            "version"
        ]
    )


def test_project_roundtrip_and_unknown_field(client: TestClient) -> None:
    created = client.post("/api/v1/projects", json={"name": "infra"})
    assert created.status_code == 201, created.text
    bad = client.post("/api/v1/projects", json={"name": "x", "colour": "red"})
    assert bad.status_code == 422
    assert bad.headers["content-type"] == "application/problem+json"
    assert "colour" in bad.json()["detail"]
    listed = client.get("/api/v1/projects").json()
    assert [p["name"] for p in listed["items"]] == ["infra"]
