"""The server's own commands against the data of a real server."""

from __future__ import annotations

import io

import pytest

from cli.site import Site
from steward import cli

pytestmark = [pytest.mark.sqlite_only, pytest.mark.xdist_group("cli-server")]


def test_user_create_reads_the_password_from_stdin(
    site: Site, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in site.server.env.items():
        if name.startswith("STEWARD_"):
            monkeypatch.setenv(name, value)
    monkeypatch.setattr("sys.stdin", io.StringIO("a-long-password\n"))
    assert cli.main(["user", "create", "dba", "--password-stdin"]) == 0
    assert "created user dba" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("a-long-password\n"))
    assert cli.main(["user", "create", "dba", "--password-stdin"]) == 1
    assert "already exists" in capsys.readouterr().err
