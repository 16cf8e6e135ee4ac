"""The request's session is closed on the event loop when that cannot wait: on SQLite after
reads alone (pysqlite began no transaction: the rollback is a call in the process); in a
worker thread when it may (a write to undo, PostgreSQL's round trip)."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from steward.api import deps
from steward.auth.models import User
from steward.config import Settings
from steward.runs.models import Run
from steward.runtime import Runtime

pytestmark = pytest.mark.both_databases  # what closing waits on is the database's


def test_a_session_that_only_read_sqlite_is_closed_without_a_worker(settings: Settings) -> None:
    runtime = Runtime.build(settings)
    try:
        with runtime.sessions() as session:
            assert not deps._waits(session)  # no connection yet
            session.begin()  # a transaction of the session's, as merging the caller begins
            assert session.in_transaction()
            assert not deps._waits(session)  # ... holding no connection: nothing to give back
            session.scalar(select(User.id).limit(1))
            assert session.in_transaction()  # it holds a connection now
            sqlite = session.get_bind().dialect.name == "sqlite"
            assert deps._waits(session) is not sqlite
            # control: a write left to undo waits on any database
            session.execute(update(Run).where(Run.id == -1).values(label="x"))
            assert deps._waits(session)
            session.rollback()
            assert not deps._waits(session)
    finally:
        runtime.engine.dispose()
