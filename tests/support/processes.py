"""Start a server process, wait until it answers, and stop it by its PID."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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
