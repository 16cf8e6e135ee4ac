"""Start a server process, wait until it answers, and stop it by its PID."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

# Ports for the servers the tests start come from below the kernel's ephemeral range
# (32768-60999), where no outgoing connection's source port can take one between the choice and
# the server's bind. Each test process walks its own stretch of it (the two xdist workers, and
# other sessions on the machine, start far apart), skipping any port already bound.
_PORTS = range(20000, 32000)
_next = _PORTS.start + (os.getpid() * 7919) % len(_PORTS)


def free_port() -> int:
    global _next
    for _ in range(len(_PORTS)):
        port = _next
        _next = _PORTS.start + (_next + 1 - _PORTS.start) % len(_PORTS)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {_PORTS.start}-{_PORTS.stop - 1} on 127.0.0.1")


def wait_until_ready(
    proc: subprocess.Popen[bytes], ready: Callable[[], bool], log: Path, timeout: float = 30
) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            what = f"exited with {proc.returncode}" if proc.returncode else "did not answer"
            raise RuntimeError(f"{proc.args!r} {what}; its log:\n{log.read_text()}")
        time.sleep(0.05)


def answers(port: int, greeting: bytes = b"", expect: bytes = b"") -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            if greeting:
                s.sendall(greeting)
            return s.recv(64).startswith(expect) if expect else True
    except OSError:
        return False


def stop(proc: subprocess.Popen[bytes], signal: int = 15, timeout: float = 10) -> None:
    if proc.poll() is None:
        proc.send_signal(signal)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
