"""Who may decide an approval node of a workflow run: the one rule, asked by the decision itself
(``service.decide``) and by the read of a workflow run (what the console shows and disables).

- Deciding needs ``workflow:approve`` in the project (project operators, managers, owners and
  global admins; a template grant never gives it).
- Separation of duties: an approval node with ``approver_must_differ`` (on by default, and for
  documents saved before the option existed) may not be approved by the launcher of the
  workflow run, the user its row records (``launched_by_id``): the person who launched it, or
  the owner of the schedule or webhook that fired it. Global admins are no exception: the rule
  is that two people saw the change, and an admin is one person. The comparison is by user id,
  so a token of the launcher, or their session, is the launcher too.
- Denying stays open to the launcher: withdrawing one's own request is the safe direction. The
  failure edges a denial fires run only templates the launcher already had to be allowed to
  launch (``service.require_node_launch`` checks every template node at launch), and a timeout
  reaches the same branch without anyone; canceling the run is open to them anyway.
- A launcher whose account was deleted excludes nobody (the row keeps no one to compare).
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, or_

from steward.access.actor import Actor
from steward.access.policy import ROLE_ACTIONS, Action, ProjectAccess
from steward.errors import PermissionDenied
from steward.workflows.models import WorkflowNodeRun, WorkflowRun
from steward.workflows.schemas import ApprovalRead

PERMISSION = Action.WORKFLOW_APPROVE
ROLES = [str(role) for role, actions in ROLE_ACTIONS.items() if PERMISSION in actions]


def excluded(wrun: WorkflowRun, node: WorkflowNodeRun) -> bool:
    """Whether the launcher of ``wrun`` may not approve ``node``."""
    return bool(node.approver_must_differ) and wrun.launched_by_id is not None


def not_excluded(actor: Actor) -> ColumnElement[bool]:
    """``excluded`` as a WHERE clause on ``WorkflowNodeRun`` joined with its ``WorkflowRun``:
    the nodes ``actor`` is not shut out of approving (the inbox's selection, beside the
    permission, which ``policy.projects_allowing`` answers)."""
    return or_(
        WorkflowNodeRun.approver_must_differ.is_(False),
        WorkflowRun.launched_by_id.is_(None),
        WorkflowRun.launched_by_id != actor.user.id,
    )


def refusal(
    rights: ProjectAccess,
    actor: Actor,
    wrun: WorkflowRun,
    node: WorkflowNodeRun,
    launcher: str,
    *,
    approve: bool,
) -> str:
    """Why ``actor`` may not approve (``approve``) or deny ``node``; '' when it may.
    ``launcher``: the launcher's username, for the message."""
    try:
        rights.require(PERMISSION)
    except PermissionDenied as exc:
        return exc.message
    if approve and excluded(wrun, node) and wrun.launched_by_id == actor.user.id:
        return (
            f"the approval of node '{node.key}' needs someone other than {launcher},"
            " who launched this run"
        )
    return ""


def who(wrun: WorkflowRun, node: WorkflowNodeRun, launcher: str) -> str:
    """Who may approve ``node``, in words (the run's page, the approval_needed message)."""
    roles = ", ".join(ROLES[:-1]) + f" or {ROLES[-1]}" if len(ROLES) > 1 else "".join(ROLES)
    said = f"a global admin or a project {roles} (permission '{PERMISSION}')"
    if excluded(wrun, node):
        said += f", other than {launcher or 'the launcher'}, who launched this run"
    return said


def read(
    rights: ProjectAccess, actor: Actor, wrun: WorkflowRun, node: WorkflowNodeRun, launcher: str
) -> ApprovalRead:
    """Who may decide ``node``, and whether ``actor`` may, as the API shows it."""
    shut_out = excluded(wrun, node)
    refused = refusal(rights, actor, wrun, node, launcher, approve=True)
    denied = refusal(rights, actor, wrun, node, launcher, approve=False)
    return ApprovalRead(
        permission=str(PERMISSION),
        roles=ROLES,
        approver_must_differ=bool(node.approver_must_differ),
        excluded=launcher if shut_out else None,
        who=who(wrun, node, launcher),
        can_approve=not refused,
        approve_reason=refused,
        can_deny=not denied,
        deny_reason=denied,
    )
