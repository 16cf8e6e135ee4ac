"""`steward doctor` as operators run it: one line per check and the summary, exit 0 on this
(test) installation; a FAIL line and exit 1 on a key file others can read; `--brief` for
`make run`."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support.server import steward

from steward import cli
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.doctor.report import CHECKS
from steward.execution.ansible.sandbox import control_root

pytestmark = pytest.mark.sqlite_only  # the database checks have their own tests on both


def _env(settings: Settings) -> dict[str, str]:
    return {
        "STEWARD_DATA_DIR": str(settings.data_dir),
        "STEWARD_DATABASE_URL": settings.database_url,
        "STEWARD_SECRET_KEY_FILE": str(settings.key_file),
    }


def test_the_doctor_passes_on_a_working_installation(settings: Settings, tmp_path: Path) -> None:
    # the key file apart from the data dir, which does not exist yet: made as `serve` makes it
    settings = settings.model_copy(update={"secret_key_file": tmp_path / "keys" / "secret.key"})
    KeyCipher.load_or_create(settings.key_file)
    assert not settings.data_dir.exists()
    started = time.monotonic()
    done = steward("doctor", env={**os.environ, **_env(settings)})
    took = time.monotonic() - started
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0].split()[-1] for line in lines[:-1]] == list(CHECKS)
    # a data dir not made yet is a warning (serve makes it), and the exit status stays 0
    assert lines[0].startswith(f"warn data-dir: {settings.data_dir} does not exist yet")
    assert all(line.startswith("ok   ") for line in lines[1:-1]), done.stdout
    ok = len(CHECKS) - 1
    assert lines[-1].startswith(f"steward doctor: {len(CHECKS)} checks, {ok} ok, 1 warn, 0 FAIL")
    assert done.stderr == ""  # the modules' log lines are not repeated
    sandbox = lines[list(CHECKS).index("sandbox")]
    assert sandbox.startswith("ok   sandbox: a self-test run on localhost took ")
    assert "could not read the data dir, the master key or the database" in sandbox
    # the data dir made for the self-test, its private directory and TMPDIR are gone
    assert not settings.data_dir.exists()
    assert [p for p in control_root(settings).glob("doctor-*")] == []
    print(f"steward doctor took {took:.1f} s: {lines[-1]}")  # noqa: T201 - the figure, with -s


def test_a_key_file_others_read_fails_the_doctor(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in _env(settings).items():
        monkeypatch.setenv(name, value)
    KeyCipher.load_or_create(settings.key_file)
    assert cli.main(["doctor", "--skip", "sandbox"]) == 0  # the control: the same, private
    capsys.readouterr()

    os.chmod(settings.key_file, 0o644)
    assert cli.main(["doctor", "--skip", "sandbox", "--brief"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"steward doctor: {len(CHECKS) - 1} checks, ")
    assert ", 1 FAIL (" in lines[0]
    assert lines[1:] == [
        f"FAIL master-key: {settings.key_file} is readable by group and others (mode 0644);"
        f" chmod 600 {settings.key_file}"
    ]


def test_an_unknown_check_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["doctor", "--skip", "sandbx"]) == 2
    assert "--skip: no check named 'sandbx'" in capsys.readouterr().err
