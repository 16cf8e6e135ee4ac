"""``GET /storage``: the database's size and what retention does about it (admins)."""

from __future__ import annotations

from fastapi import APIRouter

from steward.access.policy import require_admin
from steward.api.deps import ActorDep, RuntimeDep, SessionDep
from steward.retention import service
from steward.retention.schemas import StorageRead

router = APIRouter(tags=["retention"])


@router.get("/storage")
def read_storage(actor: ActorDep, session: SessionDep, runtime: RuntimeDep) -> StorageRead:
    """The database's size (and, on SQLite, its free bytes), its biggest tables, the retention
    periods in force, the last prune (when, what, bytes freed) and whether the size is above
    STEWARD_DATABASE_SIZE_WARNING_MB. Global admins only; a read-scoped token is enough. Reads
    every page of a SQLite file for the table sizes: for people, not for monitoring (/metrics
    has the size)."""
    require_admin(actor, write=False)
    return service.storage_report(session, runtime.settings)
