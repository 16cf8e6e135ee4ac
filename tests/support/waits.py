"""The one way tests wait: poll a condition, or a run through the API, until it holds.

Every wait takes an ``httpx2.Client``: the in-process ``TestClient`` (base URL
``http://testserver``, paths under ``/api/v1``) or a client of a real ``steward serve``
(``Server.api()``, base URL already ending in ``/api/v1``). ``api_path`` hides the difference.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx2

FINISHED = frozenset({"successful", "failed", "error", "canceled", "timed_out"})
API_PREFIX = "/api/v1"


def api_path(client: httpx2.Client, path: str) -> str:
    """``path`` (relative to the API root, e.g. ``/projects``) as a URL for ``client``."""
    if client.base_url.path.rstrip("/").endswith(API_PREFIX):
        return path
    return API_PREFIX + path


def wait_until[T](
    probe: Callable[[], T], timeout: float = 60, interval: float = 0.1, what: str = "condition"
) -> T:
    """Call ``probe`` until it returns something truthy, and return that; fail on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not reached in {timeout}s")
        time.sleep(interval)


def read_run(client: httpx2.Client, url: str) -> dict[str, Any]:
    response = client.get(url)
    assert response.status_code == 200, response.text
    run: dict[str, Any] = response.json()
    return run


def wait_for_run(
    client: httpx2.Client,
    url: str,
    until: Callable[[dict[str, Any]], bool] | None = None,
    *,
    statuses: frozenset[str] | set[str] = FINISHED,
    timeout: float = 90,
) -> dict[str, Any]:
    """Poll the run at ``url`` until ``until`` holds (default: its status is in ``statuses``,
    default: finished); returns the run; fails the test with the last state on timeout."""
    holds = until or (lambda run: run["status"] in statuses)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = read_run(client, url)
        if holds(run):
            return run
        time.sleep(0.1)
    raise AssertionError(f"{url} did not get there in {timeout}s: {read_run(client, url)}")


def wait_finished(
    client: httpx2.Client, project_id: int, run_id: int, timeout: float = 90
) -> dict[str, Any]:
    """The run once it is finished (any final status)."""
    url = api_path(client, f"/projects/{project_id}/runs/{run_id}")
    return wait_for_run(client, url, timeout=timeout)
