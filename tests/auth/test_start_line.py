"""At start the server says where to go and as whom, on one line, and never a password; the
default local root ``<data>/repositories`` exists once it has started."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support.admin import ADMIN_PASSWORD

from steward.auth.bootstrap import ensure_admin, no_user_yet, welcome
from steward.auth.models import User
from steward.config import Settings
from steward.repositories import local
from steward.server import build_app

URL = "http://127.0.0.1:8080"


def test_the_start_line_names_the_url_and_the_first_admin_never_a_password(
    db_session: Session,
) -> None:
    # the seeded database has its first admin already: a later start
    assert not no_user_yet(db_session)
    assert ensure_admin(db_session, "admin", None) is None  # no second admin, no password made
    later = welcome(db_session, URL, created=False, generated=False)
    assert later.startswith(f"Steward is at {URL}: sign in as 'admin' with ")
    assert "the password set at the first start" in later
    first = welcome(db_session, URL, created=True, generated=True)
    assert "the password printed above, shown this once" in first
    given = welcome(db_session, URL, created=True, generated=False)
    assert "STEWARD_ADMIN_PASSWORD" in given
    for line in (later, first, given):
        assert ADMIN_PASSWORD not in line
        assert "\n" not in line

    # the first admin renamed: the line follows the database, not the setting
    admin = db_session.scalars(select(User).where(User.username == "admin")).one()
    admin.username = "dba-lead"
    db_session.flush()
    assert "sign in as 'dba-lead'" in welcome(db_session, URL, created=False, generated=False)
    admin.is_active = False
    db_session.flush()
    assert "no active admin" in welcome(db_session, URL, created=False, generated=False)


def test_the_default_local_root_is_made_at_start_a_configured_one_is_not(
    tmp_path: Path, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    default = Settings(data_dir=tmp_path / "fresh")
    assert default.repository_roots == (default.default_repository_root,)
    assert local.create_default_root(default.default_repository_root, default.repository_roots)
    assert (tmp_path / "fresh" / "repositories").is_dir()
    # the control: roots an administrator lists are theirs; <data>/repositories is not one
    configured = Settings(data_dir=tmp_path / "other", local_repository_roots=[tmp_path / "mine"])
    root = configured.default_repository_root
    assert not local.create_default_root(root, configured.repository_roots)
    assert not root.exists()

    # the server's start prints the line (the conftest settings: the seeded admin, its URL)
    build_app(settings, migrate=False)
    out = capsys.readouterr().out
    assert f"Steward is at {settings.url}: sign in as 'admin'" in out
    assert ADMIN_PASSWORD not in out
