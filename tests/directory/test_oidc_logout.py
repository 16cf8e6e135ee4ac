"""Logout at the OpenID provider (RP-initiated logout) against the real test provider, whose
discovery advertises an end_session_endpoint: Steward's logout of a person who signed in with
it answers where to end the sign-in there too, with the ID token as hint; the provider checks
that hint, ends its session and sends the browser back to Steward's login page.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient
from support.builders import browser, login, make_user
from support.oidc_provider import OidcProvider, with_oidc

from steward.config import Settings
from steward.directory import oidc as oidc_login


@pytest.fixture
def settings(settings: Settings, oidc: OidcProvider, tmp_path: Path) -> Settings:
    return with_oidc(settings, oidc, tmp_path)


@pytest.fixture(autouse=True)
def fresh_discovery(settings: Settings) -> None:
    config = oidc_login.OidcConfig.from_settings(settings)
    assert config is not None
    oidc_login.forget_provider(config)


def csrf_of(web: TestClient) -> str:
    answer = web.get("/api/v1/auth/session")
    assert answer.status_code == 200, answer.text
    return str(answer.json()["csrf_token"])


def test_logout_ends_the_sign_in_at_the_provider_too(
    client: TestClient, oidc: OidcProvider
) -> None:
    web = browser(client)
    with httpx2.Client(follow_redirects=False, timeout=10) as idp:
        signed_in = oidc.sign_in(web, "alice", "/projects", idp=idp)
        assert signed_in.status_code == 302, signed_in.text
        cookies = signed_in.headers.get_list("set-cookie")
        hint = next(c for c in cookies if c.startswith(f"{oidc_login.LOGOUT_COOKIE}="))
        for attribute in ("HttpOnly", "Path=/api/v1/auth/logout", "SameSite=strict"):
            assert attribute in hint
        assert ".eyJ" not in hint  # sealed: no readable JWT in it
        # control: the provider remembers her, a new sign-in goes straight back to Steward
        assert oidc.asks_for_password(browser(client), idp) is False

        out = web.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf_of(web)})
        assert out.status_code == 200, out.text
        assert out.headers["cache-control"] == "no-store"
        target = out.json()["redirect_to"]
        discovery = httpx2.get(f"{oidc.issuer}/.well-known/openid-configuration").json()
        assert target.startswith(f"{discovery['end_session_endpoint']}?")
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(target).query))
        assert query["client_id"] == oidc.client_id
        assert query["post_logout_redirect_uri"] == "http://testserver/login"
        assert query["id_token_hint"].count(".") == 2  # the ID token Steward got
        # signed out at Steward already: the session and the hint cookie are gone
        assert web.get("/api/v1/auth/me").status_code == 401
        assert any(
            c.startswith(f'{oidc_login.LOGOUT_COOKIE}=""') or "Max-Age=0" in c
            for c in out.headers.get_list("set-cookie")
            if c.startswith(oidc_login.LOGOUT_COOKIE)
        )

        # the provider accepts the hint, ends its session, sends the browser back to the login
        back = oidc.end_session(idp, target)
        assert back == "http://testserver/login"
        assert oidc.asks_for_password(browser(client), idp) is True


def test_a_password_login_logs_out_as_before(client: TestClient) -> None:
    make_user(client, "bob")
    web, csrf = login(client, "bob")
    out = web.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf})
    assert out.status_code == 204, out.text
    assert out.content == b""
    assert web.get("/api/v1/auth/me").status_code == 401


def test_without_an_end_session_endpoint_the_logout_is_steward_only(
    settings: Settings, oidc: OidcProvider, client: TestClient
) -> None:
    oidc.write(no_end_session=True)  # a provider without RP-initiated logout
    web = browser(client)
    assert oidc.sign_in(web, "alice").status_code == 302
    out = web.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf_of(web)})
    assert out.status_code == 204, out.text
    assert web.get("/api/v1/auth/me").status_code == 401
