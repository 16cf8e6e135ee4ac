"""``steward serve`` with its start timed phase by phase (bench/startup.py's breakdown).

    python [-X importtime | -X tracemalloc] bench/startup_probe.py OUT.json [--profile]

Runs the command line's ``serve`` in this process, with a clock around each step of the start
(imports, ``build_app``'s runtime, reserved names, migration check and app assembly, the
background loops' start, the first health answer). When the server is told to stop, before its
loops stop, it writes to OUT.json each phase's end (seconds since the command, from
``STEWARD_BENCH_LAUNCHED``, a ``time.time()`` of the parent) and CPU, and with ``-X tracemalloc``
the Python heap of the idle server by the file that allocated it; with ``--profile``, the own
CPU of each function of the imports and ``build_app`` (cProfile; a built-in's charged to the
file that called it) by file, and what a few steps of the start (``STEPS``) cost with what they
call, and how often they ran.

Imports only the standard library before the server's own modules: what it measures is theirs.
"""

from __future__ import annotations

import cProfile
import functools
import gc
import json
import os
import pstats
import sys
import time
import tracemalloc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

PHASES: list[tuple[str, float, float]] = []  # (phase, end in s since the command, CPU s then)
HEAP: dict[str, int] = {}  # bytes by the allocating file (tracemalloc), when tracing
OWN: dict[str, float] = {}  # own CPU s by file (cProfile), with --profile
# (file's end, function) -> the step of the start it is
STEPS = {
    ("fastapi/routing.py", "add_api_route"): "a route added (FastAPI: its dependencies, fields)",
    ("fastapi/dependencies/utils.py", "get_dependant"): "a dependency analysed (FastAPI)",
    ("pydantic/_internal/_model_construction.py", "__new__"): "a pydantic model built",
    ("sqlalchemy/orm/decl_api.py", "__init_subclass__"): "an ORM class mapped",
    ("~", "<built-in method marshal.loads>"): "a module's bytecode read",
}
STEPPED: dict[str, tuple[int, float]] = {}  # step -> (calls, CPU s with what it called)


def mark(phase: str) -> None:
    launched = float(os.environ["STEWARD_BENCH_LAUNCHED"])
    PHASES.append((phase, time.time() - launched, time.process_time()))


def timed(owner: Any, name: str, phase: str) -> None:
    """``owner.name`` marks ``phase`` when it returns."""
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        mark(phase)
        return result

    setattr(owner, name, wrapper)


def first_only(phase: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not any(p == phase for p, _, _ in PHASES):
            mark(phase)
        return function(*args, **kwargs)

    return wrapper


def main(out: str, profile: bool) -> int:
    mark("interpreter started")
    profiler = cProfile.Profile()
    if profile:
        profiler.enable()
    gc.disable()  # as ``steward serve`` does before its imports (cli.admin._serve)
    import uvicorn  # noqa: F401  (imported by _serve; here to time the imports apart)

    import steward.app
    import steward.cli
    import steward.migrations
    import steward.server
    from steward.runtime import Runtime
    from steward.templates import reserved

    mark("imports")
    steward.app.health = first_only("first health answer", steward.app.health)
    timed(Runtime, "build", "command line, settings, runtime")
    timed(reserved, "warm", "reserved names (ansible probe, cached)")
    timed(steward.migrations, "upgrade", "migration check")
    build = steward.app.create_app

    def create_app(*args: Any, **kwargs: Any) -> Any:
        mark("first admin, local roots")
        app = build(*args, **kwargs)
        mark("app and routes")
        if profile:
            profiler.disable()
            tally(pstats.Stats(profiler))
        lifespan = app.router.lifespan_context

        @asynccontextmanager
        async def probed(app_: Any) -> AsyncIterator[None]:
            mark("server bound, lifespan begins")
            async with lifespan(app_):
                mark("background loops started")
                yield
                dump(out)

        app.router.lifespan_context = probed
        return app

    steward.server.create_app = create_app  # type: ignore[attr-defined]  # as build_app names it
    return steward.cli.main(["serve"])


def tally(stats: pstats.Stats) -> None:
    for (filename, _, name), (_, calls, own, total, callers) in stats.stats.items():  # type: ignore[attr-defined]
        step = next((s for (f, n), s in STEPS.items() if n == name and filename.endswith(f)), None)
        if step is not None:
            before = STEPPED.get(step, (0, 0.0))
            STEPPED[step] = (before[0] + calls, before[1] + total)
        if filename != "~":
            OWN[filename] = OWN.get(filename, 0.0) + own
            continue
        for (caller, _, _), (_, _, own_from, _) in callers.items():  # a built-in: its callers'
            OWN[caller] = OWN.get(caller, 0.0) + own_from


def dump(out: str) -> None:
    if tracemalloc.is_tracing():
        stats = tracemalloc.take_snapshot().statistics("filename")
        for stat in stats:
            HEAP[stat.traceback[0].filename] = stat.size
    with open(out, "w") as f:
        json.dump({"phases": PHASES, "heap": HEAP, "own": OWN, "steps": STEPPED}, f)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], "--profile" in sys.argv[2:]))
