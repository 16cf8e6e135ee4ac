"""Ad-hoc commands below HTTP, on ``db_session``: who may run one, which modules and arguments
the gate takes, what the run, the runs list and the audit trail keep, and the one-task play
it generates (``runs.adhoc``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import freezes as support_freezes
from support import runs as support_runs
from support import services
from support.runs import NoQueue

from steward.access.actor import Actor
from steward.audit.models import AuditRecord
from steward.config import ADHOC_MODULES_DEFAULT, Settings
from steward.crypto import KeyCipher
from steward.errors import Frozen, InvalidState, PermissionDenied
from steward.inventories.models import Inventory, InventoryKind
from steward.keys import service as keys_service
from steward.keys.models import KeyKind
from steward.keys.schemas import LoginPasswordKeyCreate
from steward.masking import MASK
from steward.projects.models import Project, ProjectRole
from steward.runs import adhoc
from steward.runs import service as runs
from steward.runs.models import LaunchType, Run, RunKind
from steward.runs.params import AdhocCommand, RunParams
from steward.runs.schemas import AdhocCreate, RunFilters
from steward.templates.launch import LaunchOverrides

MODULES = ADHOC_MODULES_DEFAULT


def _inventory(session: Session, project: Project) -> Inventory:
    inventory = Inventory(project_id=project.id, name="hosts", kind=InventoryKind.STATIC)
    session.add(inventory)
    session.flush()
    return inventory


def _launch(
    session: Session,
    project: Project,
    inventory_id: int,
    actor: Actor | None = None,
    cipher: KeyCipher | None = None,
    **body: Any,
) -> Run:
    who = actor or services.admin(session)
    command = adhoc.AdhocLaunch(inventory_id, AdhocCreate.model_validate(body), MODULES)
    request = runs.Launch(
        support_runs.rights(session, who, project),
        who,
        None,
        LaunchOverrides(),
        runs.Trigger(LaunchType.API),
        adhoc=command,
    )
    return runs.launch_now(session, request, cipher=cipher or services.cipher(), queue=NoQueue())


def test_an_adhoc_command_is_a_run_of_kind_adhoc_without_template(db_session: Session) -> None:
    project = services.project(db_session)
    inventory = _inventory(db_session, project)
    run = _launch(
        db_session, project, inventory.id, module="shell", args="df -h", limit="db*", forks=3
    )
    assert (run.kind, run.template_id, run.name) == (RunKind.ADHOC, None, "ad-hoc: shell")
    params = RunParams.of(run.params, run.id)
    assert params.adhoc == AdhocCommand(module="shell", args={"cmd": "df -h"}, become=False)
    assert (params.inventory_id, params.limit, params.forks) == (inventory.id, "db*", 3)
    assert (params.repository_id, params.install_requirements) == (None, False)
    rows, _ = runs.list_runs(db_session, services.admin(db_session), RunFilters(), project)
    assert [(r["id"], r["template_name"]) for r in rows] == [(run.id, "ad-hoc: shell")]


def test_a_module_outside_the_allow_list_is_refused_naming_module(db_session: Session) -> None:
    project = services.project(db_session)
    inventory = _inventory(db_session, project)
    detail = services.refused(
        lambda: _launch(db_session, project, inventory.id, module="raw", args="id"), "module"
    )
    assert "'raw' is not an allowed ad-hoc module" in detail
    assert _launch(db_session, project, inventory.id, module="command", args="id")  # control


@pytest.mark.security
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"module": "ping", "args": "data=x"}, "args"),  # free form: command and shell only
        ({"module": "command", "args": ""}, "args"),  # nothing to run
        ({"module": "service", "args": {"name x": "y"}}, "args"),  # a name is an identifier
        ({"module": "service", "args": {"_ansible_no_log": False}}, "args"),
        ({"module": "ping", "limit": "all,@/etc/shadow"}, "limit"),  # Ansible would read the file
        ({"module": "ping", "limit": "-i"}, "limit"),
        ({"module": "ping; id"}, "module"),
        ({"module": "ping", "forks": 0}, "forks"),
        ({"module": "ping", "become_key_id": 1}, "become_key_id"),  # without become
    ],
)
def test_refused_bodies_name_their_field(
    db_session: Session, body: dict[str, Any], field: str
) -> None:
    project = services.project(db_session)
    inventory = _inventory(db_session, project)
    cipher = services.cipher()
    key = keys_service.create(
        db_session,
        cipher,
        project,
        LoginPasswordKeyCreate(name="become", kind=KeyKind.LOGIN_PASSWORD, password="pw"),
        actor=services.admin(db_session),
    )
    body = {k: (key.id if k == "become_key_id" else v) for k, v in body.items()}
    services.refused(
        lambda: _launch(db_session, project, inventory.id, cipher=cipher, **body), field
    )
    control = {**body, "become": True} if field == "become_key_id" else {"module": "ping"}
    assert _launch(db_session, project, inventory.id, cipher=cipher, **control)


def test_a_key_of_the_wrong_kind_is_refused_naming_its_field(db_session: Session) -> None:
    project = services.project(db_session)
    inventory = _inventory(db_session, project)
    cipher = services.cipher()
    secret = services.secret_key(db_session, cipher, project, "token", "s3cr3t-value")
    services.refused(
        lambda: _launch(
            db_session, project, inventory.id, cipher=cipher, module="ping", ssh_key_id=secret
        ),
        "ssh_key_id",
    )


@pytest.mark.security
def test_only_managers_and_owners_run_adhoc_commands(db_session: Session) -> None:
    project = services.project(db_session)
    inventory = _inventory(db_session, project)
    for role, allowed in (
        (ProjectRole.VIEWER, False),
        (ProjectRole.OPERATOR, False),  # runs curated templates, not any command
        (ProjectRole.MANAGER, True),
        (ProjectRole.OWNER, True),
    ):
        who = support_runs.member(db_session, project, f"u-{role}", role)
        if allowed:
            assert _launch(db_session, project, inventory.id, who, module="ping").id
        else:
            with pytest.raises(PermissionDenied, match="adhoc:run"):
                _launch(db_session, project, inventory.id, who, module="ping")


def test_an_inventory_of_another_project_is_not_found(db_session: Session) -> None:
    project, other = services.project(db_session), services.project(db_session, "other")
    theirs = _inventory(db_session, other)
    with pytest.raises(Exception, match="not found"):
        _launch(db_session, project, theirs.id, module="ping")


def test_the_audit_records_module_and_args_with_key_secrets_masked(db_session: Session) -> None:
    project = services.project(db_session)
    inventory = _inventory(db_session, project)
    cipher = services.cipher()
    services.secret_key(db_session, cipher, project, "db", "hunter2-db-password")
    run = _launch(
        db_session,
        project,
        inventory.id,
        cipher=cipher,
        module="command",
        args="psql -c 'select 1' password=hunter2-db-password",
    )
    record = db_session.scalars(
        select(AuditRecord).where(AuditRecord.object_type == "run", AuditRecord.object_id == run.id)
    ).one()
    assert record.changes["module"] == [None, "command"]
    shown = json.loads(record.changes["args"][1])
    assert shown == {"cmd": f"psql -c 'select 1' password={MASK}"}
    assert "hunter2" not in record.detail
    assert "ad-hoc: command" in record.detail
    assert "hunter2-db-password" in run.params["adhoc"]["args"]["cmd"]  # the run keeps it


def test_a_relaunch_runs_the_same_command_and_checks_it_again(db_session: Session) -> None:
    project = services.project(db_session)
    inventory = _inventory(db_session, project)
    admin = services.admin(db_session)
    first = _launch(db_session, project, inventory.id, module="command", args="uptime", limit="a")
    rights = support_runs.rights(db_session, admin, project)

    def again(overrides: LaunchOverrides, modules: tuple[str, ...] = MODULES) -> Run:
        return runs.relaunch(
            db_session,
            rights=rights,
            actor=admin,
            previous=first,
            overrides=overrides,
            failed_only=False,
            cipher=services.cipher(),
            queue=NoQueue(),
            adhoc_modules=modules,
        )

    second = again(LaunchOverrides(limit="b"))
    assert (second.kind, second.relaunch_of_id) == (RunKind.ADHOC, first.id)
    assert second.params["adhoc"] == first.params["adhoc"]
    assert second.params["limit"] == "b"
    services.refused(lambda: again(LaunchOverrides(tags="x")), "tags")
    services.refused(lambda: again(LaunchOverrides(), modules=("ping",)), "module")
    with pytest.raises(InvalidState, match="no template"):
        runs.relaunched_template(db_session, rights, first)


def test_the_generated_play_only_refers_to_the_arguments() -> None:
    command = AdhocCommand(
        module="service", args={"name": "{{ lookup('pipe', 'id') }}", "state": "x"}, become=True
    )
    text = adhoc.playbook(command)
    assert "lookup" not in text
    (play,) = json.loads(text)
    assert play["hosts"] == "all"
    assert play["become"] is True
    assert play["tasks"][0]["action"] == "service"
    assert play["tasks"][0]["args"] == {
        "name": "{{ steward_adhoc_args['name'] }}",
        "state": "{{ steward_adhoc_args['state'] }}",
    }


def test_the_allow_list_setting_takes_module_names_only() -> None:
    assert Settings(adhoc_modules="ping, community.general.ufw").adhoc_modules == [  # type: ignore[arg-type]
        "ping",
        "community.general.ufw",
    ]
    with pytest.raises(ValueError, match="not a module name"):
        Settings(adhoc_modules="ping,raw -a id")  # type: ignore[arg-type]


def test_an_adhoc_command_during_a_freeze_is_refused_like_a_template(db_session: Session) -> None:
    project = services.project(db_session)
    inventory = _inventory(db_session, project)
    assert _launch(db_session, project, inventory.id, module="ping").id  # the control
    support_freezes.window(db_session, project, "prod only", labels=["prod"])
    assert _launch(db_session, project, inventory.id, module="ping").id  # no template labels
    support_freezes.window(db_session, project)
    with pytest.raises(Frozen) as refused:
        _launch(db_session, project, inventory.id, module="ping")
    assert refused.value.message.startswith("frozen: 'Year-end freeze' until ")
