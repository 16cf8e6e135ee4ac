"""Build everything one run needs in its private directory, from the run's recorded parameters.

The directory (0700) holds the checkout, the inventory, and the secret files (0600): extra vars
and vault passwords. The executor deletes it when the run ends, whatever happens.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from steward.config import Settings
from steward.environments import service as environments
from steward.environments.models import Environment
from steward.errors import InvalidState
from steward.inventories.models import Inventory, InventoryKind
from steward.inventories.paths import inside
from steward.inventories.resolve import plugins_for, write_static
from steward.keys import service as keys
from steward.keys.crypto import KeyCipher
from steward.keys.models import KeyKind
from steward.repositories.checkout import checkout
from steward.repositories.models import Repository
from steward.runner import extravars
from steward.runner.masking import Masker
from steward.runner.playbook import RunnerSpec
from steward.runner.sandbox import Sandbox
from steward.runs import workdirs
from steward.runs.models import Run


@dataclasses.dataclass(frozen=True)
class Prepared:
    spec: RunnerSpec
    masker: Masker
    commit: str
    timeout_seconds: int | None


def _write_secret(path: Path, content: str) -> Path:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(content)
    return path


def _load[T](session: Session, model: type[T], object_id: int | None, run: Run, what: str) -> T:
    obj = session.get(model, object_id) if object_id is not None else None
    if obj is None or getattr(obj, "project_id", None) != run.project_id:
        raise InvalidState(f"the {what} {object_id} used by this run no longer exists")
    return obj


def prepare(
    session: Session,
    cipher: KeyCipher,
    settings: Settings,
    sandbox: Sandbox,
    run: Run,
    workdir: Path,
) -> Prepared:
    if sandbox.refusal:
        raise InvalidState(sandbox.refusal)
    params: dict[str, Any] = run.params
    secrets: list[str] = []
    secret_params: dict[str, Any] = cipher.decrypt(run.secret_params) if run.secret_params else {}

    repo = _load(session, Repository, params["repository_id"], run, "repository")
    roots = settings.repository_roots
    source = checkout(session, cipher, repo, workdir / "project", roots=roots)

    inventory = _load(session, Inventory, params["inventory_id"], run, "inventory")
    if inventory.kind == InventoryKind.STATIC:
        inventory_path = write_static(inventory, workdir / "inventory")
    else:
        found = inside(source.path, inventory.path)
        if found is None or not found.exists():
            raise InvalidState(f"inventory file '{inventory.path}' is not in the repository")
        inventory_path = found

    extra_vars: dict[str, Any] = {}
    env: dict[str, str] = {}
    if params.get("environment_id") is not None:
        environment = _load(session, Environment, params["environment_id"], run, "environment")
        resolved = environments.resolve(session, cipher, environment)
        extra_vars.update(resolved.extra_vars)
        extra_vars.update(resolved.secret_extra_vars)
        env.update(resolved.env_vars)
        env.update(resolved.secret_env)
        secrets += resolved.secret_values
    extra_vars.update(params.get("extra_vars") or {})
    survey_secrets: dict[str, Any] = secret_params.get("extra_vars", {})
    launch_vars = {**(params.get("launch_vars") or {}), **survey_secrets}
    secrets += [str(v) for v in survey_secrets.values()]

    remote_user, ssh_key, ssh_password, become_password = "", None, None, None
    if params.get("ssh_key_id") is not None:
        material = keys.reveal(session, cipher, params["ssh_key_id"], run.project_id)
        secrets += material.secret_values()
        remote_user = material.username
        if material.kind == KeyKind.SSH:
            ssh_key = material.private_key
        else:
            ssh_password = material.password
    if params.get("become_key_id") is not None:
        material = keys.reveal(session, cipher, params["become_key_id"], run.project_id)
        secrets += material.secret_values()
        become_password = material.password

    vault_ids: list[tuple[str, Path]] = []
    for n, key_id in enumerate(params.get("vault_key_ids") or []):
        material = keys.reveal(session, cipher, key_id, run.project_id)
        secrets += material.secret_values()
        path = _write_secret(workdir / "secrets" / f"vault-{n}", material.password or "")
        vault_ids.append((material.vault_id, path))

    extravars_files = (
        _write_secret(workdir / "secrets" / "extravars.json", extravars.trusted(extra_vars)),
        _write_secret(workdir / "secrets" / "launchvars.yml", extravars.untrusted(launch_vars)),
    )
    control_dir = workdirs.new_control_dir(settings, run.id)
    known_hosts = settings.data_dir / "known_hosts" / f"project-{run.project_id}"
    known_hosts.parent.mkdir(parents=True, exist_ok=True)
    known_hosts.touch(mode=0o600)
    (workdir / "tmp").mkdir(mode=0o700)
    env.update(
        {
            # ssh-agent puts its socket under TMPDIR: the run's own, hidden from other runs
            "TMPDIR": str(control_dir),
            # one run can never borrow another run's authenticated SSH connection
            "ANSIBLE_SSH_CONTROL_PATH_DIR": str(control_dir),
            "ANSIBLE_SSH_COMMON_ARGS": (
                f"-o StrictHostKeyChecking=accept-new -o UserKnownHostsFile={known_hosts}"
            ),
            "ANSIBLE_LOCAL_TEMP": str(workdir / "tmp"),
            "ANSIBLE_RETRY_FILES_ENABLED": "False",
            # parse the inventory the way it was validated when saved
            "ANSIBLE_INVENTORY_ENABLED": ",".join(plugins_for(inventory)),
        }
    )
    spec = RunnerSpec(
        run_uuid=run.uuid,
        private_data_dir=workdir,
        project_dir=source.path,
        playbook=params["playbook"],
        inventory=inventory_path,
        extravars_files=extravars_files,
        sandbox=tuple(sandbox.wrap([], visible=[workdir, control_dir, known_hosts])),
        limit=params.get("limit") or "",
        tags=params.get("tags") or "",
        skip_tags=params.get("skip_tags") or "",
        verbosity=int(params.get("verbosity") or 0),
        forks=params.get("forks"),
        check=bool(params.get("check_mode")),
        diff=bool(params.get("diff_mode")),
        remote_user=remote_user,
        ssh_key=ssh_key,
        ssh_password=ssh_password,
        become_password=become_password,
        vault_ids=tuple(vault_ids),
        env=env,
    )
    return Prepared(
        spec=spec,
        masker=Masker(secrets),
        commit=source.commit,
        timeout_seconds=params.get("timeout_seconds"),
    )
