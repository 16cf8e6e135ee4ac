"""``GET …/runs/compare?ids=``: its own router, included before the runs' ``/{run_id}`` routes
(which would otherwise take "compare" for a run id)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from steward.access.policy import Action
from steward.api.deps import AccessDep, SessionDep
from steward.runs import compare
from steward.runs.compare import RunsCompared

router = APIRouter(prefix="/projects/{project_id}/runs", tags=["runs"])


@router.get("/compare")
def compare_runs(
    rights: AccessDep,
    session: SessionDep,
    ids: Annotated[
        str,
        Query(
            min_length=1,
            max_length=compare.IDS_TEXT_MAX,
            description="2 to 4 run ids separated by commas; the first is the baseline",
        ),
    ],
) -> RunsCompared:
    """Parameters, per-host recaps and per-task durations of 2 to 4 runs side by side.

    The same rights as each run's output: a run the caller may not see (or that is not in
    the project) is a 404 for the whole request."""
    return compare.compare(
        session,
        rights.project,
        compare.run_ids(ids),
        templates=rights.templates_allowing(Action.RUN_VIEW),
        sees_keys=rights.sees_resources,
    )
