"""Settings read from the environment: STEWARD_LOCAL_REPOSITORY_ROOTS in its accepted forms."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from steward.config import Settings


@pytest.mark.parametrize(
    ("value", "roots"),
    [
        ('["/srv/ansible", "/opt/playbooks"]', ("/srv/ansible", "/opt/playbooks")),
        ("/srv/ansible:/opt/playbooks", ("/srv/ansible", "/opt/playbooks")),
        ("/srv/ansible, /opt/playbooks", ("/srv/ansible", "/opt/playbooks")),
        ("/srv/ansible", ("/srv/ansible",)),
        ("", ()),  # set but empty: no local repository is allowed
        ("[]", ()),
    ],
)
def test_local_repository_roots_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str, roots: tuple[str, ...]
) -> None:
    monkeypatch.setenv("STEWARD_LOCAL_REPOSITORY_ROOTS", value)
    assert Settings(data_dir=tmp_path).repository_roots == tuple(Path(r) for r in roots)


def test_local_repository_roots_default_to_the_data_dirs_repositories(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("STEWARD_LOCAL_REPOSITORY_ROOTS", raising=False)
    settings = Settings(data_dir=tmp_path)
    assert settings.repository_roots == (tmp_path.resolve() / "repositories",)
    assert settings.local_repository_roots == [tmp_path.resolve() / "repositories"]


@pytest.mark.parametrize("value", ["relative/dir", '["/ok", "not/absolute"]', "[not json"])
def test_local_repository_roots_must_be_absolute(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    monkeypatch.setenv("STEWARD_LOCAL_REPOSITORY_ROOTS", value)
    with pytest.raises(ValidationError, match="local_repository_roots"):
        Settings(data_dir=tmp_path)
