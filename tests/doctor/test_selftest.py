"""The sandbox check runs a real playbook on localhost: in the sandbox it cannot see the data
dir, the master key or the database (its passing case: tests/doctor/test_cli.py, through
`steward doctor`); the same run in a sandbox that hides nothing (the control: the probe can see
them) is a FAIL, unsandboxed runs a warning, a run that cannot start a FAIL."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from support.apps import settings_for

from steward.config import Settings
from steward.crypto import KeyCipher
from steward.doctor import selftest
from steward.doctor.findings import Level
from steward.execution.ansible.sandbox import Sandbox

pytestmark = pytest.mark.sqlite_only  # the sandbox is the same whatever the database


@pytest.fixture
def installed(settings: Settings) -> Settings:
    """An installation as after its first start: database, key file, data dir."""
    KeyCipher.load_or_create(settings.key_file)
    return settings


def _left_behind(settings: Settings) -> list[Path]:
    return [p for p in settings.data_dir.rglob("*") if "doctor" in p.name]


def test_a_sandbox_that_hides_nothing_is_caught(installed: Settings) -> None:
    # bubblewrap, but nothing hidden: what the probe reads is there to be read
    leaky = Sandbox(enabled=True)
    found = selftest.sandbox_check(installed, leaky)
    assert found.level is Level.FAIL, found.line()
    assert "read the data dir, the master key and the database" in found.detail
    assert _left_behind(installed) == []


def test_unsandboxed_runs_are_a_warning_and_a_refused_sandbox_a_fail(installed: Settings) -> None:
    off = installed.model_copy(update={"sandbox": "off"})
    found = selftest.sandbox_check(off, Sandbox(enabled=False))
    assert found.level is Level.WARN, found.line()
    assert "runs are NOT sandboxed (STEWARD_SANDBOX=off)" in found.detail
    assert "read the data dir" in found.detail

    refused = Sandbox(
        enabled=False, refusal="runs are refused: bubblewrap (bwrap) is not installed"
    )
    no_bwrap = selftest.sandbox_check(installed, refused)
    assert no_bwrap.line() == f"FAIL sandbox: {refused.refusal}"


class _Missing(Sandbox):
    """A sandbox whose program is not there."""

    def wrap(self, argv: Sequence[str], **_: object) -> list[str]:
        return ["/nonexistent/bwrap", "--", *argv]


def test_a_run_that_cannot_start_fails(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, "sqlite://")
    # a sandbox command that does not exist: ansible-playbook never starts (exit 127)
    found = selftest.sandbox_check(settings, _Missing(enabled=True))
    assert found.level is Level.FAIL, found.line()
    assert "the self-test run on localhost failed" in found.detail
