"""Backup and restore: a round trip on SQLite and PostgreSQL gives back exactly what the backup
held (secrets decrypting with the same master key); a backup made while rows are written is a
consistent database; a restore refuses, replacing nothing, a tampered file, a newer Steward's
schema, another master key and another kind of database."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from support.builders import post
from support.server import steward

from steward import migrations
from steward.backups import service
from steward.backups.service import BackupRefused, Manifest
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.db import make_engine, make_session_factory
from steward.keys.models import Key
from steward.projects.models import Project

pytestmark = pytest.mark.both_databases


def _state(settings: Settings) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The projects' names, and each key's decrypted secret fields."""
    engine = make_engine(settings.database_url)
    cipher = KeyCipher.load_or_create(settings.key_file)
    try:
        with make_session_factory(engine)() as session:
            names = sorted(session.scalars(select(Project.name)))
            keys = {
                k.name: cipher.decrypt(k.ciphertext)
                for k in session.scalars(select(Key))
                if k.ciphertext is not None
            }
            return names, keys
    finally:
        engine.dispose()


@pytest.fixture
def backed_up(client: TestClient, settings: Settings, tmp_path: Path) -> Path:
    """A backup holding project 'kept' and its key; project 'after' made since."""
    project = post(client, "/api/v1/projects", {"name": "kept"})["id"]
    key = {"name": "vault", "kind": "vault_password", "password": "s3cret-vault"}
    post(client, f"/api/v1/projects/{project}/keys", key)
    made = service.backup(settings, tmp_path / "backups")
    post(client, "/api/v1/projects", {"name": "after"})
    client.app.state.runtime.engine.dispose()  # type: ignore[attr-defined]  # the server stops
    return made


def test_a_restore_gives_back_what_the_backup_held(backed_up: Path, settings: Settings) -> None:
    manifest = Manifest.read(backed_up)
    assert manifest.schema == migrations.schema(settings.database_url).head
    assert manifest.keys == service.key_fingerprints(settings.key_file)
    assert not any(settings.key_file.name in p.name for p in backed_up.iterdir())
    assert _state(settings)[0] == ["after", "kept"]

    service.restore(settings, backed_up)
    names, keys = _state(settings)
    assert names == ["kept"]
    assert keys == {"vault": {"password": "s3cret-vault"}}


def _names(settings: Settings) -> list[str]:
    engine = make_engine(settings.database_url)
    try:
        with make_session_factory(engine)() as session:
            return sorted(session.scalars(select(Project.name)))
    finally:
        engine.dispose()


def _refused(settings: Settings, backup: Path, match: str, *, real: Settings) -> None:
    with pytest.raises(BackupRefused, match=match):
        service.restore(settings, backup)
    assert _names(real) == ["after", "kept"], "nothing was replaced"


@pytest.mark.security
def test_a_restore_checks_everything_before_it_replaces_anything(
    backed_up: Path, settings: Settings, tmp_path: Path
) -> None:
    # a file that is not the one the manifest names
    tampered = tmp_path / "tampered"
    shutil.copytree(backed_up, tampered)
    (name,) = Manifest.read(tampered).files
    with (tampered / name).open("ab") as f:
        f.write(b"\0")
    _refused(settings, tampered, "not the file the manifest names", real=settings)

    # a schema a newer Steward made
    newer = tmp_path / "newer"
    shutil.copytree(backed_up, newer)
    raw = json.loads((newer / "manifest.json").read_text())
    (newer / "manifest.json").write_text(json.dumps({**raw, "schema": "9999"}))
    _refused(settings, newer, "revision 9999, which Steward .* does not know", real=settings)

    # a file name that leaves the backup
    escaping = tmp_path / "escaping"
    shutil.copytree(backed_up, escaping)
    (escaping / "manifest.json").write_text(
        json.dumps({**raw, "files": {"../../steward.db": raw["files"][name]}})
    )
    _refused(settings, escaping, "is not a file of the backup", real=settings)

    # another master key than the one that sealed its secrets
    other_key = settings.key_file.with_name("other.key")
    KeyCipher.load_or_create(other_key)
    other = settings.model_copy(update={"secret_key_file": other_key})
    _refused(other, backed_up, "master key", real=settings)

    # another kind of database than the backup's
    elsewhere = (
        "sqlite:///" + str(tmp_path / "other.db")
        if Manifest.read(backed_up).database == "postgresql"
        else "postgresql+psycopg://steward@127.0.0.1:9/none"
    )
    other_database = settings.model_copy(update={"database_url": elsewhere})
    _refused(other_database, backed_up, "cannot be restored into", real=settings)

    # the control: the same backup, untouched, with its key, is restored
    service.restore(settings, backed_up)
    assert _state(settings)[0] == ["kept"]


@pytest.mark.sqlite_only
def test_a_backup_made_while_rows_are_written_is_one_consistent_database(
    settings: Settings, tmp_path: Path
) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    KeyCipher.load_or_create(settings.key_file)  # as the server's first start makes it
    database = Path(settings.database_url.removeprefix("sqlite:///"))
    writer = sqlite3.connect(database, check_same_thread=False)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE busy (n INTEGER PRIMARY KEY, pair INTEGER NOT NULL)")
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            with writer:  # two rows a transaction: a torn copy would hold an odd count
                writer.execute("INSERT INTO busy VALUES (?, ?)", (2 * n, n))
                writer.execute("INSERT INTO busy VALUES (?, ?)", (2 * n + 1, n))
            n += 1

    thread = threading.Thread(target=write)
    thread.start()
    try:
        made = [service.backup(settings, tmp_path / f"b{i}") for i in range(3)]
    finally:
        stop.set()
        thread.join()
        writer.close()
    for backup in made:
        copy = sqlite3.connect(backup / "steward.db")
        try:
            assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            count, pairs = copy.execute(
                "SELECT count(*), count(DISTINCT pair) FROM busy"
            ).fetchone()
        finally:
            copy.close()
        assert count == 2 * pairs


@pytest.mark.sqlite_only
def test_the_commands_back_up_remind_of_the_key_and_restore_only_when_told(
    backed_up: Path, settings: Settings, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "STEWARD_DATA_DIR": str(settings.data_dir),
        "STEWARD_DATABASE_URL": settings.database_url,
    }
    made = steward("backup", "--to", str(tmp_path / "cli"), env=env)
    assert made.returncode == 0, made.stderr
    assert "backup written: " in made.stdout
    assert f"keep {settings.key_file} apart" in made.stdout
    not_told = steward("restore", str(backed_up), env=env)
    assert not_told.returncode == 2
    assert "--yes" in not_told.stderr
    assert _state(settings)[0] == ["after", "kept"]
    told = steward("restore", str(backed_up), "--yes", env=env)
    assert told.returncode == 0, told.stderr
    assert _state(settings)[0] == ["kept"]
