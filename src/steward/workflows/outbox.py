"""The hook ``runs.lifecycle`` calls when a run ends, in the transaction of that status change:
if the run is a node of a workflow run, the workflow run is marked for a pass
(``workflows.progress``), which a server's ``workflows`` ticker makes. Nothing advances in the
thread that finished the run, and a crash loses nothing: the mark is committed with the
status, or neither is. One UPDATE, which changes no row for a run of no workflow."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from steward.runs.models import Run
from steward.workflows.models import WorkflowRun, WorkflowRunStatus


def on_node_run_finished(session: Session, run_id: int) -> None:
    of_run = select(Run.workflow_run_id).where(Run.id == run_id).scalar_subquery()
    session.execute(
        update(WorkflowRun)
        .where(WorkflowRun.id == of_run, WorkflowRun.status == WorkflowRunStatus.RUNNING)
        .values(needs_pass=True)
        .execution_options(synchronize_session=False)
    )
