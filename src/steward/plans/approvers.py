"""Who may approve a plan: the one rule, asked by the decision (``service.decide``), the plan's
read and the approvals inbox. It follows ``workflows.approvers`` (separation of duties):

- Deciding needs ``plan:approve`` in the project (project operators, managers, owners and
  global admins; a template grant never gives it) and the right to apply the plan (run:launch
  on its template).
- Approving needs someone other than the plan's launcher (``launched_by_id``), compared by user
  id: a token of the launcher is the launcher, and global admins are no exception.
- Rejecting stays open to the launcher: withdrawing one's own plan is the safe direction.
- A launcher whose account was deleted excludes nobody.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, or_

from steward.access.actor import Actor
from steward.access.policy import ROLE_ACTIONS, Action, ProjectAccess
from steward.errors import NotFound, PermissionDenied
from steward.runs.models import Run

PERMISSION = Action.PLAN_APPROVE
ROLES = [str(role) for role, actions in ROLE_ACTIONS.items() if PERMISSION in actions]
APPROVED, REJECTED = "approved", "rejected"


def refusal(rights: ProjectAccess, actor: Actor, run: Run, *, approve: bool) -> str:
    """Why ``actor`` may not approve (``approve``) or reject plan ``run``; '' when it may."""
    try:
        rights.require(PERMISSION)
        rights.require_on_template(run.template_id, Action.RUN_LAUNCH)
    except (PermissionDenied, NotFound) as exc:
        return exc.message
    if approve and run.launched_by_id is not None and run.launched_by_id == actor.user.id:
        return (
            f"the approval of plan {run.id} needs someone other than its launcher:"
            " who launched a plan may not approve it (separation of duties, admins included)"
        )
    return ""


def who(run: Run) -> str:
    """Who may approve plan ``run``, in words."""
    roles = ", ".join(ROLES[:-1]) + f" or {ROLES[-1]}" if len(ROLES) > 1 else "".join(ROLES)
    said = f"a global admin or a project {roles} (permission '{PERMISSION}')"
    if run.launched_by_id is not None:
        said += " other than its launcher"
    return said


def not_excluded(actor: Actor) -> ColumnElement[bool]:
    """On ``Run``: the plans ``actor`` is not shut out of approving (the inbox's selection)."""
    return or_(Run.launched_by_id.is_(None), Run.launched_by_id != actor.user.id)
