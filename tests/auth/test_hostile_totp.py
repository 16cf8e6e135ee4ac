"""Hostile cases for two-factor authentication: guessing codes, replaying them, one user acting
on another's second factor, a lesser token changing it, a password guesser learning more."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pyotp
import pytest
from fastapi.testclient import TestClient
from support.builders import PASSWORD, assert_problem, bearer, browser, login, make_user, token

pytestmark = pytest.mark.security

LOGIN = "/api/v1/auth/login"
TOTP = "/api/v1/users/me/totp"


def _code(secret: str, steps: int = 0) -> str:
    return pyotp.TOTP(secret).at(time.time() + 30 * steps)


def _login(web: TestClient, username: str, password: str = PASSWORD, **extra: Any) -> Any:
    return web.post(LOGIN, json={"username": username, "password": password, **extra})


def _enroll(client: TestClient, username: str) -> tuple[str, list[str]]:
    make_user(client, username)
    web, csrf = login(client, username)
    headers = {"X-CSRF-Token": csrf}
    secret = web.post(TOTP, json={"password": PASSWORD}, headers=headers).json()["secret"]
    done = web.post(f"{TOTP}/confirm", json={"code": _code(secret)}, headers=headers)
    assert done.status_code == 200, done.text
    return secret, done.json()["recovery_codes"]


def test_guessing_codes_is_throttled_like_guessing_passwords(client: TestClient) -> None:
    secret, codes = _enroll(client, "alice")
    web = browser(client)
    current = {_code(secret, s) for s in (-1, 0, 1, 2)}
    guesses = [g for g in (f"{n:06d}" for n in range(20)) if g not in current][:5]
    answers = [_login(web, "alice", otp=g) for g in guesses]
    assert [a.status_code for a in answers] == [401] * 5
    assert {a.json()["code"] for a in answers} == {"otp_invalid"}
    # locked: even the right code (or a recovery code) is refused while the lock lasts
    locked = _login(web, "alice", otp=_code(secret, 1))
    assert locked.status_code == 429
    assert "too many failed logins for 'alice'" in locked.json()["detail"]
    assert int(locked.headers["Retry-After"]) > 0
    assert _login(web, "alice", otp=codes[0]).status_code == 429
    # a password without a code counts as a failure too
    make_user(client, "bob")
    secret_b, _ = _enroll_existing(client, "bob")
    for _ in range(5):
        assert _login(web, "bob").json()["code"] == "otp_required"
    assert _login(web, "bob", otp=_code(secret_b, 1)).status_code == 429


def _enroll_existing(client: TestClient, username: str) -> tuple[str, list[str]]:
    web, csrf = login(client, username)
    headers = {"X-CSRF-Token": csrf}
    secret = web.post(TOTP, json={"password": PASSWORD}, headers=headers).json()["secret"]
    done = web.post(f"{TOTP}/confirm", json={"code": _code(secret)}, headers=headers)
    return secret, done.json()["recovery_codes"]


def test_wrong_passwords_on_the_totp_endpoints_are_throttled(client: TestClient) -> None:
    make_user(client, "alice")
    web, csrf = login(client, "alice")
    headers = {"X-CSRF-Token": csrf}
    for _ in range(5):
        assert_problem(web.post(TOTP, json={"password": "guess"}, headers=headers), 403, "password")
    locked = web.post(TOTP, json={"password": PASSWORD}, headers=headers)
    assert locked.status_code == 429
    assert _login(browser(client), "alice").status_code == 429  # the same count as the login


def test_a_password_guesser_learns_nothing_about_the_second_factor(client: TestClient) -> None:
    _enroll(client, "alice")
    make_user(client, "bob")
    with_totp = _login(browser(client), "alice", "wrong password", otp="123456")
    without = _login(browser(client), "bob", "wrong password")
    nobody = _login(browser(client), "nobody", "wrong password", otp="123456")
    for answer in (with_totp, without, nobody):
        assert answer.status_code == 401
        assert "code" not in answer.json()
    assert with_totp.json() == without.json() == nobody.json()


@pytest.mark.both_databases
def test_a_code_is_accepted_once_even_by_concurrent_logins(client: TestClient) -> None:
    secret, codes = _enroll(client, "alice")
    fresh = _code(secret, 1)
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: _login(browser(client), "alice", otp=fresh), range(4)))
    assert sorted(a.status_code for a in answers) == [200, 401, 401, 401]
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda _: _login(browser(client), "alice", otp=codes[3]), range(3)))
    assert sorted(a.status_code for a in answers) == [200, 401, 401]


def test_one_user_cannot_touch_anothers_second_factor(client: TestClient) -> None:
    secret, codes = _enroll(client, "alice")
    alice = client.get("/api/v1/users", params={"q": "alice"}).json()["items"][0]
    make_user(client, "bob")
    bob, csrf = login(client, "bob")
    headers = {"X-CSRF-Token": csrf}
    # the admin route is for admins only
    assert bob.delete(f"/api/v1/users/{alice['id']}/totp", headers=headers).status_code == 403
    # bob's own endpoints act on bob: alice's codes turn nothing of hers off
    body = {"password": PASSWORD, "code": codes[0]}
    assert bob.request("DELETE", TOTP, json=body, headers=headers).status_code == 409
    started = bob.post(TOTP, json={"password": PASSWORD}, headers=headers)
    assert started.json()["secret"] != secret
    stolen = bob.post(f"{TOTP}/confirm", json={"code": _code(secret, 1)}, headers=headers)
    if _code(secret, 1) not in {_code(started.json()["secret"], s) for s in (-1, 0, 1)}:
        assert_problem(stolen, 422, "code")
    me = client.get("/api/v1/users", params={"q": "alice"}).json()["items"][0]
    assert me["totp_enabled"] is True
    assert _login(browser(client), "alice", otp=codes[0]).status_code == 200  # still unused


def test_only_a_write_credential_with_csrf_changes_the_second_factor(client: TestClient) -> None:
    secret, codes = _enroll(client, "alice")
    make_user(client, "bob")
    for scope in ("read", "run"):
        lesser = bearer(token(client, "bob", scope))
        refused = client.post(TOTP, json={"password": PASSWORD}, headers=lesser)
        assert_problem(refused, 403, scope)
        confirm = client.post(f"{TOTP}/confirm", json={"code": "123456"}, headers=lesser)
        assert confirm.status_code == 403
        # an admin's lesser token cannot reset anyone either
    admin_read = bearer(token(client, "admin", "read", "admin-password-for-tests"))
    alice = client.get("/api/v1/users", params={"q": "alice"}).json()["items"][0]
    assert client.delete(f"/api/v1/users/{alice['id']}/totp", headers=admin_read).status_code == 403
    # a browser session without the CSRF token changes nothing
    web = browser(client)
    assert _login(web, "alice", otp=codes[1]).status_code == 200
    body = {"password": PASSWORD, "code": _code(secret, 1)}
    assert web.request("DELETE", TOTP, json=body).status_code == 403
    assert web.get("/api/v1/auth/me").json()["totp_enabled"] is True


def test_hostile_codes_are_refused_cleanly(client: TestClient) -> None:
    _enroll(client, "alice")
    web = browser(client)
    for otp in ("١٢٣٤٥٦", "12345\x00", "' or 1=1 --", "abcd-efgh-ijk\u0131", " " * 32):
        answer = _login(web, "alice", otp=otp)
        assert answer.status_code == 401, (otp, answer.text)
        assert answer.json()["code"] == "otp_invalid"
    malformed: list[object] = [["123456"], {"a": 1}, "9" * 33, True]
    for bad in malformed:
        assert_problem(_login(web, "alice", otp=bad), 422, "otp")
