from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from steward.config import Settings
from steward.server import build_app

# Real services from the system binaries; see tests/support/__init__.py.
pytest_plugins = ["support.postgres", "support.sshd", "support.redis", "support.databases"]

ADMIN_PASSWORD = "admin-password-for-tests"
PLAYBOOKS = Path(__file__).parent / "playbooks"
LOCALHOST_INVENTORY = (
    f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
)


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    """Settings on a fresh migrated database: SQLite, then PostgreSQL (see support.databases)."""
    return Settings(
        data_dir=tmp_path / "data",
        database_url=database_url,
        admin_user="admin",
        admin_password=ADMIN_PASSWORD,  # type: ignore[arg-type]  # pydantic coerces to SecretStr
        cancel_grace_seconds=2.0,
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The real app, logged in as the bootstrap admin through an API token."""
    app = build_app(settings)
    with TestClient(app) as c:
        login = c.post("/api/v1/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD})
        assert login.status_code == 200, login.text
        csrf = login.json()["csrf_token"]
        token = c.post(
            "/api/v1/users/me/tokens",
            json={"name": "tests", "scope": "write"},
            headers={"X-CSRF-Token": csrf},
        )
        assert token.status_code == 201, token.text
        c.cookies.clear()
        c.headers["Authorization"] = f"Bearer {token.json()['token']}"
        yield c
    app.state.runtime.engine.dispose()  # give the connections back before the database is dropped
