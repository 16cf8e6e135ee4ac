"""A project whose repository declares requirements, and the real things they come from."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.admin import ADMIN_PASSWORD
from support.outbound import LOOPBACK_ALLOWED

from requirements.servers import GalaxyServer, build_collection, make_role_repo, make_venv
from requirements.site import Site
from steward.config import Settings


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Built once: the collection's tarball, the role's git repository, the second venv."""
    root = tmp_path_factory.mktemp("requirements-artifacts")
    return {
        "collection": build_collection(root),
        "role": make_role_repo(root / "role-greeter"),
        "venv": make_venv(root / "venv-two"),
    }


@pytest.fixture
def settings(tmp_path: Path, database_url: str, artifacts: dict[str, Path]) -> Settings:
    """Repositories under tmp_path/repos only: the sandbox hides the roots, and the role's git
    repository and the served files must stay visible to ansible-galaxy."""
    return Settings(
        data_dir=tmp_path / "data",
        database_url=database_url,
        admin_user="admin",
        admin_password=ADMIN_PASSWORD,  # type: ignore[arg-type]
        cancel_grace_seconds=2.0,
        local_repository_roots=[tmp_path / "repos"],
        ansible_venvs=[artifacts["venv"]],
        outbound_allowed_networks=list(LOOPBACK_ALLOWED),  # the Galaxy server on 127.0.0.1
    )


@pytest.fixture
def galaxy(artifacts: dict[str, Path]) -> Iterator[GalaxyServer]:
    with GalaxyServer([artifacts["collection"]]).running() as server:
        yield server


@pytest.fixture
def site(client: TestClient, tmp_path: Path) -> Site:
    return Site(client, tmp_path / "repos" / "site")
