"""What ansible-galaxy installs from in these tests, real and on this machine: a collection built
by ``ansible-galaxy collection build``, served on 127.0.0.1 by a minimal Galaxy v3 API (with a
token) and as a plain file (``type: url``); a role in a git repository (``git+file://``); a
second virtual environment with its own ansible-playbook."""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import json
import re
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from support.builders import git, git_commit_all, git_init

from steward.execution.ansible.playbook import BIN_DIR

NAMESPACE, NAME, VERSION = "testns", "tools", "1.0.0"
MODULE = """#!/usr/bin/python
from ansible.module_utils.basic import AnsibleModule


def main():
    module = AnsibleModule(argument_spec=dict(name=dict(type="str", default="world")))
    module.exit_json(changed=False, msg="hello " + module.params["name"] + " from testns.tools")


if __name__ == "__main__":
    main()
"""
# a controller-side plugin needing a library that only the second venv has
FILTER = """def venv_probe(value):
    import steward_venv_probe

    return steward_venv_probe.WHERE


class FilterModule:
    def filters(self):
        return {"venv_probe": venv_probe}
"""


def build_collection(directory: Path) -> Path:
    """The tarball of collection testns.tools 1.0.0 (a module and a filter plugin)."""
    source = directory / "collection-source"
    (source / "plugins" / "modules").mkdir(parents=True)
    (source / "plugins" / "filter").mkdir(parents=True)
    (source / "meta").mkdir()
    (source / "galaxy.yml").write_text(
        f"namespace: {NAMESPACE}\nname: {NAME}\nversion: {VERSION}\nreadme: README.md\n"
        "authors: [tests]\nlicense: [MIT]\n"
    )
    (source / "README.md").write_text("test collection\n")
    (source / "meta" / "runtime.yml").write_text("requires_ansible: '>=2.15'\n")
    (source / "plugins" / "modules" / "hello.py").write_text(MODULE)
    (source / "plugins" / "filter" / "probe.py").write_text(FILTER)
    subprocess.run(
        [str(BIN_DIR / "ansible-galaxy"), "collection", "build", str(source)],
        cwd=directory,
        check=True,
        capture_output=True,
    )
    return directory / f"{NAMESPACE}-{NAME}-{VERSION}.tar.gz"


def make_role_repo(path: Path) -> Path:
    """A git repository holding role ``greeter``, tagged v1.0."""
    git_init(path)
    (path / "tasks").mkdir()
    (path / "meta").mkdir()
    (path / "tasks" / "main.yml").write_text("- ansible.builtin.debug:\n    msg: greeter says hi\n")
    (path / "meta" / "main.yml").write_text(
        "galaxy_info:\n  author: tests\n  description: greets\n  license: MIT\n"
        "  min_ansible_version: '2.15'\n  platforms: []\ndependencies: []\n"
    )
    git_commit_all(path, "greeter")
    git(path, "tag", "v1.0")
    return path


def make_venv(path: Path) -> Path:
    """A second virtual environment: its own interpreter and ansible-playbook/-galaxy scripts,
    Ansible from this one (a .pth), and a library only it has (``steward_venv_probe``)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    site = next(path.glob("lib/python*/site-packages"))
    (site / "steward_parent.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (site / "steward_venv_probe.py").write_text("WHERE = 'the second venv'\n")
    for program in ("ansible-playbook", "ansible-galaxy"):
        lines = (BIN_DIR / program).read_text().splitlines()
        script = path / "bin" / program
        script.write_text("\n".join([f"#!{path}/bin/python", *lines[1:]]) + "\n")
        script.chmod(0o755)
    return path


class GalaxyServer:
    """A Galaxy v3 API on 127.0.0.1 serving collection tarballs (``/api/``), and the same
    files without authentication under ``/files/`` (for ``type: url``).

    ``token``: the API (downloads included) answers 401 to any other ``Authorization`` than
    ``Token <token>``; ``echo``: its 401 quotes the header it got (a careless server, to check
    that the output masks the token); ``delay``: seconds every download waits; ``on_request``
    is called on each request (while ansible-galaxy waits for the answer)."""

    def __init__(
        self,
        tarballs: list[Path],
        *,
        token: str | None = None,
        echo: bool = False,
        delay: float = 0.0,
        on_request: Callable[[], None] | None = None,
    ) -> None:
        self.files = {t.name: t for t in tarballs}
        self.on_request = on_request
        self.token = token
        self.echo = echo
        self.delay = delay
        self.requests: list[tuple[str, str]] = []  # (path, Authorization header)
        self._lock = threading.Lock()
        self._stopping = threading.Event()  # ends the downloads' delay
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    @property
    def url(self) -> str:
        return f"{self.base}/api/"

    def file_url(self, name: str) -> str:
        return f"{self.base}/files/{name}"

    def paths(self) -> list[str]:
        with self._lock:
            return [path for path, _ in self.requests]

    @contextlib.contextmanager
    def running(self) -> Iterator[GalaxyServer]:
        self._thread.start()
        try:
            yield self
        finally:
            self._stopping.set()
            self._server.shutdown()
            self._server.server_close()

    def _record(self, path: str, auth: str) -> None:
        with self._lock:
            self.requests.append((path, auth))

    def _versions(self, namespace: str, name: str) -> dict[str, Path]:
        prefix = f"{namespace}-{name}-"
        return {
            n.removeprefix(prefix).removesuffix(".tar.gz"): p
            for n, p in self.files.items()
            if n.startswith(prefix)
        }

    def answer(self, path: str, auth: str) -> tuple[int, Any]:
        """(status, JSON body or a file's path) for a GET of ``path``."""
        if path.startswith("/files/") and path[7:] in self.files:
            return 200, self.files[path[7:]]
        if self.token is not None and auth != f"Token {self.token}":
            detail = f"Invalid token: got {auth!r}" if self.echo else "Invalid token."
            error = {"status": "401", "code": "not_authenticated", "detail": detail}
            return 401, {"errors": [error], "default": detail}  # v3's and v1's error shapes
        if path in ("/api/", "/api"):
            return 200, {"available_versions": {"v3": "v3/"}}
        if path.startswith("/download/") and path[10:] in self.files:
            self._stopping.wait(self.delay)
            return 200, self.files[path[10:]]
        match = re.fullmatch(r"/api/v3/collections/(\w+)/(\w+)/(versions/(?:([^/]+)/)?)?", path)
        if match is None or not self._versions(match[1], match[2]):
            return 404, {"errors": [{"status": "404", "code": "not_found", "detail": "Not found."}]}
        namespace, name, listing, version = match[1], match[2], match[3], match[4]
        versions = self._versions(namespace, name)
        href = f"/api/v3/collections/{namespace}/{name}/versions/"
        if version is not None:
            return (
                (200, self._metadata(namespace, name, version))
                if version in versions
                else (
                    404,
                    {"errors": [{"status": "404", "detail": "Not found."}]},
                )
            )
        if listing:
            data = [{"version": v, "href": f"{href}{v}/"} for v in sorted(versions)]
            return 200, {"meta": {"count": len(data)}, "links": {"next": None}, "data": data}
        highest = max(versions)
        return 200, {"namespace": namespace, "name": name, "highest_version": {"version": highest}}

    def _metadata(self, namespace: str, name: str, version: str) -> dict[str, Any]:
        tarball = self._versions(namespace, name)[version]
        return {
            "namespace": {"name": namespace},
            "collection": {"name": name},
            "version": version,
            "href": f"/api/v3/collections/{namespace}/{name}/versions/{version}/",
            "download_url": f"{self.base}/download/{tarball.name}",
            "artifact": {
                "filename": tarball.name,
                "sha256": hashlib.sha256(tarball.read_bytes()).hexdigest(),
                "size": tarball.stat().st_size,
            },
            "metadata": {"dependencies": {}},
            "signatures": [],
        }

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        galaxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                auth = self.headers.get("Authorization", "")
                galaxy._record(path, auth)
                if galaxy.on_request is not None:
                    galaxy.on_request()
                status, body = galaxy.answer(path, auth)
                if isinstance(body, Path):
                    data, kind = body.read_bytes(), "application/gzip"
                else:
                    data, kind = json.dumps(body).encode(), "application/json"
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client was killed while it waited (a canceled run)

            def log_message(self, format: str, *args: Any) -> None:
                return

        return Handler
