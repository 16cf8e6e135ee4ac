"""Runs launched below HTTP, on ``db_session``: a template of a project (rows, no checkout),
people holding a role in it, and ``launch`` through the one gate (``runs.service.launch``)
as a route calls it, with a queue that only notes what it was handed."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import ProjectAccess, access
from steward.auth.models import TokenScope, User
from steward.inventories.models import Inventory, InventoryKind
from steward.projects.models import Project, ProjectMember, ProjectRole
from steward.repositories.models import Repository, RepositoryKind
from steward.runs import service as runs
from steward.runs.models import LaunchType, Run
from steward.templates.launch import LaunchOverrides
from steward.templates.models import Template
from support import services

SURVEY = [
    {"variable": "db_name", "label": "Database", "type": "text"},
    {"variable": "reason", "label": "Why", "type": "text"},
    {"variable": "sys_password", "label": "SYS password", "type": "password"},
]


class NoQueue:
    """A queue that keeps the ids it was handed: nothing executes below HTTP."""

    def __init__(self) -> None:
        self.submitted: list[int] = []

    def submit(self, run_id: int) -> None:
        self.submitted.append(run_id)

    def cancel(self, run_id: int) -> None:
        pass


def template(session: Session, project: Project, name: str = "stop_db", **fields: Any) -> Template:
    """A template of ``project`` (its repository and inventory made once), the survey of a
    DBA's ``stop_db`` unless ``fields`` say otherwise; launches may override limit, tags,
    check mode and extra vars."""
    repo = session.scalar(select(Repository).where(Repository.project_id == project.id))
    if repo is None:
        repo = Repository(project_id=project.id, name="site", kind=RepositoryKind.LOCAL, url="/x")
        session.add(repo)
    inventory = session.scalar(select(Inventory).where(Inventory.project_id == project.id))
    if inventory is None:
        inventory = Inventory(project_id=project.id, name="hosts", kind=InventoryKind.STATIC)
        session.add(inventory)
    session.flush()
    values: dict[str, Any] = {
        "survey": SURVEY,
        "overridable": ["limit", "tags", "check_mode", "extra_vars"],
    } | fields
    made = Template(
        project_id=project.id,
        name=name,
        playbook="site.yml",
        repository_id=repo.id,
        inventory_id=inventory.id,
        **values,
    )
    session.add(made)
    session.flush()
    return made


def member(session: Session, project: Project, username: str, role: ProjectRole) -> Actor:
    """A new user holding ``role`` in ``project``, as a console session."""
    user = User(username=username, password_hash="!")
    session.add(user)
    session.flush()
    session.add(ProjectMember(project_id=project.id, user_id=user.id, role=role))
    session.flush()
    return Actor(user=user, scope=TokenScope.WRITE, via="session")


def rights(session: Session, actor: Actor, project: Project) -> ProjectAccess:
    return access(session, actor, project)


def launch(
    session: Session, project: Project, made: Template, actor: Actor | None = None, **body: Any
) -> Run:
    """A run of ``made`` launched by ``actor`` (the admin) with the launch values ``body``,
    committed as a request commits it."""
    who = actor or services.admin(session)
    request = runs.Launch(
        rights(session, who, project),
        who,
        made.id,
        LaunchOverrides.model_validate(body),
        runs.Trigger(LaunchType.API),
    )
    return runs.launch_now(session, request, cipher=services.cipher(), queue=NoQueue())
