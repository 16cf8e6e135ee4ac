"""The own-account routes (tokens, password, second factor, profile, sessions) x every credential:
a read, a run and a write token, and a console session.

Reading the account needs any credential. A token creates only tokens its scope covers
(read < run < write). Changing the account (revoking another token, the password, the second
factor, the profile, ending a session) needs a session or a write token; a token may always
revoke itself. Each column is a user of its own, so one credential's changes never decide
another's probes; each probe sends a body the route would carry out (the changes happen), and
the refused ones are checked to have changed nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import PASSWORD, bearer, browser, login, make_user, token

CREDENTIALS = ("read", "run", "write", "session")
NEW_PASSWORD = "a different horse battery"

# fmt: off
#                   read  run   write session
READS =            (200,  200,  200,  200)
CREATE_READ =      (201,  201,  201,  201)
CREATE_RUN =       (403,  201,  201,  201)
CREATE_WRITE =     (403,  403,  201,  201)
CHANGE =           (403,  403,  204,  204)
PROFILE =          (403,  403,  200,  200)
TOTP_START =       (403,  403,  200,  200)
TOTP_WRONG_CODE =  (403,  403,  422,  422)  # allowed: then the code is wrong
TOTP_NOT_ON =      (403,  403,  409,  409)  # allowed: then there is nothing to turn off
# fmt: on


@dataclasses.dataclass
class Account:
    """One user and the credential under test; ``spare``: what a change probe may change."""

    name: str
    client: TestClient
    headers: dict[str, str]
    spare_token: int
    spare_session: TestClient
    spare_session_id: int


def _account(admin: TestClient, credential: str) -> Account:
    name = f"sam_{credential}"
    make_user(admin, name)
    spare, spare_csrf = login(admin, name)
    spare_token = spare.post(
        "/api/v1/users/me/tokens",
        json={"name": "spare", "scope": "read"},
        headers={"X-CSRF-Token": spare_csrf},
    ).json()["id"]
    spare_session_id = spare.get("/api/v1/users/me/sessions").json()[0]["id"]
    if credential == "session":
        client, csrf = login(admin, name)
        headers = {"X-CSRF-Token": csrf}
    else:
        client, headers = browser(admin), bearer(token(admin, name, credential))
    return Account(name, client, headers, spare_token, spare, spare_session_id)


Probe = tuple[str, str, Callable[[Account], Any], tuple[int, ...]]
PROBES: list[Probe] = [
    ("GET", "/auth/me", lambda a: None, READS),
    ("GET", "/users/me/tokens", lambda a: None, READS),
    ("GET", "/users/me/sessions", lambda a: None, READS),
    ("POST", "/users/me/tokens", lambda a: {"name": "n", "scope": "read"}, CREATE_READ),
    ("POST", "/users/me/tokens", lambda a: {"name": "n", "scope": "run"}, CREATE_RUN),
    ("POST", "/users/me/tokens", lambda a: {"name": "n", "scope": "write"}, CREATE_WRITE),
    ("PATCH", "/users/me", lambda a: {"display_name": "changed"}, PROFILE),
    ("POST", "/users/me/totp", lambda a: {"password": PASSWORD}, TOTP_START),
    ("POST", "/users/me/totp/confirm", lambda a: {"code": "000000"}, TOTP_WRONG_CODE),
    ("DELETE", "/users/me/totp", lambda a: {"password": PASSWORD, "code": "0"}, TOTP_NOT_ON),
    ("DELETE", "/users/me/tokens/{spare_token}", lambda a: None, CHANGE),
    ("DELETE", "/users/me/sessions/{spare_session_id}", lambda a: None, CHANGE),
    (
        "POST",
        "/users/me/password",
        lambda a: {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
        CHANGE,
    ),
]


@pytest.fixture
def accounts(client: TestClient) -> dict[str, Account]:
    return {credential: _account(client, credential) for credential in CREDENTIALS}


def test_every_credential_gets_the_expected_status_on_the_account_routes(
    client: TestClient, accounts: dict[str, Account]
) -> None:
    wrong = []
    for method, route, body, statuses in PROBES:
        for credential, expected in zip(CREDENTIALS, statuses, strict=True):
            account = accounts[credential]
            ids = {"spare_token": account.spare_token, "spare_session_id": account.spare_session_id}
            url = "/api/v1" + route.format(**ids)
            response = account.client.request(
                method, url, json=body(account), headers=account.headers
            )
            if response.status_code != expected:
                wrong.append(f"{method} {route} as {credential}: {response.status_code}")
            elif expected == 403 and f"scope '{credential}'" not in response.json()["detail"]:
                wrong.append(f"{method} {route} as {credential}: 403 without the scope")
    assert wrong == [], "\n".join(wrong)

    for credential in ("read", "run"):  # the refused changes changed nothing
        account = accounts[credential]
        assert account.spare_session.get("/api/v1/auth/me").json()["display_name"] == ""
        tokens = account.spare_session.get("/api/v1/users/me/tokens").json()
        assert [t["revoked_at"] for t in tokens if t["id"] == account.spare_token] == [None]
        login(client, account.name)  # the old password still works
    for credential in ("write", "session"):  # and the allowed ones did happen
        account = accounts[credential]
        assert account.spare_session.get("/api/v1/auth/me").status_code == 401  # ended
        login(client, account.name, NEW_PASSWORD)


@pytest.mark.parametrize("credential", ["read", "run", "write"])
def test_a_token_may_always_revoke_itself(accounts: dict[str, Account], credential: str) -> None:
    account = accounts[credential]
    own = account.client.get("/api/v1/users/me/tokens", headers=account.headers).json()
    mine = [t["id"] for t in own if t["name"] == f"{account.name}-{credential}"]
    assert len(mine) == 1
    revoked = account.client.delete(f"/api/v1/users/me/tokens/{mine[0]}", headers=account.headers)
    assert revoked.status_code == 204, revoked.text
    assert account.client.get("/api/v1/auth/me", headers=account.headers).status_code == 401
