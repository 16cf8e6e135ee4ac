"""Alembic, driven from code: ``steward migrate`` (``--check``), the server at start and the
tests call these.

Revision 0001 is the 0.1.0 baseline; every later schema change is a revision of its own
(``make migration MESSAGE="…"``), never an edit of a released one. A database that a newer
Steward has migrated (its revision is unknown here) is refused: this code would misread it.

Alembic (with Mako and Pygments: 11 MiB and a fifth of a second) is imported only when there is
something to do: a server starting on a database already at this code's newest revision — every
start but the first after an upgrade — finds that from the revision files and the database's
``alembic_version`` row alone (``at_head``)."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import column, create_engine, inspect, pool, select, table

from steward import __version__

if TYPE_CHECKING:
    from alembic.config import Config

HERE = Path(__file__).parent
VERSION_TABLE = "alembic_version"  # Alembic's own name (env.py names no other)
# the header of a revision file (script.py.mako): each name and its value, a Python literal
_HEADER = re.compile(
    r"^(revision|down_revision|branch_labels|depends_on)\b[^=\n]*=\s*(.+)$", re.MULTILINE
)


class DatabaseNewer(RuntimeError):
    """The database is at a revision this Steward does not know: a newer one migrated it."""


def alembic_config(url: str) -> Config:
    from alembic.config import Config

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
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    return {r.revision for r in script.walk_revisions()}


def schema(url: str, *, connect_args: Mapping[str, Any] | None = None) -> Schema:
    """Where the database at ``url`` stands; ``connect_args`` go to the driver (a connect
    timeout: ``steward doctor``)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

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
    migrated (``DatabaseNewer``), before anything is changed. A database already at the newest
    is left as it is without Alembic (whose upgrade would do nothing to it either)."""
    if revision == "head" and at_head(url):
        return
    from alembic import command

    known_schema(url)
    command.upgrade(alembic_config(url), revision)


def check(url: str) -> None:
    """Raise if the models and the migrations disagree."""
    from alembic import command

    command.check(alembic_config(url))


def newest_revision() -> str | None:
    """This code's newest revision read from the headers of its revision files, as Alembic's
    ``ScriptDirectory`` finds it (tests/test_migrations.py) when the revisions are one line;
    None for anything else (a branch, a merge, a header it cannot read): then Alembic decides."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (HERE / "versions").glob("*.py"):
        header: dict[str, object] = {}
        for name, value in _HEADER.findall(path.read_text()):
            try:
                header.setdefault(name, ast.literal_eval(value))  # the header's, not a body's
            except (ValueError, SyntaxError):
                return None
        revision, parent = header.get("revision"), header.get("down_revision", ...)
        if not isinstance(revision, str) or not (parent is None or isinstance(parent, str)):
            return None
        if any(header.get(name, ...) is not None for name in ("branch_labels", "depends_on")):
            return None
        revisions.add(revision)
        if parent is not None:
            parents.add(parent)
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def at_head(url: str) -> bool:
    """Whether the database at ``url`` is at this code's newest revision: its one
    ``alembic_version`` row names it. False when unsure (Alembic then looks)."""
    newest = newest_revision()
    if newest is None:
        return False
    engine = create_engine(url, poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            if not inspect(connection).has_table(VERSION_TABLE):
                return False
            version = table(VERSION_TABLE, column("version_num"))
            found = connection.execute(select(version.c.version_num)).scalars().all()
    finally:
        engine.dispose()
    return found == [newest]
