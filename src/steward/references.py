""" "Still in use", read from the foreign keys: a row that another row references with a
restricting delete rule (RESTRICT or NO ACTION, not CASCADE or SET NULL) is not deleted; the
409 names what uses it, e.g. ``key 'deploy' is used by repository 'site'; templates 'backup',
'nightly'``.

A model declares the rule on its foreign key (``ondelete="RESTRICT"``) and every delete of the
row it references refuses with the same message: no domain repeats the list by hand.

A referencing row is named by its ``name``, or by the row it is part of when its table is a
part of another (a non-null cascading key to a row other than its project: an environment's
secret, a template's vault key, a workflow's node template); a row with neither is counted.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import ForeignKey, Table, func, inspect, select
from sqlalchemy.orm import Session

from steward.db import Base
from steward.errors import Conflict

RESTRICTING = {"RESTRICT", "NO ACTION"}
# the objects of a project name themselves: their key to it is not one to a whole
_SCOPE = "projects"


def refuse_if_referenced(session: Session, row: Base) -> None:
    """409 while any row references ``row`` through a restricting foreign key, naming them."""
    table = _table_of(row)
    users = _users(session, row, table)
    parts = [
        f"{_plural(noun) if len(names) > 1 else noun} {', '.join(f"'{n}'" for n in names)}"
        if names
        else f"{count} {_plural(noun) if count > 1 else noun}"
        for noun, (names, count) in sorted(users.items())
    ]
    if parts:
        name = getattr(row, "name", None)
        what = f"{_noun(table)} '{name}'" if name is not None else _noun(table)
        raise Conflict(f"{what} is used by {'; '.join(parts)}")


def restricting_keys(table: Table) -> list[ForeignKey]:
    """The foreign keys of every table in the metadata that reference ``table`` and refuse the
    delete of a row they point at, in a stable order."""
    found = [
        fk
        for other in Base.metadata.sorted_tables
        for fk in sorted(other.foreign_keys, key=lambda fk: fk.parent.name)
        if fk.column.table is table and (fk.ondelete or "NO ACTION").upper() in RESTRICTING
    ]
    return found


def _users(session: Session, row: Base, table: Table) -> dict[str, tuple[list[str], int]]:
    """By noun: the sorted names of the rows (or of their owners) that use ``row``, and how
    many rows without a name use it."""
    names: dict[str, set[str]] = defaultdict(set)
    counts: dict[str, int] = defaultdict(int)
    mapper = inspect(row).mapper
    for fk in restricting_keys(table):
        uses = fk.parent == getattr(row, mapper.get_property_by_column(fk.column).key)
        using = fk.parent.table
        owner = _owner(using)
        if owner is not None:
            named = owner.column.table
            query = select(named.c.name).join(using, owner.parent == owner.column).where(uses)
            names[_noun(named)].update(session.scalars(query))
        elif "name" in using.c:
            names[_noun(using)].update(session.scalars(select(using.c.name).where(uses)))
        else:
            counts[_noun(using)] += session.scalar(select(func.count()).where(uses)) or 0
    nouns = {noun for noun, found in names.items() if found} | {n for n, c in counts.items() if c}
    return {noun: (sorted(names[noun]), counts[noun]) for noun in nouns}


def _owner(table: Table) -> ForeignKey | None:
    """The key of the row a row of ``table`` is part of (an environment's secret, a workflow's
    node template): a non-null cascading key to a named table other than the projects."""
    for fk in sorted(table.foreign_keys, key=lambda fk: fk.parent.name):
        target = fk.column.table
        if (
            (fk.ondelete or "").upper() == "CASCADE"
            and not fk.parent.nullable
            and target.name != _SCOPE
            and "name" in target.c
        ):
            return fk
    return None


def _table_of(row: Base) -> Table:
    table = inspect(row).mapper.local_table
    if not isinstance(table, Table):  # a mapped join or select: no model here is one
        raise TypeError(f"{type(row).__name__} is not mapped to one table")
    return table


def _noun(table: Table) -> str:
    """``galaxy_servers`` → ``galaxy server``, ``inventories`` → ``inventory``."""
    words = table.name.replace("_", " ")
    return words[:-3] + "y" if words.endswith("ies") else words.removesuffix("s")


def _plural(noun: str) -> str:
    return noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
