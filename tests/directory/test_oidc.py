"""OpenID Connect sign-in against a real OpenID Provider (panva's oidc-provider, started by
``support.oidc_provider``): the whole way through the provider's login
form by plain HTTP, the session it gives, teams from groups, a template granted to a team."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from support.builders import Workbench, browser, make_user
from support.oidc_provider import OidcProvider, with_oidc

from steward.audit.models import AuditRecord
from steward.auth.models import AuthSource, User
from steward.config import Settings
from steward.directory import oidc as oidc_login
from steward.errors import PermissionDenied, Unavailable


@pytest.fixture
def settings(settings: Settings, oidc: OidcProvider, tmp_path: Path) -> Settings:
    """The suite's settings with the provider's sign-in on; admins are in steward-admins."""
    return with_oidc(settings, oidc, tmp_path, oidc_admin_groups=["steward-admins"])


@pytest.fixture(autouse=True)
def fresh_discovery(settings: Settings) -> None:
    config = oidc_login.OidcConfig.from_settings(settings)
    assert config is not None
    oidc_login.forget_provider(config)


def team(client: TestClient, name: str, groups: list[str]) -> int:
    created = client.post("/api/v1/teams", json={"name": name, "directory_groups": groups})
    assert created.status_code == 201, created.text
    return int(created.json()["id"])


def members(client: TestClient, team_id: int) -> set[str]:
    listed = client.get(f"/api/v1/teams/{team_id}/members")
    assert listed.status_code == 200, listed.text
    body: Any = listed.json()
    items = body["items"] if isinstance(body, dict) else body
    return {m["username"] for m in items}


def signed_in(
    client: TestClient, oidc: OidcProvider, username: str, next_path: str = "/"
) -> TestClient:
    web = browser(client)
    answer = oidc.sign_in(web, username, next_path)
    assert answer.status_code == 302, answer.text
    assert answer.headers["location"] == next_path
    return web


def test_providers_names_the_button_without_authentication(client: TestClient) -> None:
    anonymous = browser(client)
    answer = anonymous.get("/api/v1/auth/providers")
    assert answer.status_code == 200
    assert answer.json() == {
        "password": True,
        "oidc": {"label": "Sign in with Test IdP", "login_url": "/api/v1/auth/oidc/login"},
    }


def test_login_redirects_to_the_provider_with_state_nonce_and_pkce(
    client: TestClient, oidc: OidcProvider
) -> None:
    web = browser(client)
    start = web.get("/api/v1/auth/oidc/login", params={"next": "/projects"}, follow_redirects=False)
    assert start.status_code == 302
    location = start.headers["location"]
    assert location.startswith(f"{oidc.issuer}/auth?")
    from urllib.parse import parse_qs, urlsplit

    query = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}
    assert query["response_type"] == "code"
    assert query["client_id"] == oidc.client_id
    assert query["code_challenge_method"] == "S256"
    assert len(query["code_challenge"]) == 43  # base64url SHA-256, no padding
    assert len(query["state"]) >= 40
    assert len(query["nonce"]) >= 40
    assert query["scope"] == "openid profile email groups"
    cookie = start.headers["set-cookie"]
    assert cookie.startswith(f"{oidc_login.STATE_COOKIE}=")
    for attribute in ("HttpOnly", "Max-Age=600", "Path=/api/v1/auth/oidc", "SameSite=lax"):
        assert attribute in cookie
    assert query["state"] not in cookie  # sealed: not readable by anyone
    assert query["nonce"] not in cookie
    assert start.headers["cache-control"] == "no-store"


def test_sign_in_gives_a_working_session_and_the_teams_of_the_groups(
    client: TestClient, oidc: OidcProvider
) -> None:
    ops, dev = team(client, "ops", ["ops"]), team(client, "dev", ["dev"])
    web = signed_in(client, oidc, "alice", "/projects?tab=mine")
    session = web.get("/api/v1/auth/session")
    assert session.status_code == 200, session.text
    body = session.json()
    assert body["user"]["username"] == "alice"
    assert body["user"]["email"] == "alice@example.com"
    assert body["user"]["display_name"] == "Alice Ops"
    assert body["user"]["is_admin"] is False
    assert members(client, ops) == {"alice"}
    assert members(client, dev) == set()
    # the session is a browser session like a password login's: writes need the CSRF token
    refused = web.patch("/api/v1/users/me", json={"display_name": "x"})
    assert refused.status_code == 403
    changed = web.patch(
        "/api/v1/users/me",
        json={"display_name": "A."},
        headers={"X-CSRF-Token": body["csrf_token"]},
    )
    assert changed.status_code == 200, changed.text
    with client.app.state.runtime.sessions() as s:  # type: ignore[attr-defined]
        user = s.scalar(select(User).where(User.username == "alice"))
        assert user is not None
        assert user.auth_source == AuthSource.OIDC
        assert user.external_id == f"{oidc.issuer}|alice"
        login = s.scalars(
            select(AuditRecord).where(
                AuditRecord.action == "auth:login", AuditRecord.object_id == user.id
            )
        ).all()
        assert len(login) == 1
        assert login[0].source_ip == "testclient"
        assert login[0].detail == f"OpenID Connect: {oidc.issuer}"


def test_the_team_of_the_groups_may_launch_the_template_granted_to_it(
    client: TestClient, oidc: OidcProvider, workbench: Workbench
) -> None:
    ops = team(client, "ops", ["ops"])
    template = workbench.template("ok.yml")
    grant = {"team_id": ops, "permission": "run"}
    granted = client.post(workbench.url(f"templates/{template}/grants"), json=grant)
    assert granted.status_code == 201, granted.text
    bob = signed_in(client, oidc, "bob")  # dev, not ops: no right on the template
    csrf = bob.get("/api/v1/auth/session").json()["csrf_token"]
    refused = bob.post(
        workbench.url("runs"), json={"template_id": template}, headers={"X-CSRF-Token": csrf}
    )
    assert refused.status_code in (403, 404), refused.text
    alice = signed_in(client, oidc, "alice")
    csrf = alice.get("/api/v1/auth/session").json()["csrf_token"]
    launched = alice.post(
        workbench.url("runs"), json={"template_id": template}, headers={"X-CSRF-Token": csrf}
    )
    assert launched.status_code == 201, launched.text
    run = workbench.wait(launched.json()["id"])
    assert run["status"] == "successful", run


def test_a_second_sign_in_with_other_groups_moves_the_user_between_teams(
    client: TestClient, oidc: OidcProvider
) -> None:
    ops, dev = team(client, "ops", ["ops"]), team(client, "dev", ["dev"])
    signed_in(client, oidc, "alice")
    assert (members(client, ops), members(client, dev)) == ({"alice"}, set())
    oidc.set_groups("alice", ["dev"])
    signed_in(client, oidc, "alice")
    assert (members(client, ops), members(client, dev)) == (set(), {"alice"})
    with client.app.state.runtime.sessions() as s:  # type: ignore[attr-defined]
        assert s.scalar(select(User.id).where(User.username == "alice")) is not None
        assert len(s.scalars(select(User).where(User.auth_source == AuthSource.OIDC)).all()) == 1


def test_admin_groups_make_an_admin(client: TestClient, oidc: OidcProvider) -> None:
    carol = signed_in(client, oidc, "carol")
    assert carol.get("/api/v1/auth/me").json()["is_admin"] is True
    listed = carol.get("/api/v1/users")
    assert listed.status_code == 200
    oidc.set_groups("carol", [])
    carol = signed_in(client, oidc, "carol")
    assert carol.get("/api/v1/auth/me").json()["is_admin"] is False


def test_groups_in_the_id_token_are_used_as_they_come(
    client: TestClient, oidc: OidcProvider
) -> None:
    """A provider that puts the groups in the ID token: those count (userinfo is not asked)."""
    ops, dev = team(client, "ops", ["ops"]), team(client, "dev", ["dev"])
    oidc.tamper("groups_in_token", token_groups=["dev"])  # userinfo still says ops
    signed_in(client, oidc, "alice")
    assert (members(client, ops), members(client, dev)) == (set(), {"alice"})


def test_no_totp_is_asked_of_a_provider_sign_in(client: TestClient, oidc: OidcProvider) -> None:
    """Steward's second factor is for password logins; the provider checks its own."""
    web = signed_in(client, oidc, "alice")
    assert web.get("/api/v1/auth/me").json()["totp_enabled"] is False
    # and the password form refuses a directory user (no local password)
    refused = browser(client).post(
        "/api/v1/auth/login", json={"username": "alice", "password": "x"}
    )
    assert refused.status_code == 401


def test_a_local_user_of_the_same_name_is_not_taken_over(
    client: TestClient, oidc: OidcProvider
) -> None:
    make_user(client, "bob")
    web = browser(client)
    answer = oidc.sign_in(web, "bob")
    assert answer.status_code == 409, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert "username" in answer.json()["detail"]
    assert oidc_login.STATE_COOKIE not in web.cookies
    assert web.get("/api/v1/auth/session").status_code == 401
    with client.app.state.runtime.sessions() as s:  # type: ignore[attr-defined]
        bob = s.scalar(select(User).where(User.username == "bob"))
        assert bob is not None
        assert bob.auth_source == AuthSource.LOCAL
        assert bob.external_id is None


def test_allowed_domains_refuse_other_addresses(
    settings: Settings, oidc: OidcProvider, tmp_path: Path
) -> None:
    from steward.server import build_app

    limited = settings.model_copy(update={"oidc_allowed_domains": ["example.com"]})
    app = build_app(limited, migrate=False)
    with TestClient(app) as web:
        refused = oidc.sign_in(web, "bob")  # bob@example.org
        assert refused.status_code == 403, refused.text
        assert "example.com" in refused.json()["detail"]
        assert oidc.sign_in(web, "alice").status_code == 302  # alice@example.com
    app.state.runtime.engine.dispose()


def test_the_provider_down_is_503_and_local_logins_still_work(
    settings: Settings, tmp_path: Path
) -> None:
    from support.processes import free_port

    from steward.server import build_app

    down = settings.model_copy(update={"oidc_issuer": f"http://127.0.0.1:{free_port()}"})
    app = build_app(down, migrate=False)
    with TestClient(app) as web:
        answer = web.get("/api/v1/auth/oidc/login", follow_redirects=False)
        assert answer.status_code == 503, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
        assert "does not answer" in answer.json()["detail"]
        assert "local logins still work" in answer.json()["detail"]
        assert web.get("/api/v1/auth/providers").json()["oidc"] is not None
        from support.admin import ADMIN_PASSWORD

        login = web.post(
            "/api/v1/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD}
        )
        assert login.status_code == 200, login.text
    app.state.runtime.engine.dispose()


def test_off_when_not_configured(settings: Settings) -> None:
    from steward.server import build_app

    off = settings.model_copy(update={"oidc_issuer": "", "oidc_client_id": ""})
    app = build_app(off, migrate=False)
    with TestClient(app) as web:
        assert web.get("/api/v1/auth/providers").json() == {"password": True, "oidc": None}
        answer = web.get("/api/v1/auth/oidc/login", follow_redirects=False)
        assert answer.status_code == 404
        assert web.get("/api/v1/auth/oidc/callback?state=x&code=y").status_code == 404
    app.state.runtime.engine.dispose()


def test_an_unreadable_secret_file_is_503_not_500(settings: Settings, tmp_path: Path) -> None:
    from steward.server import build_app

    missing = settings.model_copy(update={"oidc_client_secret_file": tmp_path / "nowhere"})
    app = build_app(missing, migrate=False)
    with TestClient(app) as web:
        answer = web.get("/api/v1/auth/oidc/login", follow_redirects=False)
        assert answer.status_code == 503, answer.text
        assert "STEWARD_OIDC_CLIENT_SECRET_FILE" in answer.json()["detail"]
        assert str(tmp_path) not in answer.text
    app.state.runtime.engine.dispose()


def test_a_missing_username_claim_is_refused_naming_it(
    settings: Settings, oidc: OidcProvider
) -> None:
    from steward.server import build_app

    other = settings.model_copy(update={"oidc_username_claim": "nickname"})
    app = build_app(other, migrate=False)
    with TestClient(app) as web:
        answer = oidc.sign_in(web, "alice")
        assert answer.status_code == 401, answer.text
        assert "nickname" in answer.json()["detail"]
    app.state.runtime.engine.dispose()


def test_openid_is_always_asked_and_the_provider_path_must_exist(
    settings: Settings, oidc: OidcProvider
) -> None:
    from steward.server import build_app

    config = oidc_login.OidcConfig.from_settings(
        settings.model_copy(update={"oidc_scopes": "email"})
    )
    assert config is not None
    assert config.scopes == "openid email"
    elsewhere = settings.model_copy(update={"oidc_issuer": f"{oidc.issuer}/not-here"})
    app = build_app(elsewhere, migrate=False)
    with TestClient(app) as web:
        answer = web.get("/api/v1/auth/oidc/login", follow_redirects=False)
        assert answer.status_code == 503, answer.text
        assert "HTTP 404" in answer.json()["detail"]
    app.state.runtime.engine.dispose()


def claims_config(settings: Settings, **changes: Any) -> oidc_login.OidcConfig:
    config = oidc_login.OidcConfig.from_settings(settings.model_copy(update=changes))
    assert config is not None
    return config


def test_claims_become_a_person(settings: Settings, oidc: OidcProvider) -> None:
    config = claims_config(settings)
    claims = {"sub": "s1", "preferred_username": " dana ", "email": "d@x.example", "name": "D"}
    person = oidc_login.person_from(config, {**claims, "groups": "ops"})  # one group, a string
    assert person == oidc_login.Person(
        external_id=f"{oidc.issuer}|s1", username="dana", email="d@x.example",
        display_name="D", groups=["ops"],
    )  # fmt: skip
    odd = [1, "", "g" * 501, "ok", None]
    assert oidc_login.person_from(config, {**claims, "groups": odd}).groups == ["ok"]
    assert oidc_login.person_from(config, {**claims, "groups": {"a": 1}}).groups == []
    for bad, field in (({"sub": ""}, "sub"), ({"sub": "x" * 600}, "sub")):
        with pytest.raises(oidc_login.ProviderError, match=field):
            oidc_login.person_from(config, {**claims, **bad})
    limited = claims_config(settings, oidc_allowed_domains=["@X.example"])
    assert oidc_login.person_from(limited, claims).email == "d@x.example"
    with pytest.raises(PermissionDenied, match="email"):
        oidc_login.person_from(limited, {**claims, "email_verified": False})
    with pytest.raises(PermissionDenied, match="email"):
        oidc_login.person_from(limited, {**claims, "email": "d@x.example.evil"})


def test_only_asymmetric_algorithms_are_accepted() -> None:
    assert oidc_login._algorithms({}) == ["RS256"]
    offered = {"id_token_signing_alg_values_supported": ["none", "HS256", "ES256", "RS256"]}
    assert oidc_login._algorithms(offered) == ["ES256", "RS256"]
    for only in (["none"], ["HS256", "HS512"], "RS256"):
        with pytest.raises(Unavailable, match="asymmetric"):
            oidc_login._algorithms({"id_token_signing_alg_values_supported": only})


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, "/"),
        ("", "/"),
        ("/runs/5?x=1", "/runs/5?x=1"),
        ("//evil.example", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example/", "/"),
        ("/ok\\", "/"),
        ("/a\x7f", "/"),
        ("/" + "a" * 2000, "/"),
    ],
)
def test_safe_next(value: str | None, expected: str) -> None:
    assert oidc_login.safe_next(value) == expected
