"""Outbound requests go only where an admin said: a project manager names a destination the
server itself connects to (a webhook, an SMTP host, a pmproxy, a Galaxy server, a git server)
and points it at this machine's own services on loopback.

Each consumer, with the default settings, refuses loopback at save (422 naming the field) and,
after the admin's allow-list is taken back, right before it connects (nothing reaches the
receiver). The CONTROL in each test: the very same destination, with the admin allow-list
(``STEWARD_OUTBOUND_ALLOWED_NETWORKS``) naming 127.0.0.1, is saved and does reach a real
receiver the test started on 127.0.0.1. And whatever such a receiver answers, its words are
never stored or shown: only a status line and a reason of Steward's own.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient
from requirements.servers import GalaxyServer, build_collection
from requirements.site import Site
from support.builders import (
    Workbench,
    assert_problem,
    git,
    make_git_repo,
    make_project,
    ssh_keygen,
)
from support.notifications import (
    HttpReceiver,
    SmtpReceiver,
    destinations_url,
    make_destination,
    secret_key,
    wait_messages,
)
from support.outbound import LOOPBACK_ALLOWED
from support.pcp import PmproxyStandIn
from support.sshd import SshServer

from steward.config import Settings
from steward.keys.models import KeyKind
from steward.keys.service import KeyMaterial
from steward.metrics import endpoints
from steward.metrics.pcp import PcpProbe, Unavailable
from steward.outbound.network import Guard
from steward.repositories import git as steward_git
from steward.runtime import Runtime

pytestmark = pytest.mark.security

ADMIN_SETTING = "STEWARD_OUTBOUND_ALLOWED_NETWORKS"
# how a hostile manager spells this machine: each resolves to 127.0.0.1
LOOPBACK_SPELLINGS = ["127.0.0.1", "localhost", "127.1", "2130706433", "[::ffff:127.0.0.1]"]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The defaults of a real installation: no allow-list (the suite's settings allow
    loopback); notifications retried fast; no requirements cache (every run asks Galaxy)."""
    return settings.model_copy(
        update={
            "outbound_allowed_networks": [],
            "notifier_tick_seconds": 0.1,
            "notify_backoff_seconds": 0.1,
            "notify_max_attempts": 1,
            "requirements_cache_mb": 0,
        }
    )


def admin_allows_loopback(client: TestClient, allowed: bool) -> None:
    """What an admin does by setting STEWARD_OUTBOUND_ALLOWED_NETWORKS and restarting; every
    check (routes, notifier, runs) reads the settings at the moment it checks."""
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    networks = list(LOOPBACK_ALLOWED) if allowed else []
    runtime.settings = runtime.settings.model_copy(update={"outbound_allowed_networks": networks})


def refused_for_loopback(detail: str) -> None:
    """A refusal names why (loopback, or the server's own listen address 127.0.0.1) and what an
    admin may do about it."""
    assert "loopback" in detail or "the server's own listen address" in detail, detail
    assert ADMIN_SETTING in detail, detail


# --- notification destinations ------------------------------------------------------------


def hook(url: str, key_id: int) -> dict[str, Any]:
    return {"name": "hook", "kind": "webhook", "config": {"url": url}, "secret_key_id": key_id}


@pytest.mark.loops("notifier")
def test_a_webhook_to_loopback_is_refused_at_save_and_at_send_unless_an_admin_allows_it(
    client: TestClient,
) -> None:
    project = make_project(client)
    key = secret_key(client, project, "hmac", "hmac-secret")
    with HttpReceiver() as receiver:
        for host in LOOPBACK_SPELLINGS:
            url = f"http://{host}:{receiver.port}/hook"
            response = client.post(destinations_url(project), json=hook(url, key))
            refused_for_loopback(assert_problem(response, 422, "config.url"))
        # CONTROL: the admin allows 127.0.0.1; the same URL is saved and the message arrives
        admin_allows_loopback(client, True)
        created = make_destination(client, project, **hook(receiver.url(), key))
        client.post(destinations_url(project, f"/{created['id']}/test"))
        [sent] = wait_messages(client, project, created["id"], 1)
        assert sent["status"] == "sent", sent
        assert len(receiver.wait_for(1)) == 1
        # the admin takes it back: the saved destination is refused before any connection
        admin_allows_loopback(client, False)
        client.post(destinations_url(project, f"/{created['id']}/test"))
        newest, _ = wait_messages(client, project, created["id"], 2)
        assert newest["status"] == "failed", newest
        [attempt] = newest["attempts"]
        assert attempt["error"].startswith("refused: '127.0.0.1' is the server's own listen")
        refused_for_loopback(attempt["error"])
        assert len(receiver.requests) == 1  # nothing more reached it


@pytest.mark.loops("notifier")
def test_a_slack_url_and_an_smtp_host_on_loopback_are_refused_unless_allowed(
    client: TestClient, tmp_path: Path
) -> None:
    project = make_project(client)
    smtp = SmtpReceiver(tmp_path, "steward@example.org", "smtp-pass-7")
    mail_key = client.post(
        f"/api/v1/projects/{project}/keys",
        json={
            "name": "smtp",
            "kind": "login_password",
            "username": "steward@example.org",
            "password": "smtp-pass-7",
        },
    ).json()["id"]
    mail = {
        "name": "mail",
        "kind": "email",
        "config": {
            "host": "localhost",
            "port": smtp.port,
            "from_address": "steward@example.org",
            "to": ["ops@example.org"],
            "verify_tls": False,
        },
        "secret_key_id": mail_key,
    }
    with HttpReceiver() as chat, smtp.running():
        slack_key = secret_key(client, project, "slack", chat.url("/services/T0/B0/x"))
        slack = {"name": "chat", "kind": "slack", "secret_key_id": slack_key}
        refused_for_loopback(
            assert_problem(client.post(destinations_url(project), json=slack), 422, "secret_key_id")
        )
        refused_for_loopback(
            assert_problem(client.post(destinations_url(project), json=mail), 422, "config.host")
        )
        # CONTROL: allowed, both are saved and both messages arrive
        admin_allows_loopback(client, True)
        for body in (slack, mail):
            created = make_destination(client, project, **body)
            client.post(destinations_url(project, f"/{created['id']}/test"))
            [message] = wait_messages(client, project, created["id"], 1)
            assert message["status"] == "sent", message
        assert len(chat.wait_for(1)) == 1
        assert len(smtp.messages) == 1


class _TalkingService:
    """A TCP service on 127.0.0.1 that is not what the destination claims (Redis, an SSH
    daemon…): it says ``greeting`` to whoever connects, and closes."""

    def __init__(self, greeting: bytes) -> None:
        self.greeting = greeting
        self.said = 0
        self._socket = socket.create_server(("127.0.0.1", 0))
        self.port = self._socket.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._socket.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                conn.sendall(self.greeting)
                self.said += 1
                with contextlib.suppress(OSError):
                    conn.recv(65536)

    def __enter__(self) -> _TalkingService:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._socket.close()


SECRET_WORDS = "internal-secret-4417"
ANSWER_500 = f"HTTP/1.1 500 {SECRET_WORDS}\r\nContent-Length: 20\r\n\r\n{SECRET_WORDS}"


@pytest.mark.parametrize(
    ("kind", "greeting"),
    [
        ("webhook", f"-ERR {SECRET_WORDS}\r\n".encode()),  # not HTTP (a Redis, say)
        ("webhook", ANSWER_500.encode()),  # its reason phrase and body
        ("email", f"SSH-2.0-OpenSSH_9.2 {SECRET_WORDS}\r\n".encode()),  # not SMTP
        ("email", f"554 5.7.1 {SECRET_WORDS}\r\n".encode()),  # an SMTP refusal with words
    ],
)
@pytest.mark.loops("notifier")
def test_what_an_allowed_service_answers_is_never_stored_or_shown(
    client: TestClient, kind: str, greeting: bytes
) -> None:
    """Even where an admin allowed it, a destination pointed at a service that answers in its
    own words leaves only a status line and Steward's reason in the attempt. CONTROL: the
    service did say them (``said``)."""
    admin_allows_loopback(client, True)
    project = make_project(client)
    with _TalkingService(greeting) as service:
        if kind == "webhook":
            key = secret_key(client, project, "hmac", "hmac-secret")
            body = hook(f"http://127.0.0.1:{service.port}/", key)
        else:
            config = {
                "host": "127.0.0.1",
                "port": service.port,
                "security": "none",
                "from_address": "s@example.org",
                "to": ["a@example.org"],
            }
            body = {"name": "mail", "kind": "email", "config": config}
        created = make_destination(client, project, **body)
        client.post(destinations_url(project, f"/{created['id']}/test"))
        [message] = wait_messages(client, project, created["id"], 1)
    assert service.said >= 1  # the words were sent to the server
    assert message["status"] == "failed", message
    shown = str(message) + client.get(destinations_url(project, f"/{created['id']}")).text
    assert SECRET_WORDS not in shown
    assert "secret" not in message["attempts"][0]["error"]
    assert message["attempts"][0]["error"], message  # a reason is given


# --- pmproxy endpoints ----------------------------------------------------------------------


@pytest.fixture
def pmproxy() -> Iterator[PmproxyStandIn]:
    with PmproxyStandIn() as stand_in:
        yield stand_in


def test_a_pmproxy_on_loopback_is_refused_at_save_and_at_connect_unless_allowed(
    workbench: Workbench, settings: Settings, pmproxy: PmproxyStandIn
) -> None:
    body = {"name": "pcp", "kind": "static", "format": "ini", "content": "web1\n"}
    for host in LOOPBACK_SPELLINGS:
        response = workbench.client.post(
            workbench.url("inventories"),
            json={**body, "metrics_endpoint": f"http://{host}:{pmproxy.port}"},
        )
        refused_for_loopback(assert_problem(response, 422, "metrics_endpoint"))
    # a host variable naming a pmproxy is checked each time a context is opened
    variables = {
        "ansible_host": "192.0.2.1",
        "steward_pmproxy_url": f"http://localhost:{pmproxy.port}",
    }
    endpoint = endpoints.for_host("http://{host}:44322", "web1", variables)
    assert endpoint is not None
    refused = PcpProbe(endpoint, timeout=2, guard=Guard.of(settings), polltimeout=30)
    with pytest.raises(Unavailable) as gap:
        refused.sample()
    refused.close()
    assert str(gap.value).startswith("endpoint refused: 'localhost' resolves to 127.0.0.1")
    assert pmproxy.asked == []
    # CONTROL: with the admin's allow-list the same endpoint is saved and asked
    admin_allows_loopback(workbench.client, True)
    saved = workbench.client.post(
        workbench.url("inventories"),
        json={**body, "metrics_endpoint": f"http://localhost:{pmproxy.port}"},
    )
    assert saved.status_code == 201, saved.text
    allowed = settings.model_copy(update={"outbound_allowed_networks": ["127.0.0.1"]})
    probe = PcpProbe(endpoint, timeout=2, guard=Guard.of(allowed), polltimeout=30)
    with pytest.raises(Unavailable):  # a context, then a fetch this stand-in cannot answer
        probe.sample()
    probe.close()
    assert pmproxy.asked[0] == "/pmapi/context"


# --- Galaxy servers -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_collection(tmp_path_factory.mktemp("collection"))


@pytest.mark.slow
@pytest.mark.sqlite_only  # ansible-galaxy and the sandbox; the database is incidental
def test_a_galaxy_server_on_loopback_is_refused_at_save_and_before_ansible_galaxy_runs(
    client: TestClient, tmp_path: Path, collection: Path
) -> None:
    site = Site(client, tmp_path / "site")
    site.write("collections/requirements.yml", "collections:\n  - name: testns.tools\n")
    with GalaxyServer([collection]).running() as hub:
        for field in ("url", "auth_url"):
            body = {"name": "hub", "url": hub.url, "auth_url": hub.base + "/token/"}
            if field == "auth_url":
                body["url"] = "https://galaxy.ansible.com/"
            response = client.post(site.url("galaxy-servers"), json=body)
            refused_for_loopback(assert_problem(response, 422, field))
        # CONTROL: allowed, it is saved and a run installs from it
        admin_allows_loopback(client, True)
        site.server(url=hub.url)
        template = site.template("collection.yml")
        run = site.run(template)
        assert run["status"] == "successful", site.text(run["id"])
        asked = len(hub.requests)
        assert asked > 0
        # the admin takes it back: the next run stops before ansible-galaxy, saying why
        admin_allows_loopback(client, False)
        run = site.run(template)
        assert run["status"] == "error", run
        assert "Galaxy server 'hub' (url) refused before ansible-galaxy ran" in run["status_reason"]
        refused_for_loopback(run["status_reason"])
        assert len(hub.requests) == asked  # not asked again


# --- git servers ----------------------------------------------------------------------------


class _Files(http.server.SimpleHTTPRequestHandler):
    """git's "dumb" HTTP protocol: the files of a bare repository; every path recorded."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.asked.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        return None


@pytest.fixture
def git_over_http(tmp_path: Path) -> Iterator[tuple[int, str]]:
    """A bare clone of a test repository served on 127.0.0.1:<port>/repo.git, and the commit
    of its main branch (dumb HTTP serves no shallow clone: runs ask for a commit)."""
    commits = make_git_repo(tmp_path / "origin")
    served = tmp_path / "served"
    served.mkdir()
    git(served, "clone", "--quiet", "--bare", str(tmp_path / "origin"), "repo.git")
    git(served / "repo.git", "update-server-info")
    _Files.asked = []
    handler = functools.partial(_Files, directory=str(served))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], commits["main"]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.sqlite_only  # git and ansible-playbook; the database is incidental
def test_a_git_server_on_loopback_is_refused_at_save_and_right_before_git_runs(
    workbench: Workbench, git_over_http: tuple[int, str]
) -> None:
    port, commit = git_over_http
    client = workbench.client
    for host in LOOPBACK_SPELLINGS[:-1]:  # git URLs take no IPv6 literal at all
        body = {"name": "r", "kind": "git", "url": f"http://{host}:{port}/repo.git"}
        response = client.post(workbench.url("repositories"), json=body)
        refused_for_loopback(assert_problem(response, 422, "url"))
    # CONTROL: allowed, the same URL is saved, tested, and a run checks it out
    admin_allows_loopback(client, True)
    url = f"http://localhost:{port}/repo.git"
    repo = client.post(
        workbench.url("repositories"), json={"name": "r", "kind": "git", "url": url, "ref": commit}
    ).json()
    assert client.post(workbench.url(f"repositories/{repo['id']}/test")).status_code == 200
    template = workbench.template("site.yml", repository_id=repo["id"])
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "successful", run["status_reason"]
    asked = len(_Files.asked)
    assert asked > 0
    # the admin takes it back: the check, the playbook list and the run refuse before git runs
    admin_allows_loopback(client, False)
    tested = client.post(workbench.url(f"repositories/{repo['id']}/test"))
    assert "refused before git ran" in assert_problem(tested, 422, "url")
    listed = client.get(workbench.url(f"repositories/{repo['id']}/playbooks"))
    assert listed.status_code == 409
    assert "refused before git ran" in listed.json()["detail"]
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "error", run
    assert (
        f"checkout of {url} refused before git ran: the git server 'localhost' resolves to"
        in (run["status_reason"])
    )
    refused_for_loopback(run["status_reason"])
    assert len(_Files.asked) == asked  # git never connected


@pytest.mark.sqlite_only
def test_a_git_server_over_ssh_on_loopback_is_refused_unless_allowed(
    workbench: Workbench, sshd: SshServer, tmp_path: Path
) -> None:
    make_git_repo(tmp_path / "remote")
    private, public = ssh_keygen(tmp_path)
    sshd.authorize(public)
    key = workbench.key(name="git", kind="ssh", username=sshd.user, private_key=private)
    client = workbench.client
    for url in (
        f"ssh://{sshd.user}@{sshd.host}:{sshd.port}{tmp_path / 'remote'}",
        f"ssh://{sshd.user}@localhost:{sshd.port}{tmp_path / 'remote'}",
        f"{sshd.user}@127.0.0.1:{tmp_path / 'remote'}",  # scp-like: port 22
    ):
        body = {"name": "over-ssh", "kind": "git", "url": url, "key_id": key}
        refused_for_loopback(
            assert_problem(client.post(workbench.url("repositories"), json=body), 422, "url")
        )
    # CONTROL: allowed, it is saved and reached (ssh to the checked address, keys pinned)
    admin_allows_loopback(client, True)
    url = f"ssh://{sshd.user}@localhost:{sshd.port}{tmp_path / 'remote'}"
    body = {"name": "over-ssh", "kind": "git", "url": url, "key_id": key}
    repo = client.post(workbench.url("repositories"), json=body).json()
    repo_url = workbench.url(f"repositories/{repo['id']}")
    assert client.post(f"{repo_url}/test").status_code == 200
    pinned = client.get(repo_url).json()["ssh_known_hosts"]
    assert pinned.startswith(f"[localhost]:{sshd.port} ssh-ed25519 ")  # under the URL's name
    assert client.post(f"{repo_url}/test").status_code == 200  # and checked against it
    admin_allows_loopback(client, False)
    refused = client.post(f"{repo_url}/test")
    refused_for_loopback(assert_problem(refused, 422, "url"))


def test_what_the_git_server_says_is_counted_not_kept() -> None:
    """``remote:`` lines are the server's own words (a loopback service's banner, a forge's
    messages): errors keep git's and ssh's lines only."""
    stderr = "remote: internal-secret-4417\nremote: more\nfatal: could not read from remote"
    kept = steward_git.own_words(stderr)
    assert "internal-secret" not in kept
    assert kept == "fatal: could not read from remote\n(2 lines from the git server not shown)"
    # CONTROL: git's own lines pass through unchanged
    assert steward_git.own_words("fatal: repository not found") == "fatal: repository not found"


@pytest.mark.sqlite_only
def test_git_connects_to_the_checked_address_not_to_what_the_name_says_later(
    git_over_http: tuple[int, str], sshd: SshServer, tmp_path: Path
) -> None:
    """``git.Pin`` holds git to the address the guard checked: a host name the system cannot
    resolve at all (as if its DNS answer changed after the check) still reaches the checked
    127.0.0.1, over http (curl's resolve list) and ssh (``HostName``). CONTROL: without the pin
    git resolves the name itself, and fails."""
    port, _ = git_over_http
    url = f"http://pinned.invalid:{port}/repo.git"
    unresolved = pytest.raises(steward_git.GitFailed, match="Could not resolve host")
    with steward_git.access(None, tmp_path) as unpinned, unresolved:
        steward_git.ls_remote(url, unpinned)
    pin = steward_git.Pin(steward_git.Server("http", "pinned.invalid", port), "127.0.0.1")
    with steward_git.access(None, tmp_path, pin=pin) as pinned:
        assert "HEAD" in steward_git.ls_remote(url, pinned)

    make_git_repo(tmp_path / "remote")
    (tmp_path / "keys").mkdir()
    private, public = ssh_keygen(tmp_path / "keys")
    sshd.authorize(public)
    material = KeyMaterial(KeyKind.SSH, username=sshd.user, vault_id="", private_key=private)
    ssh_url = f"ssh://{sshd.user}@pinned.invalid:{sshd.port}{tmp_path / 'remote'}"
    unresolved = pytest.raises(steward_git.GitFailed, match="Could not resolve hostname")
    with steward_git.access(material, tmp_path) as unpinned, unresolved:
        steward_git.ls_remote(ssh_url, unpinned)
    ssh_pin = steward_git.Pin(steward_git.Server("ssh", "pinned.invalid", sshd.port), "127.0.0.1")
    with steward_git.access(material, tmp_path, pin=ssh_pin) as pinned:
        assert "HEAD" in steward_git.ls_remote(ssh_url, pinned)
        # the key met is written down under the URL's name, as without a pin
        assert pinned.host_keys_met().startswith(f"[pinned.invalid]:{sshd.port} ")
