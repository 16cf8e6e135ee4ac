"""Survey answers given on the command line are data: the command adds no path around the
server's rules (unsafe values, reserved names), and a file it reads is the user's own, sent as
content: the server reads no file named in an answer."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support.builders import post

from cli.site import Site, Steward
from steward.cli.exits import Exit

pytestmark = [pytest.mark.security, pytest.mark.sqlite_only, pytest.mark.xdist_group("cli-server")]

ECHO = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "{{ {'who': who, 'note': note, 'where': where} | to_json }}"
    - name: the template's own variables are templates
      ansible.builtin.debug: {msg: "control={{ control }}"}
"""
SURVEY = [
    {"variable": name, "label": name, "type": "text", "required": True}
    for name in ("who", "note", "where")
]


def payload(marker: Path) -> str:
    """Jinja that would create ``marker`` on the server if it were evaluated."""
    return "{{ lookup('pipe', 'touch " + str(marker) + "') }}"


def echoed(text: str) -> dict[str, Any]:
    """The answers as the playbook saw them (the first debug message)."""
    start = text.index('"msg": ') + len('"msg": ')
    value: dict[str, Any] = json.loads(json.loads(text[start : text.index("\n", start)]))
    return value


def echo_template(site: Site, name: str, control: str) -> None:
    repo = site.server.data_dir.parent / "playbooks"
    (repo / "echo.yml").write_text(ECHO)
    ids = {
        kind: site.api.get(f"/projects/{site.project}/{kind}").json()["items"][0]["id"]
        for kind in ("repositories", "inventories")
    }
    body = {
        "name": name,
        "playbook": "echo.yml",
        "repository_id": ids["repositories"],
        "inventory_id": ids["inventories"],
        "survey": SURVEY,
        "extra_vars": {"control": control},
    }
    post(site.api, f"/projects/{site.project}/templates", body)


def test_answers_from_the_line_and_from_files_arrive_as_literal_data(
    site: Site, steward_in: Steward, markers_dir: Path, tmp_path: Path
) -> None:
    echo_template(site, "echo-literal", payload(markers_dir / "control"))
    typed, in_file = markers_dir / "typed", markers_dir / "in-file"
    answer = tmp_path / "answer.txt"
    answer.write_text(payload(in_file) + "\n")
    done = steward_in(
        "run",
        "ops/echo-literal",
        "--follow",
        "-a", f"who={payload(typed)}",
        "-a", f"note=@{answer}",  # the user's own file: its content is sent
        "-a", "where=@@/etc/hostname",  # an @ value for the server: a string, never a file
    )  # fmt: skip
    assert done.code == Exit.OK, done.err
    seen = echoed(re.sub(r"\x1b\[[0-9;]*m", "", done.out))
    assert seen == {"who": payload(typed), "note": payload(in_file), "where": "@/etc/hostname"}
    run_id = int(done.err.split()[1])
    assert site.run(run_id)["params"]["launch_vars"] == seen
    assert Path("/etc/hostname").read_text() != "@/etc/hostname"  # there was a file to read
    assert (markers_dir / "control").exists(), "a run could not write there: the test is void"
    assert not typed.exists()
    assert not in_file.exists()


def test_a_reserved_name_as_an_answer_is_refused_by_the_server_and_nothing_runs(
    site: Site, steward_in: Steward, markers_dir: Path
) -> None:
    echo_template(site, "echo-reserved", "{{ 6 * 7 }}")
    before = site.newest_run_id()
    base = ("run", "ops/echo-reserved", "-a", "who=a", "-a", "note=b")
    refused = steward_in(*base, "-a", "where=c", "-a", "ansible_connection=local")
    assert refused.code == Exit.API
    (line,) = refused.err.strip().splitlines()
    assert line.startswith("error: 422 Invalid Input: survey.ansible_connection: ")
    assert site.newest_run_id() == before
    # control: the same command without the reserved name launches, its value as given
    control = steward_in(*base, "-a", "where=ansible_connection=local")
    assert control.code == Exit.OK, control.err
    launched = site.run(int(control.out))["params"]["launch_vars"]
    assert launched == {"who": "a", "note": "b", "where": "ansible_connection=local"}
