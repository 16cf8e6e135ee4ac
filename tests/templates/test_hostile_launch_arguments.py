"""Launch values never become options or file paths of ansible-playbook.

A limit is split as ansible-core splits it (commas; else colons *and whitespace*), and an element
starting with '@' makes Ansible read that file and print its lines. Each refused spelling is first
given to Ansible's own ``InventoryManager.subset`` — what ansible-playbook calls with its
``--limit`` — as the control: the file's marker line is among the patterns it read. That this is
where ``--limit=VALUE`` leads is shown once by a bare ansible-playbook process, which prints the
marker. Then the same value is refused by a Steward launch, a template save and a schedule, with
a 422 naming the field and the element.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.builders import Workbench
from support.schedules import YEARLY

from steward.execution.ansible.playbook import BIN_DIR
from steward.templates.models import Template

pytestmark = pytest.mark.security

MARKER = "steward-limit-file-marker-7f3a"
PLAY = """\
- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug: {msg: ran}
"""

# how each spelling reaches the file: '{f}' is the absolute path of a file holding MARKER
FILE_LIMITS = [
    "@{f}",
    "all @{f}",  # whitespace separates elements when there is no comma
    "all\t@{f}",
    "all\n@{f}",
    "all\u00a0@{f}",  # a no-break space is whitespace to Ansible too
    "all\u2003@{f}",
    "a,@{f}",
    "a, @{f}",
    "a,\u3000@{f}",
    "a:@{f}",
    " @{f}",
    "all:@{f}:b",
    "a[1:2]:@{f}",
    "! @{f}",  # '!' alone is an element; the file is read before Ansible fails on it
]


def bare_ansible_playbook(tmp_path: Path, limit: str) -> str:
    """stdout and stderr of ansible-playbook run outside Steward on localhost with ``limit``."""
    (tmp_path / "hosts.ini").write_text(
        f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
    )
    (tmp_path / "play.yml").write_text(PLAY)
    done = subprocess.run(
        [
            str(BIN_DIR / "ansible-playbook"),
            f"--inventory={tmp_path / 'hosts.ini'}",
            f"--limit={limit}",
            "play.yml",
        ],
        cwd=tmp_path,
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path), "ANSIBLE_NOCOLOR": "1"},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return done.stdout + done.stderr


def read_by_ansible(limit: str) -> list[str]:
    """The patterns Ansible's inventory takes from ``limit``: ansible-playbook's ``--limit``."""
    from ansible.inventory.manager import InventoryManager
    from ansible.parsing.dataloader import DataLoader

    inventory = InventoryManager(loader=DataLoader(), sources=[])
    inventory.subset(limit)
    return list(inventory._subset or [])  # what it read is the point


def test_ansible_playbook_reads_a_limit_file_where_the_controls_say(tmp_path: Path) -> None:
    """The controls below ask ``InventoryManager.subset``; a real ansible-playbook given
    ``--limit=@file`` reads the file there too, and prints its line."""
    secret = tmp_path / "secret-hosts"
    secret.write_text(MARKER + "\n")
    assert MARKER in read_by_ansible(f"all @{secret}")
    assert MARKER in bare_ansible_playbook(tmp_path, f"all @{secret}")
    # control of the control: without the '@' nothing is read
    assert MARKER not in read_by_ansible(f"all {secret}")


@pytest.mark.sqlite_only  # what reaches Ansible does not depend on the database
@pytest.mark.parametrize("spelling", FILE_LIMITS)
def test_a_limit_that_would_read_a_file_is_refused_where_ansible_reads_it(
    workbench: Workbench, tmp_path: Path, spelling: str
) -> None:
    secret = tmp_path / "secret-hosts"
    secret.write_text(MARKER + "\n")
    limit = spelling.format(f=secret)
    # control: Ansible's inventory reads the file (ansible-playbook then prints its line)
    assert MARKER in read_by_ansible(limit)

    template = workbench.template("ok.yml", overridable=["limit"])
    cause = f"element '@{secret}' would make Ansible read the file '{secret}'"
    launched = workbench.client.post(
        workbench.url("runs"), json={"template_id": template, "limit": limit}
    )
    assert launched.status_code == 422, launched.text
    assert launched.headers["content-type"] == "application/problem+json"
    assert launched.json()["errors"][0] == {"field": "limit", "message": cause}
    saved = workbench.client.patch(workbench.url(f"templates/{template}"), json={"limit": limit})
    assert saved.status_code == 422, saved.text
    assert saved.json()["errors"][0] == {"field": "limit", "message": cause}
    scheduled = workbench.client.post(
        workbench.url(f"templates/{template}/schedules"),
        json={"name": "s", "kind": "cron", "expression": YEARLY, "launch": {"limit": limit}},
    )
    assert scheduled.status_code == 422, scheduled.text
    assert scheduled.json()["errors"][0]["message"] == cause
    assert scheduled.json()["errors"][0]["field"].endswith("limit")
    assert workbench.client.get(workbench.url("runs")).json()["items"] == []  # nothing queued
    assert workbench.client.get(workbench.url("schedules")).json()["items"] == []


@pytest.mark.sqlite_only
def test_the_same_template_runs_an_ordinary_limit(workbench: Workbench) -> None:
    """Control of the refusals: the template launches a limit, and Ansible runs its hosts."""
    template = workbench.template("ok.yml", overridable=["limit", "tags", "skip_tags"])
    run = workbench.launch(template, limit="localhost:&all:!nowhere", tags="a,b", skip_tags="c")
    assert workbench.wait(run["id"])["status"] == "successful"


@pytest.mark.parametrize(
    ("field", "value", "cause"),
    [
        ("limit", "web:!@x", "element '!@x': a host pattern may not start with '@'"),
        ("limit", "--list-hosts", "element '--list-hosts' starts with '-'"),
        ("limit", "web -x", "element '-x' starts with '-'"),
        ("limit", "web,-x", "element '-x' starts with '-'"),
        ("tags", "-x", "tag '-x' starts with '-'"),
        ("tags", "deploy, -x", "tag '-x' starts with '-'"),
        ("skip_tags", " --flush-cache", "tag '--flush-cache' starts with '-'"),
        ("skip_tags", "a,--x", "tag '--x' starts with '-'"),
    ],
)
def test_option_values_are_refused_at_launch_and_on_the_template(
    workbench: Workbench, field: str, value: str, cause: str
) -> None:
    template = workbench.template("ok.yml", overridable=["limit", "tags", "skip_tags"])
    accepted = workbench.client.patch(  # control: the same field takes an ordinary value
        workbench.url(f"templates/{template}"), json={field: "web,db"}
    )
    assert accepted.status_code == 200, accepted.text
    launched = workbench.client.post(
        workbench.url("runs"), json={"template_id": template, field: value}
    )
    assert launched.status_code == 422, launched.text
    assert launched.headers["content-type"] == "application/problem+json"
    assert launched.json()["errors"][0]["field"] == field
    assert cause in launched.json()["errors"][0]["message"]
    saved = workbench.client.patch(workbench.url(f"templates/{template}"), json={field: value})
    assert saved.status_code == 422, saved.text
    assert saved.json()["errors"][0]["field"] == field
    runs = workbench.client.get(workbench.url("runs")).json()
    assert runs["items"] == []  # nothing was queued


def test_ordinary_patterns_are_accepted(workbench: Workbench) -> None:
    limit = "web:&db:!web01,user@host,host[1:3],~web\\d+,[::1],2001:db8::1"
    template = workbench.template("ok.yml", limit=limit, tags="a,b")
    shown = workbench.client.get(workbench.url(f"templates/{template}")).json()
    assert (shown["limit"], shown["tags"]) == (limit, "a,b")
    for ipv6 in ("2001:db8::1", "[::1]", "web[1:3]"):
        saved = workbench.client.patch(workbench.url(f"templates/{template}"), json={"limit": ipv6})
        assert saved.status_code == 200, saved.text


@pytest.mark.sqlite_only
def test_a_stored_limit_from_before_the_check_fails_the_run_before_ansible(
    workbench: Workbench, tmp_path: Path
) -> None:
    """A template saved before the element checks keeps its value in the database; the run is
    checked once more before ansible-playbook starts, and fails naming the element."""
    secret = tmp_path / "secret-hosts"
    secret.write_text(MARKER + "\n")
    template = workbench.template("ok.yml")
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        session.get(Template, template).limit = f"all @{secret}"
        session.commit()

    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "error"  # refused before ansible-playbook started
    assert run["status_reason"] == (
        f"limit: element '@{secret}' would make Ansible read the file '{secret}'"
    )
    assert MARKER not in workbench.text(run["id"])

    with runtime.sessions() as session:  # control: the same template with the limit fixed runs
        session.get(Template, template).limit = "all"
        session.commit()
    assert workbench.wait(workbench.launch(template)["id"])["status"] == "successful"
