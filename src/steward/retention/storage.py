"""How much disk the database takes, and giving back what pruning freed.

**SQLite.** Deleting rows only puts their pages on the file's free list: the file never shrinks
by itself. New databases are created with ``auto_vacuum=INCREMENTAL`` (``steward.db`` sets it on
every connection, before the first table exists, which is the only moment it takes effect), so
after each pass that removed something ``PRAGMA incremental_vacuum`` moves the free pages to the
end of the file and truncates it, a bounded number of pages per transaction (``VACUUM_PAGES``)
so no write lock is held long. The bytes freed are measured, never estimated: the database's
size (``page_count * page_size``) before the pass minus after it. In WAL mode the file itself is
cut at the next checkpoint (the pass asks for a passive one).

A database created by Steward 0.1.0 has ``auto_vacuum=NONE``. Switching it takes one full
``VACUUM``, which rewrites the whole file, needs as much free disk again, and holds the write
lock for as long as it runs (minutes on a large file; other writers then fail after their busy
timeout). That is no step for a migration that every ``steward serve`` runs at start, nor for
the pruner's background tick: the operator runs it once, at a quiet time, with
``steward prune --compact`` (recorded in the audit trail). Until then pruning reports 0 bytes
freed and says why, and the admin page and ``/metrics`` show the free bytes waiting in the file.

**PostgreSQL.** Deleted rows are dead tuples until a VACUUM; a plain ``VACUUM`` (what
autovacuum also does) makes their space *reusable* for new rows of the same table but returns
to the filesystem only empty pages at the very end of a table. After a pass that removed
something, the pruned tables (and those their rows cascade to) get ``VACUUM (ANALYZE)`` at
once, outside a transaction, and the bytes freed are ``pg_database_size`` before minus after:
often near zero, honestly. ``VACUUM FULL`` would return everything but locks each table
exclusively while it copies it; Steward never runs it (``--compact`` refuses on PostgreSQL
and says so).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterable, Mapping

from sqlalchemy import Engine, Table, text
from sqlalchemy.orm import Session

from steward.db import Base

VACUUM_PAGES = 4096  # pages returned per transaction (16 MiB with 4 KiB pages)
TOP_TABLES = 10  # tables listed on the admin page, biggest first
SIZE_CACHE_SECONDS = 15.0  # /metrics reads the size at most this often per server and database


@dataclasses.dataclass(frozen=True)
class Size:
    """The database's size in bytes; ``free``: bytes in it holding no data (SQLite's free
    pages; None where measuring it is not cheap: PostgreSQL)."""

    total: int
    free: int | None


@dataclasses.dataclass(frozen=True)
class TableSize:
    name: str
    bytes: int  # with its indexes (and TOAST on PostgreSQL)


def dialect(session: Session) -> str:
    return session.get_bind().dialect.name


def size(session: Session) -> Size:
    """One or two cheap queries: SQLite's page counters, PostgreSQL's file sizes."""
    if dialect(session) == "sqlite":
        page = _pragma(session, "page_size")
        return Size(
            _pragma(session, "page_count") * page, _pragma(session, "freelist_count") * page
        )
    return Size(int(session.scalar(text("SELECT pg_database_size(current_database())")) or 0), None)


_cache: dict[str, tuple[float, Size]] = {}
_cache_lock = threading.Lock()


def cached_size(session: Session) -> Size:
    """``size``, read again at most every ``SIZE_CACHE_SECONDS`` per database (for ``/metrics``:
    scrapes of several Prometheus servers do not each stat the database's files)."""
    key = str(session.get_bind().engine.url)
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None and now - hit[0] < SIZE_CACHE_SECONDS:
        return hit[1]
    found = size(session)
    with _cache_lock:
        _cache[key] = (now, found)
    return found


def returns_space(session: Session) -> bool:
    """Whether freed space goes back to the filesystem by itself after a prune: SQLite with
    incremental auto-vacuum (a 0.1.0 file needs ``steward prune --compact`` once); PostgreSQL
    makes it reusable instead (see the module's docstring), which counts as yes here."""
    if dialect(session) != "sqlite":
        return True
    return _pragma(session, "auto_vacuum") == 2  # 0 none, 1 full, 2 incremental


def tables(session: Session, limit: int = TOP_TABLES) -> list[TableSize] | None:
    """The biggest tables, with their indexes; None when the database cannot say (a SQLite
    built without the ``dbstat`` table). Reads every page on SQLite: for the admin page, never
    for ``/metrics``."""
    if dialect(session) == "sqlite":
        if not session.scalar(text("SELECT count(*) FROM pragma_module_list WHERE name='dbstat'")):
            return None
        rows = session.execute(
            text(
                "SELECT coalesce(m.tbl_name, d.name), sum(d.pgsize) FROM dbstat AS d"
                " LEFT JOIN sqlite_schema AS m ON m.name = d.name"
                " GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT :limit"
            ),
            {"limit": limit},
        ).all()
    else:
        rows = session.execute(
            text(
                "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class AS c"
                " WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace"
                " ORDER BY 2 DESC, 1 LIMIT :limit"
            ),
            {"limit": limit},
        ).all()
    return [TableSize(str(name), int(used or 0)) for name, used in rows]


def reclaim(session: Session, pruned: Iterable[str]) -> None:
    """Give back the space of rows just deleted (and committed) from the tables ``pruned``:
    SQLite's free pages (when incremental auto-vacuum is on), PostgreSQL's VACUUM of those
    tables and of every table their rows cascade to (``prune`` measures ``size`` around it)."""
    if dialect(session) == "sqlite":
        if not returns_space(session):
            return
        left = _pragma(session, "freelist_count")
        while left:
            # each step of the statement frees one page: the DB-API cursor steps through all
            # (SQLAlchemy, seeing no columns, would step once)
            cursor = session.connection().connection.cursor()
            try:
                cursor.execute(f"PRAGMA incremental_vacuum({VACUUM_PAGES})").fetchall()
            finally:
                cursor.close()
            session.commit()
            now = _pragma(session, "freelist_count")
            if now >= left:  # nothing moved (another connection holds the pages): next pass
                break
            left = now
        _checkpoint(session)
        return
    # VACUUM runs on a connection of its own: a transaction this session still has open (the
    # removal's last, empty read) holds locks its truncation of a table's end would wait for,
    # about 5 s a table before it gives up
    session.commit()
    engine: Engine = session.get_bind().engine
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        for name in sorted(cascaded(pruned)):
            # names from the models' metadata, never from input
            connection.execute(text(f'VACUUM (ANALYZE) "{name}"'))


@dataclasses.dataclass(frozen=True)
class Freed:
    """The database's size in bytes before a prune and once its space was given back."""

    before: int
    after: int

    @property
    def bytes(self) -> int:
        return max(self.before - self.after, 0)


def prune(
    session: Session, remove: Callable[[], Mapping[str, int]]
) -> tuple[Mapping[str, int], Freed]:
    """Measure the database, run ``remove`` (it deletes and commits, and says how many rows it
    removed from each table), give back the space of the tables it removed rows from and
    measure again. Nothing removed: nothing is given back nor measured again."""
    before = size(session).total
    removed = remove()
    pruned = [table for table, count in removed.items() if count]
    if not pruned:
        return removed, Freed(before, before)
    reclaim(session, pruned)
    return removed, Freed(before, size(session).total)


def cascaded(names: Iterable[str]) -> set[str]:
    """``names`` and every table whose rows go with theirs (foreign keys ON DELETE CASCADE)."""
    import steward.models  # noqa: F401  (every table in the metadata, whoever imported what)

    found = set(names)
    tables: list[Table] = list(Base.metadata.sorted_tables)
    grew = True
    while grew:
        grew = False
        for table in tables:
            if table.name in found:
                continue
            for fk in table.foreign_keys:
                if (
                    fk.ondelete
                    and fk.ondelete.upper() == "CASCADE"
                    and fk.column.table.name in found
                ):
                    found.add(table.name)
                    grew = True
                    break
    return found


class CompactRefused(RuntimeError):
    """``compact`` cannot do it here (PostgreSQL): the message says what to do instead."""


def compact(engine: Engine) -> tuple[Size, Size]:
    """SQLite only: switch the file to incremental auto-vacuum and rewrite it (``VACUUM``),
    returning every free page; the sizes before and after. Safe while servers run, but it
    holds the write lock until done: run it at a quiet time (see the module's docstring)."""
    if engine.dialect.name != "sqlite":
        raise CompactRefused(
            "--compact is for SQLite: on PostgreSQL each prune already runs VACUUM (ANALYZE),"
            " which makes the space reusable; VACUUM FULL returns it to the filesystem but locks"
            " each table while it runs, so Steward leaves it to you (psql, at a quiet time)"
        )
    with Session(engine) as session:
        before = size(session)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("PRAGMA auto_vacuum=INCREMENTAL"))
        connection.execute(text("VACUUM"))
        connection.execute(text("PRAGMA wal_checkpoint(PASSIVE)"))
    with Session(engine) as session:
        after = size(session)
    return before, after


def _checkpoint(session: Session) -> None:
    """A passive checkpoint, on a connection of its own: the file is cut now unless a reader
    still holds older pages (it never waits; the next checkpoint does it then)."""
    engine: Engine = session.get_bind().engine
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").all()


def _pragma(session: Session, name: str) -> int:
    return int(session.execute(text(f"PRAGMA {name}")).scalar() or 0)
