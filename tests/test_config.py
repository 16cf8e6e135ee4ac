"""Settings read from the environment: STEWARD_LOCAL_REPOSITORY_ROOTS in its accepted forms."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from steward.config import Settings


@pytest.mark.parametrize(
    ("value", "roots"),
    [
        ('["/srv/ansible", "/opt/playbooks"]', ("/srv/ansible", "/opt/playbooks")),
        ("/srv/ansible:/opt/playbooks", ("/srv/ansible", "/opt/playbooks")),
        ("/srv/ansible, /opt/playbooks", ("/srv/ansible", "/opt/playbooks")),
        ("/srv/ansible", ("/srv/ansible",)),
        ("", ()),  # set but empty: no local repository is allowed
        ("[]", ()),
    ],
)
def test_local_repository_roots_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str, roots: tuple[str, ...]
) -> None:
    monkeypatch.setenv("STEWARD_LOCAL_REPOSITORY_ROOTS", value)
    assert Settings(data_dir=tmp_path).repository_roots == tuple(Path(r) for r in roots)


def test_local_repository_roots_default_to_the_data_dirs_repositories(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("STEWARD_LOCAL_REPOSITORY_ROOTS", raising=False)
    settings = Settings(data_dir=tmp_path)
    assert settings.repository_roots == (tmp_path.resolve() / "repositories",)
    assert settings.local_repository_roots == [tmp_path.resolve() / "repositories"]


@pytest.mark.parametrize("value", ["relative/dir", '["/ok", "not/absolute"]', "[not json"])
def test_local_repository_roots_must_be_absolute(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    monkeypatch.setenv("STEWARD_LOCAL_REPOSITORY_ROOTS", value)
    with pytest.raises(ValidationError, match="local_repository_roots"):
        Settings(data_dir=tmp_path)


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        (
            {"audit_http_url": "https://es:9200/steward", "audit_http_format": "elastic"},
            "_bulk",
        ),
        ({"audit_http_url": "https://user:pw@siem/ingest"}, "credentials"),
        ({"audit_syslog_host": "siem", "audit_syslog_ca_file": "/ca.pem"}, "audit_syslog_tls"),
        (
            {"audit_syslog_host": "siem", "audit_syslog_tls": True, "audit_syslog_cert_file": "/c"},
            "audit_syslog_key_file",
        ),
        ({"audit_syslog_host": "siem", "audit_syslog_facility": "local9"}, "local7"),
        ({"audit_syslog_host": "siem/514"}, "syslog host"),
    ],
)
def test_audit_stream_settings_that_cannot_work_are_refused_at_start(
    settings: dict[str, object], named: str
) -> None:
    with pytest.raises(ValidationError, match=named):
        Settings(**settings)  # type: ignore[arg-type]


def test_audit_stream_sinks_follow_the_settings() -> None:
    assert Settings().audit_stream_sinks == ()
    both = Settings(
        audit_syslog_host="siem",
        audit_http_url="https://es:9200/steward/_bulk",
        audit_http_format="elastic",
    )
    assert both.audit_stream_sinks == ("syslog", "http")
