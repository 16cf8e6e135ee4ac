from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from steward.bounds import Description, Id, Name
from steward.schemas import NamedUpdate, OlderPage, RequestModel, ResponseModel, ScopedRead
from steward.templates.launch import LaunchOverrides
from steward.workflows.models import (
    EdgeOn,
    NodeKind,
    NodeStatus,
    WorkflowLaunchType,
    WorkflowRunStatus,
)

NODES_MAX = 100
EDGES_MAX = 300
KEY_MAX = 64
KEY_PATTERN = r"^[a-z0-9_-]+$"
COMMENT_MAX = 1000

NodeKey = Annotated[str, Field(min_length=1, max_length=KEY_MAX, pattern=KEY_PATTERN)]

LAUNCH_DOC = (
    "template nodes: launch values, checked like a manual launch of the template (only the"
    " overrides it allows; survey answers). Password answers are stored encrypted and read"
    " back as ********; sending ******** back keeps the stored answer of that node key."
)


MUST_DIFFER_DOC = (
    "approval nodes: whether the approver must be someone other than the launcher of the"
    " workflow run (the person who launched it; for a run fired by a schedule or webhook, its"
    " owner). On by default (null or left out: on), for global admins too; the launcher may"
    " still deny."
)


PLAN_NODE_DOC = (
    "apply nodes: the key of the plan node whose plan it applies (a plan node of this"
    " workflow preceding it on every path). The apply is bound to that plan as an apply from"
    " the API is: refused (the node fails, saying why: 'plan again') when the branch, template,"
    " environment, keys or launch values moved or the plan expired; when the template asks for"
    " plan approvals the node waits for the plan's approval (approvals inbox, four eyes)."
)


class WorkflowNode(RequestModel):
    """A ``template`` node runs ``template_id`` (a template of the same project) with
    ``launch``; a ``plan`` node launches it as a plan (check + diff mode); an ``apply`` node
    applies the plan of its ``plan_node``; an ``approval`` node waits for a decision
    (``timeout_seconds``: 0 or null waits forever) by someone with workflow:approve, other than
    the launcher unless ``approver_must_differ`` is false."""

    key: NodeKey = Field(description="unique in the workflow: [a-z0-9_-], at most 64 characters")
    kind: NodeKind
    template_id: Id | None = Field(default=None, description="template and plan nodes only")
    launch: LaunchOverrides | None = Field(default=None, description=LAUNCH_DOC)
    name: Annotated[str, Field(max_length=100)] = Field(
        default="", description="approval nodes: what is asked"
    )
    timeout_seconds: Annotated[int, Field(ge=0, le=30 * 86400)] | None = Field(
        default=None, description="approval nodes: denied when not decided in time (0: never)"
    )
    approver_must_differ: bool | None = Field(default=None, description=MUST_DIFFER_DOC)
    plan_node: NodeKey | None = Field(default=None, description=PLAN_NODE_DOC)


class WorkflowEdge(RequestModel):
    """When ``from`` finishes with the outcome ``on`` (``always``: either), ``to`` may run."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    source: NodeKey = Field(alias="from")
    target: NodeKey = Field(alias="to")
    on: EdgeOn = EdgeOn.SUCCESS


Nodes = Annotated[list[WorkflowNode], Field(max_length=NODES_MAX)]
Edges = Annotated[list[WorkflowEdge], Field(max_length=EDGES_MAX)]


class WorkflowCreate(RequestModel):
    name: Name
    description: Description = ""
    nodes: Nodes = Field(default_factory=list)
    edges: Edges = Field(default_factory=list)


class WorkflowUpdate(NamedUpdate):
    """Only the fields sent change; ``nodes`` and ``edges`` replace the whole graph when
    sent (sending one of them alone keeps the other, and the whole graph is checked again)."""

    nodes: Nodes | None = None
    edges: Edges | None = None


class WorkflowNodeRead(BaseModel):
    key: str
    kind: NodeKind
    template_id: int | None = None
    template_name: str = ""
    launch: LaunchOverrides | None = Field(default=None, description="secrets as ********")
    name: str = ""
    timeout_seconds: int | None = None
    approver_must_differ: bool | None = Field(
        default=None, description="approval nodes (null for template nodes): " + MUST_DIFFER_DOC
    )
    plan_node: str | None = Field(default=None, description=PLAN_NODE_DOC)


class WorkflowEdgeRead(BaseModel):
    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    source: str = Field(alias="from")
    target: str = Field(alias="to")
    on: EdgeOn


class WorkflowRead(ScopedRead):
    nodes: list[WorkflowNodeRead]
    edges: list[WorkflowEdgeRead]
    created_at: dt.datetime
    updated_at: dt.datetime


class Decision(RequestModel):
    comment: Annotated[str, Field(max_length=COMMENT_MAX)] = ""


class WorkflowRunFilters(BaseModel):
    workflow_id: Id | None = None
    before_id: Id | None = Field(default=None, description="only workflow runs older than it")
    limit: int = Field(default=50, ge=1, le=200)


class ApprovalRead(BaseModel):
    """Who may decide an approval node, and whether the caller may."""

    permission: str = Field(description="the permission an approver needs in the project")
    roles: list[str] = Field(
        description="the project roles that hold it (global admins hold every permission;"
        " a template grant never does)"
    )
    approver_must_differ: bool = Field(description="the launcher of the run may not approve")
    excluded: str | None = Field(
        description="the username of the launcher who may not approve (null: nobody is"
        " excluded, the option is off or the launcher's account was deleted)"
    )
    who: str = Field(description="who may approve, in words")
    can_approve: bool = Field(
        description="whether the caller may approve it (the node must also be waiting)"
    )
    approve_reason: str = Field(description="why the caller may not approve it; '' when it may")
    can_deny: bool = Field(description="whether the caller may deny it")
    deny_reason: str = Field(description="why the caller may not deny it; '' when it may")


class NodeRunRead(ResponseModel):
    key: str
    kind: NodeKind
    name: str
    template_id: int | None
    template_name: str = ""
    status: NodeStatus
    run_id: int | None = Field(
        description="template, plan and apply nodes: the run launched for it (a plan, an apply)"
    )
    run_status: str | None = Field(
        default=None,
        description="that run's own status now: 'queued' while it waits for a slot (the node"
        " is 'running' from its launch), 'running', how it ended; 'gone' once retention"
        " removed it",
    )
    plan_node: str | None = Field(default=None, description=PLAN_NODE_DOC)
    timeout_seconds: int | None
    deadline_at: dt.datetime | None = Field(description="a waiting approval times out then")
    decided_by: str = Field(description="approvals: who decided")
    decided_at: dt.datetime | None
    reason: str = Field(
        description="how it ended, or why it waits; an apply node's refusal ('plan again')"
    )
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    approval: ApprovalRead | None = Field(
        default=None, description="approval nodes: who may decide it, and whether the caller may"
    )


class WorkflowRunRead(ResponseModel):
    id: int
    project_id: int
    workflow_id: int | None = Field(description="null once the workflow is deleted")
    workflow_name: str
    status: WorkflowRunStatus
    status_reason: str
    launched_by_id: int | None
    launched_by: str = ""
    launch_type: WorkflowLaunchType = Field(description="manual, schedule or webhook")
    schedule_id: int | None = Field(default=None, description="the schedule that launched it")
    webhook_id: int | None = Field(default=None, description="the webhook that launched it")
    created_at: dt.datetime
    finished_at: dt.datetime | None
    cancel_requested_at: dt.datetime | None
    nodes: list[NodeRunRead] = Field(default_factory=list, description="in the read of one only")
    edges: list[WorkflowEdgeRead] = Field(default_factory=list)
    can_decide: bool = Field(
        default=False,
        description="whether the caller holds workflow:approve, the permission approving or"
        " denying its approvals needs (each approval node's ``approval`` says whether the"
        " caller may approve that one: its launcher may not when the node says so)",
    )


class WorkflowRunPage(OlderPage[WorkflowRunRead]):
    pass


class NextStep(BaseModel):
    """A node an approval's success leads to (its edges ``on`` success or always)."""

    key: str
    kind: NodeKind
    name: str = Field(description="a template node: its template's name; an approval: what it asks")
    template_id: int | None = None


class WaitingApproval(BaseModel):
    """An approval node waiting for a decision the caller may give (the approvals inbox)."""

    id: int = Field(description="the waiting node's own id (in this workflow run: ``key``)")
    project_id: int
    project_name: str
    workflow_id: int | None = Field(description="null once the workflow is deleted")
    workflow_name: str
    workflow_run_id: int
    key: str = Field(description="the approval node's key")
    name: str = Field(description="what is asked")
    next: list[NextStep] = Field(description="what runs once it is approved")
    launched_by_id: int | None
    launched_by: str = Field(description="who launched the workflow run ('' once deleted)")
    launch_type: WorkflowLaunchType = Field(description="manual, schedule or webhook")
    schedule_id: int | None
    webhook_id: int | None
    asked_at: dt.datetime | None = Field(description="when the node started waiting")
    timeout_seconds: int | None
    deadline_at: dt.datetime | None = Field(description="it is denied then unless decided")
