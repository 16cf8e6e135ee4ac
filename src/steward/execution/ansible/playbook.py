"""Run one ansible-playbook and stream its events (Steward's own, no ansible-runner).

``ansible-playbook`` (the chosen venv's, inside the run's sandbox) is started with plain pipes:
stdin from /dev/null, stdout and stderr on one pipe, and a second pipe whose write end it gets as
``STEWARD_EVENTS_FD``. Steward's callback plugin (``callback/steward_events.py`` beside this
module, put on ``ANSIBLE_CALLBACK_PLUGINS``) sends every event, with the exact text the stdout
callback printed for it, through that second pipe as length-prefixed records (see the plugin): the
line stream is the default callback's text, and which lines belong to which event is known exactly.
Whatever reaches the first pipe (output before the plugin loads, a stray write of a child) is
recorded as ``verbose`` events. Events reach ``on_event`` in the shape ``execution/recorder.py``
stores.

Secrets never reach argv or the environment: extra vars are 0600 files (``-e @file``), vault
passwords ``--vault-id label@file``, SSH and become passwords ``--connection-password-file`` and
``--become-password-file`` (0600 files in the private directory), the SSH key is added to an
ssh-agent of the run through ``ssh-add -`` on stdin; the agent's socket is in the run's own
TMPDIR and the agent is stopped when the run ends.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import selectors
import struct
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from steward.errors import InvalidState
from steward.execution.ansible.processes import MARKER

Event = dict[str, Any]

# ansible-playbook and its helpers live next to the interpreter running us
BIN_DIR = Path(sys.executable).parent
CALLBACK_DIR = Path(__file__).resolve().parent / "callback"
EVENTS_FD_VARIABLE = "STEWARD_EVENTS_FD"  # read by the plugin
PLAN_DIFF_VARIABLE = "STEWARD_PLAN_DIFF_BYTES"  # the callback's DIFF_VARIABLE: set for a plan
FACTS_VARIABLE = "STEWARD_FACTS_BYTES"  # the callback's: the largest facts of a result it sends
HEADER = struct.Struct("!II")  # a record: event JSON length, text length (the plugin's format)
POLL_SECONDS = 0.25  # should_cancel is called this often
# while output flows, the pipes are read at most this often: a pipe holds the output meanwhile
# (1 MiB), and every wake-up costs the server CPU beside ansible. The first output after a quiet
# spell is read at once. Keep it well below the recorder's BATCH_SECONDS: what ansible prints
# right after a first event must reach the recorder's first batch, or it waits for the next.
BUSY_READ_SECONDS = 0.02
READ_BYTES = 1 << 20
EXITED_READS = 64  # reads once ansible-playbook has exited: more than a full pipe holds
PIPE_BYTES = 1 << 20  # a bigger pipe: fewer wake-ups on big outputs
AGENT_START_SECONDS = 10.0
F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)


@dataclasses.dataclass(frozen=True)
class RunnerSpec:
    run_uuid: str
    private_data_dir: Path  # fresh, 0700, deleted by the caller
    project_dir: Path  # the checkout
    playbook: str  # relative to project_dir
    inventory: Path  # absolute
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

    def argv(self, passwords: Mapping[str, Path]) -> list[str]:
        """The whole command, sandbox first; ``passwords``: option -> 0600 file. Values are
        joined to their option (``--limit=…``): none can be taken for an option of its own."""
        args = [
            *self.sandbox,
            str(self.bin_dir / "ansible-playbook"),
            f"--inventory={self.inventory}",
        ]
        for path in self.extravars_files:
            args.append(f"--extra-vars=@{path}")
        for option, value in (
            ("--limit", self.limit),
            ("--tags", self.tags),
            ("--skip-tags", self.skip_tags),
            ("--user", self.remote_user),
        ):
            if value:
                args.append(f"{option}={value}")
        if self.verbosity:
            args.append("-" + "v" * self.verbosity)
        if self.forks:
            args.append(f"--forks={self.forks}")
        if self.check:
            args.append("--check")
        if self.diff:
            args.append("--diff")
        for option, path in passwords.items():
            args.append(f"{option}={path}")
        for label, path in self.vault_ids:
            args.append(f"--vault-id={label}@{path}" if label else f"--vault-id={path}")
        return [*args, "--", self.playbook]

    def password_files(self) -> dict[str, Path]:
        """The SSH and become passwords written to 0600 files of the private directory."""
        files = {}
        secrets = self.private_data_dir / "secrets"
        for option, value, name in (
            ("--connection-password-file", self.ssh_password, "connection-password"),
            ("--become-password-file", self.become_password, "become-password"),
        ):
            if value is not None:
                files[option] = write_secret(secrets / name, value)
        return files

    def environment(self, events_fd: int, agent_socket: Path | None) -> dict[str, str]:
        # Steward's own settings (admin password…) are not the playbook's business
        env = {k: v for k, v in os.environ.items() if not k.startswith("STEWARD_")}
        env.pop("SSH_AUTH_SOCK", None)  # only the run's own agent, if any
        env.update(self.env)
        path = env.get("PATH") or os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")
        env["PATH"] = f"{self.bin_dir}:{path}"
        plugins = self.env.get("ANSIBLE_CALLBACK_PLUGINS", "")
        env["ANSIBLE_CALLBACK_PLUGINS"] = ":".join(filter(None, (str(CALLBACK_DIR), plugins)))
        if "ANSIBLE_NOCOLOR" not in self.env:  # the console shows colours, as on a terminal
            env.setdefault("ANSIBLE_FORCE_COLOR", "True")
        if agent_socket is not None:
            env["SSH_AUTH_SOCK"] = str(agent_socket)
        env[EVENTS_FD_VARIABLE] = str(events_fd)
        env[MARKER] = self.run_uuid
        return env

    def start(
        self, argv: list[str], env: dict[str, str], *, stderr: int, pass_fds: tuple[int, ...] = ()
    ) -> subprocess.Popen[bytes]:
        """One Ansible process of the run: in its project directory, stdin closed, stdout piped,
        in a session of its own (its whole group is ended on cancel or timeout)."""
        return subprocess.Popen(
            argv,
            cwd=self.project_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            pass_fds=pass_fds,
            start_new_session=True,
        )

    @property
    def tmp_dir(self) -> Path:
        """The run's own TMPDIR (its control directory, short enough for a socket path)."""
        return Path(self.env.get("TMPDIR") or self.private_data_dir)


@dataclasses.dataclass(frozen=True)
class Outcome:
    status: str  # successful | failed | canceled
    rc: int | None


def write_secret(path: Path, content: str) -> Path:
    """A new file only its owner reads (0600, in a 0700 directory), never an existing one."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(content)
    return path


@contextlib.contextmanager
def ssh_agent(spec: RunnerSpec) -> Iterator[Path | None]:
    """An ssh-agent of the run holding its key (None without a key), stopped on exit."""
    if spec.ssh_key is None:
        yield None
        return
    socket = spec.tmp_dir / "agent.sock"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), MARKER: spec.run_uuid}
    agent = subprocess.Popen(
        ["ssh-agent", "-D", "-a", str(socket)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + AGENT_START_SECONDS
        while not socket.exists():
            if agent.poll() is not None or time.monotonic() > deadline:
                raise InvalidState("ssh-agent did not start for this run")
            time.sleep(0.01)
        key = spec.ssh_key if spec.ssh_key.endswith("\n") else spec.ssh_key + "\n"
        added = subprocess.run(
            ["ssh-add", "-q", "-"],
            input=key.encode(),
            env={**env, "SSH_AUTH_SOCK": str(socket)},
            capture_output=True,
            timeout=30,
            check=False,
        )
        if added.returncode != 0:  # ssh-add names "(stdin)", never the key
            reason = added.stderr.decode(errors="replace").strip()[:300]
            raise InvalidState(f"the SSH key could not be added to ssh-agent: {reason}")
        yield socket
    finally:
        agent.terminate()
        try:
            agent.wait(timeout=5)
        except subprocess.TimeoutExpired:
            agent.kill()
            agent.wait()


class Records:
    """The plugin's records out of the bytes of its pipe, as they arrive."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[bytes, bytes]]:
        buffer = self._buffer
        buffer += data
        found = []
        pos, size = 0, len(buffer)
        while size - pos >= HEADER.size:
            meta_len, text_len = HEADER.unpack_from(buffer, pos)
            start = pos + HEADER.size
            end = start + meta_len + text_len
            if end > size:
                break
            found.append(
                (bytes(buffer[start : start + meta_len]), bytes(buffer[start + meta_len : end]))
            )
            pos = end
        del buffer[:pos]
        return found

    @property
    def pending(self) -> int:
        return len(self._buffer)


class EventStream:
    """Records and raw output in, events in the recorder's shape out (numbered 1, 2, …).

    An event's ``stdout`` is its text less one final newline, so its lines are exactly the lines
    it printed. Text outside events (the plugin's bare records, the raw pipe's complete lines) is
    gathered into one ``verbose`` event until the next event or the end of a read.
    """

    def __init__(self, on_event: Callable[[Event], None]) -> None:
        self._on_event = on_event
        self._counter = 0
        self._verbose: list[bytes] = []
        self._partial = b""  # the raw pipe's last line, until its newline comes

    def record(self, meta: bytes, text: bytes) -> None:
        if not meta:
            self._verbose.append(text)
            return
        self.flush()
        head = json.loads(meta)
        head["json_bytes"] = len(meta)  # spares the recorder measuring its data again
        self._emit(head, text)

    def raw(self, data: bytes) -> None:
        data = self._partial + data
        cut = data.rfind(b"\n") + 1
        self._partial = data[cut:]
        if cut:
            self._verbose.append(data[:cut])

    def flush(self, *, final: bool = False) -> None:
        if final and self._partial:
            self._verbose.append(self._partial + b"\n")
            self._partial = b""
        if self._verbose:
            text = b"".join(self._verbose)
            self._verbose = []
            self._emit({"event": "verbose", "uuid": str(uuid.uuid4()), "event_data": {}}, text)

    def _emit(self, head: Event, text: bytes) -> None:
        stdout = text.decode("utf-8", "replace")
        if stdout.endswith("\n"):
            stdout = stdout[:-1]
        self._counter += 1
        head["counter"] = self._counter
        head["stdout"] = stdout
        self._on_event(head)


def _nonblocking_pipe() -> tuple[int, int]:
    read, write = os.pipe()
    os.set_blocking(read, False)
    with contextlib.suppress(OSError):  # a bigger pipe if the system allows it
        fcntl.fcntl(read, F_SETPIPE_SZ, PIPE_BYTES)
    return read, write


def _drain(fd: int, sink: Callable[[bytes], None], *, budget: int | None = None) -> bool:
    """Read what ``fd`` has now (at most ``budget`` reads); False at end of file."""
    while budget is None or budget > 0:
        try:
            data = os.read(fd, READ_BYTES)
        except BlockingIOError:
            return True
        if not data:
            return False
        sink(data)
        budget = None if budget is None else budget - 1
    return True


def run_playbook(
    spec: RunnerSpec,
    *,
    on_event: Callable[[Event], None],
    should_cancel: Callable[[], bool],
) -> Outcome:
    """Run the playbook to its end, or until ``should_cancel`` (called every ``POLL_SECONDS``;
    it ends the processes itself: see ``execution/executor.CancelWatch``) answers True."""
    stream = EventStream(on_event)
    with ssh_agent(spec) as agent_socket:
        events_read, events_write = _nonblocking_pipe()
        try:
            env = spec.environment(events_write, agent_socket)
            argv = spec.argv(spec.password_files())
            try:
                proc = spec.start(argv, env, stderr=subprocess.STDOUT, pass_fds=(events_write,))
            except OSError as exc:
                stream.raw(f"ansible-playbook could not be started: {exc.strerror}\n".encode())
                stream.flush(final=True)
                return Outcome(status="failed", rc=127)
            os.close(events_write)
            events_write = -1
            canceled = _follow(proc, events_read, stream, should_cancel)
        finally:
            os.close(events_read)
            if events_write >= 0:
                os.close(events_write)
    if canceled:
        return Outcome(status="canceled", rc=proc.returncode)
    return Outcome(status="successful" if proc.returncode == 0 else "failed", rc=proc.returncode)


def _follow(
    proc: subprocess.Popen[bytes],
    events_fd: int,
    stream: EventStream,
    should_cancel: Callable[[], bool],
) -> bool:
    """Read both pipes until ansible-playbook ends; whether ``should_cancel`` stopped it."""
    if proc.stdout is None:
        raise RuntimeError("ansible-playbook was started without a stdout pipe")
    raw_fd = proc.stdout.fileno()
    os.set_blocking(raw_fd, False)
    records = Records()

    def take(data: bytes) -> None:
        for meta, text in records.feed(data):
            stream.record(meta, text)

    open_fds = {raw_fd, events_fd}
    next_poll = time.monotonic() + POLL_SECONDS
    read_at = -BUSY_READ_SECONDS
    with selectors.DefaultSelector() as selector, proc.stdout:
        for fd in open_fds:
            selector.register(fd, selectors.EVENT_READ)
        while open_fds:
            if selector.select(timeout=POLL_SECONDS):
                time.sleep(max(0.0, read_at + BUSY_READ_SECONDS - time.monotonic()))
                read_at = time.monotonic()
            # the raw pipe first: what the controller printed there came before its records
            for fd, sink in ((raw_fd, stream.raw), (events_fd, take)):
                if fd in open_fds and not _drain(fd, sink):
                    open_fds.discard(fd)
                    selector.unregister(fd)
            stream.flush()
            exited = proc.poll() is not None
            if exited and open_fds:
                # whatever the controller wrote is in the pipes: a child it left behind that
                # still holds one (a daemon) must not keep the run open, even if it writes on
                for fd, sink in ((raw_fd, stream.raw), (events_fd, take)):
                    if fd in open_fds:
                        _drain(fd, sink, budget=EXITED_READS)
                break
            if time.monotonic() >= next_poll:
                next_poll = time.monotonic() + POLL_SECONDS
                if should_cancel():
                    proc.kill()
                    proc.wait()
                    stream.flush(final=True)
                    return True
    stream.flush(final=True)
    while proc.poll() is None:  # both pipes closed, the process not yet gone
        try:
            proc.wait(timeout=POLL_SECONDS)
        except subprocess.TimeoutExpired:
            if should_cancel():
                proc.kill()
                proc.wait()
                return True
    return False


INVENTORY_TIMEOUT_SECONDS = 300.0


def inventory_listing(spec: RunnerSpec, timeout: float = INVENTORY_TIMEOUT_SECONDS) -> bytes:
    """``ansible-inventory --list --export`` of the run's inventory as ansible-playbook would
    read it: the same sandbox, environment, Ansible and vault passwords (what binds an apply to
    its plan: ``execution/binding``). Raises ``InvalidState`` when it fails (its exit code only:
    an inventory script's complaint may hold anything)."""
    argv = [
        *spec.sandbox,
        str(spec.bin_dir / "ansible-inventory"),
        f"--inventory={spec.inventory}",
        "--list",
        "--export",
    ]
    for label, path in spec.vault_ids:
        argv.append(f"--vault-id={label}@{path}" if label else f"--vault-id={path}")
    env = spec.environment(-1, None)
    env.pop(EVENTS_FD_VARIABLE, None)
    with spec.start(argv, env, stderr=subprocess.DEVNULL) as child:
        try:
            stdout, _ = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, 9)
            child.communicate()
            raise InvalidState(
                f"ansible-inventory did not list the inventory within {timeout:g} seconds"
            ) from None
    if child.returncode != 0:
        raise InvalidState(
            f"ansible-inventory could not list the inventory (exit code {child.returncode})"
        )
    return stdout
