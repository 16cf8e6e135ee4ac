"""``POST /directory/sync``: an admin runs the directory sync now (``directory.sync``)."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter

from steward.api.deps import AdminActor, RuntimeDep, SessionDep
from steward.directory import sync
from steward.directory.schemas import DirectorySyncResult

router = APIRouter(tags=["directory"])


@router.post(
    "/directory/sync",
    responses={503: {"description": "The directory did not answer: nothing was changed"}},
)
def run_sync(session: SessionDep, rt: RuntimeDep, actor: AdminActor) -> DirectorySyncResult:
    """Check every LDAP user against the directory now (servers also do it every
    STEWARD_LDAP_SYNC_MINUTES): people gone from it, or no longer matching the user filter, are
    disabled (sessions ended, tokens revoked); the others get the teams and admin flag of their
    groups. A directory that does not answer changes nothing (503); one finding none of the
    users changes nothing either (``refused`` says why). Global admins only. 409 when LDAP is
    not configured."""
    report = sync.sync(session, rt.settings, actor)
    return DirectorySyncResult.model_validate(dataclasses.asdict(report))
