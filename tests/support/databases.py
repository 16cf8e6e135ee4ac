"""The databases of the API suite: each test gets a fresh, migrated SQLite or PostgreSQL one.

The migrations run once per session into a template (a file for SQLite, a template database
for PostgreSQL); each test gets a copy. ``database_url`` (and ``empty_database_url``, and a
webhook test's ``hook_server``) is parametrized over the backends: ``test_x[sqlite]``,
``test_x[postgres]``. Which of them run:

- By default a test runs on **SQLite only**: what it checks (a rule, a route's wiring, a real
  playbook run, a sandbox) does not depend on the database.
- ``@pytest.mark.both_databases`` (on a test, or a module's ``pytestmark``): the database is
  the point, so PostgreSQL too. That is storage and query semantics: claims and locking
  (``SKIP LOCKED``, ``FOR UPDATE``), compare-and-set transitions and races, retention and
  pruning, the migrations, the audit trail's and the dashboard's queries (time zones, days),
  unique constraints and the conflicts they answer, column types and sizes (PostgreSQL
  enforces ``VARCHAR(n)`` and integer ranges, SQLite does not), ordering and collations,
  stored JSON and metrics chunks, and the code paths that ask ``dialect.name``. The cluster
  tests (tests/cluster) always run on a PostgreSQL of their own.
- ``db_session``: a session on a database shared by the worker's tests, inside an outer
  transaction rolled back after the test (SQLAlchemy's ``join_transaction_mode=
  "create_savepoint"``: a service's ``commit`` releases a savepoint). For the business rules
  below HTTP: no app, no copy of the template, a few milliseconds a test
  (support.services has the actor, the project and ``refused``).
- ``@pytest.mark.sqlite_only``: never on PostgreSQL, even when asked for every test there.
- ``STEWARD_TEST_DB`` (or ``pytest --db=``): ``sqlite`` runs SQLite only (the marked tests
  too, on SQLite); ``postgres`` runs every database test on PostgreSQL only (not the
  ``sqlite_only`` ones); ``both`` runs every database test on both (as the suite did before
  ``both_databases``: for a release, or after changing the models).
"""

from __future__ import annotations

import os
import queue
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from steward import migrations
from steward.auth.bootstrap import ensure_admin
from steward.auth.models import ApiToken, TokenScope, User
from steward.auth.tokens import digest
from steward.db import make_engine, make_session_factory
from support.admin import ADMIN_PASSWORD, ADMIN_TOKEN
from support.postgres import PostgresServer, throwaway_postgres

BACKENDS = ("sqlite", "postgres")
CHOICES = (*BACKENDS, "both")
# the fixtures that take a backend: those below, and a webhook test's server (support.webhooks)
PARAMETRIZED = (
    "database_url",
    "empty_database_url",
    "hook_server",
    "shared_database_url",
    "module_database_url",
)
TEMPLATE_DATABASE = "steward_template"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--db",
        choices=CHOICES,
        default=os.environ.get("STEWARD_TEST_DB") or None,
        help="sqlite or postgres: every database test on this backend only; both: every one on "
        "both (default: env STEWARD_TEST_DB, else SQLite and, for the tests marked "
        "both_databases, PostgreSQL too)",
    )


def pytest_configure(config: pytest.Config) -> None:
    only = config.getoption("--db")
    if only is not None and only not in CHOICES:
        raise pytest.UsageError(f"STEWARD_TEST_DB={only!r}: expected one of {', '.join(CHOICES)}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    only = config.getoption("--db")
    kept, dropped = [], []
    for item in items:
        params = item.callspec.params if hasattr(item, "callspec") else {}
        backend = next((params[name] for name in PARAMETRIZED if name in params), None)
        if backend is None or _runs_on(item, backend, only):
            kept.append(item)
        else:
            dropped.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _runs_on(item: pytest.Item, backend: str, only: str | None) -> bool:
    """Whether ``item`` runs on ``backend`` given ``--db`` (see the module's docstring)."""
    if backend == "sqlite":
        return only != "postgres"
    if item.get_closest_marker("sqlite_only"):
        return False
    if only is None:
        return item.get_closest_marker("both_databases") is not None
    return only in ("postgres", "both")


def _seed(url: str) -> None:
    engine = make_engine(url)
    with make_session_factory(engine)() as session:
        ensure_admin(session, "admin", ADMIN_PASSWORD)
        admin = session.scalars(select(User).where(User.username == "admin")).one()
        session.add(
            ApiToken(
                user_id=admin.id,
                name="tests",
                prefix=ADMIN_TOKEN[:12],
                token_hash=digest(ADMIN_TOKEN),
                scope=TokenScope.WRITE,
            )
        )
        session.commit()
    engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head, to copy for each test."""
    path = tmp_path_factory.mktemp("sqlite-template") / "steward.db"
    migrations.upgrade(f"sqlite:///{path}")
    _seed(f"sqlite:///{path}")
    assert not path.with_name("steward.db-wal").exists(), "the WAL must be checkpointed"
    return path


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server on 127.0.0.1 for the whole session; create databases with it."""
    with throwaway_postgres() as server:
        yield server


@pytest.fixture(scope="session")
def postgres_template(postgres: PostgresServer) -> str:
    """The name of a PostgreSQL database migrated to head, to copy for each test."""
    with postgres.connect() as conn:
        conn.execute(f'CREATE DATABASE "{TEMPLATE_DATABASE}"')
    migrations.upgrade(postgres.url(TEMPLATE_DATABASE))
    _seed(postgres.url(TEMPLATE_DATABASE))
    return TEMPLATE_DATABASE


class Copies:
    """Copies of the template database, made ahead and dropped after use by two threads, each
    on a connection of its own: a test waits for neither CREATE DATABASE nor DROP DATABASE
    (~130 ms together on a busy machine), which run on the other core meanwhile. Each test
    still gets a database no other test has touched."""

    def __init__(self, server: PostgresServer, template: str, ahead: int = 2) -> None:
        self.server, self.template = server, template
        self._ready: queue.Queue[str] = queue.Queue(maxsize=ahead)
        self._used: queue.Queue[str | None] = queue.Queue()
        self._stopping = threading.Event()
        self._failure: BaseException | None = None
        self._threads = [
            threading.Thread(target=self._guarded, args=(self._make,), daemon=True),
            threading.Thread(target=self._guarded, args=(self._drop,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def take(self) -> str:
        while True:
            if self._failure is not None:
                raise RuntimeError("making a copy of the template failed") from self._failure
            try:
                return self._ready.get(timeout=1)
            except queue.Empty:
                continue

    def give_back(self, name: str) -> None:
        self._used.put(name)

    def stop(self) -> None:
        self._stopping.set()
        self._used.put(None)
        for thread in self._threads:
            thread.join(timeout=30)

    def _guarded(self, work: Callable[[psycopg.Connection[Any]], None]) -> None:
        try:
            with self.server.connect() as conn:
                work(conn)
        except psycopg.Error as exc:  # reported to the test that waits (take)
            if not self._stopping.is_set():
                self._failure = exc

    def _make(self, conn: psycopg.Connection[Any]) -> None:
        while not self._stopping.is_set():
            name = f"copy_{next(self.server._names)}"
            # FILE_COPY: measured 25-45 ms against 30-60 ms for the default WAL_LOG (on tmpfs)
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}" STRATEGY FILE_COPY')
            while not self._stopping.is_set():
                try:
                    self._ready.put(name, timeout=0.5)
                    break
                except queue.Full:
                    continue

    def _drop(self, conn: psycopg.Connection[Any]) -> None:
        while (name := self._used.get()) is not None:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_copies(postgres: PostgresServer, postgres_template: str) -> Iterator[Copies]:
    copies = Copies(postgres, postgres_template)
    yield copies
    copies.stop()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database migrated to head, on each backend in turn."""
    yield from _template_copy(request, tmp_path / "steward.db")


def _template_copy(request: pytest.FixtureRequest, sqlite_path: Path) -> Iterator[str]:
    """A copy of the migrated template: the file ``sqlite_path``, or a PostgreSQL database
    given back (dropped) once the fixture ends."""
    if request.param == "sqlite":
        shutil.copyfile(request.getfixturevalue("sqlite_template"), sqlite_path)
        yield f"sqlite:///{sqlite_path}"
        return
    copies: Copies = request.getfixturevalue("postgres_copies")
    name = copies.take()
    yield copies.server.url(name)
    copies.give_back(name)


@pytest.fixture(scope="module", params=BACKENDS)
def module_database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """``database_url`` for a module's world built once (support.apps.shared_client with
    ``database_url=``): on each backend in turn, as the tests that take it are marked."""
    yield from _template_copy(request, tmp_path_factory.mktemp("module-db") / "steward.db")


@pytest.fixture(params=BACKENDS)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database with no tables at all, on each backend in turn (migration tests)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres")
    name = server.create_database()
    yield server.url(name)
    server.drop_database(name)


@pytest.fixture(scope="session", params=BACKENDS)
def shared_database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A migrated database the worker's ``db_session`` tests share, on each backend in turn:
    each test's changes are rolled back, so none sees another's."""
    yield from _template_copy(request, tmp_path_factory.mktemp("shared") / "steward.db")


@pytest.fixture(scope="session")
def shared_engine(shared_database_url: str) -> Iterator[Engine]:
    engine = make_engine(shared_database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def db_session(shared_engine: Engine) -> Iterator[Session]:
    """A session inside a transaction rolled back at the end of the test: what the services
    commit is a savepoint of it. SQLite on the default backend, PostgreSQL too for a test
    marked ``both_databases`` (as ``database_url``)."""
    with shared_engine.connect() as connection:
        outer = connection.begin()
        if connection.dialect.name == "sqlite":
            # pysqlite begins a transaction only before a write: without this, the first
            # SAVEPOINT would start one that its RELEASE (a service's commit) commits for good
            connection.exec_driver_sql("BEGIN")
        session = Session(
            bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
        )
        try:
            yield session
        finally:
            session.close()
            outer.rollback()
