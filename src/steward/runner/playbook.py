"""The one typed wrapper over ansible-runner; the only module that imports it.

Secrets never reach argv: extra vars go through 0600 files (``-e @file``), vault passwords
through 0600 files (``--vault-id label@file``), SSH/become passwords through pexpect prompts, the
SSH key through runner's ssh-agent FIFO, secret environment values through the child's env.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import ansible_runner

from steward.runner.processes import MARKER

Event = dict[str, Any]

# ansible-playbook and its helpers live next to the interpreter running us (runner-notes trap 1)
BIN_DIR = Path(sys.executable).parent

SSH_PASSWORD_PROMPT = r"SSH password:\s*?$"  # noqa: S105 - a prompt, not a password
BECOME_PASSWORD_PROMPT = r"BECOME password.*:\s*?$"  # noqa: S105 - a prompt


@dataclasses.dataclass(frozen=True)
class RunnerSpec:
    run_uuid: str
    private_data_dir: Path  # fresh, 0700, deleted by the caller
    project_dir: Path  # the checkout
    playbook: str  # relative to project_dir
    inventory: Path  # absolute (trap 3: a relative path would be taken as inline content)
    extravars_files: tuple[Path, ...] = ()  # in order: a later file's variable wins
    sandbox: tuple[str, ...] = ()  # the bwrap command (ending in "--") ansible-playbook runs in
    limit: str = ""
    tags: str = ""
    skip_tags: str = ""
    verbosity: int = 0
    forks: int | None = None
    check: bool = False
    diff: bool = False
    remote_user: str = ""
    ssh_key: str | None = None  # an unencrypted private key (passphrases are removed before)
    ssh_password: str | None = None
    become_password: str | None = None
    vault_ids: tuple[tuple[str, Path], ...] = ()  # (label, password file)
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)
    bin_dir: Path = BIN_DIR  # where ansible-playbook is: the server's venv or a template's

    @property
    def needs_launcher(self) -> bool:
        """Runner starts ansible-playbook from its own PATH (trap 1) unless given a ``binary``:
        a script is needed for the sandbox and for another venv's ansible-playbook."""
        return bool(self.sandbox) or self.bin_dir != BIN_DIR

    def cmdline(self) -> list[str]:
        args: list[str] = []
        for path in self.extravars_files:
            args += ["-e", f"@{path}"]
        if self.check:
            args.append("--check")
        if self.diff:
            args.append("--diff")
        if self.remote_user:
            args += ["-u", self.remote_user]
        if self.ssh_password is not None:
            args.append("--ask-pass")
        if self.become_password is not None:
            args.append("--ask-become-pass")
        for label, path in self.vault_ids:
            args += ["--vault-id", f"{label}@{path}" if label else str(path)]
        if self.needs_launcher:
            args.append(self.playbook)  # runner adds it only when it starts ansible-playbook itself
        return args

    def launcher(self) -> Path | None:
        """A script that starts the venv's ansible-playbook inside the sandbox (if any), or
        None when runner may start the server's own directly.

        ansible-runner takes one executable (``binary``), not a command prefix; ssh-agent, when
        runner adds it, wraps this script, so its socket stays outside the sandbox but in the
        run's own TMPDIR (bound inside).
        """
        if not self.needs_launcher:
            return None
        script = self.private_data_dir / "sandboxed-playbook"
        command = shlex.join([*self.sandbox, str(self.bin_dir / "ansible-playbook")])
        fd = os.open(script, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o700)
        with os.fdopen(fd, "w") as out:
            out.write(f'#!/bin/sh\nexec {command} "$@"\n')
        return script

    def passwords(self) -> dict[str, str]:
        prompts = {}
        if self.ssh_password is not None:
            prompts[SSH_PASSWORD_PROMPT] = self.ssh_password
        if self.become_password is not None:
            prompts[BECOME_PASSWORD_PROMPT] = self.become_password
        return prompts

    def environment(self) -> dict[str, str]:
        # runner seeds the child's env from ours: blank Steward's own settings (admin password…)
        env = {name: "" for name in os.environ if name.startswith("STEWARD_")}
        env.update(self.env)
        path = env.get("PATH") or os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")
        env["PATH"] = f"{self.bin_dir}:{path}"
        env[MARKER] = self.run_uuid
        return env


@dataclasses.dataclass(frozen=True)
class Outcome:
    status: str  # successful | failed | canceled | timeout | error
    rc: int | None


# runner takes its settings from <private_data_dir>/env/settings only: a `settings=` argument is
# dropped when that file is missing (trap 9), and so is `suppress_output_file=`
SETTINGS = {
    "pexpect_timeout": 0.25,  # trap 5: cancel is polled this often
    "suppress_ansible_output": True,
    "suppress_output_file": True,  # no artifacts/run/stdout copy of the whole, unmasked output
}


def _write_settings(private_data_dir: Path) -> None:
    env_dir = private_data_dir / "env"
    env_dir.mkdir(mode=0o700, exist_ok=True)
    (env_dir / "settings").write_text(json.dumps(SETTINGS))


def run_playbook(
    # timeouts are enforced by the caller's should_cancel: runner's own kills the process group
    # only, and then waits for setsid() workers that still hold the terminal (trap 6)
    spec: RunnerSpec,
    *,
    on_event: Callable[[Event], None],
    should_cancel: Callable[[], bool],
) -> Outcome:
    def keep(event: Event) -> bool:
        on_event(event)
        return False  # we store events ourselves; don't duplicate them under artifacts/

    _write_settings(spec.private_data_dir)
    result = ansible_runner.run(
        private_data_dir=str(spec.private_data_dir),
        project_dir=str(spec.project_dir),
        playbook=spec.playbook,
        binary=str(launcher) if (launcher := spec.launcher()) else None,
        inventory=str(spec.inventory),
        cmdline=shlex.join(spec.cmdline()),
        limit=spec.limit or None,
        tags=spec.tags or None,
        skip_tags=spec.skip_tags or None,
        verbosity=spec.verbosity or None,
        forks=spec.forks,
        envvars=spec.environment(),
        passwords=spec.passwords(),
        ssh_key=spec.ssh_key,
        suppress_env_files=True,  # trap 2: never write secrets under env/
        quiet=True,
        ident="run",
        event_handler=keep,
        cancel_callback=should_cancel,  # trap 4: also keeps runner off our signal handlers
    )
    return Outcome(status=str(result.status), rc=result.rc)
