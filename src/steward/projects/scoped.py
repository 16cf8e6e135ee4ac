"""What every object of a project shares: its columns (``ProjectScoped``), its lookup by id
within the project, the uniqueness of its name, its list and the refusal while its runs are
active ("still in use" is read from the foreign keys: ``steward.references``).

Not a CRUD framework: each domain's service still writes its own create/update/delete and calls
these for the parts that are the same everywhere, so the messages are the same everywhere too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from sqlalchemy import ColumnElement, ForeignKey, String, Text, UniqueConstraint, func, select
from sqlalchemy.orm import InstrumentedAttribute, Mapped, Session, declared_attr, mapped_column

from steward.db import Base, paged, utcnow
from steward.errors import Conflict, InvalidState, NotFound
from steward.projects.models import Project
from steward.runs.models import Run
from steward.runs.status import RunStatus
from steward.schemas import UpdateModel

# the shared columns keep the place they had in each table: first id, project_id, name and
# description, then the domain's own columns (sort order 0), last the timestamps
_FIRST, _LAST = -1, 1


class ProjectScoped(Base):
    """The columns of an object of a project, its name unique in it (``uq_<table>_project_id``)."""

    __abstract__ = True

    id: Mapped[int] = mapped_column(primary_key=True, sort_order=_FIRST)
    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True, sort_order=_FIRST
    )
    name: Mapped[str] = mapped_column(String(100), sort_order=_FIRST)
    description: Mapped[str] = mapped_column(Text, default="", sort_order=_FIRST)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, sort_order=_LAST)
    updated_at: Mapped[dt.datetime] = mapped_column(
        default=utcnow, onupdate=utcnow, sort_order=_LAST
    )

    @declared_attr.directive
    @classmethod
    def __table_args__(cls) -> tuple[Any, ...]:
        return (UniqueConstraint("project_id", "name"),)


class Named(Protocol):
    """A model with an id and a unique name (a project, a team, or an object of a project)."""

    id: ClassVar[InstrumentedAttribute[int]]
    name: ClassVar[InstrumentedAttribute[str]]


class InProject(Protocol):
    """A model of rows of one project (an object of a project, a subscription…)."""

    id: ClassVar[InstrumentedAttribute[int]]
    project_id: ClassVar[InstrumentedAttribute[int]]


def get_in_project[M: InProject](
    session: Session,
    model: type[M],
    project: Project,
    object_id: int,
    what: str,
    *where: ColumnElement[bool],
    options: Sequence[Any] = (),
) -> M:
    """The object ``object_id`` of ``project``; one of another project, or one that ``where``
    leaves out (one the caller may not see), is a 404, like no object."""
    found = session.scalar(
        select(model)
        .options(*options)
        .where(model.id == object_id, model.project_id == project.id, *where)
    )
    if found is None:
        raise NotFound(f"{what} {object_id} not found in project '{project.name}'")
    return found


def check_name_free(
    session: Session,
    model: type[Named],
    project: Project | None,
    name: str,
    what: str,
    *,
    except_id: int | None = None,
) -> None:
    """409 when another ``what`` is named ``name``: in ``project``, or anywhere when None."""
    where: list[ColumnElement[bool]] = [model.name == name]
    if project is not None:
        where.append(getattr(model, "project_id") == project.id)  # noqa: B009 - not on Named
    found = session.scalar(select(model.id).where(*where))
    if found is not None and found != except_id:
        within = f" in project '{project.name}'" if project is not None else ""
        article = "an" if what[0] in "aeiou" else "a"
        raise Conflict(f"name: {article} {what} named '{name}' already exists{within}")


def check_rename(
    session: Session, project: Project | None, obj: Named, changes: Mapping[str, Any], what: str
) -> None:
    """409 when ``changes`` (a PATCH's) rename ``obj`` to the name of another ``what``: in
    ``project``, or anywhere when None (``check_name_free``)."""
    if "name" in changes:
        check_name_free(session, type(obj), project, changes["name"], what, except_id=obj.id)


def changes_of(
    session: Session, project: Project | None, obj: Named, body: UpdateModel, what: str
) -> dict[str, Any]:
    """The fields a PATCH ``body`` sets (``UpdateModel.changes``), a new name refused as
    ``check_rename`` refuses it."""
    changes = body.changes()
    check_rename(session, project, obj, changes, what)
    return changes


def list_in_project[M: ProjectScoped](
    session: Session,
    model: type[M],
    project: Project,
    *where: ColumnElement[bool],
    limit: int,
    offset: int,
    options: Sequence[Any] = (),
) -> tuple[list[M], int]:
    """A page of the project's objects (narrowed by ``where``) by name, and how many there are."""
    query = select(model).options(*options).where(model.project_id == project.id, *where)
    return paged(session, query.order_by(model.name), limit=limit, offset=offset)


def names_of(
    session: Session, name: InstrumentedAttribute[str], *where: ColumnElement[bool]
) -> list[str]:
    """The names (``Template.name``) of the rows matching ``where``, sorted, each once."""
    return list(session.scalars(select(name).where(*where).distinct().order_by(name)))


def refuse_while_runs_active(session: Session, what: str, *where: ColumnElement[bool]) -> None:
    """409 while the runs ``where`` picks (those of ``what``: "template 'deploy'") are queued or
    running: an object that launched them is deleted only once they have ended."""
    active = session.scalar(
        select(func.count())
        .select_from(Run)
        .where(*where, Run.status.in_([RunStatus.QUEUED, RunStatus.RUNNING]))
    )
    if active:
        raise InvalidState(f"{what} has {active} queued or running runs")
