"""One real `steward serve` for the command line's tests (a package fixture: started once), a
project of the test playbooks on localhost, and `steward_in`: `steward ARGS…` in this process
against it, with what it printed and its exit code."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import httpx2
import pytest
from support.builders import PLAYBOOKS, localhost_project, post
from support.server import Server

from cli.site import ANSWERS, SURVEY, Result, Site, Steward
from steward import cli


@pytest.fixture(scope="package")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    base = tmp_path_factory.mktemp("cli")
    repo = base / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    (repo / "answers.yml").write_text(ANSWERS)
    with Server(base / "data", cancel_grace_seconds="2").running() as server, server.api() as api:
        api.timeout = httpx2.Timeout(60)  # the machine may be busy: runs are slow to start
        ids = localhost_project(api, repo, "ops")
        common = {"repository_id": ids["repository"], "inventory_id": ids["inventory"]}
        templates = f"/projects/{ids['project']}/templates"
        hello = {"name": "hello", "playbook": "ok.yml", "overridable": ["extra_vars"]}
        post(api, templates, {**hello, **common})
        post(api, templates, {"name": "broken", "playbook": "fail.yml", **common})
        post(api, templates, {"name": "slow", "playbook": "slow.yml", **common})
        asks = {"name": "asks", "playbook": "answers.yml", "survey": SURVEY, **common}
        post(api, templates, {**asks, "extra_vars": {"control": "{{ 6 * 7 }}"}})
        url = f"http://127.0.0.1:{server.port}"
        yield Site(server, url, server.token("run"), ids["project"], api)


@pytest.fixture
def steward_in(site: Site, capsys: pytest.CaptureFixture[str]) -> Steward:
    """``steward_in("run", "ops/hello", …)``: the command in this process (its code measured),
    with --url and --token of the site's server and a run-scoped token."""

    def call(*args: str, connect: bool = True) -> Result:
        server = ["--url", site.url, "--token", site.token] if connect else []
        capsys.readouterr()
        code = cli.main([*args, *server])
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return call
