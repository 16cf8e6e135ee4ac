"""The test services themselves work: sshd takes a key, PostgreSQL and Redis answer; the
session's isolation holds (no connection out, cheap password hashes)."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from support.isolation import NetworkBlocked, is_local
from support.postgres import PostgresServer
from support.processes import answers
from support.redis import RedisServer
from support.sshd import SshServer

from steward.auth import passwords


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


@pytest.mark.both_databases
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


@pytest.mark.parametrize(
    ("family", "address"),
    [
        (socket.AF_INET, ("192.0.2.1", 80)),  # TEST-NET-1: never routed
        (socket.AF_INET, ("example.com", 443)),
        (socket.AF_INET6, ("2001:db8::1", 80, 0, 0)),
    ],
)
def test_connections_to_other_machines_fail_the_test(family: int, address: tuple[str]) -> None:
    with socket.socket(family, socket.SOCK_STREAM) as s, pytest.raises(NetworkBlocked):
        s.connect(address)


def test_this_machine_is_reachable(redis_server: RedisServer) -> None:
    assert is_local(socket.AF_INET, ("127.0.0.1", 1))
    assert is_local(socket.AF_INET, ("localhost", 1))
    assert is_local(socket.AF_INET6, ("::1", 1, 0, 0))
    assert is_local(socket.AF_INET6, ("::ffff:127.0.0.1", 1, 0, 0))
    assert is_local(socket.AF_UNIX, "/run/some.sock")
    assert not is_local(socket.AF_INET, ("10.0.0.1", 1))
    assert answers(redis_server.port, b"PING\r\n", b"+PONG")


def test_password_hashes_are_cheap_and_still_argon2() -> None:
    cheap = passwords.hash_password("pw")
    assert cheap.startswith("$argon2id$")
    assert "m=8,t=1,p=1" in cheap
    assert passwords.verify_password(cheap, "pw")
    assert passwords.verify_password(PasswordHasher().hash("pw"), "pw")  # the real parameters
    assert not passwords.verify_password(cheap, "other")
