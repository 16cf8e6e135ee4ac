"""The release: the wheel `make wheel` builds, installed with `uv tool install` outside the
checkout, serves the API and the console it carries and runs a real playbook with its own
ansible-core (issue 25: "a working steward serve without the checkout or node").

`make test-release` builds the wheel first (after the console is built); run alone, the module
builds it when dist/ has none."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import httpx2
import pytest
from support.builders import localhost_project, post
from support.server import FreshServer
from support.waits import wait_finished

pytestmark = [pytest.mark.release, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
UV = ROOT / ".tools" / "bin" / "uv"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def _wheel() -> Path:
    wheels = sorted((ROOT / "dist").glob(f"steward-{VERSION}-*.whl"))
    if not wheels:
        subprocess.run([str(ROOT / "scripts" / "build-wheel")], check=True, cwd=ROOT)
        wheels = sorted((ROOT / "dist").glob(f"steward-{VERSION}-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


class Installed:
    def __init__(self, place: Path) -> None:
        self.place = place
        self.tools = place / "tools"
        self.bin = place / "bin"
        self.env = {
            **os.environ,
            "UV_TOOL_DIR": str(self.tools),
            "UV_TOOL_BIN_DIR": str(self.bin),
            "UV_PYTHON_DOWNLOADS": "never",
        }
        # nothing of the checkout on the way: not its venv, not its sources
        self.env.pop("VIRTUAL_ENV", None)
        self.env["PATH"] = os.pathsep.join(
            p for p in self.env["PATH"].split(os.pathsep) if not p.startswith(str(ROOT))
        )

    @property
    def steward(self) -> Path:
        return self.bin / "steward"

    @property
    def python(self) -> Path:
        return self.tools / "steward" / "bin" / "python"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    wheel = _wheel()
    tool = Installed(tmp_path_factory.mktemp("installed"))
    base_python = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}"
    done = subprocess.run(
        [
            str(UV),
            "tool",
            "install",
            "--quiet",
            "--python",
            str(base_python),
            str(wheel),
        ],
        env=tool.env,
        cwd=tool.place,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return tool


def test_the_installed_command_is_not_the_checkouts(installed: Installed) -> None:
    version = subprocess.run(
        [str(installed.steward), "--version"],
        env=installed.env,
        cwd=installed.place,
        capture_output=True,
        text=True,
        check=True,
    )
    assert version.stdout.strip() == f"steward {VERSION}"
    where = subprocess.run(
        [str(installed.python), "-c", "import steward; print(steward.__file__)"],
        env=installed.env,
        cwd=installed.place,
        capture_output=True,
        text=True,
        check=True,
    )
    package = Path(where.stdout.strip()).parent
    assert package.is_relative_to(installed.tools), package
    assert not package.is_relative_to(ROOT)
    # the console is in the package, and node is nowhere near it
    assert (package / "console" / "index.html").is_file()
    assert not list(package.glob("console/**/node_modules"))


def test_the_installed_server_serves_its_console_and_runs_a_playbook(
    installed: Installed, tmp_path: Path
) -> None:
    class InstalledServer(FreshServer):
        program = installed.steward
        cwd = installed.place
        ready_seconds = 180.0  # a fresh install: its modules are compiled to bytecode as they load

    repo = tmp_path / "playbooks"
    repo.mkdir()
    shutil.copy(ROOT / "tests" / "playbooks" / "ok.yml", repo / "ok.yml")
    server = InstalledServer(tmp_path / "data")
    with server.running():
        base = f"http://127.0.0.1:{server.port}"
        health = httpx2.get(f"{base}/api/v1/health", timeout=30).json()
        assert health == {"status": "ok", "version": VERSION}
        page = httpx2.get(f"{base}/projects", timeout=30)
        assert page.status_code == 200
        assert '<div id="root">' in page.text
        script = re.search(r'src="(/assets/[^"]+\.js)"', page.text)
        assert script is not None, page.text
        assert httpx2.get(base + script.group(1), timeout=30).status_code == 200

        with server.api() as api:
            ids = localhost_project(api, repo)
            python = installed.python  # the installed tool's own, not the checkout's venv
            inventory = f"localhost ansible_connection=local ansible_python_interpreter={python}\n"
            api.patch(
                f"/projects/{ids['project']}/inventories/{ids['inventory']}",
                json={"content": inventory},
            ).raise_for_status()
            body = {
                "name": "hello",
                "playbook": "ok.yml",
                "repository_id": ids["repository"],
                "inventory_id": ids["inventory"],
                "overridable": ["extra_vars"],
            }
            template = post(api, f"/projects/{ids['project']}/templates", body)
            launched = post(
                api,
                f"/projects/{ids['project']}/runs",
                {"template_id": template["id"], "extra_vars": {"who": "release"}},
            )
            run = wait_finished(api, ids["project"], launched["id"])
            assert run["status"] == "successful", run
            output = api.get(f"/projects/{ids['project']}/runs/{run['id']}/output")
            assert "hello release" in output.text


def test_the_installed_doctor_passes_with_its_own_ansible(
    installed: Installed, tmp_path: Path
) -> None:
    done = subprocess.run(
        [str(installed.steward), "doctor"],
        env={**installed.env, "STEWARD_DATA_DIR": str(tmp_path / "data")},
        cwd=installed.place,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = {line.split(":")[0]: line for line in done.stdout.splitlines()}
    # the tool's own ansible-core, in the range its package declares, runs the self-test
    assert lines["ok   ansible"].endswith(f"{installed.tools / 'steward' / 'bin'}/ansible-playbook")
    assert "(supported: ==" in lines["ok   ansible"]
    assert lines["ok   sandbox"].startswith("ok   sandbox: a self-test run on localhost took ")
