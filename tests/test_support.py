"""The test services themselves work: sshd takes a key, PostgreSQL and Redis answer."""

from __future__ import annotations

import subprocess
from pathlib import Path

from support.postgres import PostgresServer
from support.processes import answers
from support.redis import RedisServer
from support.sshd import SshServer


def test_sshd_accepts_an_authorized_key(sshd: SshServer, tmp_path: Path) -> None:
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    sshd.authorize(key.with_suffix(".pub").read_text())
    result = subprocess.run(
        ["ssh", "-i", str(key), "-p", str(sshd.port), "-o", "StrictHostKeyChecking=no",
         "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
         f"{sshd.user}@{sshd.host}", "echo", "ok"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"


def test_sshd_refuses_an_unknown_key(sshd: SshServer, tmp_path: Path) -> None:
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    result = subprocess.run(
        ["ssh", "-i", str(key), "-p", str(sshd.port), "-o", "StrictHostKeyChecking=no",
         "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
         f"{sshd.user}@{sshd.host}", "echo", "ok"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    assert result.returncode == 255
    assert "Permission denied" in result.stderr


def test_postgres_answers(postgres: PostgresServer) -> None:
    with postgres.connect() as conn:
        row = conn.execute("select 1").fetchone()
    assert row == (1,)


def test_each_test_database_is_migrated_and_holds_only_the_seeded_admin(
    postgres: PostgresServer, postgres_template: str
) -> None:
    name = postgres.create_database(template=postgres_template)
    try:
        with postgres.connect(name) as conn:
            users = conn.execute("select username from users").fetchall()
            projects = conn.execute("select count(*) from projects").fetchone()
            version = conn.execute("select version_num from alembic_version").fetchone()
        assert [tuple(u) for u in users] == [("admin",)]
        assert projects == (0,)
        assert version is not None
    finally:
        postgres.drop_database(name)


def test_redis_answers_ping(redis_server: RedisServer) -> None:
    assert answers(redis_server.port, b"PING\r\n", b"+PONG")
