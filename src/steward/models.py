"""Every domain's tables, imported once so ``Base.metadata`` is complete (Alembic, tests)."""

from steward.audit.models import AuditRecord
from steward.auth.models import ApiToken, RecoveryCode, User, WebSession
from steward.db import Base
from steward.drift.models import TemplateDrift
from steward.environments.models import Environment, EnvironmentSecret
from steward.freezes.models import FreezeOverride, FreezeWindow
from steward.galaxy.models import GalaxyServer
from steward.grants.models import TemplateGrant
from steward.health.models import HealthSweep, HostCheck, HostHealth, RunPreflightHost
from steward.hosts.models import HostFactPoint, HostFacts, ProjectHost
from steward.inventories.models import Inventory, InventoryHost
from steward.keys.models import Key
from steward.metrics.models import MetricChunk, MetricGap
from steward.notifications.models import Attempt, Destination, Message, Subscription
from steward.projects.models import Project, ProjectMember
from steward.repositories.models import Repository
from steward.runner_groups.models import RunnerGroup, Worker, WorkerQueue
from steward.runs.models import Plan, Run, RunChange, RunEvent, RunHost, RunOutput, RunValue
from steward.schedules.models import Schedule
from steward.teams.models import Team, TeamMember
from steward.templates.models import Template
from steward.webhooks.models import Webhook, WebhookDelivery
from steward.workflows.models import Workflow, WorkflowNodeRun, WorkflowRun, WorkflowTemplate

__all__ = [
    "ApiToken",
    "Attempt",
    "AuditRecord",
    "Base",
    "Destination",
    "Environment",
    "EnvironmentSecret",
    "FreezeOverride",
    "FreezeWindow",
    "GalaxyServer",
    "HealthSweep",
    "HostCheck",
    "HostFactPoint",
    "HostFacts",
    "HostHealth",
    "Inventory",
    "InventoryHost",
    "Key",
    "Message",
    "MetricChunk",
    "MetricGap",
    "Plan",
    "Project",
    "ProjectHost",
    "ProjectMember",
    "RecoveryCode",
    "Repository",
    "Run",
    "RunChange",
    "RunEvent",
    "RunHost",
    "RunOutput",
    "RunPreflightHost",
    "RunValue",
    "RunnerGroup",
    "Schedule",
    "Subscription",
    "Team",
    "TeamMember",
    "Template",
    "TemplateDrift",
    "TemplateGrant",
    "User",
    "WebSession",
    "Webhook",
    "WebhookDelivery",
    "Worker",
    "WorkerQueue",
    "Workflow",
    "WorkflowNodeRun",
    "WorkflowRun",
    "WorkflowTemplate",
]
