"""Engine, sessions and the declarative base shared by every domain's models."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    ColumnElement,
    DateTime,
    Engine,
    MetaData,
    Row,
    Select,
    SQLColumnExpression,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, InstrumentedAttribute, Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def lookup[K, V](
    session: Session,
    key: InstrumentedAttribute[K],
    value: InstrumentedAttribute[V],
    keys: Collection[K],
) -> dict[K, V]:
    """``{key: value}`` of the rows whose ``key`` is one of ``keys`` (names by id, limits by
    name…), in one query; none for no keys."""
    if not keys:
        return {}
    return dict(session.execute(select(key, value).where(key.in_(keys))).all())


def paged[T](session: Session, query: Select[T], *, limit: int, offset: int) -> tuple[list[T], int]:
    """A page of the objects ``query`` selects (one entity, in its order) and how many it
    selects in all: two queries."""
    return list(session.scalars(query.limit(limit).offset(offset))), _count(session, query)


def paged_rows[*Ts](
    session: Session, query: Select[*Ts], *, limit: int, offset: int
) -> tuple[list[Row[*Ts]], int]:
    """A page of the rows ``query`` selects (in its order) and how many it selects in all."""
    return list(session.execute(query.limit(limit).offset(offset))), _count(session, query)


def _count[*Ts](session: Session, query: Select[*Ts]) -> int:
    return session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0


class UTCDateTime(TypeDecorator[dt.datetime]):
    """Timezone-aware UTC on the way in and out (SQLite stores naive values)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(dt.UTC)

    def process_result_value(
        self, value: dt.datetime | None, dialect: Dialect
    ) -> dt.datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dt.datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
        list[Any]: JSON(),
    }


def insert_of(session: Session) -> Any:
    """The dialect's ``insert`` (with ``on_conflict_do_update``/``_nothing``): an upsert is
    written once per dialect, both spell it alike. Each dialect is imported by its own engine
    (PostgreSQL's 2 MiB never by a server on SQLite)."""
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert
    from sqlalchemy.dialects import sqlite

    return sqlite.insert


def upsert(
    session: Session,
    model: type[Base],
    rows: list[dict[str, Any]],
    key: list[InstrumentedAttribute[Any]],
    changes: Callable[[Any], dict[str, Any]],
) -> None:
    """Insert ``rows``; a row whose ``key`` a stored one has already updates that one with
    ``changes(new)`` instead (``new``: the columns of the row given)."""
    statement = insert_of(session)(model)
    update = statement.on_conflict_do_update(index_elements=key, set_=changes(statement.excluded))
    session.execute(update, rows)


def icontains(column: SQLColumnExpression[str], text: str) -> ColumnElement[bool]:
    """``column`` contains ``text``, ignoring case; ``%``, ``_`` and ``\\`` in it match
    themselves (escaped), never any character."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return column.ilike(f"%{escaped}%", escape="\\")


def _sqlite_pragmas(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    # a new (empty) database returns the space pruning frees (steward.retention.storage): set
    # before anything writes the file's header (journal_mode=WAL does), the only moment it
    # takes; never on an existing file, where it would wait for the write lock for nothing
    if cursor.execute("PRAGMA page_count").fetchone()[0] == 0:
        cursor.execute("PRAGMA auto_vacuum=INCREMENTAL")
    cursor.execute("PRAGMA journal_mode=WAL")
    # the WAL file is cut back to this after a checkpoint: a large prune does not leave a WAL
    # as large as what it freed
    cursor.execute(f"PRAGMA journal_size_limit={64 * 1024 * 1024}")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


def make_session_factory(
    engine: Engine, info: dict[str, Any] | None = None
) -> sessionmaker[Session]:
    """Sessions on ``engine``; ``info``: what each session's ``info`` starts with (a copy)."""
    return sessionmaker(engine, expire_on_commit=False, info=info)


@contextmanager
def session_scope(factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session for background work (dispatcher, executor): rolled back if not committed."""
    session = factory()
    try:
        yield session
    finally:
        session.close()
