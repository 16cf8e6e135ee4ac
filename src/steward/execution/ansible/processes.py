"""Find and end every process of a run, including Ansible workers that called setsid().

Each run's ansible-playbook gets ``STEWARD_RUN_UUID=<uuid>`` in its environment; every descendant
inherits it, whatever process group or session it moved to (docs/runner-notes.md, trap 6). Scanning
/proc for that marker finds them all, even after the server that started them died.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import psutil

MARKER = "STEWARD_RUN_UUID"


def run_processes(run_uuid: str) -> list[psutil.Process]:
    found = []
    me = os.getpid()
    for proc in psutil.process_iter():
        if proc.pid == me:
            continue
        try:
            if proc.environ().get(MARKER) == run_uuid:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


def names(run_uuid: str) -> list[str]:
    """Process names of the run (processes may exit while we look: those are skipped)."""
    return _each(run_uuid, psutil.Process.name)


def cmdlines(run_uuid: str) -> list[str]:
    return _each(run_uuid, lambda proc: " ".join(proc.cmdline()))


def _each(run_uuid: str, read: Callable[[psutil.Process], str]) -> list[str]:
    """``read`` of each process of the run still there when it is asked."""
    found = []
    for proc in run_processes(run_uuid):
        try:
            found.append(read(proc))
        except psutil.Error:
            continue
    return found


def _is_playbook(proc: psutil.Process) -> bool:
    try:
        return any(part.endswith("ansible-playbook") for part in proc.cmdline()[:2])
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return False


def playbook_main(run_uuid: str) -> psutil.Process | None:
    """The ansible-playbook controller (its forked workers share its command line)."""
    playbooks = {p.pid: p for p in run_processes(run_uuid) if _is_playbook(p)}
    for proc in playbooks.values():
        try:
            if proc.ppid() not in playbooks:
                return proc
        except psutil.NoSuchProcess:
            continue
    return None


def terminate_playbook(run_uuid: str) -> bool:
    """SIGTERM the controller: Ansible's own handler then stops its workers. True if sent."""
    main = playbook_main(run_uuid)
    if main is None:
        return False
    try:
        main.send_signal(signal.SIGTERM)
    except psutil.NoSuchProcess:
        return False
    return True


def kill_all(run_uuid: str, *, wait: float = 3.0) -> int:
    """SIGKILL every process of the run; returns how many were alive."""
    procs = run_processes(run_uuid)
    for proc in procs:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            continue
    psutil.wait_procs(procs, timeout=wait)
    deadline = time.monotonic() + wait
    while run_processes(run_uuid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return len(procs)


def marked_runs() -> set[str]:
    """The run uuids carried by any process of this machine (the marker's values)."""
    found = set()
    for proc in psutil.process_iter():
        try:
            value = proc.environ().get(MARKER)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        if value:
            found.add(value)
    return found
