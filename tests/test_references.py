""" "Still in use" read from the foreign keys (steward.references), below HTTP: a session on the
test's database (SQLite, then PostgreSQL), rows made with the models. The HTTP wiring of each
domain's 409 stays in its route tests (keys, inventories, runner groups, workflows ...)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from steward import models  # every table in the metadata, as the app has them
from steward.db import make_engine
from steward.environments.models import Environment, EnvironmentSecret, SecretTarget
from steward.errors import Conflict
from steward.grants.models import GrantPermission, TemplateGrant
from steward.inventories.models import Inventory, InventoryKind
from steward.keys.models import Key, KeyKind
from steward.projects.models import Project
from steward.references import refuse_if_referenced, restricting_keys
from steward.repositories.models import Repository, RepositoryKind
from steward.runner_groups.models import RunnerGroup
from steward.templates.models import Template
from steward.workflows.models import Workflow, WorkflowTemplate

# what the foreign keys refuse is the point: each backend checks them its own way
pytestmark = pytest.mark.both_databases


@pytest.fixture
def session(database_url: str) -> Iterator[Session]:
    engine = make_engine(database_url)
    with Session(engine, expire_on_commit=False) as s:
        yield s
    engine.dispose()


@pytest.fixture
def project(session: Session) -> Project:
    found = Project(name="infra")
    session.add(found)
    session.flush()
    return found


def a_key(session: Session, project: Project, name: str) -> Key:
    key = Key(project_id=project.id, name=name, kind=KeyKind.SSH)
    session.add(key)
    session.flush()
    return key


def a_template(session: Session, project: Project, name: str, **fields: object) -> Template:
    repo = session.scalar(select(Repository).where(Repository.project_id == project.id))
    if repo is None:
        repo = Repository(project_id=project.id, name="site", kind=RepositoryKind.LOCAL, url="/x")
        session.add(repo)
        session.flush()
    inventory = session.scalar(select(Inventory).where(Inventory.project_id == project.id))
    if inventory is None:
        inventory = Inventory(project_id=project.id, name="hosts", kind=InventoryKind.STATIC)
        session.add(inventory)
        session.flush()
    template = Template(
        project_id=project.id,
        name=name,
        playbook="site.yml",
        repository_id=repo.id,
        inventory_id=inventory.id,
        **fields,
    )
    session.add(template)
    session.flush()
    return template


def refusal(session: Session, row: object) -> str:
    with pytest.raises(Conflict) as refused:
        refuse_if_referenced(session, row)  # type: ignore[arg-type]
    return refused.value.message


def test_a_key_names_every_row_that_uses_it_and_an_unused_key_is_deleted(
    session: Session, project: Project
) -> None:
    deploy, spare = a_key(session, project, "deploy"), a_key(session, project, "spare")
    session.add(
        Repository(
            project_id=project.id,
            name="playbooks",
            kind=RepositoryKind.GIT,
            url="x",
            key_id=deploy.id,
        )
    )
    a_template(session, project, "nightly", ssh_key_id=deploy.id)
    a_template(session, project, "backup", become_key_id=deploy.id)
    # a vault key and an environment's secret are rows of their own: named by their owner
    vaulted = a_template(session, project, "vaulted")
    vaulted.vault_keys.append(deploy)
    prod = Environment(project_id=project.id, name="prod")
    session.add(prod)
    session.flush()
    session.add(
        EnvironmentSecret(
            environment_id=prod.id, name="TOKEN", target=SecretTarget.ENV, key_id=deploy.id
        )
    )
    session.flush()

    assert refusal(session, deploy) == (
        "key 'deploy' is used by environment 'prod'; repository 'playbooks'; "
        "templates 'backup', 'nightly', 'vaulted'"
    )
    refuse_if_referenced(session, spare)  # control: nothing uses it
    session.delete(spare)
    session.commit()
    assert session.get(Key, spare.id) is None


def test_a_template_in_a_workflow_is_refused_as_the_database_refuses_it(
    session: Session, project: Project
) -> None:
    deploy = a_template(session, project, "deploy")
    release = Workflow(project_id=project.id, name="release")
    session.add(release)
    session.flush()
    session.add(WorkflowTemplate(workflow_id=release.id, template_id=deploy.id))
    session.commit()

    assert refusal(session, deploy) == "template 'deploy' is used by workflow 'release'"
    # the rule read is the one the database keeps: deleting past the check fails there too
    with pytest.raises(IntegrityError):
        session.execute(delete(Template).where(Template.id == deploy.id))
    session.rollback()

    session.delete(release)
    session.commit()
    refuse_if_referenced(session, deploy)  # control: the workflow is gone, so is the refusal


def test_cascading_and_nulling_references_do_not_refuse(session: Session, project: Project) -> None:
    group = RunnerGroup(name="edge")
    session.add(group)
    session.flush()
    template = a_template(session, project, "deploy")
    admin = session.scalar(select(models.User).where(models.User.username == "admin"))
    assert admin is not None
    # a grant goes with its template (CASCADE): it does not hold the template back
    session.add(
        TemplateGrant(template_id=template.id, user_id=admin.id, permission=GrantPermission.RUN)
    )
    session.flush()
    refuse_if_referenced(session, template)

    project.runner_group_id = group.id
    template.runner_group_id = group.id
    session.flush()
    assert (
        refusal(session, group)
        == "runner group 'edge' is used by project 'infra'; template 'deploy'"
    )


def test_deleting_a_project_takes_its_objects_that_use_each_other(
    session: Session, project: Project
) -> None:
    """The restricting keys are between objects of one project: the project's delete cascades
    to all of them at once, on both databases."""
    key = a_key(session, project, "deploy")
    template = a_template(session, project, "deploy", ssh_key_id=key.id)
    flow = Workflow(project_id=project.id, name="release")
    session.add(flow)
    session.flush()
    session.add(WorkflowTemplate(workflow_id=flow.id, template_id=template.id))
    session.commit()

    session.delete(project)
    session.commit()
    assert session.scalar(select(Template).where(Template.id == template.id)) is None
    assert session.scalar(select(WorkflowTemplate)) is None


def test_every_restricting_key_is_read() -> None:
    """The keys the refusals read: a new one in a model refuses without a line in a service."""
    keys = {
        f"{fk.parent.table.name}.{fk.parent.name}"
        for table in models.Base.metadata.sorted_tables
        for fk in restricting_keys(table)
    }
    assert {
        "templates.ssh_key_id",
        "template_vault_keys.key_id",
        "environment_secrets.key_id",
        "workflow_templates.template_id",
        "projects.runner_group_id",
    } <= keys
    assert "webhooks.template_id" not in keys  # CASCADE
    assert "schedules.template_id" not in keys  # SET NULL
