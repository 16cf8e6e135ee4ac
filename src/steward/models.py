"""Every domain's tables, imported once so ``Base.metadata`` is complete (Alembic, tests)."""

from steward.audit.models import AuditRecord
from steward.auth.models import ApiToken, User, WebSession
from steward.db import Base
from steward.environments.models import Environment, EnvironmentSecret
from steward.grants.models import TemplateGrant
from steward.inventories.models import Inventory
from steward.keys.models import Key
from steward.projects.models import Project, ProjectMember
from steward.repositories.models import Repository
from steward.runs.models import Run, RunEvent, RunHost, RunOutput
from steward.teams.models import Team, TeamMember
from steward.templates.models import Template

__all__ = [
    "ApiToken",
    "AuditRecord",
    "Base",
    "Environment",
    "EnvironmentSecret",
    "Inventory",
    "Key",
    "Project",
    "ProjectMember",
    "Repository",
    "Run",
    "RunEvent",
    "RunHost",
    "RunOutput",
    "Team",
    "TeamMember",
    "Template",
    "TemplateGrant",
    "User",
    "WebSession",
]
