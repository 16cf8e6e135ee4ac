"""A Redis server on 127.0.0.1 for the test session (the Celery broker): ``redis_server``."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from support.processes import answers, free_port, stop, wait_until_ready


@dataclass
class RedisServer:
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """redis-server on 127.0.0.1:<redis.port>, nothing persisted; ``redis.url`` for clients."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError(
            "redis-server not found: install 'redis-server' (make setup-test does it)"
        )
    workdir = tmp_path_factory.mktemp("redis")
    port = free_port()
    log = workdir / "redis.log"
    cmd = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    cmd += ["--daemonize", "no", "--dir", str(workdir)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    wait_until_ready(proc, lambda: answers(port, b"PING\r\n", b"+PONG"), log)
    try:
        yield RedisServer(port=port)
    finally:
        stop(proc)
