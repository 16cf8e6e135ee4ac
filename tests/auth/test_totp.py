"""Two-factor authentication (TOTP): enrollment, login with a code or a recovery code, turning it
off, an admin's reset, the secret sealed at rest and through a master-key rotation."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx2
import pyotp
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from support.builders import PASSWORD, assert_problem, bearer, browser, login, make_user, token
from support.server import ADMIN_PASSWORD, FreshServer

from steward.auth.models import RecoveryCode, User
from steward.bounds import PASSPHRASE_MAX
from steward.config import Settings
from steward.crypto import KeyCipher, read_key_file
from steward.keys import rotation

LOGIN = "/api/v1/auth/login"
TOTP = "/api/v1/users/me/totp"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Room for the wrong codes these tests send (test_hostile_totp.py: the real limits)."""
    return settings.model_copy(update={"login_max_failures_per_account": 50})


def _code(secret: str, steps: int = 0) -> str:
    """The code of the step ``steps`` away from now, as an authenticator app computes it."""
    return pyotp.TOTP(secret).at(time.time() + 30 * steps)


def _login(web: TestClient, username: str, otp: str | None = None, **body: Any) -> Any:
    sent = {"username": username, "password": PASSWORD, **body}
    if otp is not None:
        sent["otp"] = otp
    return web.post(LOGIN, json=sent)


def _enroll(client: TestClient, username: str) -> tuple[TestClient, str, str, list[str]]:
    """A user with TOTP on: their browser, its CSRF token, the secret, the recovery codes."""
    make_user(client, username)
    web, csrf = login(client, username)
    started = web.post(TOTP, json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert started.status_code == 200, started.text
    secret = started.json()["secret"]
    confirmed = web.post(
        f"{TOTP}/confirm", json={"code": _code(secret)}, headers={"X-CSRF-Token": csrf}
    )
    assert confirmed.status_code == 200, confirmed.text
    return web, csrf, secret, confirmed.json()["recovery_codes"]


def _let_time_pass(client: TestClient, username: str) -> None:
    """As if a few steps had passed since the last code was used: the codes of now are new."""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        session.execute(
            update(User)
            .where(User.username == username)
            .values(totp_last_step=User.totp_last_step - 3)
        )
        session.commit()


def _audit(client: TestClient, action: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = client.get("/api/v1/audit", params={"action": action}).json()[
        "items"
    ]
    return items


def test_enrollment_turns_totp_on_and_then_a_login_needs_a_code(client: TestClient) -> None:
    user = make_user(client, "alice")
    assert user["totp_enabled"] is False
    web, csrf = login(client, "alice")
    other, _ = login(client, "alice")  # another browser, signed in before
    alice_token = token(client, "alice", "read")
    assert web.get("/api/v1/auth/me").json()["totp_enabled"] is False

    started = web.post(TOTP, json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert started.status_code == 200, started.text
    secret = started.json()["secret"]
    assert re.fullmatch(r"[A-Z2-7]{32}", secret)
    assert started.json()["otpauth_uri"] == (
        f"otpauth://totp/Steward:alice?secret={secret}&issuer=Steward"
    )
    # pending: nothing changes until a code confirms it
    assert web.get("/api/v1/auth/me").json()["totp_enabled"] is False
    assert _login(browser(client), "alice").status_code == 200

    confirmed = web.post(
        f"{TOTP}/confirm", json={"code": _code(secret)}, headers={"X-CSRF-Token": csrf}
    )
    assert confirmed.status_code == 200, confirmed.text
    codes = confirmed.json()["recovery_codes"]
    assert len(codes) == 10
    assert len(set(codes)) == 10
    assert all(re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", c) for c in codes)

    assert web.get("/api/v1/auth/me").json()["totp_enabled"] is True  # this session stays
    assert other.get("/api/v1/auth/me").status_code == 401  # the other one ended
    assert client.get("/api/v1/auth/me", headers=bearer(alice_token)).status_code == 200
    listed = client.get("/api/v1/users", params={"q": "alice"}).json()["items"]
    assert [u["totp_enabled"] for u in listed] == [True]

    needed = _login(browser(client), "alice")
    assert_problem(needed, 401, "code")
    assert needed.json()["code"] == "otp_required"
    assert "authenticator" in needed.json()["detail"]
    assert "set-cookie" not in needed.headers

    signed_in = _login(browser(client), "alice", _code(secret, 1))
    assert signed_in.status_code == 200, signed_in.text
    assert signed_in.json()["user"]["totp_enabled"] is True

    enabled = _audit(client, "user:totp_enable")
    assert len(enabled) == 1
    assert enabled[0]["actor"] == "alice"
    # `other`, the one that made the token, the one that logged in while pending
    assert "ended 3 other sessions" in enabled[0]["detail"]
    failures = _audit(client, "auth:login_failed")
    assert [f["detail"] for f in failures] == ["a code from the authenticator app is needed"]
    logins = [
        r["detail"]
        for r in _audit(client, "auth:login")
        if r["action"] == "auth:login" and r["object_name"] == "alice"
    ]
    assert logins[0] == "password and a second factor"  # newest first


def test_wrong_replayed_and_expired_codes_are_refused(client: TestClient) -> None:
    _web, _csrf, secret, _codes = _enroll(client, "alice")
    current = {_code(secret, s) for s in (-1, 0, 1)}
    wrong = next(c for c in ("000000", "111111", "222222", "333333") if c not in current)
    refused = [
        wrong,
        _code(secret),  # the code that confirmed the enrollment: already used
        _code(secret, -3),  # expired
        _code(secret, 3),  # not yet
        "12345",
        "",
        "not-a-recovery-code",
    ]
    for otp in refused:
        answer = _login(browser(client), "alice", otp)
        assert_problem(answer, 401, "code")
        assert answer.json()["code"] == "otp_invalid", otp

    fresh = _code(secret, 1)
    assert _login(browser(client), "alice", fresh).status_code == 200
    replay = _login(browser(client), "alice", fresh)
    assert replay.status_code == 401
    assert replay.json()["code"] == "otp_invalid"
    # an older code than the one used is refused too, even inside the window
    assert _login(browser(client), "alice", _code(secret)).json()["code"] == "otp_invalid"

    failures = [f["detail"] for f in _audit(client, "auth:login_failed")]
    assert len(failures) == len(refused) + 2
    assert set(failures) == {"invalid or already used code"}


def test_a_recovery_code_works_once(client: TestClient) -> None:
    _web, _csrf, _secret, codes = _enroll(client, "alice")
    assert _login(browser(client), "alice", codes[0]).status_code == 200
    again = _login(browser(client), "alice", codes[0])
    assert again.status_code == 401
    assert again.json()["code"] == "otp_invalid"
    # typed as people type it: upper case, blanks around
    assert _login(browser(client), "alice", f"  {codes[1].upper()} ").status_code == 200
    # a recovery code of someone else is nobody's
    _w, _c, _s, bobs = _enroll(client, "bob")
    assert _login(browser(client), "alice", bobs[0]).json()["code"] == "otp_invalid"
    assert _login(browser(client), "bob", bobs[0]).status_code == 200

    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        stored = list(session.scalars(select(RecoveryCode.code_hash)))
        used = session.scalar(
            select(RecoveryCode.used_at).where(RecoveryCode.used_at.is_not(None)).limit(1)
        )
    assert len(stored) == 20
    assert used is not None
    assert not any(c in h or c.replace("-", "") in h for c in codes + bobs for h in stored)


def test_disabling_needs_the_password_and_a_code(client: TestClient) -> None:
    web, csrf, secret, codes = _enroll(client, "alice")
    other_web = browser(client)
    assert _login(other_web, "alice", codes[0]).status_code == 200
    headers = {"X-CSRF-Token": csrf}

    wrong_password = web.request(
        "DELETE", TOTP, json={"password": "not it", "code": _code(secret, 1)}, headers=headers
    )
    assert_problem(wrong_password, 403, "password")
    wrong_code = web.request(
        "DELETE", TOTP, json={"password": PASSWORD, "code": codes[0]}, headers=headers
    )  # a used recovery code
    assert_problem(wrong_code, 422, "code")
    assert wrong_code.json()["errors"][0]["field"] == "code"
    missing = web.request("DELETE", TOTP, json={"password": PASSWORD}, headers=headers)
    assert_problem(missing, 422, "code")
    assert web.get("/api/v1/auth/me").json()["totp_enabled"] is True

    off = web.request(
        "DELETE", TOTP, json={"password": PASSWORD, "code": _code(secret, 1)}, headers=headers
    )
    assert off.status_code == 204, off.text
    assert web.get("/api/v1/auth/me").json()["totp_enabled"] is False
    assert other_web.get("/api/v1/auth/me").status_code == 401
    assert _login(browser(client), "alice").status_code == 200
    again = web.request(
        "DELETE", TOTP, json={"password": PASSWORD, "code": _code(secret, 1)}, headers=headers
    )
    assert again.status_code == 409

    disabled = _audit(client, "user:totp_disable")
    assert len(disabled) == 1
    assert "ended 1 other sessions" in disabled[0]["detail"]
    failures = {f["detail"] for f in _audit(client, "auth:login_failed")}
    assert "wrong password when turning two-factor authentication off" in failures
    assert "wrong code when turning two-factor authentication off" in failures
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        user = session.scalar(select(User).where(User.username == "alice"))
        assert user is not None
        assert user.totp_secret is None
        assert (
            session.scalar(select(RecoveryCode.id).where(RecoveryCode.user_id == user.id)) is None
        )

    # a recovery code also turns it off (the phone is lost, the user still has the codes)
    _web2, csrf2, _secret2, codes2 = _enroll(client, "bob")
    by_recovery = _web2.request(
        "DELETE",
        TOTP,
        json={"password": PASSWORD, "code": codes2[5]},
        headers={"X-CSRF-Token": csrf2},
    )
    assert by_recovery.status_code == 204, by_recovery.text


def test_an_admin_resets_a_users_totp(client: TestClient) -> None:
    web, _csrf, _secret, _codes = _enroll(client, "alice")
    alice = next(u for u in client.get("/api/v1/users", params={"q": "alice"}).json()["items"])
    make_user(client, "bob")
    bob, bob_csrf = login(client, "bob")
    refused = bob.delete(f"/api/v1/users/{alice['id']}/totp", headers={"X-CSRF-Token": bob_csrf})
    assert refused.status_code == 403

    reset = client.delete(f"/api/v1/users/{alice['id']}/totp")
    assert reset.status_code == 204, reset.text
    assert web.get("/api/v1/auth/me").status_code == 401  # their sessions ended
    signed_in = _login(browser(client), "alice")
    assert signed_in.status_code == 200
    assert signed_in.json()["user"]["totp_enabled"] is False
    assert client.delete("/api/v1/users/999999/totp").status_code == 404

    records = _audit(client, "user:totp_reset")
    assert len(records) == 1
    assert records[0]["actor"] == "admin (token tests)"
    assert records[0]["object_name"] == "alice"
    assert "was on" in records[0]["detail"]

    # and alice can turn it on again
    again, csrf = login(client, "alice")
    restarted = again.post(TOTP, json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert restarted.status_code == 200


def test_enrollment_can_restart_and_is_refused_once_on(client: TestClient) -> None:
    make_user(client, "alice")
    web, csrf = login(client, "alice")
    headers = {"X-CSRF-Token": csrf}
    nothing = web.post(f"{TOTP}/confirm", json={"code": "123456"}, headers=headers)
    assert nothing.status_code == 409
    first = web.post(TOTP, json={"password": PASSWORD}, headers=headers).json()["secret"]
    second = web.post(TOTP, json={"password": PASSWORD}, headers=headers).json()["secret"]
    assert first != second
    stale = web.post(f"{TOTP}/confirm", json={"code": _code(first)}, headers=headers)
    if _code(first) != _code(second):  # one chance in a million that they agree
        assert_problem(stale, 422, "code")
        assert stale.json()["errors"][0]["field"] == "code"
    wrong_password = web.post(TOTP, json={"password": "nope"}, headers=headers)
    assert_problem(wrong_password, 403, "password")
    assert (
        web.post(f"{TOTP}/confirm", json={"code": _code(second)}, headers=headers).status_code
        == 200
    )
    on_already = web.post(TOTP, json={"password": PASSWORD}, headers=headers)
    assert on_already.status_code == 409
    assert (
        web.post(f"{TOTP}/confirm", json={"code": _code(second, 1)}, headers=headers).status_code
        == 409
    )


def test_users_without_totp_log_in_as_before(client: TestClient) -> None:
    make_user(client, "carol")
    assert _login(browser(client), "carol").status_code == 200
    assert _login(browser(client), "carol", "123456").status_code == 200  # ignored
    wrong = browser(client).post(LOGIN, json={"username": "carol", "password": "wrong"})
    assert wrong.status_code == 401
    assert "code" not in wrong.json()


def test_the_secret_is_sealed_at_rest_and_never_shown_again(client: TestClient) -> None:
    web, _csrf, secret, codes = _enroll(client, "alice")
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        raw = session.scalar(select(User.totp_secret).where(User.username == "alice"))
    assert raw is not None
    assert secret.encode() not in raw
    assert secret.lower().encode() not in raw
    assert runtime.cipher.decrypt(raw)["totp"] == secret  # with the time the enrollment began

    signed_in = _login(browser(client), "alice", _code(secret, 1))
    alice_id = signed_in.json()["user"]["id"]
    answers = [
        signed_in.text,
        web.get("/api/v1/auth/me").text,
        web.get("/api/v1/auth/session").text,
        web.get("/api/v1/users/me/sessions").text,
        client.get("/api/v1/users").text,
        client.get("/api/v1/audit", params={"limit": 200}).text,
        client.get(f"/api/v1/audit?object_type=user&object_id={alice_id}").text,
    ]
    for text in answers:
        assert secret not in text
        assert "totp_secret" not in text
        assert not any(code in text for code in codes)


def test_a_master_key_rotation_keeps_totp_working(client: TestClient) -> None:
    _web, _csrf, secret, _codes = _enroll(client, "alice")
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        before = session.scalar(select(User.totp_secret).where(User.username == "alice"))
    report = rotation.rotate(runtime.sessions, runtime.settings.key_file, drop_old=True, batch=1)
    assert report.reencrypted["two-factor secrets"] == 1
    with runtime.sessions() as session:
        after = session.scalar(select(User.totp_secret).where(User.username == "alice"))
    assert after is not None
    assert after != before
    key_file = runtime.settings.key_file
    assert rotation.stale(runtime.sessions, KeyCipher(read_key_file(key_file))) == 0
    assert _login(browser(client), "alice", _code(secret, 1)).status_code == 200
    _let_time_pass(client, "alice")
    assert _login(browser(client), "alice", _code(secret)).status_code == 200


def test_codes_and_passwords_have_limits(client: TestClient) -> None:
    _web, csrf, _secret, _codes = _enroll(client, "alice")
    web, csrf = login(client, "admin", "admin-password-for-tests")
    headers = {"X-CSRF-Token": csrf}
    too_long = _login(browser(client), "alice", "1" * 33)
    assert_problem(too_long, 422, "otp")
    assert too_long.json()["errors"][0]["field"] == "otp"
    not_text = browser(client).post(
        LOGIN, json={"username": "alice", "password": PASSWORD, "otp": 123456}
    )
    assert_problem(not_text, 422, "otp")
    long_code = web.post(f"{TOTP}/confirm", json={"code": "1" * 33}, headers=headers)
    assert_problem(long_code, 422, "code")
    empty = web.post(f"{TOTP}/confirm", json={"code": ""}, headers=headers)
    assert_problem(empty, 422, "code")
    huge = web.post(TOTP, json={"password": "x" * (PASSPHRASE_MAX + 1)}, headers=headers)
    assert_problem(huge, 422, "password")
    unknown = web.post(TOTP, json={"password": "x", "secret": "AAAA"}, headers=headers)
    assert_problem(unknown, 422, "secret")
    no_body = web.request("DELETE", TOTP, headers=headers)
    assert no_body.status_code == 422


@pytest.mark.sqlite_only
def test_no_secret_or_recovery_code_in_the_server_log_at_debug(tmp_path: Path) -> None:
    # a first start: the migrations and the admin's creation are logged at DEBUG too
    server = FreshServer(tmp_path / "data", log_level="DEBUG")
    with server.running():
        base = f"http://127.0.0.1:{server.port}/api/v1"
        with httpx2.Client(base_url=base) as api:
            signed_in = api.post(
                "/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD}
            )
            assert signed_in.status_code == 200, signed_in.text
            headers = {"X-CSRF-Token": signed_in.json()["csrf_token"]}
            started = api.post("/users/me/totp", json={"password": ADMIN_PASSWORD}, headers=headers)
            secret = started.json()["secret"]
            confirmed = api.post(
                "/users/me/totp/confirm", json={"code": _code(secret)}, headers=headers
            )
            codes = confirmed.json()["recovery_codes"]
            assert len(codes) == 10
            assert api.get("/auth/me").json()["totp_enabled"] is True
        with httpx2.Client(base_url=base) as fresh:
            body = {"username": "admin", "password": ADMIN_PASSWORD}
            assert fresh.post("/auth/login", json=body).json()["code"] == "otp_required"
            assert fresh.post("/auth/login", json={**body, "otp": codes[0]}).status_code == 200
            assert (
                fresh.post("/auth/login", json={**body, "otp": _code(secret, 1)}).status_code == 200
            )
    log = server.log.read_text()
    assert "DEBUG" in log
    assert "totp" in log  # the requests were logged, only not their secrets
    for value in (secret, secret.lower(), *codes):
        assert value not in log, f"{value!r} is in the server log"


def _age_enrollment(client: TestClient, username: str, seconds: float | None) -> None:
    """As if the pending enrollment had started ``seconds`` ago (None: sealed before
    enrollments were timed, with no start at all)."""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        user = session.scalar(select(User).where(User.username == username))
        sealed = runtime.cipher.decrypt(user.totp_secret)
        if seconds is None:
            sealed.pop("started")
        else:
            sealed["started"] = time.time() - seconds
        user.totp_secret = runtime.cipher.encrypt(sealed)
        session.commit()


def _pending_secret(client: TestClient, username: str) -> bytes | None:
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        secret: bytes | None = session.scalar(
            select(User.totp_secret).where(User.username == username)
        )
        return secret


@pytest.mark.parametrize("age", [16 * 60, None], ids=["after-15-minutes", "untimed"])
def test_an_enrollment_not_confirmed_in_time_expires(client: TestClient, age: float | None) -> None:
    make_user(client, "alice")
    web, csrf = login(client, "alice")
    headers = {"X-CSRF-Token": csrf}
    secret = web.post(TOTP, json={"password": PASSWORD}, headers=headers).json()["secret"]
    _age_enrollment(client, "alice", age)
    late = web.post(f"{TOTP}/confirm", json={"code": _code(secret)}, headers=headers)
    assert late.status_code == 409, late.text
    assert late.headers["content-type"] == "application/problem+json"
    assert "expired" in late.json()["detail"]
    assert "start again" in late.json()["detail"]
    assert _pending_secret(client, "alice") is None  # the unconfirmed secret is dropped
    again = web.post(f"{TOTP}/confirm", json={"code": _code(secret)}, headers=headers)
    assert again.status_code == 409
    assert "no enrollment started" in again.json()["detail"]
    # two-factor stays off: the password alone logs in
    assert _login(browser(client), "alice").status_code == 200
    # starting again gives a new secret, which confirms
    fresh = web.post(TOTP, json={"password": PASSWORD}, headers=headers).json()["secret"]
    assert fresh != secret
    done = web.post(f"{TOTP}/confirm", json={"code": _code(fresh)}, headers=headers)
    assert done.status_code == 200, done.text
    assert _login(browser(client), "alice").json()["code"] == "otp_required"


def test_an_enrollment_confirmed_within_15_minutes_works(client: TestClient) -> None:
    make_user(client, "bob")
    web, csrf = login(client, "bob")
    headers = {"X-CSRF-Token": csrf}
    secret = web.post(TOTP, json={"password": PASSWORD}, headers=headers).json()["secret"]
    _age_enrollment(client, "bob", 14 * 60)
    done = web.post(f"{TOTP}/confirm", json={"code": _code(secret)}, headers=headers)
    assert done.status_code == 200, done.text
    assert len(done.json()["recovery_codes"]) == 10
