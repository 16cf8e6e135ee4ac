"""A request dependency of ``api.deps`` or of the runs' routes that is a plain function runs in
a worker thread (a hop there and back, ~0.13 ms of CPU): only those that query, and so take
the request's session, may be one; the others are coroutines (docs/patterns.md, Requests)."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from steward.api import deps
from steward.api.deps import get_session
from steward.app import _api_routes

CHECKED = ("steward.api.deps", "steward.runs.")


def _sync(dependant: Dependant) -> Iterator[Dependant]:
    for sub in dependant.dependencies:
        call = sub.call
        if call is not None and not (
            inspect.iscoroutinefunction(call)
            or inspect.isasyncgenfunction(call)
            or inspect.isgeneratorfunction(call)
        ):
            yield sub
        yield from _sync(sub)


def test_a_dependency_run_in_a_worker_thread_takes_the_session() -> None:
    seen, hopping = set(), set()
    for included in _api_routes():
        for route in getattr(getattr(included, "original_router", None), "routes", []):
            if not isinstance(route, APIRoute):
                continue
            for sub in _sync(route.dependant):
                assert sub.call is not None
                name = f"{sub.call.__module__}.{sub.call.__qualname__}"
                seen.add(name)
                if name.startswith(CHECKED) and all(
                    d.call is not get_session for d in sub.dependencies
                ):
                    hopping.add(name)
    assert "steward.api.deps.get_access" in seen  # control: the walk finds the sync ones
    assert not hopping, sorted(hopping)
    # one that hands the session on without a query is not told apart by this: said here
    assert inspect.iscoroutinefunction(deps._launching)


def test_a_run_read_is_one_worker_thread_hop_answered_304_or_whole() -> None:
    """Its rights, head and (unless the caller's tag is current) whole read: one hop in all."""
    reads = [
        route
        for included in _api_routes()
        for route in getattr(getattr(included, "original_router", None), "routes", [])
        if isinstance(route, APIRoute)
        and route.path == "/projects/{project_id}/runs/{run_id}"
        and "GET" in (route.methods or ())
    ]
    assert len(reads) == 1  # control: the walk finds the route
    assert inspect.iscoroutinefunction(reads[0].endpoint)
    assert [sub.call for sub in _sync(reads[0].dependant)] == [deps._viewed_run_answer]
