"""Assemble a server process: runtime, migrations, first admin, dispatcher, app."""

from __future__ import annotations

import contextlib
import gc
import logging
import socket
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

from steward import migrations
from steward.app import Lifecycle, create_app
from steward.audit.streamer import Streamer
from steward.auth.bootstrap import ensure_admin, no_user_yet, welcome
from steward.config import Settings
from steward.directory.sync import DirectorySync
from steward.dispatch.local import LocalDispatcher
from steward.health.sweeper import HealthSweeper
from steward.notifications.notifier import Notifier
from steward.repositories import local
from steward.retention.pruner import Pruner
from steward.runtime import Runtime
from steward.schedules.scheduler import Scheduler
from steward.templates import reserved
from steward.workflows.ticker import WorkflowTicker

if TYPE_CHECKING:
    from steward.dispatch.celery import CeleryQueue

log = logging.getLogger(__name__)


# The server's background loops besides the queue, by name (a loop's thread has the same name).
LOOPS: dict[str, Callable[[Runtime, LocalDispatcher | CeleryQueue], Lifecycle]] = {
    "scheduler": Scheduler,
    "workflows": WorkflowTicker,
    "notifier": lambda runtime, _queue: Notifier(runtime),
    "streamer": lambda runtime, _queue: Streamer(runtime),
    "pruner": lambda runtime, _queue: Pruner(runtime),
    "directory": lambda runtime, _queue: DirectorySync(runtime),
    "health": lambda runtime, _queue: HealthSweeper(runtime),
}


def build_app(
    settings: Settings, *, migrate: bool = True, loops: Collection[str] = tuple(LOOPS)
) -> FastAPI:
    """The server: ``loops`` names the background loops it runs beside the queue (all of them;
    the tests start only those a test looks at)."""
    runtime = Runtime.build(settings)
    # what launch values may not set, derived from Ansible in the background (or kept)
    reserved.warm(settings.data_dir)
    if migrate:
        migrations.upgrade(settings.database_url)
    local.create_default_root(settings.default_repository_root, settings.repository_roots)
    with runtime.sessions() as session:
        password = settings.admin_password.get_secret_value() if settings.admin_password else None
        created = no_user_yet(session)
        generated = ensure_admin(session, settings.admin_user, password)
        # repositories saved before their project was given local directories (or since moved
        # out of them) are refused at every use: said here once, each with the fix
        local.log_misfits(session, settings.repository_roots)
        hello = welcome(session, settings.url, created=created, generated=generated is not None)
    if generated:
        # printed once, to the console of whoever set the server up; never logged to a file
        print(  # noqa: T201
            f"Created admin user '{settings.admin_user}' with password: {generated}", flush=True
        )
    # where to go and as whom, on every start (the console, not the log: no secret in it)
    print(hello, flush=True)  # noqa: T201
    queue = queue_of(runtime)
    return create_app(
        runtime,
        queue,
        [queue, *(make(runtime, queue) for name, make in LOOPS.items() if name in loops)],
    )


def queue_of(runtime: Runtime) -> LocalDispatcher | CeleryQueue:
    """The embedded dispatcher, or with STEWARD_BROKER_URL the Celery queue (runs execute on
    `steward worker` processes, docs/deploy.md)."""
    if runtime.settings.broker_url is not None:
        from steward.dispatch.celery import CeleryQueue  # Celery and Kombu: in cluster mode only

        return CeleryQueue(runtime)
    return LocalDispatcher(runtime)


# A full collection's survivors are frozen too, while they are many, a few times in a process
LATE_SETTLES = 10
LATE_SURVIVORS = 10_000


def settle() -> None:
    """Once the server listens, before its first request: what start-up made (some 340,000
    objects: the modules, the app, the schemas, uvicorn's loop and protocols, what the
    background loops made as they started) leaves the garbage collector's generations. A full
    collection scanned them all: 140 to 170 ms of one request's wall now and then (a runs list
    at 500 allocates enough to set one off); it now scans what came after.

    ``steward serve`` starts with the collector disabled (and enables it here): the start
    allocates those objects a few hundred at a time, and the ~400 collections they set off
    (three of them full) cost a fifth of its CPU to find ~3,300 unreachable objects (the
    classes, closures and tuples of typing and the ORM's set-up, no file or connection).
    Those are frozen with the rest rather than collected first: a full collection of the
    start's objects costs 0.16 s of CPU, the objects well under 1 MiB.

    What the first requests make once lives as long too, and is frozen later (``_settle_late``):
    the first full collections that find at least ``LATE_SURVIVORS`` objects alive freeze them,
    ``LATE_SETTLES`` times at most."""
    gc.freeze()
    # a full collection of nothing (all is frozen) that sets the size the next is due at
    # (a quarter more than survived) to ~0: the first ones come soon, each scanning little
    gc.collect()
    gc.callbacks.append(_settle_late)
    gc.enable()


_late_settles = [LATE_SETTLES]


def _settle_late(phase: str, info: dict[str, int]) -> None:
    """A gc callback: after a full collection, its survivors frozen when there are
    ``LATE_SURVIVORS`` of them or more, the first ``LATE_SETTLES`` times.

    FastAPI builds an included router's routes (dependants, fields, pydantic adapters) at its
    first request, SQLAlchemy compiles and caches each statement at its first use, anyio loads
    its backend at the first thread hop: after bench/api.py's first requests, ~31,000 objects
    (552 TypeAdapters, 622 dependants…), alive for the process's life, that every full
    collection scanned, 8 to 18 ms during a request (bench/api.py's runs list at 50, median
    3.7 ms: its outliers over 3x, each holding one, measured with gc.callbacks). Frozen, they
    are no longer scanned: the full collections of that batch took 0.2 ms (median) after.

    The price, bounded by the count: what was alive at those moments (requests, runs) and
    later becomes garbage in a reference cycle is never collected (what dies by its reference
    count is freed as ever)."""
    if phase != "stop" or info["generation"] != 2 or not _late_settles[0]:
        return
    if len(gc.get_objects(2)) >= LATE_SURVIVORS:
        _late_settles[0] -= 1
        gc.freeze()


def serve(app: FastAPI, **options: Any) -> int:
    """``app`` served by uvicorn (``options``: its ``Config``'s) in this process until it is
    stopped; 3 (uvicorn's start-up failure) when it never started.

    Settled (``settle``) once uvicorn has started: after the app's lifespan (the queue and the
    background loops started) and with the socket listening. Settled before ``uvicorn.run``,
    the ~26,000 objects made from there on (uvicorn's event loop, HTTP and WebSocket modules,
    the loops' threads and sessions) stayed in the collector's generations, alive for the
    process's life: every full collection scanned them during a request, 8 to 18 ms of a runs
    list at 50 whose median is 3.7 (bench/api.py's outliers over 3x the median, measured with
    gc.callbacks: each one held a full collection, each finding nothing)."""
    import uvicorn

    class Settled(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            settle()

    server = Settled(uvicorn.Config(app, **options))
    # as uvicorn.run: a Ctrl-C ends it quietly (uvicorn raises the signal again once stopped)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0 if server.started else 3
