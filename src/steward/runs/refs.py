"""The names behind the ids of a run's parameters (repository, inventory, environment, keys),
as they are now, or as the template snapshot recorded them when the object is gone."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.environments.models import Environment
from steward.inventories.models import Inventory
from steward.keys.models import Key
from steward.projects.scoped import ProjectScoped
from steward.repositories.models import Repository
from steward.runs.models import Run
from steward.runs.params import RunParams
from steward.runs.schemas import RunRefs


def _names(
    session: Session, model: type[ProjectScoped], project_id: int, ids: list[int]
) -> dict[int, str]:
    if not ids:
        return {}
    rows = session.execute(
        select(model.id, model.name).where(model.project_id == project_id, model.id.in_(ids))
    )
    return {object_id: name for object_id, name in rows}


def refs(session: Session, run: Run, *, sees_keys: bool) -> RunRefs:
    """Four small queries at most. Key names only for who may see the project's keys, as on
    the template (``sees_keys``); a deleted object's name is blank ("" or the snapshot's)."""
    params = RunParams.of(run.params, run.id)
    project = run.project_id
    repository = _names(session, Repository, project, [params.repository_id or 0])
    inventory = _names(session, Inventory, project, [params.inventory_id])
    environment_ids = [params.environment_id] if params.environment_id else []
    environment = _names(session, Environment, project, environment_ids)
    if not sees_keys:
        return RunRefs(
            repository=repository.get(params.repository_id or 0, ""),
            inventory=inventory.get(params.inventory_id, ""),
            environment=environment.get(params.environment_id or 0),
        )
    key_ids = [params.ssh_key_id, params.become_key_id, *params.vault_key_ids]
    keys = _names(session, Key, project, [k for k in key_ids if k])
    snapshot = run.template_snapshot

    def key(key_id: int | None, recorded: object) -> str | None:
        if key_id is None:
            return None
        return keys.get(key_id) or (recorded if isinstance(recorded, str) else "")

    recorded_vault = snapshot.get("vault_keys") or []
    return RunRefs(
        repository=repository.get(params.repository_id or 0, ""),
        inventory=inventory.get(params.inventory_id, ""),
        environment=environment.get(params.environment_id or 0),
        ssh_key=key(params.ssh_key_id, snapshot.get("ssh_key")),
        become_key=key(params.become_key_id, snapshot.get("become_key")),
        vault_keys=[
            key(k, recorded_vault[i] if i < len(recorded_vault) else None) or ""
            for i, k in enumerate(params.vault_key_ids)
        ],
    )
