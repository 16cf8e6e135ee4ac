"""Ad-hoc commands: one allow-listed module with its arguments on an inventory's hosts, now.

An ad-hoc command is a run of kind ``adhoc`` with no template: it passes the one launch gate
(``runs.service.launch``), so it is recorded, streamed, audited, cancelable, relaunchable and in
the runs list and the hosts' history like any run. What it runs is in its parameters
(``RunParams.adhoc``): the module, its arguments as a JSON object, ``become``; beside them the
inventory, the limit (the host pattern, checked by Ansible's own parser), keys and forks.

Rules, asked at every launch (API, console, CLI, relaunch):

- ``adhoc:run`` in the project (managers and owners: it runs anything, like writing a template);
- the module is one of ``Settings.adhoc_modules`` (``STEWARD_ADHOC_MODULES``), exactly;
- the arguments are a JSON object whose names are plain identifiers, or free-form text for
  command and shell (their ``cmd``); the values are data: the executor writes them ``!unsafe``
  (``execution/ansible/extravars.untrusted``) and the generated playbook only refers to them,
  so ``{{ lookup('pipe', 'id') }}`` reaches the module as that text (``ARGS_VARIABLE``);
- keys of the project of the kinds a template's would be (``templates.service.checked_key``).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Collection
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.policy import Action, ProjectAccess
from steward.crypto import KeyCipher
from steward.errors import InvalidInput
from steward.inventories.models import Inventory, InventoryKind
from steward.keys.models import Key
from steward.masking import Masker
from steward.projects.scoped import get_in_project
from steward.runs.params import AdhocCommand, RunParams
from steward.runs.schemas import AdhocCreate
from steward.templates.service import BECOME_KINDS, SSH_KINDS, checked_key

# the modules whose free-form text is their ``cmd``
FREE_FORM = frozenset(
    f"{prefix}{name}"
    for prefix in ("", "ansible.builtin.", "ansible.legacy.")
    for name in ("command", "shell")
)
# the untrusted extra var holding the arguments; the generated task refers to it by name
ARGS_VARIABLE = "steward_adhoc_args"
_ARG_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,199}$")
PLAYBOOK = "adhoc.yml"


@dataclasses.dataclass(frozen=True)
class AdhocLaunch:
    """An ad-hoc command asked of the launch gate: on which inventory, what, and the modules
    the instance allows (``Settings.adhoc_modules``, read by the caller)."""

    inventory_id: int
    body: AdhocCreate
    modules: Collection[str]


def arguments(module: str, given: str | dict[str, Any], allowed: Collection[str]) -> dict[str, Any]:
    """The module's arguments as the run keeps them (free-form text as ``cmd``); 422 naming
    ``module`` for a module not allowed, ``args`` for arguments it cannot take."""
    if module not in allowed:
        raise InvalidInput(
            "module",
            f"'{module}' is not an allowed ad-hoc module; allowed: {', '.join(allowed) or 'none'}",
        )
    if isinstance(given, str):
        if module in FREE_FORM:
            if not given.strip():
                raise InvalidInput("args", f"'{module}' needs a command to run")
            return {"cmd": given}
        if given.strip():
            raise InvalidInput(
                "args",
                f"'{module}' takes a JSON object of arguments; only command and shell take"
                " free-form text",
            )
        return {}
    for name in given:
        if not _ARG_NAME.match(name) or name.startswith("_ansible"):
            raise InvalidInput("args", f"'{name[:50]}' is not a module argument name")
    return dict(given)


def resolve(
    session: Session, rights: ProjectAccess, request: AdhocLaunch
) -> tuple[RunParams, dict[str, Any]]:
    """The parameters and snapshot of an ad-hoc run (``runs.service.launch`` asks it): 403
    without ``adhoc:run``, 404 for an inventory or key of another project, 422 as above."""
    rights.require(Action.ADHOC_RUN)
    project, body = rights.project, request.body
    inventory = get_in_project(session, Inventory, project, request.inventory_id, "inventory")
    args = arguments(body.module, body.args, request.modules)
    ssh_key = checked_key(session, project, body.ssh_key_id, "ssh_key_id", SSH_KINDS)
    become_key = checked_key(session, project, body.become_key_id, "become_key_id", BECOME_KINDS)
    if become_key is not None and not body.become:
        raise InvalidInput("become_key_id", "a become key is used only with become: true")
    params = RunParams(
        inventory_id=inventory.id,
        repository_id=inventory.repository_id if inventory.kind != InventoryKind.STATIC else None,
        ssh_key_id=ssh_key.id if ssh_key else None,
        become_key_id=become_key.id if become_key else None,
        limit=body.limit,
        forks=body.forks,
        verbosity=body.verbosity,
        install_requirements=False,
        adhoc=AdhocCommand(module=body.module, args=args, become=body.become),
    )
    snapshot = {
        "name": f"ad-hoc: {body.module}",
        "module": body.module,
        "inventory_id": inventory.id,
        "ssh_key": ssh_key.name if ssh_key else None,
        "become_key": become_key.name if become_key else None,
    }
    return params, snapshot


def relaunched(previous: RunParams, *, limit: str | None, forks: int | None) -> AdhocCreate:
    """The command of an earlier ad-hoc run, ``limit`` and ``forks`` replaced when given:
    checked again at launch like any (the module may have left the allow-list since)."""
    command = previous.adhoc
    if command is None:
        raise InvalidInput("run", "not an ad-hoc run")
    return AdhocCreate.model_validate(
        {
            "module": command.module,
            "args": dict(command.args),
            "limit": previous.limit if limit is None else limit,
            "ssh_key_id": previous.ssh_key_id,
            "become": command.become,
            "become_key_id": previous.become_key_id,
            "forks": previous.forks if forks is None else forks,
            "verbosity": previous.verbosity,
        }
    )


def audited_args(session: Session, cipher: KeyCipher, project_id: int, args: dict[str, Any]) -> str:
    """The arguments as the audit trail shows them: JSON, any secret of the project's key
    store in them masked."""
    secrets: list[str] = []
    for ciphertext in session.scalars(select(Key.ciphertext).where(Key.project_id == project_id)):
        if ciphertext is not None:
            payload = cipher.decrypt(ciphertext)
            secrets.extend(str(v) for v in payload.values() if isinstance(v, str) and len(v) >= 4)
    return Masker(secrets).text(json.dumps(args, ensure_ascii=False, sort_keys=True))


def playbook(command: AdhocCommand) -> str:
    """The one-task play of an ad-hoc run (JSON, which YAML reads): every host of the run's
    limit, the module, and each argument a reference to the untrusted ``ARGS_VARIABLE`` — no
    given text is ever part of it (names are identifiers: ``arguments``)."""
    task: dict[str, Any] = {
        "name": command.module,
        "action": command.module,
        "args": {name: f"{{{{ {ARGS_VARIABLE}['{name}'] }}}}" for name in command.args},
    }
    play = {
        "name": f"ad-hoc: {command.module}",
        "hosts": "all",
        "gather_facts": False,
        "become": command.become,
        "tasks": [task],
    }
    return json.dumps([play], indent=2)
