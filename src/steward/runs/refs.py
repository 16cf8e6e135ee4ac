"""The names behind the ids of a run's parameters (repository, inventory, environment, keys),
as they are now, or as the template snapshot recorded them when the object is gone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    RowMapping,
    Select,
    bindparam,
    literal_column,
    select,
    union_all,
)
from sqlalchemy.orm import Session

from steward.environments.models import Environment
from steward.inventories.models import Inventory
from steward.keys.models import Key
from steward.projects.scoped import ProjectScoped
from steward.repositories.models import Repository
from steward.runs.models import Run
from steward.runs.params import RunParams
from steward.runs.schemas import RunRefs

_MODELS: tuple[type[ProjectScoped], ...] = (Repository, Inventory, Environment, Key)


def _named(model: type[ProjectScoped]) -> Select[str, int, str]:
    """(table, id, name) of the project's objects of ``model`` whose ids are bound by the
    table's name; the table's name is a constant of the query (ours, never a caller's)."""
    kind: ColumnElement[str] = literal_column(f"'{model.__tablename__}'").label("kind")
    return select(kind, model.id, model.name).where(
        model.project_id == bindparam("project_id"),
        model.id.in_(bindparam(model.__tablename__, expanding=True)),
    )


# built once: a statement reused is not built again, nor its cache key computed (SQLAlchemy)
_NAMES = union_all(*(_named(model) for model in _MODELS))
_RECORDED_KEYS = select(
    Run.template_snapshot["ssh_key"],
    Run.template_snapshot["become_key"],
    Run.template_snapshot["vault_keys"],
).where(Run.id == bindparam("run_id"))


# what ``joined`` names, with the parameter holding each id and the label of its name
_JOINED: tuple[tuple[type[ProjectScoped], str, str], ...] = (
    (Repository, "repository_id", "ref_repository"),
    (Inventory, "inventory_id", "ref_inventory"),
    (Environment, "environment_id", "ref_environment"),
    (Key, "ssh_key_id", "ref_ssh_key"),
    (Key, "become_key_id", "ref_become_key"),
)


def joined(query: Select[Any]) -> Select[Any]:
    """``query`` (of runs) with the names of the objects its run's parameters name as they are
    now (None when the parameter is empty or the object gone): looked up by the ids the stored
    parameters hold, in the project's objects only, as ``refs`` looks them up. Each a scalar
    subquery, not a join: PostgreSQL plans those apart, where five more joins took its planner
    longer than running the whole statement. A list of vault keys is not looked up
    (``from_joined`` asks ``refs`` for those)."""
    for model, field, label in _JOINED:
        found = select(model.name).where(
            model.id == Run.params[field].as_integer(), model.project_id == Run.project_id
        )
        query = query.add_columns(found.scalar_subquery().label(label))
    return query


def from_joined(
    session: Session,
    row: RowMapping,
    run_id: int,
    params: RunParams,
    *,
    sees_keys: bool,
) -> RunRefs:
    """``refs`` from a row of a ``joined`` query: no query, but one when a key it used is gone
    (its name as recorded), and ``refs``'s own for a run with vault keys shown."""
    if sees_keys and params.vault_key_ids:
        return refs(session, row["project_id"], run_id, params, sees_keys=sees_keys)
    names: dict[tuple[str, int], str] = {}
    for model, field, label in _JOINED:
        object_id = getattr(params, field)
        if object_id is not None and row[label] is not None:
            names[(model.__tablename__, object_id)] = row[label]
    return _named_refs(session, run_id, params, names, sees_keys=sees_keys)


def refs(
    session: Session, project_id: int, run_id: int, params: RunParams, *, sees_keys: bool
) -> RunRefs:
    """One query, and one more only when a key it used is gone (its name as the template
    snapshot recorded it). Key names only for who may see the project's keys, as on the
    template (``sees_keys``); a deleted object's name is blank ("" or the snapshot's)."""
    wanted: dict[type[ProjectScoped], list[int]] = {
        Repository: [params.repository_id] if params.repository_id else [],
        Inventory: [params.inventory_id],
        Environment: [params.environment_id] if params.environment_id else [],
        Key: _key_ids(params) if sees_keys else [],
    }
    bound = {model.__tablename__: ids for model, ids in wanted.items()}
    rows = session.execute(_NAMES, {"project_id": project_id, **bound})
    names = {(kind, object_id): name for kind, object_id, name in rows}
    return _named_refs(session, run_id, params, names, sees_keys=sees_keys)


def _key_ids(params: RunParams) -> list[int]:
    return [k for k in (params.ssh_key_id, params.become_key_id, *params.vault_key_ids) if k]


def _named_refs(
    session: Session,
    run_id: int,
    params: RunParams,
    names: dict[tuple[str, int], str],
    *,
    sees_keys: bool,
) -> RunRefs:
    """The refs of ``params`` from the names found now, by (table, id)."""

    def name(model: type[ProjectScoped], object_id: int | None) -> str | None:
        return None if object_id is None else names.get((model.__tablename__, object_id))

    repository = name(Repository, params.repository_id) or ""
    inventory = name(Inventory, params.inventory_id) or ""
    environment = name(Environment, params.environment_id)
    if not sees_keys:
        return RunRefs(repository=repository, inventory=inventory, environment=environment)
    recorded: Sequence[object] = (None, None, None)
    if any(name(Key, k) is None for k in _key_ids(params)):  # a key is gone: its recorded name
        recorded = session.execute(_RECORDED_KEYS, {"run_id": run_id}).one_or_none() or recorded
    ssh, become, vault = recorded

    def key(key_id: int | None, recorded: object) -> str | None:
        if key_id is None:
            return None
        return name(Key, key_id) or (recorded if isinstance(recorded, str) else "")

    recorded_vault = vault if isinstance(vault, list) else []
    return RunRefs(
        repository=repository,
        inventory=inventory,
        environment=environment,
        ssh_key=key(params.ssh_key_id, ssh),
        become_key=key(params.become_key_id, become),
        vault_keys=[
            key(k, recorded_vault[i] if i < len(recorded_vault) else None) or ""
            for i, k in enumerate(params.vault_key_ids)
        ],
    )
