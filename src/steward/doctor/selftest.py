"""The run sandbox, proved by a real run: a built-in playbook on localhost, started the way a
run's playbook is (``Sandbox.from_settings`` as ``Runtime`` builds it, a private directory
under the data dir's ``runs/`` and a TMPDIR under the SSH control root, both bound back into
the sandbox as ``execution/preparation`` binds a run's, ``playbook.run_playbook`` with
Steward's callback plugin, every process of it ended by its marker afterwards), that reports
what it could see: a file of its own directory (the control: the probe could succeed), a file
Steward wrote into the data dir, the master key file and the SQLite database.

No database row is written: the run is the execution path below the run domain, the same
sandbox, interpreter, ansible-playbook and callback plugin as every run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import secrets
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from steward.config import Settings
from steward.doctor.findings import Finding, fail, ok, seconds, warn
from steward.execution.ansible import processes
from steward.execution.ansible.playbook import RunnerSpec, run_playbook, write_secret
from steward.execution.ansible.sandbox import Sandbox, control_root

SANDBOX = "sandbox"
TIMEOUT = 60.0  # seconds: a loaded machine starts ansible-playbook slowly
PLAYBOOK = "steward-self-test.yml"
REPORT_TASK = "what the run saw"
# one module on localhost (the control), then what the controller sees; no content of the key
# or the database is ever read: `is file` is false for a hidden file (a tmpfs without it, or
# /dev/null bound over it)
PLAYBOOK_TEXT = f"""\
- name: Steward doctor's self-test
  hosts: localhost
  gather_facts: false
  tasks:
    - name: read a file of the run's own directory
      ansible.builtin.slurp:
        src: "{{{{ doctor_own_file }}}}"
      register: own
    - name: {REPORT_TASK}
      ansible.builtin.debug:
        msg:
          own_file: "{{{{ (own.content | b64decode) == doctor_token }}}}"
          data_dir: "{{{{ lookup('ansible.builtin.file', doctor_canary, errors='ignore')
            == doctor_token }}}}"
          master_key: "{{{{ doctor_key != '' and doctor_key is file }}}}"
          database: "{{{{ doctor_database != '' and doctor_database is file }}}}"
"""
# what the run reports seeing of Steward's own, as the doctor names it
LEAKS = {"data_dir": "the data dir", "master_key": "the master key", "database": "the database"}
INVENTORY = """\
all:
  hosts:
    localhost:
      ansible_connection: local
      ansible_python_interpreter: "{{ ansible_playbook_python }}"
"""


@dataclasses.dataclass(frozen=True)
class SelfTest:
    """How the run went: its status and time, what it saw (None: it reported nothing) and, when
    it failed, the end of its output."""

    status: str
    seconds: float
    saw: dict[str, bool] | None
    output: str = ""

    @property
    def leaks(self) -> list[str]:
        """What the run could read of Steward's own."""
        return [text for key, text in LEAKS.items() if self.saw and self.saw.get(key)]


def _truth(value: Any) -> bool:
    return value is True or str(value).strip().lower() == "true"


def _database_file(settings: Settings) -> str:
    url = make_url(settings.database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return ""
    return str(Path(url.database or "").resolve())


def run_self_test(settings: Settings, sandbox: Sandbox, *, timeout: float = TIMEOUT) -> SelfTest:
    """The built-in playbook on localhost inside ``sandbox``; what it saw."""
    run_uuid = f"doctor-{uuid.uuid4().hex[:12]}"
    workdir = settings.runs_dir / run_uuid
    canary = settings.data_dir / f".{run_uuid}"
    token = secrets.token_hex(16)
    control_dir: Path | None = None
    try:
        workdir.mkdir(mode=0o700, parents=True)
        # TMPDIR as a run's: short (Ansible's and ssh's sockets), under the hidden control root
        control_root(settings).mkdir(mode=0o700, exist_ok=True)
        control_dir = Path(tempfile.mkdtemp(prefix="doctor-", dir=control_root(settings)))
        (workdir / "project").mkdir(mode=0o700)
        (workdir / "project" / PLAYBOOK).write_text(PLAYBOOK_TEXT)
        (workdir / "tmp").mkdir(mode=0o700)
        inventory = workdir / "inventory.yml"
        inventory.write_text(INVENTORY)
        own_file = write_secret(workdir / "own", token)
        write_secret(canary, token)
        key = settings.key_file
        variables = {
            "doctor_own_file": str(own_file),
            "doctor_canary": str(canary),
            "doctor_token": token,
            "doctor_key": str(key.resolve()) if key.exists() else "",
            "doctor_database": _database_file(settings),
        }
        extravars = write_secret(workdir / "secrets" / "doctor.json", json.dumps(variables))
        spec = RunnerSpec(
            run_uuid=run_uuid,
            private_data_dir=workdir,
            project_dir=workdir / "project",
            playbook=PLAYBOOK,
            inventory=inventory,
            extravars_files=(extravars,),
            sandbox=tuple(sandbox.wrap([], visible=(workdir, control_dir))),
            env={
                "TMPDIR": str(control_dir),
                "ANSIBLE_LOCAL_TEMP": str(workdir / "tmp"),
                "ANSIBLE_RETRY_FILES_ENABLED": "False",
                "ANSIBLE_INVENTORY_ENABLED": "yaml",
                "ANSIBLE_NOCOLOR": "True",
            },
        )
        events: list[dict[str, Any]] = []
        started = time.monotonic()
        deadline = started + timeout
        try:
            outcome = run_playbook(
                spec, on_event=events.append, should_cancel=lambda: time.monotonic() > deadline
            )
        finally:
            processes.kill_all(run_uuid)
        took = time.monotonic() - started
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if control_dir is not None:
            shutil.rmtree(control_dir, ignore_errors=True)
        canary.unlink(missing_ok=True)
    saw = None
    for event in events:
        data = event.get("event_data") or {}
        if event.get("event") == "runner_on_ok" and data.get("task") == REPORT_TASK:
            message = (data.get("res") or {}).get("msg")
            if isinstance(message, dict):
                saw = {name: _truth(value) for name, value in message.items()}
    status = "timed out" if outcome.status == "canceled" else outcome.status
    output = "\n".join(str(e.get("stdout", "")) for e in events if e.get("stdout"))
    return SelfTest(status, took, saw, output.strip()[-600:])


@contextlib.contextmanager
def _made(directory: Path) -> Iterator[None]:
    """``directory`` exists inside; the directories made for it are removed after, if empty."""
    missing = []
    path = directory
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    try:
        yield
    finally:
        runs = directory / "runs"
        for path in ([runs] if missing else []) + missing:
            with contextlib.suppress(OSError):
                path.rmdir()


def _listed(items: list[str]) -> str:
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 2 else items)


def _last_line(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no output"


def sandbox_check(settings: Settings, sandbox: Sandbox | None = None) -> Finding:
    """The sandbox runs get (``sandbox``: default the one the settings give, as at start),
    proved with a self-test run: FAIL when runs are refused, when the run fails, or when a
    sandboxed run could read the data dir, the key or the database; a warning when runs are
    not sandboxed (STEWARD_SANDBOX=off, or optional without bubblewrap)."""
    try:
        # as at start (``Runtime.build``), the data dir exists before the sandbox is set up, or
        # it would not be hidden; one made for the test only is removed after it
        with _made(settings.data_dir):
            if sandbox is None:
                sandbox = Sandbox.from_settings(settings)
            if sandbox.refusal:
                return fail(SANDBOX, sandbox.refusal)
            test = run_self_test(settings, sandbox)
    except OSError as exc:
        return fail(SANDBOX, f"the self-test run could not be prepared ({exc})")
    took = seconds(test.seconds)
    if test.status != "successful" or test.saw is None:
        return fail(
            SANDBOX,
            f"the self-test run on localhost {test.status} after {took}: {_last_line(test.output)}"
            "; runs fail the same way (is ansible-core installed beside Steward?)",
        )
    if not test.saw.get("own_file"):
        return fail(
            SANDBOX,
            f"the self-test run could not read its own directory ({took});"
            " runs cannot work in this sandbox",
        )
    seen = _listed(test.leaks) or "nothing of Steward's"
    if not sandbox.enabled:
        return warn(
            SANDBOX,
            f"runs are NOT sandboxed (STEWARD_SANDBOX={settings.sandbox}): the self-test run"
            f" ({took}) read {seen}; apt-get install bubblewrap and set"
            " STEWARD_SANDBOX=required",
        )
    if test.leaks:
        return fail(
            SANDBOX,
            f"a sandboxed run read {seen} ({took}): the sandbox never hides a system"
            " directory (/, /usr, /etc, /tmp, /var) nor one holding Python; move the data dir"
            " and the key file to directories of their own (STEWARD_DATA_DIR,"
            " STEWARD_SECRET_KEY_FILE)",
        )
    return ok(
        SANDBOX,
        f"a self-test run on localhost took {took} and could not read the data dir, the master"
        " key or the database (bubblewrap)",
    )
