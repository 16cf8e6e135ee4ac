"""Bounds of the storage settings and command: a threshold out of range is refused at start,
naming the setting; `--compact` takes no argument that could reach the SQL."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from steward import cli
from steward.config import Settings

pytestmark = pytest.mark.security


@pytest.mark.parametrize("value", ["-1", "100000001", "1e3", "10MB", "0x10"])
def test_a_warning_threshold_out_of_range_or_not_a_number_is_refused(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STEWARD_DATABASE_SIZE_WARNING_MB", value)
    with pytest.raises(ValidationError) as raised:
        Settings()
    assert raised.value.errors()[0]["loc"] == ("database_size_warning_mb",)


@pytest.mark.parametrize(("value", "expected"), [("0", 0), ("1", 1), ("100000000", 100_000_000)])
def test_control_a_threshold_in_range_is_taken(
    value: str, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STEWARD_DATABASE_SIZE_WARNING_MB", value)
    assert Settings().database_size_warning_mb == expected


def test_compact_takes_no_value(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["prune", "--compact=main; DROP TABLE runs"])
    assert exited.value.code == 2
    assert "ignored explicit argument" in capsys.readouterr().err
