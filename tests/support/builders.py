"""The one set of builders: typed helpers that create data through the real API.

They take the in-process ``TestClient`` (the ``client`` fixture) unless said otherwise; the
ones that take an ``httpx2.Client`` also work with a real server's ``Server.api()``. Waiting is
in ``support.waits``. Each domain has its own section.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
from fastapi.testclient import TestClient
from sqlalchemy import select

from steward.db import Base, utcnow
from steward.metrics.models import MetricChunk
from steward.metrics.series import LaneKind
from steward.runs.models import LaunchType, Run, RunEvent, RunHost, RunOutput
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from support.waits import api_path, read_run, wait_for_run

PLAYBOOKS = Path(__file__).parents[1] / "playbooks"
LOCALHOST_INVENTORY = (
    f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
)


def post(api: httpx2.Client, url: str, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    """POST ``body`` as JSON, expect ``status``; returns the answer's body."""
    response = api.post(url, json=body)
    assert response.status_code == status, response.text
    result: dict[str, Any] = response.json()
    return result


# --- keys, repositories, environments ------------------------------------------------------


def make_project(client: TestClient, name: str = "infra") -> int:
    created = client.post("/api/v1/projects", json={"name": name})
    assert created.status_code == 201, created.text
    project_id: int = created.json()["id"]
    return project_id


def make_key(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    """A key of ``body["kind"]`` (default: a ``secret`` key); returns the read body."""
    if body.get("kind", "secret") == "secret":
        body = {"value": "s3cret-value", **body}
    body = {"name": "token", "kind": "secret", **body}
    created = client.post(f"/api/v1/projects/{project_id}/keys", json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def ssh_keygen(directory: Path, *, passphrase: str = "", fmt: str = "") -> tuple[str, str]:
    """A new ed25519 key pair (``fmt="PEM"`` for an RSA key in PEM); (private text, public line)."""
    path = directory / f"id-{len(list(directory.iterdir()))}"
    kind = ["-t", "rsa", "-b", "2048", "-m", "PEM"] if fmt == "PEM" else ["-t", "ed25519"]
    subprocess.run(
        ["ssh-keygen", "-q", *kind, "-N", passphrase, "-C", "test", "-f", str(path)],
        check=True,
        capture_output=True,
    )
    return path.read_text(), path.with_suffix(".pub").read_text().strip()


def assert_problem(response: httpx2.Response, status: int, field: str) -> str:
    """A problem+json answer of ``status`` whose detail names ``field``; returns the detail."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    detail: str = response.json()["detail"]
    assert field in detail, detail
    return detail


# --- inventories, templates ----------------------------------------------------------------


def assign_local_roots(api: httpx2.Client, project_id: int, *directories: Path) -> list[str]:
    """As an admin does: add ``directories`` to the project's local directories (where its
    local repositories and git ``file://`` URLs may be); returns them all."""
    url = api_path(api, f"/projects/{project_id}")
    current: list[str] = api.get(url).json()["local_roots"]
    wanted = current + [str(d) for d in directories if str(d) not in current]
    assigned = api.put(f"{url}/local-roots", json={"local_roots": wanted})
    assert assigned.status_code == 200, assigned.text
    roots: list[str] = assigned.json()["local_roots"]
    return roots


def make_local_repository(
    client: TestClient, project_id: int, directory: Path, name: str = "playbooks"
) -> int:
    """A ``local`` repository serving ``directory``, assigned to the project first as one of its
    local directories (``assign_local_roots``); returns its id."""
    assign_local_roots(client, project_id, directory)
    body = {"name": name, "kind": "local", "url": str(directory)}
    created = client.post(f"/api/v1/projects/{project_id}/repositories", json=body)
    assert created.status_code == 201, created.text
    repository_id: int = created.json()["id"]
    return repository_id


def make_inventory(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    """A static INI inventory of localhost unless ``body`` says otherwise; returns the read body."""
    defaults: dict[str, Any] = {"name": "hosts", "kind": "static"}
    if body.get("kind", "static") == "static":
        defaults |= {"format": "ini", "content": "localhost\n"}
    body = defaults | body
    created = client.post(f"/api/v1/projects/{project_id}/inventories", json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def make_template(
    client: TestClient, project_id: int, *, repository_id: int, inventory_id: int, **body: Any
) -> dict[str, Any]:
    """A template running ``ok.yml``; returns the read body."""
    body = {
        "name": "deploy",
        "playbook": "ok.yml",
        "repository_id": repository_id,
        "inventory_id": inventory_id,
        **body,
    }
    created = client.post(f"/api/v1/projects/{project_id}/templates", json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def make_file_inventory(
    client: TestClient, project_id: int, name: str = "hosts", directory: Path = PLAYBOOKS
) -> int:
    """A file inventory (``hosts.ini`` of a local repository of ``directory``, made for it):
    saving it runs no ansible-inventory, which keeps tests quick; returns its id."""
    repository_id = make_local_repository(client, project_id, directory, f"r-{name}")
    body = {"kind": "file", "repository_id": repository_id, "path": "hosts.ini"}
    found: int = make_inventory(client, project_id, name=name, **body)["id"]
    return found


def make_repository(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    """A git repository unless ``kind`` says ``local``; the directory a local one or a
    ``file://`` URL reads is assigned to the project first as one of its local directories
    (``assign_local_roots``)."""
    body = {"name": "playbooks", "kind": "git", **body}
    url = str(body.get("url", ""))
    if body["kind"] == "local" or url.startswith("file://"):
        assign_local_roots(client, project_id, Path(url.removeprefix("file://")))
    created = client.post(f"/api/v1/projects/{project_id}/repositories", json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def git_init(path: Path) -> None:
    """A new, empty git repository at ``path`` (created), on branch main."""
    path.mkdir(parents=True)
    git(path, "init", "--quiet", "--initial-branch", "main")
    git(path, "config", "user.email", "tests@example.invalid")
    git(path, "config", "user.name", "tests")


def git_commit_all(path: Path, message: str) -> None:
    git(path, "add", "-A")
    git(path, "commit", "--quiet", "-m", message)


def make_git_repo(path: Path) -> dict[str, str]:
    """A repository at ``path``: main (2 commits, tag v1 on the first) and branch ``feature``.

    Returns the commit of each: ``first`` (= v1), ``main`` and ``feature``.
    """
    git_init(path)
    (path / "site.yml").write_text("- hosts: all\n  tasks: []\n")
    git(path, "add", "site.yml")
    git(path, "commit", "--quiet", "-m", "first")
    git(path, "tag", "v1")
    first = git(path, "rev-parse", "HEAD")
    (path / "second.yml").write_text("- hosts: all\n  tasks: []\n")
    git(path, "add", "second.yml")
    git(path, "commit", "--quiet", "-m", "second")
    main = git(path, "rev-parse", "HEAD")
    git(path, "checkout", "--quiet", "-b", "feature", first)
    (path / "feature.yml").write_text("- hosts: all\n  tasks: []\n")
    git(path, "add", "feature.yml")
    git(path, "commit", "--quiet", "-m", "feature")
    feature = git(path, "rev-parse", "HEAD")
    git(path, "checkout", "--quiet", "main")
    return {"first": first, "main": main, "feature": feature}


# --- users and logins ----------------------------------------------------------------------

PASSWORD = "correct horse battery"


def make_user(client: TestClient, username: str, **body: Any) -> dict[str, Any]:
    created = client.post(
        "/api/v1/users", json={"username": username, "password": PASSWORD, **body}
    )
    assert created.status_code == 201, created.text
    user: dict[str, Any] = created.json()
    return user


def browser(client: TestClient, *, base_url: str = "http://testserver") -> TestClient:
    """A second client on the same app with no credentials (no lifespan: the app already runs)."""
    return TestClient(client.app, base_url=base_url)


def login(client: TestClient, username: str, password: str = PASSWORD) -> tuple[TestClient, str]:
    """A browser logged in as ``username``; returns it and the session's CSRF token."""
    web = browser(client)
    response = web.post("/api/v1/auth/login", json={"username": username, "password": password})
    assert response.status_code == 200, response.text
    return web, str(response.json()["csrf_token"])


def token(client: TestClient, username: str, scope: str = "write", password: str = PASSWORD) -> str:
    web, csrf = login(client, username, password)
    created = web.post(
        "/api/v1/users/me/tokens",
        json={"name": f"{username}-{scope}", "scope": scope},
        headers={"X-CSRF-Token": csrf},
    )
    assert created.status_code == 201, created.text
    return str(created.json()["token"])


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def member_client(
    client: TestClient, project_id: int, username: str, role: str, scope: str = "write"
) -> TestClient:
    """A client of a new user holding ``role`` in the project, with a ``scope`` token."""
    user = make_user(client, username)
    body = {"user_id": user["id"], "role": role}
    answer = client.put(f"/api/v1/projects/{project_id}/members", json=body)
    assert answer.status_code == 200, answer.text
    other = TestClient(client.app, base_url="http://testserver")
    other.headers.update(bearer(token(client, username, scope)))
    return other


# --- runs: a project that runs the test playbooks on localhost ------------------------------


def localhost_project(
    api: httpx2.Client,
    repo: Path,
    name: str = "demo",
    *,
    repository: str = "r",
    inventory: str = "local",
) -> dict[str, int]:
    """A project with a local repository at ``repo`` (assigned to it as a local directory) and a
    localhost inventory; their ids."""
    project = post(api, api_path(api, "/projects"), {"name": name})["id"]
    assign_local_roots(api, project, repo)
    base = api_path(api, f"/projects/{project}")
    body = {"name": repository, "kind": "local", "url": str(repo)}
    repository_id = post(api, f"{base}/repositories", body)["id"]
    body = {"name": inventory, "kind": "static", "format": "ini", "content": LOCALHOST_INVENTORY}
    inventory_id = post(api, f"{base}/inventories", body)["id"]
    return {"project": project, "repository": repository_id, "inventory": inventory_id}


class Workbench:
    """A project with a local repository of the test playbooks and a localhost inventory."""

    def __init__(self, client: TestClient, tmp_path: Path) -> None:
        self.client = client
        self.repo_dir = tmp_path / "playbooks"
        shutil.copytree(PLAYBOOKS, self.repo_dir)
        ids = localhost_project(
            client, self.repo_dir, "bench", repository="local", inventory="localhost"
        )
        self.project_id = ids["project"]
        self.repository_id = ids["repository"]
        self.inventory_id = ids["inventory"]

    def url(self, path: str) -> str:
        return f"/api/v1/projects/{self.project_id}/{path}"

    def _post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post(url, json=body)
        assert response.status_code in (200, 201), response.text
        result: dict[str, Any] = response.json()
        return result

    def inventory(self, name: str, content: str) -> int:
        body = {"name": name, "kind": "static", "format": "ini", "content": content}
        inventory_id: int = self._post(self.url("inventories"), body)["id"]
        return inventory_id

    def key(self, **body: Any) -> int:
        key_id: int = self._post(self.url("keys"), body)["id"]
        return key_id

    def template(self, playbook: str, **fields: Any) -> int:
        body = {
            "name": fields.pop("name", playbook.removesuffix(".yml")),
            "playbook": playbook,
            "repository_id": self.repository_id,
            "inventory_id": self.inventory_id,
            **fields,
        }
        template_id: int = self._post(self.url("templates"), body)["id"]
        return template_id

    def inserted_run(self, playbook: str, status: RunStatus) -> int:
        """A run of a new template of ``playbook`` made in ``status`` (``inserted_run``)."""
        template = self.template(playbook)
        with self.client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
            run = inserted_run(self.project_id, template, status)
            session.add(run)
            session.commit()
            return run.id

    def launch(self, template_id: int, **overrides: Any) -> dict[str, Any]:
        return self._post(self.url("runs"), {"template_id": template_id, **overrides})

    def run(self, run_id: int) -> dict[str, Any]:
        return read_run(self.client, self.url(f"runs/{run_id}"))

    def wait(
        self,
        run_id: int,
        until: Callable[[dict[str, Any]], bool] | None = None,
        timeout: float = 90,
    ) -> dict[str, Any]:
        """Poll until the run is finished (or ``until`` holds); fail the test on timeout."""
        return wait_for_run(self.client, self.url(f"runs/{run_id}"), until, timeout=timeout)

    def lines(self, run_id: int, **params: Any) -> list[str]:
        texts: list[str] = []
        after = -1
        while True:
            page = self.client.get(
                self.url(f"runs/{run_id}/lines"), params={"after": after, "limit": 10000, **params}
            ).json()
            texts += [line["text"] for line in page["items"]]
            if page["next_after"] is None:
                return texts
            after = page["next_after"]

    def uuid(self, run_id: int) -> str:
        """The run's process marker (not exposed by the API)."""
        runtime = self.client.app.state.runtime  # type: ignore[attr-defined]
        with runtime.sessions() as session:
            value: str = session.scalar(select(Run.uuid).where(Run.id == run_id))
        return value

    def text(self, run_id: int) -> str:
        response = self.client.get(self.url(f"runs/{run_id}/output"))
        assert response.status_code == 200
        return response.text


def inserted_run(
    project_id: int, template_id: int | None, status: RunStatus, **columns: Any
) -> Run:
    """A run row made directly (not through a launch), for states a test cannot wait for:
    finished in another project, or running forever. Its parameters are valid but name
    nothing real unless ``params`` is given: such a run is never executed."""
    now = utcnow()
    params = RunParams(playbook="ok.yml", repository_id=1, inventory_id=1).model_dump()
    return Run(
        project_id=project_id,
        template_id=template_id,
        status=status,
        launch_type=LaunchType.API,
        params=columns.pop("params", params),
        started_at=now,
        **({"finished_at": now} if status.is_finished else {}),
        **columns,
    )


def inserted_output(run: Run, *lines: str) -> RunOutput:
    """The stored output of ``run`` (flushed, so it has an id): ``lines`` as one chunk of one
    event, as the recorder stores a short task's output; counts them on the run."""
    run.line_count = len(lines)
    return RunOutput(
        run_id=run.id, first_line=0, last_line=len(lines) - 1, counter=1, text="\n".join(lines)
    )


def inserted_records(run: Run, host: str = "localhost") -> list[Base]:
    """What a short run of ``run`` (flushed, so it has an id) on ``host`` leaves beside it, one
    row of each kind: an event, its output line, the host's recap and a chunk of host metrics
    (what retention removes with the run, and what a recent run keeps)."""
    run.line_count, run.event_count = 1, 1
    return [
        RunEvent(run_id=run.id, counter=1, event="runner_on_ok", host=host, task="greet"),
        RunOutput(run_id=run.id, first_line=0, last_line=0, counter=1, text=f"ok: [{host}]"),
        RunHost(run_id=run.id, host=host, ok=1),
        MetricChunk(
            run_id=run.id,
            kind=LaneKind.CONTROLLER,
            host=host,
            start_ms=0,
            end_ms=1000,
            count=1,
            series="cpu",
            data=b"\x00",
        ),
    ]
