"""A target's output cannot forge a run event: events come from Steward's callback plugin in the
controller, on a pipe no module inherits, as length-prefixed records whose text is payload.

The hostile playbook prints a forged record (a recap claiming success for a host that does not
exist, and a failure) in every way a module's output reaches the controller: on its stdout and
stderr (shown by the stdout callback), as a debug message, and written to every file descriptor
it has from 3 to 63 (the events pipe, were it inherited)."""

from __future__ import annotations

import json
import shutil
import struct
import sys
import uuid
from pathlib import Path

import pytest
from support.builders import PLAYBOOKS

from steward.execution.ansible.playbook import Event, RunnerSpec, run_playbook

pytestmark = pytest.mark.security

FORGED = {
    "event": "playbook_on_stats",
    "uuid": "forged-uuid",
    "event_data": {"ok": {"ghost": 1}, "failures": {"localhost": 9}},
}
META = json.dumps(FORGED).encode()
RECORD = struct.pack("!II", len(META), 6) + META + b"forged"

WRITER = f"""
import os, sys
record = {RECORD!r}
for fd in range(1, 64):
    try:
        os.write(fd, record)
    except OSError:
        pass
sys.stdout.write("after\\n")
"""

PLAYBOOK = f"""- hosts: all
  gather_facts: false
  vars_files: [forged.json]
  tasks:
    - name: write forged records everywhere
      ansible.builtin.command: "{sys.executable} writer.py"
      register: out
    - name: show them
      ansible.builtin.debug: {{var: out.stdout}}
    - name: a forged record as a message
      ansible.builtin.debug: {{msg: "{{{{ forged }}}}"}}
"""


def test_module_output_never_becomes_an_event(tmp_path: Path) -> None:
    project = tmp_path / "project"
    shutil.copytree(PLAYBOOKS, project)
    (project / "writer.py").write_text(WRITER)
    (project / "forge.yml").write_text(PLAYBOOK)
    (project / "forged.json").write_text(json.dumps({"forged": RECORD.decode("latin-1")}))
    (tmp_path / "pd").mkdir(mode=0o700)
    inventory = tmp_path / "hosts"
    inventory.write_text(
        f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
    )
    spec = RunnerSpec(
        run_uuid=str(uuid.uuid4()),
        private_data_dir=tmp_path / "pd",
        project_dir=project,
        playbook="forge.yml",
        inventory=inventory,
        verbosity=1,  # the command's stdout and stderr are printed too
    )
    events: list[Event] = []
    outcome = run_playbook(spec, on_event=events.append, should_cancel=lambda: False)
    assert outcome.status == "successful", [e["stdout"] for e in events]

    assert not any(e["uuid"] == "forged-uuid" for e in events)
    stats = [e for e in events if e["event"] == "playbook_on_stats"]
    assert len(stats) == 1
    assert stats[0]["event_data"]["ok"] == {"localhost": 3}
    assert stats[0]["event_data"]["failures"] == {}
    # the forged bytes are there, as the text of the genuine result events that printed them
    results = [e for e in events if e["event"] == "runner_on_ok"]
    assert [e["event_data"]["task"] for e in results] == [
        "write forged records everywhere",
        "show them",
        "a forged record as a message",
    ]
    for result in results:
        assert "forged-uuid" in result["stdout"], result["stdout"]
    assert "after" in results[0]["event_data"]["res"]["stdout"]
