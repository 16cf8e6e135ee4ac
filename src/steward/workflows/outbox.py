"""The hook ``runs.lifecycle`` calls when a node run of a workflow run ends, in the transaction
of that status change (the UPDATE of the run returns its ``workflow_run_id``: no statement more
for a run of no workflow): the workflow run is marked for a pass (``workflows.progress``), which
a server's ``workflows`` ticker makes. Nothing advances in the thread that finished the run, and
a crash loses nothing: the mark is committed with the status, or neither is."""

from __future__ import annotations

from sqlalchemy.orm import Session

from steward.workflows import progress


def on_node_run_finished(session: Session, workflow_run_id: int) -> None:
    progress.mark(session, workflow_run_id)
