"""Fixtures of the survey option sources' tests: a real server, and ``db_session`` as the
server's sessions are (able to read URLs and run scripts in the sandbox)."""

from __future__ import annotations

import http.server
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session
from support import services
from support.apps import settings_for
from support.options import Cmdb
from support.served import Served

from steward.config import Settings
from steward.crypto import KeyCipher
from steward.execution.ansible.sandbox import Sandbox
from steward.repositories.checkout import Reach
from steward.templates.options.resolver import CACHE, SOURCES, Sources


@pytest.fixture
def cmdb() -> Iterator[Served]:
    Cmdb.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Cmdb)
    server.daemon_threads = True
    with Served(server) as served:
        yield served


@pytest.fixture
def keys() -> KeyCipher:
    return services.cipher()


@pytest.fixture
def source_settings(tmp_path: Path) -> Settings:
    """The tests' settings without a database of their own (``db_session`` has one)."""
    return settings_for(tmp_path, "sqlite://")


@pytest.fixture
def sourced(db_session: Session, source_settings: Settings, keys: KeyCipher) -> Session:
    """``db_session`` as the server's sessions are: able to read URLs (the tests' guard:
    loopback allowed as an admin would) and scripts (the settings' sandbox)."""
    reach = Reach(
        keys, source_settings.repository_roots, services.guard(), source_settings.data_dir
    )
    db_session.info[SOURCES] = Sources(reach, Sandbox.from_settings(source_settings))
    CACHE.clear()
    return db_session
