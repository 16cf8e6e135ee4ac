"""The names behind the ids of a run's parameters (repository, inventory, environment, keys),
as they are now, or as the template snapshot recorded them when the object is gone."""

from __future__ import annotations

from sqlalchemy import ColumnElement, literal_column, select, union_all
from sqlalchemy.orm import Session

from steward.environments.models import Environment
from steward.inventories.models import Inventory
from steward.keys.models import Key
from steward.projects.scoped import ProjectScoped
from steward.repositories.models import Repository
from steward.runs.models import Run
from steward.runs.params import RunParams
from steward.runs.schemas import RunRefs


def _table(model: type[ProjectScoped]) -> ColumnElement[str]:
    """The model's table name as a constant of the query (ours, never a value of a caller)."""
    return literal_column(f"'{model.__tablename__}'").label("kind")


def _names(
    session: Session, project_id: int, wanted: dict[type[ProjectScoped], list[int]]
) -> dict[tuple[str, int], str]:
    """The names of the objects ``wanted`` of the project, by (table, id): one query."""
    parts = [
        select(_table(model), model.id, model.name).where(
            model.project_id == project_id, model.id.in_(ids)
        )
        for model, ids in wanted.items()
        if ids
    ]
    if not parts:
        return {}
    rows = session.execute(union_all(*parts))
    return {(kind, object_id): name for kind, object_id, name in rows}


def refs(session: Session, run: Run, *, sees_keys: bool) -> RunRefs:
    """One query. Key names only for who may see the project's keys, as on the template
    (``sees_keys``); a deleted object's name is blank ("" or the snapshot's)."""
    params = RunParams.of(run.params, run.id)
    key_ids = [params.ssh_key_id, params.become_key_id, *params.vault_key_ids]
    names = _names(
        session,
        run.project_id,
        {
            Repository: [params.repository_id] if params.repository_id else [],
            Inventory: [params.inventory_id],
            Environment: [params.environment_id] if params.environment_id else [],
            Key: [k for k in key_ids if k] if sees_keys else [],
        },
    )

    def name(model: type[ProjectScoped], object_id: int | None) -> str | None:
        return None if object_id is None else names.get((model.__tablename__, object_id))

    repository = name(Repository, params.repository_id) or ""
    inventory = name(Inventory, params.inventory_id) or ""
    environment = name(Environment, params.environment_id)
    if not sees_keys:
        return RunRefs(repository=repository, inventory=inventory, environment=environment)
    snapshot = run.template_snapshot

    def key(key_id: int | None, recorded: object) -> str | None:
        if key_id is None:
            return None
        return name(Key, key_id) or (recorded if isinstance(recorded, str) else "")

    recorded_vault = snapshot.get("vault_keys") or []
    return RunRefs(
        repository=repository,
        inventory=inventory,
        environment=environment,
        ssh_key=key(params.ssh_key_id, snapshot.get("ssh_key")),
        become_key=key(params.become_key_id, snapshot.get("become_key")),
        vault_keys=[
            key(k, recorded_vault[i] if i < len(recorded_vault) else None) or ""
            for i, k in enumerate(params.vault_key_ids)
        ],
    )
