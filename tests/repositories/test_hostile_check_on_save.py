"""``check=true`` makes the server connect at save: only where the outbound-address rules allow.
A git URL aimed at the server's own loopback (an SSRF probe) is refused naming ``url`` before
any connection; the control allows loopback as an admin would, and the listener is reached."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session
from support import services

from steward.config import Settings
from steward.errors import InvalidInput, Unreachable
from steward.outbound import network
from steward.repositories import service
from steward.repositories.checkout import Reach
from steward.repositories.models import RepositoryKind
from steward.repositories.schemas import RepositoryCreate

pytestmark = pytest.mark.security


@pytest.fixture
def listener() -> Iterator[tuple[int, list[bytes]]]:
    """A TCP listener on 127.0.0.1 that records what each connection sends first."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    seen: list[bytes] = []
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    seen.append(conn.recv(200))
                except OSError:
                    seen.append(b"")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], seen
    done.set()
    thread.join(5)
    server.close()


@pytest.mark.parametrize("allowed", [False, True], ids=["default rules", "control: allowed"])
def test_a_check_on_save_connects_only_where_the_rules_allow(
    db_session: Session, tmp_path: Path, listener: tuple[int, list[bytes]], allowed: bool
) -> None:
    port, seen = listener
    rules = Settings(outbound_allowed_networks=["127.0.0.1/32"] if allowed else [])
    reach = Reach(services.cipher(), [], network.Guard.of(rules), tmp_path)
    body = RepositoryCreate(
        name="probe", kind=RepositoryKind.GIT, url=f"http://127.0.0.1:{port}/x.git"
    )
    project = services.project(db_session)
    with pytest.raises(InvalidInput) as refused:
        service.create(
            db_session, project, body, actor=services.admin(db_session), reach=reach, reach_now=True
        )
    assert refused.value.field == "url"
    if allowed:  # the probe could succeed: git spoke HTTP to the listener, which did not answer
        assert any(b"GET /x.git/info/refs" in first for first in seen), seen
    else:
        assert seen == []
        assert "127.0.0.1" in refused.value.reason
        assert not isinstance(refused.value, Unreachable)  # refused as invalid, not tried
