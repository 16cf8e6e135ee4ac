"""Each freeze route once over HTTP, for its wiring (the rules: test_windows, test_gate)."""

from __future__ import annotations

import datetime as dt

from fastapi.testclient import TestClient
from support.builders import Workbench, assert_problem

API = "/api/v1"


def _window(name: str = "Year-end freeze", hours: int = -1, **body: object) -> dict[str, object]:
    start = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=hours)).replace(tzinfo=None)
    start = start.replace(second=0, microsecond=0)
    return {
        "name": name,
        "starts_local": start.isoformat(),
        "ends_local": (start + dt.timedelta(hours=2)).isoformat(),
        **body,
    }


def test_instance_windows_are_created_listed_shown_now_and_deleted(client: TestClient) -> None:
    made = client.post(f"{API}/freezes", json=_window(rrule="FREQ=YEARLY"))
    assert made.status_code == 201, made.text
    window = made.json()
    assert (window["scope"], window["project_id"], window["rrule"]) == (
        "instance",
        None,
        "FREQ=YEARLY",
    )
    assert window["active"] is not None
    listed = client.get(f"{API}/freezes").json()
    assert [w["id"] for w in listed["items"]] == [window["id"]]
    now = client.get(f"{API}/freezes/now").json()
    assert [(s["window_id"], s["scope"], s["active"]) for s in now] == [
        (window["id"], "instance", True)
    ]
    changed = client.patch(f"{API}/freezes/{window['id']}", json={"rrule": None})
    assert changed.status_code == 200, changed.text
    assert changed.json()["rrule"] == ""
    assert client.delete(f"{API}/freezes/{window['id']}").status_code == 204
    assert client.get(f"{API}/freezes").json()["items"] == []


def test_project_windows_and_what_a_launch_meets(workbench: Workbench) -> None:
    client = workbench.client
    template = workbench.template("ok.yml")
    refused = client.post(workbench.url("freezes"), json=_window(timezone="Mars/Olympus"))
    assert_problem(refused, 422, "timezone")
    made = client.post(workbench.url("freezes"), json=_window(timezone="Europe/Berlin", hours=0))
    assert made.status_code == 201, made.text
    window = made.json()
    assert (window["scope"], window["project_id"]) == ("project", workbench.project_id)
    assert [w["id"] for w in client.get(workbench.url("freezes")).json()["items"]] == [window["id"]]

    meets = client.get(workbench.url(f"templates/{template}/freezes")).json()
    assert meets["active"]["name"] == "Year-end freeze"
    assert meets["can_override"] is True

    frozen = client.post(workbench.url("runs"), json={"template_id": template})
    assert frozen.status_code == 409
    assert frozen.json()["detail"].startswith("frozen: 'Year-end freeze' until ")
    blank = client.post(
        workbench.url("runs"), json={"template_id": template, "freeze_override_reason": " "}
    )
    assert_problem(blank, 422, "freeze_override_reason")
    overridden = client.post(
        workbench.url("runs"),
        json={"template_id": template, "freeze_override_reason": "INC-1 hotfix"},
    )
    assert overridden.status_code == 201, overridden.text
    again = workbench.url(f"runs/{overridden.json()['id']}/relaunch")
    assert client.post(again, json={}).status_code == 409
    relaunched = client.post(again, json={"freeze_override_reason": "INC-1 again"})
    assert relaunched.status_code == 201, relaunched.text

    renamed = client.patch(workbench.url(f"freezes/{window['id']}"), json={"name": "Moved"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["name"] == "Moved"
    gone = client.delete(workbench.url(f"freezes/{window['id']}"))
    assert gone.status_code == 204
    assert client.get(workbench.url(f"templates/{template}/freezes")).json()["active"] is None


def test_a_labelled_window_meets_the_templates_carrying_its_label(workbench: Workbench) -> None:
    client = workbench.client
    template = workbench.template("ok.yml")
    made = client.post(workbench.url("freezes"), json=_window(labels=["prod"]))
    assert made.status_code == 201, made.text
    assert made.json()["labels"] == ["prod"]
    meets = workbench.url(f"templates/{template}/freezes")
    assert client.get(meets).json()["active"] is None  # not labelled: not frozen
    assert client.post(workbench.url("runs"), json={"template_id": template}).status_code == 201

    labelled = client.patch(workbench.url(f"templates/{template}"), json={"labels": ["prod", "db"]})
    assert labelled.status_code == 200, labelled.text
    assert labelled.json()["labels"] == ["db", "prod"]
    listed = client.get(workbench.url("templates"), params={"label": "prod"}).json()
    assert [t["id"] for t in listed["items"]] == [template]
    assert client.get(workbench.url("templates"), params={"label": "pro"}).json()["items"] == []
    active = client.get(meets).json()["active"]
    assert (active["name"], active["labels"]) == ("Year-end freeze", ["prod"])
    assert [s["labels"] for s in client.get(f"{API}/freezes/now").json()] == [["prod"]]
    frozen = client.post(workbench.url("runs"), json={"template_id": template})
    assert_problem(frozen, 409, "frozen: 'Year-end freeze' until ")
