"""A real OpenID Provider for the OIDC login tests: panva's certified ``oidc-provider`` (Node),
started once per test session on 127.0.0.1 (``server.js`` beside this file), stopped by its PID.

``oidc_provider``: the running provider; ``oidc``: the same, reset for one test (the default
people, no hostile switch). ``OidcProvider.sign_in`` walks a browser's way through it by plain
HTTP: Steward's login redirect, the provider's login form, back to Steward's callback.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import urllib.parse
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import httpx2
import pytest

from steward.config import Settings
from support.processes import answers, free_port, stop, wait_until_ready

HERE = Path(__file__).parent
CLIENT_ID = "steward-tests"
CLIENT_SECRET = "oidc-client-secret-that-must-never-leak-7c2e"
# TestClient's base URL: the in-process app's callback, registered with the provider
TESTSERVER_CALLBACK = "http://testserver/api/v1/auth/oidc/callback"
PASSWORD = "correct horse battery staple"

DEFAULT_USERS: dict[str, dict[str, Any]] = {
    "alice": {
        "password": PASSWORD,
        "email": "alice@example.com",
        "name": "Alice Ops",
        "groups": ["ops", "everyone"],
    },
    "bob": {
        "password": PASSWORD,
        "email": "bob@example.org",
        "name": "Bob Dev",
        "groups": ["dev", "everyone"],
    },
    "carol": {
        "password": PASSWORD,
        "email": "carol@example.com",
        "name": "Carol Admin",
        "groups": ["steward-admins"],
    },
}


Browser = httpx2.Client  # Steward's side of a sign-in: TestClient, or a client of a server


@dataclasses.dataclass
class OidcProvider:
    port: int
    state_path: Path
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET

    @property
    def issuer(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def write(self, **state: Any) -> None:
        current = json.loads(self.state_path.read_text()) if self.state_path.exists() else {}
        tmp = self.state_path.with_suffix(".tmp")
        tmp.write_text(json.dumps({**current, **state}))
        tmp.replace(self.state_path)  # the provider reads it at every request: never half

    def reset(self) -> None:
        self.write(users=DEFAULT_USERS, tamper=None, token_groups=[], no_end_session=False)

    def set_groups(self, username: str, groups: list[str]) -> None:
        users = json.loads(self.state_path.read_text())["users"]
        users[username]["groups"] = groups
        self.write(users=users)

    def add_user(self, username: str, **claims: Any) -> None:
        users = json.loads(self.state_path.read_text())["users"]
        users[username] = {"password": PASSWORD, **claims}
        self.write(users=users)

    def tamper(self, mode: str | None, **extra: Any) -> None:
        """Make the ID tokens of the next code exchanges hostile (see server.js)."""
        self.write(tamper=mode, **extra)

    def callback_url(
        self,
        browser: Browser,
        username: str,
        next_path: str | None = None,
        idp: httpx2.Client | None = None,
    ) -> str:
        """Start a sign-in at Steward, sign in at the provider: the URL the provider sends the
        browser back to (Steward's callback with code and state), not yet followed. ``idp``:
        the browser's cookies at the provider (its session there), else a fresh one."""
        params = {"next": next_path} if next_path is not None else {}
        start = browser.get("/api/v1/auth/oidc/login", params=params, follow_redirects=False)
        assert start.status_code == 302, start.text
        location = start.headers["location"]
        assert location.startswith(f"{self.issuer}/auth?"), location
        with httpx2.Client(follow_redirects=False, timeout=10) as fresh:
            return self._through(idp or fresh, location, username)

    def _through(self, idp: httpx2.Client, location: str, username: str) -> str:
        page = idp.get(location)
        while page.status_code in (302, 303):
            target = page.headers["location"]
            if not target.startswith(("/", self.issuer)):
                return str(target)  # signed in there already: straight back to Steward
            page = idp.get(urllib.parse.urljoin(self.issuer, target))
        assert page.status_code == 200, page.text
        action = re.search(r'<form method="post" action="([^"]+)"', page.text)
        assert action is not None, page.text
        form = {"username": username, "password": PASSWORD}
        page = idp.post(f"{self.issuer}{unescape(action.group(1))}", data=form)
        while page.status_code in (302, 303):
            target = page.headers["location"]
            if not target.startswith(("/", self.issuer)):
                return str(target)
            page = idp.get(urllib.parse.urljoin(self.issuer, target))
        raise AssertionError(f"the provider did not send the browser back: {page.text[:500]}")

    def asks_for_password(self, browser: Browser, idp: httpx2.Client) -> bool:
        """Whether a new sign-in with the provider cookies of ``idp`` shows the login form (no
        session at the provider) rather than going straight back to Steward."""
        start = browser.get("/api/v1/auth/oidc/login", follow_redirects=False)
        page = idp.get(start.headers["location"])
        while page.status_code in (302, 303):
            target = page.headers["location"]
            if not target.startswith(("/", self.issuer)):
                return False
            page = idp.get(urllib.parse.urljoin(self.issuer, target))
        return 'name="password"' in page.text

    def end_session(self, idp: httpx2.Client, url: str) -> str:
        """Follow Steward's logout redirect at the provider and confirm it (as a person clicks
        "Yes, sign me out"): where the provider sends the browser afterwards."""
        page = idp.get(url)
        assert page.status_code == 200, page.text
        action = re.search(r'<form [^>]*action="([^"]+)"', page.text)
        xsrf = re.search(r'name="xsrf" value="([^"]+)"', page.text)
        assert action is not None, page.text
        assert xsrf is not None, page.text
        done = idp.post(
            urllib.parse.urljoin(self.issuer, unescape(action.group(1))),
            data={"xsrf": xsrf.group(1), "logout": "yes"},
        )
        assert done.status_code in (302, 303), done.text
        return str(done.headers["location"])

    def sign_in(
        self,
        browser: Browser,
        username: str,
        next_path: str | None = None,
        idp: httpx2.Client | None = None,
    ) -> httpx2.Response:
        """A whole sign-in; the answer of Steward's callback (a redirect, or a problem)."""
        url = self.callback_url(browser, username, next_path, idp)
        parts = urllib.parse.urlsplit(url)
        return browser.get(f"{parts.path}?{parts.query}", follow_redirects=False)


@pytest.fixture(scope="session")
def oidc_provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OidcProvider]:
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node not found: Node.js >= 20.19 is needed (make setup checks it)")
    if not (HERE / "node_modules" / "oidc-provider").is_dir():
        raise RuntimeError(f"{HERE}/node_modules is missing: run `make setup` (npm ci there)")
    workdir = tmp_path_factory.mktemp("oidc-provider")
    provider = OidcProvider(port=free_port(), state_path=workdir / "state.json")
    provider.reset()
    env = {
        "PATH": "/usr/bin:/bin",
        "OIDC_TEST_PORT": str(provider.port),
        "OIDC_TEST_STATE": str(provider.state_path),
        "OIDC_TEST_CLIENT_ID": CLIENT_ID,
        "OIDC_TEST_CLIENT_SECRET": CLIENT_SECRET,
        "OIDC_TEST_REDIRECT_URIS": json.dumps([TESTSERVER_CALLBACK]),
    }
    log = workdir / "provider.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [node, str(HERE / "server.js")], cwd=HERE, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    wait_until_ready(proc, lambda: answers(provider.port), log)
    try:
        yield provider
    finally:
        stop(proc)


@pytest.fixture
def oidc(oidc_provider: OidcProvider) -> Iterator[OidcProvider]:
    oidc_provider.reset()
    yield oidc_provider
    oidc_provider.reset()


def with_oidc(
    settings: Settings, provider: OidcProvider, secret_dir: Path, **more: Any
) -> Settings:
    """``settings`` with the provider's sign-in on (the client secret read from a file)."""
    secret_file = secret_dir / "oidc-client-secret"
    secret_file.write_text(provider.client_secret + "\n")
    secret_file.chmod(0o600)
    values: dict[str, Any] = {
        "oidc_issuer": provider.issuer,
        "oidc_client_id": provider.client_id,
        "oidc_client_secret_file": secret_file,
        "oidc_scopes": "openid profile email groups",
        "oidc_redirect_uri": TESTSERVER_CALLBACK,
        "oidc_button_label": "Sign in with Test IdP",
        **more,
    }
    return settings.model_copy(update=values)
