"""Hostile cases for the OpenID Connect sign-in, against a real OpenID Provider
(``support.oidc_provider``) that can be made to answer with forged ID tokens: a state that is
not this browser's, used twice or forged; ID tokens with another key, expired, for another
client, with another nonce or issuer, or unsigned (``alg: none``); open redirects through
``next``; oversized parameters; the client secret never shown."""

from __future__ import annotations

import logging
import time
import urllib.parse
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from support.builders import assert_problem, browser
from support.oidc_provider import OidcProvider, with_oidc

from steward.audit.models import AuditRecord
from steward.auth.models import WebSession
from steward.config import Settings
from steward.directory import oidc as oidc_login

pytestmark = pytest.mark.security

CALLBACK = "/api/v1/auth/oidc/callback"


@pytest.fixture
def settings(settings: Settings, oidc: OidcProvider, tmp_path: Path) -> Settings:
    return with_oidc(settings, oidc, tmp_path)


@pytest.fixture(autouse=True)
def fresh_discovery(settings: Settings) -> None:
    config = oidc_login.OidcConfig.from_settings(settings)
    assert config is not None
    oidc_login.forget_provider(config)


def sessions_count(client: TestClient) -> int:
    with client.app.state.runtime.sessions() as s:  # type: ignore[attr-defined]
        return int(s.scalar(select(func.count()).select_from(WebSession)) or 0)


def no_session(web: TestClient) -> None:
    assert "steward_session" not in web.cookies
    assert web.get("/api/v1/auth/session").status_code == 401


def callback_path(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    return f"{parts.path}?{parts.query}"


def with_query(url: str, **changes: str) -> str:
    parts = urllib.parse.urlsplit(url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    return f"{parts.path}?{urllib.parse.urlencode({**query, **changes})}"


@pytest.mark.parametrize(
    ("tamper", "cause"),
    [
        ("other_key", "bad_signature"),
        ("expired", "expired_token"),
        ("wrong_audience", "aud"),
        ("wrong_nonce", "nonce"),
        ("wrong_issuer", "iss"),
        ("alg_none", "id_token"),
        ("unknown_kid", "id_token"),  # the keys are fetched again, and still do not have it
        ("not_a_jwt", "id_token"),
    ],
)
def test_a_forged_or_broken_id_token_is_refused_and_gives_no_session(
    client: TestClient, oidc: OidcProvider, tamper: str, cause: str
) -> None:
    before = sessions_count(client)
    oidc.tamper(tamper)
    web = browser(client)
    answer = oidc.sign_in(web, "alice")
    detail = assert_problem(answer, 401, "id_token")
    assert cause in detail, detail
    no_session(web)
    assert sessions_count(client) == before
    with client.app.state.runtime.sessions() as s:  # type: ignore[attr-defined]
        failed = s.scalars(
            select(AuditRecord).where(AuditRecord.action == "auth:login_failed")
        ).all()
        assert [r.detail.startswith("OpenID Connect: id_token") for r in failed] == [True]
        assert failed[0].source_ip == "testclient"
    oidc.tamper(None)  # the same provider, honest again: the sign-in works
    assert oidc.sign_in(browser(client), "alice").status_code == 302


def test_a_state_that_is_not_this_browsers_is_refused(
    client: TestClient, oidc: OidcProvider
) -> None:
    web = browser(client)
    url = oidc.callback_url(web, "alice")
    answer = web.get(with_query(url, state="x" * 43), follow_redirects=False)
    assert_problem(answer, 422, "state")
    no_session(web)
    # the cookie is gone: the right state does not work afterwards either (single use)
    answer = web.get(callback_path(url), follow_redirects=False)
    assert_problem(answer, 422, "state")
    no_session(web)


def test_a_callback_in_another_browser_is_refused(client: TestClient, oidc: OidcProvider) -> None:
    """Login CSRF: an attacker's code and state, sent to a victim's browser, sign nobody in."""
    attacker = browser(client)
    url = oidc.callback_url(attacker, "bob")
    victim = browser(client)
    answer = victim.get(callback_path(url), follow_redirects=False)
    assert_problem(answer, 422, "state")
    no_session(victim)


def test_a_state_works_once(client: TestClient, oidc: OidcProvider) -> None:
    web = browser(client)
    url = oidc.callback_url(web, "alice")
    captured = web.cookies[oidc_login.STATE_COOKIE]
    assert web.get(callback_path(url), follow_redirects=False).status_code == 302
    after_first = sessions_count(client)
    # the same browser again: its sign-in cookie was removed
    assert oidc_login.STATE_COOKIE not in web.cookies
    replay = web.get(callback_path(url), follow_redirects=False)
    assert_problem(replay, 422, "state")
    # an attacker who captured the cookie too: the provider's code works once
    thief = browser(client)
    thief.cookies.set(oidc_login.STATE_COOKIE, captured, path="/api/v1/auth/oidc")
    stolen = thief.get(callback_path(url), follow_redirects=False)
    assert_problem(stolen, 401, "code")
    no_session(thief)
    assert sessions_count(client) == after_first


def test_a_forged_or_foreign_cookie_is_refused(client: TestClient, oidc: OidcProvider) -> None:
    web = browser(client)
    url = oidc.callback_url(web, "alice")
    # another sealed value of this server (a different purpose) is not a sign-in state
    cipher = client.app.state.runtime.cipher  # type: ignore[attr-defined]
    state = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))["state"]
    foreign = cipher.encrypt({"purpose": "something-else", "state": state}).decode()
    for cookie in ("garbage", "A" * 100_000, foreign):
        forged = browser(client)
        forged.cookies.set(oidc_login.STATE_COOKIE, cookie, path="/api/v1/auth/oidc")
        answer = forged.get(callback_path(url), follow_redirects=False)
        assert_problem(answer, 422, "state")
        no_session(forged)


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example",
        "//evil.example/path",
        "https://evil.example",
        "http://evil.example/x",
        "/\\evil.example",
        "\\\\evil.example",
        "/\\/evil.example",
        "javascript:alert(1)",
        "evil.example",
        "/\t/evil.example",
        "/\r\nLocation: https://evil.example",
        "///evil.example",
    ],
)
def test_next_never_leaves_the_site(client: TestClient, oidc: OidcProvider, target: str) -> None:
    web = browser(client)
    answer = oidc.sign_in(web, "alice", target)
    assert answer.status_code == 302, answer.text
    assert answer.headers["location"] == "/"


def test_next_keeps_a_path_of_the_site(client: TestClient, oidc: OidcProvider) -> None:
    web = browser(client)
    answer = oidc.sign_in(web, "alice", "/projects/3/runs?status=failed#top")
    assert answer.headers["location"] == "/projects/3/runs?status=failed#top"


def test_oversized_parameters_are_refused_naming_them(
    client: TestClient, oidc: OidcProvider
) -> None:
    web = browser(client)
    too_long = web.get(
        "/api/v1/auth/oidc/login", params={"next": "/" + "a" * 2000}, follow_redirects=False
    )
    assert_problem(too_long, 422, "next")
    url = oidc.callback_url(web, "alice")
    for name in ("state", "code", "error", "iss"):
        answer = web.get(with_query(url, **{name: "x" * 5000}), follow_redirects=False)
        assert_problem(answer, 422, name)


def test_an_answer_of_another_issuer_or_without_code_is_refused(
    client: TestClient, oidc: OidcProvider
) -> None:
    web = browser(client)
    url = oidc.callback_url(web, "alice")
    answer = web.get(with_query(url, iss="https://evil.example"), follow_redirects=False)
    assert_problem(answer, 422, "iss")
    web = browser(client)
    url = oidc.callback_url(web, "alice")
    answer = web.get(with_query(url, code=""), follow_redirects=False)
    assert_problem(answer, 422, "code")
    no_session(web)


def test_a_provider_refusal_is_401(client: TestClient, oidc: OidcProvider) -> None:
    web = browser(client)
    url = oidc.callback_url(web, "alice")
    parts = urllib.parse.urlsplit(url)
    state = dict(urllib.parse.parse_qsl(parts.query))["state"]
    refused = urllib.parse.urlencode({"state": state, "error": "access_denied"})
    answer = web.get(f"{CALLBACK}?{refused}", follow_redirects=False)
    detail = assert_problem(answer, 401, "access_denied")
    assert "refused" in detail
    no_session(web)


def test_a_disabled_directory_user_is_refused(client: TestClient, oidc: OidcProvider) -> None:
    assert oidc.sign_in(browser(client), "alice").status_code == 302
    users = client.get("/api/v1/users", params={"q": "alice"}).json()["items"]
    disabled = client.patch(f"/api/v1/users/{users[0]['id']}", json={"is_active": False})
    assert disabled.status_code == 200, disabled.text
    web = browser(client)
    answer = oidc.sign_in(web, "alice")
    assert_problem(answer, 401, "disabled")
    no_session(web)


def test_the_client_secret_is_never_shown_nor_logged(
    client: TestClient, oidc: OidcProvider, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    web = browser(client)
    start = web.get("/api/v1/auth/oidc/login", follow_redirects=False)
    answers = [start, oidc.sign_in(web, "alice")]
    answers.append(web.get("/api/v1/auth/providers"))
    answers.append(client.get("/api/v1/openapi.json"))
    oidc.tamper("other_key")
    answers.append(oidc.sign_in(browser(client), "alice"))
    for answer in answers:
        assert oidc.client_secret not in answer.text
        assert oidc.client_secret not in str(answer.headers)
    assert oidc.client_secret not in caplog.text
    config = oidc_login.OidcConfig.from_settings(client.app.state.runtime.settings)  # type: ignore[attr-defined]
    assert oidc.client_secret not in repr(config)
    assert oidc.client_secret not in repr(client.app.state.runtime.settings)  # type: ignore[attr-defined]


def test_userinfo_about_someone_else_is_refused(client: TestClient, oidc: OidcProvider) -> None:
    """The groups come from the userinfo endpoint: an answer naming another ``sub`` than the ID
    token (a mixed-up or hostile endpoint) gives nobody their teams."""
    oidc.tamper("userinfo_other_sub")
    web = browser(client)
    answer = oidc.sign_in(web, "alice")
    assert_problem(answer, 401, "sub")
    no_session(web)


def test_a_state_older_than_ten_minutes_is_refused(client: TestClient, oidc: OidcProvider) -> None:
    """The sealed state carries its expiry (sealed with the server's key here, as time would)."""
    web = browser(client)
    url = oidc.callback_url(web, "alice")
    cipher = client.app.state.runtime.cipher  # type: ignore[attr-defined]
    sealed = cipher.decrypt(web.cookies[oidc_login.STATE_COOKIE].encode())
    old = cipher.encrypt({**sealed, "expires": time.time() - 1}).decode()
    web.cookies.clear()
    web.cookies.set(oidc_login.STATE_COOKIE, old, path="/api/v1/auth/oidc")
    answer = web.get(callback_path(url), follow_redirects=False)
    assert_problem(answer, 422, "state")
    assert "too long" in answer.json()["detail"]
    no_session(web)
