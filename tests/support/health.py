"""Hosts for the health checks' tests, all on 127.0.0.1: a port nothing listens on (refused),
and a small TCP server that answers after a delay (a slow host) or with something that is not
SSH. The real sshd is ``support.sshd``."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from sqlalchemy.orm import Session

from steward.config import Settings
from steward.db import utcnow
from steward.health import checks
from steward.inventories.models import Inventory, InventoryFormat, InventoryHost, InventoryKind
from steward.outbound import network
from steward.projects.models import Project

LOOPBACK = "127.0.0.1"


def health_guard(*allowed: str) -> network.Guard:
    """The health checks' guard with ``allowed`` in STEWARD_HEALTH_ALLOWED_NETWORKS (and
    nothing in the outbound allow-list: loopback stays refused for web requests)."""
    return checks.guard(Settings(health_allowed_networks=list(allowed)))


def refused_port() -> int:
    """A port of 127.0.0.1 nothing listens on (bound, never listening: no one else takes it
    while the test runs... closed right after, so the connect is refused)."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@dataclasses.dataclass
class Listener:
    port: int
    accepted: int = 0  # connections accepted so far


@contextlib.contextmanager
def answering(
    greeting: bytes = b"SSH-2.0-OpenSSH_9.2 test\r\n", delay: float = 0.0
) -> Iterator[Listener]:
    """A TCP server on 127.0.0.1 that sends ``greeting`` ``delay`` seconds after each connect
    (then holds the connection until the client closes): its port, and how many connected."""
    server = socket.create_server((LOOPBACK, 0), backlog=1024)
    server.settimeout(0.2)
    stopping = threading.Event()
    listener = Listener(int(server.getsockname()[1]))

    def serve(conn: socket.socket) -> None:
        with conn:
            if stopping.wait(delay):
                return
            with contextlib.suppress(OSError):
                conn.sendall(greeting)
                conn.settimeout(5)
                conn.recv(1)

    def accept() -> None:
        while not stopping.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            listener.accepted += 1
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener
    finally:
        stopping.set()
        thread.join(timeout=2)
        server.close()
        time.sleep(0)


def listed(
    session: Session, project: Project, hosts: dict[str, dict[str, Any]], name: str = "prod"
) -> Inventory:
    """A static inventory of ``project`` whose hosts were read as ``hosts`` (name -> where
    Ansible connects), written directly: no ansible-inventory start (the reading is tested
    once, in test_service)."""
    inventory = Inventory(
        project_id=project.id,
        name=name,
        kind=InventoryKind.STATIC,
        format=InventoryFormat.INI,
        content="".join(f"{h}\n" for h in hosts),
        hosts_read_at=utcnow(),
    )
    inventory.host_rows = [
        InventoryHost(name=host, groups=[], vars={}, connection=connection)
        for host, connection in hosts.items()
    ]
    session.add(inventory)
    session.flush()
    return inventory
