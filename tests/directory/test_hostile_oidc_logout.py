"""Hostile cases of the logout at the OpenID provider, against the real test provider: the way
back from the provider is always Steward's own login page (no open redirect through the
request), a logout cookie this server did not seal for this session gives no ID token hint, a
cross-site logout is refused, and a password user never gets a provider redirect."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.builders import browser, login, make_user
from support.oidc_provider import OidcProvider, with_oidc

from steward.config import Settings
from steward.crypto import KeyCipher
from steward.directory import oidc as oidc_login

pytestmark = pytest.mark.security

LOGOUT = "/api/v1/auth/logout"


@pytest.fixture
def settings(settings: Settings, oidc: OidcProvider, tmp_path: Path) -> Settings:
    return with_oidc(settings, oidc, tmp_path)


@pytest.fixture(autouse=True)
def fresh_discovery(settings: Settings) -> None:
    config = oidc_login.OidcConfig.from_settings(settings)
    assert config is not None
    oidc_login.forget_provider(config)


def signed_in(client: TestClient, oidc: OidcProvider, username: str) -> tuple[TestClient, str]:
    web = browser(client)
    assert oidc.sign_in(web, username).status_code == 302
    session = web.get("/api/v1/auth/session")
    assert session.status_code == 200, session.text
    return web, str(session.json()["csrf_token"])


def query_of(url: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def with_logout_cookie(web: TestClient, value: str) -> None:
    """The browser's logout cookie replaced by ``value`` (as an attacker planting one)."""
    cookies = {k: v for k, v in web.cookies.items() if k != oidc_login.LOGOUT_COOKIE}
    web.cookies.clear()
    for name, kept in cookies.items():
        web.cookies.set(name, kept)
    web.cookies.set(oidc_login.LOGOUT_COOKIE, value)


def test_control_a_planted_copy_of_the_sessions_own_cookie_is_a_hint(
    client: TestClient, oidc: OidcProvider
) -> None:
    """The planting of the tests below reaches the server: the genuine value, planted the same
    way, gives the hint."""
    web, csrf = signed_in(client, oidc, "alice")
    genuine = web.cookies.get(oidc_login.LOGOUT_COOKIE)
    assert genuine
    with_logout_cookie(web, genuine)
    out = web.post(LOGOUT, headers={"X-CSRF-Token": csrf})
    assert "id_token_hint" in query_of(out.json()["redirect_to"])


def test_the_way_back_is_always_the_login_page(client: TestClient, oidc: OidcProvider) -> None:
    web, csrf = signed_in(client, oidc, "alice")
    evil = "https://evil.example/steal"
    out = web.post(
        LOGOUT,
        params={"post_logout_redirect_uri": evil, "next": "//evil.example", "redirect_to": evil},
        json={"post_logout_redirect_uri": evil, "redirect_to": evil},
        headers={"X-CSRF-Token": csrf, "Referer": evil, "Origin": "http://testserver"},
    )
    assert out.status_code == 200, out.text
    target = out.json()["redirect_to"]
    assert "evil" not in target
    assert target.startswith(f"{oidc.issuer}/")
    assert query_of(target)["post_logout_redirect_uri"] == "http://testserver/login"


@pytest.mark.parametrize(
    "forged",
    [
        "not-sealed-at-all",
        "x" * 5000,  # oversized
        "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.",  # a bare (unsigned) JWT
        "other-key",  # sealed with another server's master key
    ],
    ids=["garbage", "oversized", "bare-jwt", "other-key"],
)
def test_a_forged_logout_cookie_gives_no_hint(
    client: TestClient, oidc: OidcProvider, tmp_path: Path, forged: str
) -> None:
    web, csrf = signed_in(client, oidc, "alice")
    if forged == "other-key":
        other = KeyCipher.load_or_create(tmp_path / "other.key")
        forged = other.encrypt({"purpose": "oidc-logout", "id_token": "a.b.c"}).decode()
    with_logout_cookie(web, forged)
    out = web.post(LOGOUT, headers={"X-CSRF-Token": csrf})
    assert out.status_code == 200, out.text  # signed out here all the same
    query = query_of(out.json()["redirect_to"])
    assert "id_token_hint" not in query
    assert query["client_id"] == oidc.client_id
    assert web.get("/api/v1/auth/me").status_code == 401


def test_the_logout_cookie_of_another_session_gives_no_hint(
    client: TestClient, oidc: OidcProvider
) -> None:
    bob, _ = signed_in(client, oidc, "bob")
    bobs_cookie = bob.cookies.get(oidc_login.LOGOUT_COOKIE)
    assert bobs_cookie
    alice, alice_csrf = signed_in(client, oidc, "alice")
    with_logout_cookie(alice, bobs_cookie)  # planted in alice's browser
    out = alice.post(LOGOUT, headers={"X-CSRF-Token": alice_csrf})
    assert out.status_code == 200, out.text
    assert "id_token_hint" not in query_of(out.json()["redirect_to"])
    # control: in bob's own browser, the same cookie is a hint
    own = bob.post(
        LOGOUT, headers={"X-CSRF-Token": bob.get("/api/v1/auth/session").json()["csrf_token"]}
    )
    assert "id_token_hint" in query_of(own.json()["redirect_to"])


def test_a_cross_site_logout_is_refused(client: TestClient, oidc: OidcProvider) -> None:
    web, _csrf = signed_in(client, oidc, "alice")
    forged = web.post(LOGOUT, headers={"Origin": "https://evil.example"})
    assert forged.status_code == 403, forged.text
    assert "redirect_to" not in forged.text
    assert web.get("/api/v1/auth/me").status_code == 200  # still signed in


def test_a_password_user_never_gets_a_provider_redirect(
    client: TestClient, oidc: OidcProvider
) -> None:
    sso, _ = signed_in(client, oidc, "alice")
    alices_cookie = sso.cookies.get(oidc_login.LOGOUT_COOKIE)
    assert alices_cookie
    make_user(client, "mallory")
    web, csrf = login(client, "mallory")
    with_logout_cookie(web, alices_cookie)
    out = web.post(LOGOUT, headers={"X-CSRF-Token": csrf})
    assert out.status_code == 204, out.text
    assert out.content == b""
