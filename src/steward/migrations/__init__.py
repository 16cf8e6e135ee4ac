"""Alembic, driven from code: ``steward migrate`` (``--check``), the server at start and the
tests call these.

Revision 0001 is the 0.1.0 baseline; every later schema change is a revision of its own
(``make migration MESSAGE="…"``), never an edit of a released one. A database that a newer
Steward has migrated (its revision is unknown here) is refused: this code would misread it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, pool

from steward import __version__

HERE = Path(__file__).parent


class DatabaseNewer(RuntimeError):
    """The database is at a revision this Steward does not know: a newer one migrated it."""


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


@dataclasses.dataclass(frozen=True)
class Schema:
    """Where a database stands: its revision (None: empty) and this code's head."""

    current: str | None
    head: str
    known: bool  # this code has the database's revision (or the database is empty)

    @property
    def pending(self) -> bool:
        return self.known and self.current != self.head

    def describe(self) -> str:
        if not self.known:
            return (
                f"the database is at revision {self.current}, which Steward {__version__} does"
                f" not know (its newest is {self.head}): a newer Steward has upgraded it; run that"
                " version, or restore the backup made before the upgrade"
            )
        if self.current is None:
            return f"the database is empty: `steward migrate` creates the schema ({self.head})"
        if self.pending:
            return (
                f"an upgrade is pending: the database is at {self.current}, Steward"
                f" {__version__} at {self.head}: run `steward migrate`"
            )
        return f"the database is up to date ({self.head}, Steward {__version__})"


def revisions() -> set[str]:
    """Every revision this code has (a database at one of them can be upgraded)."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    return {r.revision for r in script.walk_revisions()}


def schema(url: str, *, connect_args: Mapping[str, Any] | None = None) -> Schema:
    """Where the database at ``url`` stands; ``connect_args`` go to the driver (a connect
    timeout: ``steward doctor``)."""
    script = ScriptDirectory.from_config(alembic_config(url))
    head = script.get_current_head() or ""  # one head, always (the revisions are one line)
    engine = create_engine(url, poolclass=pool.NullPool, connect_args=dict(connect_args or {}))
    try:
        with engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
    known = current is None or any(r.revision == current for r in script.walk_revisions())
    return Schema(current, head, known)


def known_schema(url: str) -> Schema:
    """Where the database stands; ``DatabaseNewer`` when a newer Steward migrated it."""
    found = schema(url)
    if not found.known:
        raise DatabaseNewer(found.describe())
    return found


def upgrade(url: str, revision: str = "head") -> None:
    """To ``revision`` (default: this code's newest); refused on a database a newer Steward
    migrated (``DatabaseNewer``), before anything is changed."""
    known_schema(url)
    command.upgrade(alembic_config(url), revision)


def check(url: str) -> None:
    """Raise if the models and the migrations disagree."""
    command.check(alembic_config(url))
