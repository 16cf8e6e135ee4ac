from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event
from support.admin import ADMIN_TOKEN
from support.apps import settings_for, shared_client
from support.builders import Workbench

# ldap3 imported as Steward imports it, its import-time pyasn1 warnings silenced, before the
# tests' own imports of it (support.slapd): a server loads it only once LDAP is used
import steward.directory.ldap  # noqa: F401
from steward.config import Settings
from steward.server import LOOPS, build_app

# Real services from the system binaries (see tests/support/__init__.py); cheap password hashes
# and no network beyond this machine (support.isolation).
pytest_plugins = [
    "support.isolation",
    "support.sshd",
    "support.redis",
    "support.pcp",
    "support.databases",
    "support.webhooks",
    "support.oidc_provider",
    "support.slapd",
]

# `make test-py` runs the suite on both cores (pytest-xdist, `-n 3 --dist loadgroup`): each worker
# starts its own PostgreSQL, Redis, sshd and PCP (session fixtures, free ports, its own basetemp).
# The cluster tests run one after another on one worker: their modules' own
# `xdist_group("cluster")` mark (xdist reads it before a hook here could add it).
# Tests that measure the whole machine (its CPU through PCP and psutil at the same moments):
# marked `alone`; `make test-py` runs them after the others, with no other test beside them.
ALONE = ("tests/metrics/test_recording.py",)


# pytest puts a running test's id in the environment of every process it starts
# (PYTEST_CURRENT_TEST): a parameter shown whole in the id (a 200 kB body) made every exec of
# that test fail with E2BIG. Such a parameter gets an id of its own (``ids=``).
LONGEST_ID = 64 * 1024  # the kernel refuses an environment string over 128 KiB


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    too_long = [item.nodeid[:120] + "…" for item in items if len(item.nodeid) > LONGEST_ID]
    if too_long:
        raise pytest.UsageError(f"test ids over {LONGEST_ID} characters (give ids=): {too_long}")
    for item in items:
        if item.nodeid.startswith(ALONE):
            item.add_marker(pytest.mark.alone)


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    """Settings on a fresh migrated database: SQLite, and PostgreSQL too for the tests marked
    both_databases (see support.databases)."""
    return settings_for(tmp_path, database_url)


@pytest.fixture
def client(settings: Settings, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """The real app, authenticated as the bootstrap admin with its seeded token "tests".

    The database is a copy of one already migrated (support.databases): Alembic finding nothing
    to do cost ~0.1 s a test; migrating at start is what every `steward serve` test does.
    The app runs its queue (the dispatcher) and only the background loops a test names with
    ``@pytest.mark.loops("notifier", ...)`` (``steward.server.LOOPS``): their first ticks
    were ~40 % of this fixture's cost in a test that looks at none of them."""
    app = build_app(settings, migrate=False, loops=loops_of(request))
    with TestClient(app) as c:
        c.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield c
    app.state.runtime.engine.dispose()  # give the connections back before the database is dropped


def loops_of(request: pytest.FixtureRequest) -> tuple[str, ...]:
    names = tuple(name for mark in request.node.iter_markers("loops") for name in mark.args)
    unknown = set(names) - set(LOOPS)
    if unknown:
        raise pytest.UsageError(
            f"unknown loops {sorted(unknown)}: steward.server.LOOPS has {list(LOOPS)}"
        )
    return names


@pytest.fixture(scope="module")
def module_client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """``client`` shared by the tests of a module, on SQLite: for a world built once that the
    tests only read, or change only where no other test of the module looks (each makes its
    own names). A world of ~20 objects built over HTTP costs ~0.3-0.7 s a test."""
    with shared_client(request) as client:
        yield client


@pytest.fixture
def workbench(client: TestClient, tmp_path: Path) -> Workbench:
    """A project that runs the test playbooks on localhost (support.builders.Workbench)."""
    return Workbench(client, tmp_path)


@pytest.fixture
def markers_dir() -> Iterator[Path]:
    """Where injected commands would write (the hostile tests, marked ``security``): outside the
    data dir and the repository roots, which the sandbox hides behind a tmpfs, so a marker a run
    creates really appears here. Tests prove it with a control: a trusted template variable
    touching a marker here."""
    with tempfile.TemporaryDirectory(prefix="steward-markers-") as name:
        yield Path(name)


BACKGROUND_THREADS = {
    "scheduler", "pruner", "notifier", "housekeeping", "dispatcher", "publisher", "workflows",
}  # fmt: skip


@pytest.fixture
def statements(client: TestClient) -> Iterator[list[str]]:
    """Every SQL statement the app sends for requests while the test runs (to count queries).

    The server's own loops (notifier, pruner, scheduler, dispatcher, recorders...) query on
    their own clock; a tick landing inside a counted request would make the count flaky.
    """
    engine: Engine = client.app.state.runtime.engine  # type: ignore[attr-defined]
    seen: list[str] = []

    def record(*args: Any) -> None:
        thread = threading.current_thread().name
        if thread in BACKGROUND_THREADS or thread.startswith(("recorder-", "run-")):
            return
        seen.append(args[2])

    event.listen(engine, "before_cursor_execute", record)
    yield seen
    event.remove(engine, "before_cursor_execute", record)
