"""The app of the tests in process: its settings, and a client of it for fixtures wider than
a test (conftest's ``client`` is the one of a test)."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from steward.config import Settings
from steward.server import build_app
from support.admin import ADMIN_PASSWORD, ADMIN_TOKEN
from support.builders import PLAYBOOKS
from support.outbound import LOOPBACK_ALLOWED


def settings_for(tmp_path: Path, database_url: str) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        database_url=database_url,
        admin_user="admin",
        admin_password=ADMIN_PASSWORD,  # type: ignore[arg-type]  # pydantic coerces to SecretStr
        cancel_grace_seconds=2.0,
        # local repositories: directories the test makes, and tests/playbooks
        local_repository_roots=[tmp_path, PLAYBOOKS.parent],
        # the tests' receivers, git servers, pmproxies and Galaxy servers listen on 127.0.0.1
        # (and sshd): allowed the way an admin would, the default refusing loopback stays as it is
        outbound_allowed_networks=list(LOOPBACK_ALLOWED),
    )


@contextlib.contextmanager
def shared_client(
    request: pytest.FixtureRequest, *loops: str, **changes: Any
) -> Iterator[TestClient]:
    """``client`` for a fixture of a wider scope (a module's), on a SQLite copy of its own, with
    ``changes`` to the settings; like ``client``, it runs the queue and only the named ``loops``."""
    tmp_path: Path = request.getfixturevalue("tmp_path_factory").mktemp("shared-client")
    shutil.copyfile(request.getfixturevalue("sqlite_template"), tmp_path / "steward.db")
    settings = settings_for(tmp_path, f"sqlite:///{tmp_path / 'steward.db'}")
    app = build_app(settings.model_copy(update=changes), migrate=False, loops=loops)
    with TestClient(app) as c:
        c.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield c
    app.state.runtime.engine.dispose()
