"""Build everything one run needs in its private directory, from the run's recorded parameters.

The directory (0700) holds the checkout, the inventory, and the secret files (0600): extra vars
and vault passwords. The executor deletes it when the run ends, whatever happens.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from steward.bounds import PLAN_DIFF_RESULT_MAX
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.environments import service as environments
from steward.environments.models import Environment
from steward.errors import InvalidState
from steward.execution import workdirs
from steward.execution.ansible import extravars, venvs
from steward.execution.ansible.playbook import (
    FACTS_VARIABLE,
    PLAN_DIFF_VARIABLE,
    RunnerSpec,
    write_secret,
)
from steward.execution.ansible.sandbox import Sandbox
from steward.execution.requirements import Installed, RequirementsPlan
from steward.galaxy import service as galaxy
from steward.galaxy.service import ServerAccess
from steward.hosts import facts as host_facts
from steward.inventories.models import Inventory, InventoryKind
from steward.inventories.paths import inside
from steward.inventories.resolve import plugins_for, write_static
from steward.keys import service as keys
from steward.keys.models import KeyKind
from steward.keys.service import KeyMaterial
from steward.masking import Masker
from steward.outbound import network
from steward.projects.models import Project
from steward.repositories import local
from steward.repositories.checkout import Checkout, checkout
from steward.repositories.models import Repository
from steward.runs import adhoc
from steward.runs.models import Run, RunKind
from steward.runs.params import RunParams
from steward.templates import patterns


@dataclasses.dataclass(frozen=True)
class Prepared:
    spec: RunnerSpec
    masker: Masker
    commit: str
    timeout_seconds: int | None
    requirements: RequirementsPlan
    sandbox: Sandbox
    visible: tuple[Path, ...]  # bound into the sandbox read-write

    def with_requirements(self, installed: Installed) -> RunnerSpec:
        """The playbook's spec once the requirements are installed: their paths in its
        environment, the cache entries it uses bound read-only."""
        if not installed.env and not installed.read_only:
            return self.spec
        wrapped = self.sandbox.wrap([], visible=self.visible, read_only=installed.read_only)
        return dataclasses.replace(
            self.spec,
            env={**self.spec.env, **installed.env},
            sandbox=tuple(wrapped),
        )


def _load[T](session: Session, model: type[T], object_id: int | None, run: Run, what: str) -> T:
    obj = session.get(model, object_id) if object_id is not None else None
    if obj is None or getattr(obj, "project_id", None) != run.project_id:
        raise InvalidState(f"the {what} {object_id} used by this run no longer exists")
    return obj


@dataclasses.dataclass(frozen=True)
class _Context:
    """What every step of the preparation reads; ``secrets`` gathers every secret value the
    run's output must never show."""

    session: Session
    cipher: KeyCipher
    run: Run
    params: RunParams
    workdir: Path
    secrets: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class _Credentials:
    remote_user: str = ""
    ssh_key: str | None = None
    ssh_password: str | None = None
    become_password: str | None = None
    vault_ids: tuple[tuple[str, Path], ...] = ()


def prepare(
    session: Session,
    cipher: KeyCipher,
    settings: Settings,
    sandbox: Sandbox,
    run: Run,
    workdir: Path,
) -> Prepared:
    """The checkout, inventory, variables, credentials and SSH isolation of one run, written
    into its private directory ``workdir``; raises ``InvalidState`` (the run fails with the
    reason) when something it needs is gone or refused."""
    if sandbox.refusal:
        raise InvalidState(sandbox.refusal)
    params = RunParams.of(run.params, run.id)
    limit = _check_patterns(params)
    ctx = _Context(session, cipher, run, params, workdir)
    source = _checkout(ctx, settings)
    inventory = _load(session, Inventory, params.inventory_id, run, "inventory")
    inventory_path = _inventory_path(inventory, source.path, workdir)
    project_dir, playbook = source.path, params.playbook
    if params.adhoc is not None:  # its one-task play, beside the checkout (if any), not in it
        project_dir, playbook = workdir / "adhoc", adhoc.PLAYBOOK
        project_dir.mkdir(mode=0o700)
        (project_dir / playbook).write_text(adhoc.playbook(params.adhoc))
    env, extravars_files = _variables(ctx)
    if params.adhoc is not None:  # each host's result with its stdout line by line (at -v)
        env["ANSIBLE_CALLBACK_RESULT_FORMAT"] = "yaml"
    credentials = _credentials(ctx)
    requirements = _requirements(ctx, settings, sandbox)
    control_dir, known_hosts = _ssh_isolation(settings, run, env)
    env.update(
        {
            "ANSIBLE_LOCAL_TEMP": str(_private_tmp(workdir)),
            "ANSIBLE_RETRY_FILES_ENABLED": "False",
            # parse the inventory the way it was validated when saved
            "ANSIBLE_INVENTORY_ENABLED": ",".join(plugins_for(inventory)),
        }
    )
    env[FACTS_VARIABLE] = str(settings.facts_max_bytes)  # the callback sends facts this big
    if params.use_fact_cache:
        env.update(_fact_cache(ctx, inventory))
    if run.kind == RunKind.PLAN:  # the callback keeps what a plan reads (diffs, skips, refs)
        env[PLAN_DIFF_VARIABLE] = str(PLAN_DIFF_RESULT_MAX)
    visible = (workdir, control_dir, known_hosts)
    spec = RunnerSpec(
        run_uuid=run.uuid,
        private_data_dir=workdir,
        project_dir=project_dir,
        playbook=playbook,
        inventory=inventory_path,
        extravars_files=extravars_files,
        sandbox=tuple(sandbox.wrap([], visible=visible)),
        limit=limit,
        tags=params.tags,
        skip_tags=params.skip_tags,
        verbosity=params.verbosity,
        forks=params.forks,
        check=params.check_mode,
        diff=params.diff_mode,
        env=env,
        bin_dir=requirements.venv.bin_dir,
        **dataclasses.asdict(credentials),
    )
    return Prepared(
        spec=spec,
        masker=Masker(ctx.secrets),
        commit=source.commit,
        timeout_seconds=params.timeout_seconds,
        requirements=requirements,
        sandbox=sandbox,
        visible=visible,
    )


def _checkout(ctx: _Context, settings: Settings) -> Checkout:
    """The run's repository checked out; an ad-hoc run of a static inventory has none (an
    empty directory, no commit)."""
    directory = ctx.workdir / "project"
    if ctx.params.repository_id is None:
        directory.mkdir(mode=0o700)
        return Checkout(path=directory, commit="")
    repo = _load(ctx.session, Repository, ctx.params.repository_id, ctx.run, "repository")
    return checkout(
        ctx.session,
        ctx.cipher,
        repo,
        directory,
        ref=ctx.params.ref,
        roots=settings.repository_roots,
        guard=network.Guard.of(settings),
    )


def _fact_cache(ctx: _Context, inventory: Inventory) -> dict[str, str]:
    """The project's stored facts of the inventory's hosts as Ansible's jsonfile fact cache, in
    the private directory; the settings that make it the run's (over any ``ansible.cfg``)."""
    directory = ctx.workdir / "facts"
    host_facts.write_cache(ctx.session, ctx.run.project_id, inventory.id, directory)
    return {
        "ANSIBLE_CACHE_PLUGIN": "jsonfile",
        "ANSIBLE_CACHE_PLUGIN_CONNECTION": str(directory),
        "ANSIBLE_CACHE_PLUGIN_PREFIX": "",
        "ANSIBLE_CACHE_PLUGIN_TIMEOUT": "0",  # never expired: Steward wrote them just now
    }


def _check_patterns(params: RunParams) -> str:
    """Once more before Ansible reads them: a limit or tags saved before the element checks
    (``templates.patterns``: a template's own, an older run's relaunched) read no file either.
    The limit to pass: the run's, intersected with its host scope when it has one."""
    try:
        limit = params.effective_limit
    except ValueError as exc:
        raise InvalidState(f"limit: {exc}") from exc
    for field, cause in (
        ("limit", patterns.limit_refusal(limit)),
        ("tags", patterns.tags_refusal(params.tags)),
        ("skip_tags", patterns.tags_refusal(params.skip_tags)),
    ):
        if cause:
            raise InvalidState(f"{field}: {cause}")
    return limit


def _requirements(ctx: _Context, settings: Settings, sandbox: Sandbox) -> RequirementsPlan:
    """The venv whose Ansible runs, and the project's Galaxy servers with their secrets (added
    to what the output masks) when the template installs requirements."""
    venv = venvs.resolve(settings, ctx.params.ansible_venv)
    if sandbox.hides(venv.bin_dir):
        raise InvalidState(
            f"the virtual environment '{venv.path}' is in a directory the sandbox hides"
            " (the data dir or a repository root)"
        )
    servers: list[ServerAccess] = []
    local_dirs: tuple[Path, ...] = ()
    if ctx.params.install_requirements:
        servers = galaxy.for_run(ctx.session, ctx.cipher, ctx.run.project_id)
        ctx.secrets.extend(value for server in servers for value in server.secret_values())
        project = ctx.session.get(Project, ctx.run.project_id)
        if project is not None:
            local_dirs = local.roots_of(project, settings.repository_roots).usable
    return RequirementsPlan(
        enabled=ctx.params.install_requirements,
        project_id=ctx.run.project_id,
        venv=venv,
        servers=tuple(servers),
        local_dirs=local_dirs,
        local_roots=settings.repository_roots,
    )


def _inventory_path(inventory: Inventory, checkout_dir: Path, workdir: Path) -> Path:
    if inventory.kind == InventoryKind.STATIC:
        return write_static(inventory, workdir / "inventory")
    found = inside(checkout_dir, inventory.path)
    if found is None or not found.exists():
        raise InvalidState(f"inventory file '{inventory.path}' is not in the repository")
    return found


def _variables(ctx: _Context) -> tuple[dict[str, str], tuple[Path, ...]]:
    """The environment variables, and the extra vars files in the order they apply: the
    environment's and the template's (trusted) first, then the launch values (untrusted)."""
    session, params, run = ctx.session, ctx.params, ctx.run
    trusted: dict[str, Any] = {}
    env: dict[str, str] = {}
    if params.environment_id is not None:
        environment = _load(session, Environment, params.environment_id, run, "environment")
        resolved = environments.resolve(session, ctx.cipher, environment)
        trusted.update(resolved.extra_vars)
        trusted.update(resolved.secret_extra_vars)
        env.update(resolved.env_vars)
        env.update(resolved.secret_env)
        ctx.secrets.extend(resolved.secret_values)
    trusted.update(params.extra_vars)
    sealed: dict[str, Any] = ctx.cipher.decrypt(run.secret_params) if run.secret_params else {}
    survey_secrets: dict[str, Any] = sealed.get("extra_vars", {})
    ctx.secrets.extend(str(v) for v in survey_secrets.values())
    untrusted = {**params.launch_vars, **survey_secrets}
    if params.adhoc is not None:  # the arguments its generated play refers to (``runs.adhoc``)
        untrusted[adhoc.ARGS_VARIABLE] = params.adhoc.args
    secret_dir = ctx.workdir / "secrets"
    files = (
        write_secret(secret_dir / "extravars.json", extravars.trusted(trusted)),
        write_secret(secret_dir / "launchvars.yml", extravars.untrusted(untrusted)),
    )
    return env, files


def _credentials(ctx: _Context) -> _Credentials:
    """The keys of the template, decrypted: SSH key or password, become password, vault
    passwords (written to 0600 files)."""

    def reveal(key_id: int) -> KeyMaterial:
        material = keys.reveal(ctx.session, ctx.cipher, key_id, ctx.run.project_id)
        ctx.secrets.extend(material.secret_values())
        return material

    params = ctx.params
    remote_user, ssh_key, ssh_password, become_password = "", None, None, None
    if params.ssh_key_id is not None:
        material = reveal(params.ssh_key_id)
        remote_user = material.username
        if material.kind == KeyKind.SSH:
            ssh_key = material.private_key
        else:
            ssh_password = material.password
    if params.become_key_id is not None:
        material = reveal(params.become_key_id)
        become_password = material.password
    vault_ids: list[tuple[str, Path]] = []
    for n, key_id in enumerate(params.vault_key_ids):
        material = reveal(key_id)
        path = write_secret(ctx.workdir / "secrets" / f"vault-{n}", material.password or "")
        vault_ids.append((material.vault_id, path))
    return _Credentials(remote_user, ssh_key, ssh_password, become_password, tuple(vault_ids))


def _ssh_isolation(settings: Settings, run: Run, env: dict[str, str]) -> tuple[Path, Path]:
    """A control directory of the run's own (ControlPersist and ssh-agent sockets) and the
    project's known hosts, set in ``env``; both returned, to be bound into the sandbox."""
    control_dir = workdirs.new_control_dir(settings, run.id)
    known_hosts = settings.data_dir / "known_hosts" / f"project-{run.project_id}"
    known_hosts.parent.mkdir(parents=True, exist_ok=True)
    known_hosts.touch(mode=0o600)
    env.update(
        {
            # ssh-agent puts its socket under TMPDIR: the run's own, hidden from other runs
            "TMPDIR": str(control_dir),
            # one run can never borrow another run's authenticated SSH connection
            "ANSIBLE_SSH_CONTROL_PATH_DIR": str(control_dir),
            "ANSIBLE_SSH_COMMON_ARGS": (
                f"-o StrictHostKeyChecking=accept-new -o UserKnownHostsFile={known_hosts}"
            ),
        }
    )
    return control_dir, known_hosts


def _private_tmp(workdir: Path) -> Path:
    tmp = workdir / "tmp"
    tmp.mkdir(mode=0o700)
    return tmp
