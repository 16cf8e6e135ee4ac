"""What ``steward serve`` loads to start (issue 29: idle RSS and start to ready, measured by
bench/api.py): the packages of paths a server may never take are imported where those paths
begin — Alembic when the database is not at the newest revision, Celery in cluster mode, ldap3
and authlib/joserfc at an LDAP or OIDC login, ansible-core at the first limit read,
prometheus_client at the first scrape, cryptography at the first secret, httpx2 at the first
outbound request, SQLAlchemy's PostgreSQL dialect on PostgreSQL.

Checked in a process of its own (this one has imported everything): the server's modules after
the command line's and ``build_app`` with its migration check, before anything is served, on a
database and a master key made by an earlier start (the first start makes the key with
cryptography)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from steward.config import Settings
from steward.crypto import KeyCipher

NOT_AT_START = (
    "alembic",
    "mako",
    "ansible",
    "celery",
    "kombu",
    "ldap3",
    "authlib",
    "joserfc",
    "prometheus_client",
    "cryptography",
    "httpx2",
    "sqlalchemy.dialects.postgresql",
)

BUILD = """
import json, sys
import steward.cli
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.server import build_app

app = build_app(Settings())  # migrate=True, as `steward serve`
print(json.dumps(sorted(sys.modules)))
"""


def test_a_server_starts_without_the_packages_of_paths_it_may_never_take(
    settings: Settings,
) -> None:
    KeyCipher.load_or_create(settings.key_file)
    env = {
        **os.environ,
        "STEWARD_DATA_DIR": str(settings.data_dir),
        "STEWARD_DATABASE_URL": settings.database_url,  # a copy at the newest revision
    }
    done = subprocess.run(
        [sys.executable, "-c", BUILD], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert "steward.app" in loaded  # the control: the app was built in that process
    found = [m for m in loaded if any(m == p or m.startswith(p + ".") for p in NOT_AT_START)]
    assert found == []


MIGRATE_FIRST = """
import json, sys
from steward import migrations
from steward.cli import admin
from steward.config import Settings

url = Settings().database_url
before = migrations.at_head(url)
code = admin.migrate_apart(Settings()) if sys.argv[1] == "apart" else migrations.upgrade(url)
print(json.dumps([before, code, migrations.at_head(url), "alembic" in sys.modules]))
"""


def test_a_first_start_migrates_in_a_process_of_its_own(tmp_path: Path) -> None:
    """``steward serve`` on a database behind the newest revision: a ``steward migrate`` of its
    own brings it there, and the server never imports Alembic (nor keeps its memory). Control:
    the same upgrade in the process does import it (the probe sees it). SQLite: the child
    migrates whatever database the settings name, as ``steward migrate`` does."""
    seen = {}
    for how in ("apart", "inside"):
        data_dir = tmp_path / how
        data_dir.mkdir()
        env = {
            **os.environ,
            "STEWARD_DATA_DIR": str(data_dir),
            "STEWARD_DATABASE_URL": f"sqlite:///{data_dir / 'steward.db'}",
        }
        done = subprocess.run(
            [sys.executable, "-c", MIGRATE_FIRST, how],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        seen[how] = json.loads(done.stdout.splitlines()[-1])
    assert seen["apart"] == [False, 0, True, False]
    assert seen["inside"] == [False, None, True, True]
