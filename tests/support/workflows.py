"""Workflows through the real API: documents, launches, and waiting for a workflow run."""

from __future__ import annotations

from typing import Any

import httpx2

from steward.config import Settings
from support.waits import wait_until

FINISHED = frozenset({"successful", "failed", "canceled"})


def fast(settings: Settings) -> Settings:
    """``settings`` with a workflows ticker of 0.1 s (a real tick, never a mocked clock)."""
    return settings.model_copy(update={"workflow_tick_seconds": 0.1})


def template_node(key: str, template_id: int, **launch: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"key": key, "kind": "template", "template_id": template_id}
    if launch:
        node["launch"] = launch
    return node


def approval_node(
    key: str,
    name: str = "go ahead?",
    timeout: int | None = None,
    *,
    must_differ: bool | None = None,
) -> dict[str, Any]:
    """``must_differ``: its ``approver_must_differ`` (None: left out, the default: on). Tests
    whose launcher approves its own run, about something else, say False."""
    node: dict[str, Any] = {"key": key, "kind": "approval", "name": name}
    if timeout is not None:
        node["timeout_seconds"] = timeout
    if must_differ is not None:
        node["approver_must_differ"] = must_differ
    return node


def edge(source: str, target: str, on: str = "success") -> dict[str, str]:
    return {"from": source, "to": target, "on": on}


class Workflows:
    """The workflows of one project, through ``api`` (the in-process client or a server's)."""

    def __init__(self, api: httpx2.Client, project_id: int, prefix: str = "/api/v1") -> None:
        self.api = api
        self.base = f"{prefix}/projects/{project_id}"

    def create(
        self, nodes: list[dict[str, Any]], edges: list[dict[str, str]], name: str = "pipeline"
    ) -> dict[str, Any]:
        response = self.api.post(
            f"{self.base}/workflows", json={"name": name, "nodes": nodes, "edges": edges}
        )
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def launch(self, workflow_id: int) -> dict[str, Any]:
        response = self.api.post(f"{self.base}/workflows/{workflow_id}/launch")
        assert response.status_code == 201, response.text
        launched: dict[str, Any] = response.json()
        return launched

    def read(self, wrun_id: int) -> dict[str, Any]:
        response = self.api.get(f"{self.base}/workflow-runs/{wrun_id}")
        assert response.status_code == 200, response.text
        read: dict[str, Any] = response.json()
        return read

    def decide(
        self, wrun_id: int, key: str, verb: str = "approve", comment: str | None = None
    ) -> httpx2.Response:
        body = None if comment is None else {"comment": comment}
        return self.api.post(f"{self.base}/workflow-runs/{wrun_id}/nodes/{key}/{verb}", json=body)

    def wait(self, wrun_id: int, until: Any = None, timeout: float = 60) -> dict[str, Any]:
        """Poll until the workflow run ended (or ``until(read)`` holds); returns the read."""
        holds = until or (lambda w: w["status"] in FINISHED)
        last: dict[str, Any] = {}

        def probe() -> dict[str, Any]:
            nonlocal last
            last = self.read(wrun_id)
            return last if holds(last) else {}

        try:
            return wait_until(probe, timeout=timeout, interval=0.1, what="workflow run")
        except AssertionError:
            raise AssertionError(
                f"workflow run {wrun_id} not there in {timeout}s: {last}"
            ) from None


def nodes(read: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["key"]: n for n in read["nodes"]}


def statuses(read: dict[str, Any]) -> dict[str, str]:
    return {n["key"]: n["status"] for n in read["nodes"]}


def node_waiting(key: str) -> Any:
    return lambda read: nodes(read)[key]["status"] == "waiting"
