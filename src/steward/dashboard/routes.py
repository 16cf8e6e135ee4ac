from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from steward.api.deps import ActorDep, RuntimeDep, SessionDep
from steward.dashboard import service
from steward.dashboard.schemas import Dashboard, DashboardParams

router = APIRouter(prefix="/dashboard", tags=["dashboard"])


@router.get("")
def read_dashboard(
    session: SessionDep,
    actor: ActorDep,
    rt: RuntimeDep,
    params: Annotated[DashboardParams, Query()],
) -> Dashboard:
    """The home page, over the runs the caller may see (as the runs list shows them): runs per
    day by status in the caller's zone, failing templates, running and queued runs (why each
    waits), and totals."""
    return service.dashboard(session, actor, rt.settings, params)
