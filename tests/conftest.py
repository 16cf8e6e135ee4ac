from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.admin import ADMIN_PASSWORD, ADMIN_TOKEN
from support.builders import PLAYBOOKS, Workbench

from steward.config import Settings
from steward.server import build_app

# Real services from the system binaries (see tests/support/__init__.py); cheap password hashes
# and no network beyond this machine (support.isolation).
pytest_plugins = [
    "support.isolation",
    "support.postgres",
    "support.sshd",
    "support.redis",
    "support.pcp",
    "support.databases",
    "support.webhooks",
]


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    """Settings on a fresh migrated database: SQLite, then PostgreSQL (see support.databases)."""
    return Settings(
        data_dir=tmp_path / "data",
        database_url=database_url,
        admin_user="admin",
        admin_password=ADMIN_PASSWORD,  # type: ignore[arg-type]  # pydantic coerces to SecretStr
        cancel_grace_seconds=2.0,
        # local repositories: directories the test makes, and tests/playbooks
        local_repository_roots=[tmp_path, PLAYBOOKS.parent],
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The real app, authenticated as the bootstrap admin with its seeded token "tests"."""
    app = build_app(settings)
    with TestClient(app) as c:
        c.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield c
    app.state.runtime.engine.dispose()  # give the connections back before the database is dropped


@pytest.fixture
def workbench(client: TestClient, tmp_path: Path) -> Workbench:
    """A project that runs the test playbooks on localhost (support.builders.Workbench)."""
    return Workbench(client, tmp_path)
