"""Assemble a server process: runtime, migrations, first admin, dispatcher, app."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

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


def settle() -> None:
    """Once the app is built, before serving: what start-up made (some 265,000 objects: the
    modules, the app, the schemas) leaves the garbage collector's generations. A full
    collection scanned them all: 140 to 170 ms of one request's wall now and then (a runs list
    at 500 allocates enough to set one off); it now scans what came after.

    ``steward serve`` builds the app with the collector disabled (and enables it here): the
    start allocates those objects a few hundred at a time, and the ~400 collections they set
    off (three of them full) cost a fifth of its CPU to find ~3,300 unreachable objects (the
    classes, closures and tuples of typing and the ORM's set-up, no file or connection).
    Those are frozen with the rest rather than collected first: a full collection of the
    start's objects costs 0.16 s of CPU, the objects well under 1 MiB."""
    gc.freeze()
    gc.enable()
