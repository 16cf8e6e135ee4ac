"""Survey option sources in tests: a CMDB served on 127.0.0.1, a question with a source, the
launch dialog's answer below HTTP, and local repositories holding scripts."""

from __future__ import annotations

import contextlib
import http.server
import json
import time
import urllib.parse
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from steward.projects.models import Project
from steward.repositories.models import Repository, RepositoryKind
from steward.templates import launch
from steward.templates.models import Template
from steward.templates.options.schemas import OptionsRequest

SLOW_SECONDS = 3.0
TOKEN = "s3cr3t-token"


class Cmdb(http.server.BaseHTTPRequestHandler):
    """``/dbs?host=``: the databases of a host (Bearer TOKEN required); ``/slow``: answers
    late; ``/huge``: 2 MiB; ``/broken``: a 500 whose body must not be shown."""

    seen: list[tuple[str, str]] = []  # noqa: RUF012 - the requests, for the test to read

    def log_message(self, *_args: Any) -> None:
        pass

    def do_GET(self) -> None:
        Cmdb.seen.append((self.path, self.headers.get("Authorization", "")))
        parts = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(parts.query)
        if parts.path == "/dbs":
            if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                return self._send(401, b"nope")
            host = query.get("host", [""])[0]
            items = [{"name": f"{host}-{n}"} for n in ("orders", "users")]
            return self._send(200, json.dumps({"data": {"items": items}}).encode())
        if parts.path == "/slow":
            time.sleep(SLOW_SECONDS)
            return self._send(200, b'["late"]')
        if parts.path == "/huge":
            return self._send(200, b"[" + b'"x",' * (512 * 1024) + b'"x"]')
        return self._send(500, b"Traceback: password=hunter2")

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(OSError):  # the client gave up (the size cap)
            self.wfile.write(body)


def question(variable: str, source: dict[str, Any]) -> dict[str, Any]:
    return {"variable": variable, "label": variable, "type": "choice", "source": source}


def options(session: Session, template: Template, **answers: Any) -> dict[str, Any]:
    found = launch.survey_options(session, template, OptionsRequest(survey=answers))
    return {q.variable: q.error or q.choices for q in found.questions}


def local_repository(session: Session, project: Project, directory: Path) -> Repository:
    project.local_roots = [str(directory)]
    repo = Repository(
        project_id=project.id, name="scripts", kind=RepositoryKind.LOCAL, url=str(directory)
    )
    session.add(repo)
    session.flush()
    return repo


def script(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
