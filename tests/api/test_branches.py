"""Routing through ``api.branches`` picks what FastAPI's own walk picks, for every route of the
API: the same route (FULL), the same route for a wrong method (PARTIAL: the 405), nothing for
a path no route has (the 404) — and only the router that can answer is tried."""

from __future__ import annotations

import re
from typing import Any

from starlette.routing import BaseRoute, Match

from steward.api.branches import Branch, branched
from steward.app import _api_routes

PARAM = re.compile(r"\{[^}]+\}")


def _scope(path: str, method: str) -> dict[str, Any]:
    return {"type": "http", "path": path, "root_path": "", "method": method, "headers": []}


def _walk(routes: list[BaseRoute], path: str, method: str) -> tuple[Match, BaseRoute | None]:
    """What the app's router does: the first FULL match, else the first PARTIAL one."""
    partial = None
    for route in routes:
        match, _ = route.matches(_scope(path, method))
        if match == Match.FULL:
            return match, route
        if match == Match.PARTIAL and partial is None:
            partial = route
    return (Match.PARTIAL, partial) if partial else (Match.NONE, None)


def _unwrapped(route: BaseRoute | None) -> BaseRoute | None:
    return route.included if isinstance(route, Branch) else route


def _paths() -> list[tuple[str, str]]:
    found = []
    for included in _api_routes():
        router = getattr(included, "original_router", None)
        prefix = getattr(getattr(included, "include_context", None), "prefix", "")
        for route in getattr(router, "routes", []):
            for method in sorted(getattr(route, "methods", set())):
                found.append((PARAM.sub("1", prefix + route.path), method))
    return found


def test_every_route_is_found_by_the_branches_as_by_fastapis_walk() -> None:
    raw = list(_api_routes())
    branches = list(branched(raw))
    assert sum(isinstance(b, Branch) for b in branches) >= 30  # every router behind one
    paths = _paths()
    assert len(paths) > 150
    for path, method in paths:
        expected = _walk(raw, path, method)
        match, route = _walk(branches, path, method)
        assert (match, _unwrapped(route)) == expected, (path, method)
        assert match == Match.FULL, (path, method)
    # a wrong method: the same PARTIAL (405), a path nobody has: nothing (404)
    for path, method in [("/api/v1/auth/me", "DELETE"), ("/api/v1/projects/1/runs/1", "PUT")]:
        match, route = _walk(branches, path, method)
        assert (match, _unwrapped(route)) == _walk(raw, path, method)
        assert match == Match.PARTIAL
    assert _walk(branches, "/api/v1/nothing/here", "GET") == (Match.NONE, None)
    assert _walk(raw, "/api/v1/nothing/here", "GET") == (Match.NONE, None)


def test_a_branch_tries_its_router_only_for_paths_it_can_answer() -> None:
    runs = next(
        b
        for b in branched(_api_routes())
        if isinstance(b, Branch)
        and b.matches(_scope("/api/v1/projects/1/runs/7", "GET"))[0] == Match.FULL
    )
    assert runs.matches(_scope("/api/v1/projects/1/runs/7", "GET"))[0] == Match.FULL
    # control: the same router, asked for another router's path, says no without trying
    assert runs.matches(_scope("/api/v1/projects/1/keys/7", "GET")) == (Match.NONE, {})
