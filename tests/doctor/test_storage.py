"""The data dir, database and master key checks, each with the case that passes beside the one
that fails: a database whose upgrade is pending, one a newer Steward migrated, one not
reachable; a key file open to others, owned by someone else, or not the key of the database's
secrets."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from support.processes import free_port

from steward import migrations
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.doctor import disk, storage
from steward.doctor.findings import Level


def _stamp(url: str, revision: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    finally:
        engine.dispose()


def _seal_a_secret(settings: Settings, cipher: KeyCipher) -> None:
    """A two-factor secret of the seeded admin, sealed with ``cipher``: the database now holds
    a secret the key file must open."""
    engine = create_engine(settings.database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text("UPDATE users SET totp_secret = :t"), {"t": cipher.encrypt({"s": "x"})}
            )
    finally:
        engine.dispose()


def test_the_data_dir_is_writable_and_has_room(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    settings.data_dir.mkdir()
    found = disk.data_dir(settings)
    assert found.level is Level.OK, found.line()
    assert "writable" in found.detail
    assert list(settings.data_dir.iterdir()) == []  # the write probe left nothing behind

    # the same disk under thresholds above what it has: low is a warning, too low a FAIL
    low = disk.data_dir(settings, warn_below=1 << 60)
    assert low.level is Level.WARN, low.line()
    full = disk.data_dir(settings, fail_below=1 << 60)
    assert full.level is Level.FAIL, full.line()
    assert "free of" in full.detail
    assert "steward prune" in full.detail


def test_a_data_dir_not_made_yet_is_a_warning_and_stays_unmade(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "var" / "steward")
    found = disk.data_dir(settings)
    assert found.level is Level.WARN, found.line()
    assert "does not exist yet" in found.detail
    assert not (tmp_path / "var").exists()


@pytest.mark.both_databases
def test_a_database_at_this_version_is_ok_pending_or_newer_fails(settings: Settings) -> None:
    current = storage.database(settings)
    assert current.level is Level.OK, current.line()
    assert "up to date" in current.detail

    _stamp(settings.database_url, "0001")  # as 0.1.0 left it: an upgrade pending
    pending = storage.database(settings)
    assert pending.level is Level.FAIL, pending.line()
    assert "run `steward migrate`" in pending.detail

    _stamp(settings.database_url, "9999")  # as a newer Steward leaves it
    newer = storage.database(settings)
    assert newer.level is Level.FAIL, newer.line()
    assert "revision 9999" in newer.detail
    assert "newer Steward" in newer.detail
    assert migrations.schema(settings.database_url).current == "9999"  # nothing changed


@pytest.mark.both_databases
def test_an_empty_database_is_a_warning(empty_database_url: str, tmp_path: Path) -> None:
    found = storage.database(Settings(data_dir=tmp_path, database_url=empty_database_url))
    assert found.level is Level.WARN, found.line()
    assert "empty" in found.detail


def test_a_sqlite_file_not_made_yet_is_a_warning_and_stays_unmade(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    found = storage.database(settings)
    assert found.level is Level.WARN, found.line()
    assert "does not exist yet" in found.detail
    assert storage.master_key(settings).level is Level.WARN  # no key, and no secret to need it
    assert not (tmp_path / "steward.db").exists()


def test_a_database_server_not_listening_fails_fast_without_its_password(tmp_path: Path) -> None:
    url = f"postgresql+psycopg://steward:hunter2@127.0.0.1:{free_port()}/steward"
    started = time.monotonic()
    found = storage.database(Settings(data_dir=tmp_path, database_url=url))
    assert time.monotonic() - started < storage.DATABASE_TIMEOUT + 1
    assert found.level is Level.FAIL, found.line()
    assert "not reachable" in found.detail
    assert "STEWARD_DATABASE_URL" in found.detail
    assert "hunter2" not in found.line()


@pytest.mark.both_databases
def test_the_master_key_is_private_ours_and_opens_the_database(settings: Settings) -> None:
    cipher = KeyCipher.load_or_create(settings.key_file)
    fresh = storage.master_key(settings)
    assert fresh.level is Level.OK, fresh.line()
    assert "mode 0600" in fresh.detail
    assert "no secret stored yet" in fresh.detail

    _seal_a_secret(settings, cipher)
    opens = storage.master_key(settings)
    assert opens.level is Level.OK, opens.line()
    assert "opens the database's two-factor secrets" in opens.detail

    os.chmod(settings.key_file, 0o644)
    loose = storage.master_key(settings)
    assert loose.level is Level.FAIL
    assert loose.line() == (
        f"FAIL master-key: {settings.key_file} is readable by group and others (mode 0644);"
        f" chmod 600 {settings.key_file}"
    )
    os.chmod(settings.key_file, 0o600)

    os.chown(settings.key_file, 65534, -1)  # nobody's (the tests run as root)
    theirs = storage.master_key(settings)
    assert theirs.level is Level.FAIL, theirs.line()
    assert "is owned by" in theirs.detail
    assert "chown" in theirs.detail
    os.chown(settings.key_file, os.geteuid(), -1)

    original = settings.key_file.read_bytes()
    settings.key_file.unlink()
    KeyCipher.load_or_create(settings.key_file)  # another key, where the old one was
    other = storage.master_key(settings)
    assert other.level is Level.FAIL, other.line()
    assert "does not open the two-factor secrets" in other.detail

    settings.key_file.unlink()
    missing = storage.master_key(settings)
    assert missing.level is Level.FAIL, missing.line()
    assert "is missing, and the database holds secrets" in missing.detail

    settings.key_file.write_bytes(original)
    settings.key_file.chmod(0o600)
    assert storage.master_key(settings).level is Level.OK  # put back: the same check passes
