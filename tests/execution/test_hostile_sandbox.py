"""A run cannot read Steward's own secrets: the data dir, the master key, the database, other
runs' private directories and processes are hidden by the bubblewrap sandbox."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from support.builders import Workbench
from support.waits import wait_until

from steward.config import Settings
from steward.execution.ansible.sandbox import Sandbox

pytestmark = [
    pytest.mark.security,
    pytest.mark.sqlite_only,
]  # the sandbox is the same whatever the database

SPY = """- hosts: all
  gather_facts: false
  tasks:
    - name: read {{ item }}
      ansible.builtin.command: cat {{ item }}
      register: read
      failed_when: false
      loop: "{{ targets }}"
    - name: other processes
      ansible.builtin.shell: >-
        echo own=$(grep -ls "$STEWARD_RUN_UUID" /proc/[0-9]*/environ | wc -l)
        other=$(grep -ls {{ other_uuid }} /proc/[0-9]*/environ | wc -l)
      register: procs
    - name: undo the sandbox
      ansible.builtin.command: umount {{ data_dir }}
      register: umount
      failed_when: false
    - name: own files still work
      ansible.builtin.command: ls {{ playbook_dir }}/spy.yml
    - ansible.builtin.debug:
        msg: >-
          {{ read.results | map(attribute='stderr') | list }}
          procs={{ procs.stdout }} umount={{ umount.rc }}
"""


def test_a_playbook_cannot_read_the_key_the_database_or_another_run(
    workbench: Workbench, settings: Settings
) -> None:
    other = workbench.launch(workbench.template("slow.yml"))
    workbench.wait(other["id"], until=lambda r: r["status"] == "running")
    other_dir = settings.runs_dir / f"run-{other['id']}"
    other_secret = other_dir / "secrets" / "extravars.json"
    workbench.wait(other["id"], until=lambda _r: other_secret.exists())
    database = make_url(settings.database_url).database
    targets = [str(settings.key_file), str(database), str(other_secret)]
    for target in targets:  # what the sandbox must hide is really there
        assert Path(target).is_file()

    (workbench.repo_dir / "spy.yml").write_text(SPY)
    spy = workbench.template(
        "spy.yml",
        extra_vars={
            "targets": targets,
            "other_uuid": workbench.uuid(other["id"]),
            "data_dir": str(settings.data_dir),
        },
    )
    run = workbench.wait(workbench.launch(spy)["id"])
    workbench.client.post(workbench.url(f"runs/{other['id']}/cancel"))

    text = workbench.text(run["id"])
    assert run["status"] == "successful", text
    for target in targets:
        assert f"cat: {target}: No such file or directory" in text
    # the run sees its own processes, and none of the other run's
    seen = re.search(r"procs=own=(\d+) other=(\d+)", text)
    assert seen is not None, text
    assert int(seen[1]) > 0
    assert seen[2] == "0"
    assert "umount=32" in text or "umount=1" in text, text  # not allowed to unmount
    assert settings.key_file.read_bytes()[:20].decode(errors="replace") not in text
    workbench.wait(other["id"])


def test_bubblewrap_missing_refuses_runs_with_the_reason(
    workbench: Workbench, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no bwrap on PATH a required sandbox refuses runs; the run ends `error` saying why."""
    from steward.execution.ansible import sandbox as module

    module.probe.cache_clear()
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with monkeypatch.context() as patched:
        patched.setenv("PATH", "/nonexistent")
        refused = Sandbox.from_settings(runtime.settings)
        optional = Sandbox.from_settings(
            runtime.settings.model_copy(update={"sandbox": "optional"})
        )
    module.probe.cache_clear()
    assert not refused.enabled
    assert "bubblewrap (bwrap) is not installed" in refused.refusal
    assert (optional.enabled, optional.refusal) == (False, "")

    monkeypatch.setattr(runtime, "sandbox", refused)
    run = workbench.wait(workbench.launch(workbench.template("ok.yml"))["id"])
    assert run["status"] == "error"
    assert "bubblewrap (bwrap) is not installed" in run["status_reason"]
    assert "STEWARD_SANDBOX=optional" in run["status_reason"]


def test_private_directories_left_behind_are_swept(
    workbench: Workbench, settings: Settings
) -> None:
    """A directory of a run that ended or no longer exists is removed on the dispatcher's next
    pass (here: woken by a launch); the one of a run still executing is kept."""
    finished = workbench.wait(workbench.launch(workbench.template("ok.yml"))["id"])
    leftovers = [settings.runs_dir / f"run-{finished['id']}", settings.runs_dir / "run-99999"]
    # its status is final a moment before the executor removes its directory: made again after
    # that, it is a leftover of an ended run (made before, the removal could race the making)
    wait_until(lambda: not leftovers[0].exists(), 10, 0.05, f"{leftovers[0]} removed")
    for leftover in leftovers:
        (leftover / "secrets").mkdir(parents=True)
        (leftover / "secrets" / "extravars.json").write_text("{}")
    slow = workbench.launch(workbench.template("slow.yml"))
    workbench.wait(slow["id"], until=lambda r: r["status"] == "running")
    own = settings.runs_dir / f"run-{slow['id']}"
    workbench.wait(slow["id"], until=lambda _r: not any(p.exists() for p in leftovers))
    assert own.is_dir()
    workbench.client.post(workbench.url(f"runs/{slow['id']}/cancel"))
    workbench.wait(slow["id"])
    # its status is final a moment before the executor removes its directory
    wait_until(lambda: not own.exists(), 10, 0.05, f"{own} removed after its run ended")


def test_an_inventory_script_runs_in_the_sandbox(workbench: Workbench, settings: Settings) -> None:
    """Viewing a plugin inventory's hosts runs the repository's script: sandboxed like a run."""
    script = workbench.repo_dir / "spy-inventory.sh"
    script.write_text(
        "#!/bin/sh\n"
        f"if cat {settings.key_file} >/dev/null 2>&1; then name=leaked; else name=hidden; fi\n"
        f"if ls {settings.runs_dir.parent} >/dev/null 2>&1; then dir=listed; else dir=gone; fi\n"
        'printf \'{"all": {"hosts": ["%s", "%s"]}, "_meta": {"hostvars": {}}}\' "$name" "$dir"\n'
    )
    script.chmod(0o755)
    assert settings.key_file.is_file()
    created = workbench.client.post(
        workbench.url("inventories"),
        json={
            "name": "script",
            "kind": "plugin",
            "repository_id": workbench.repository_id,
            "path": "spy-inventory.sh",
        },
    )
    assert created.status_code == 201, created.text
    shown = workbench.client.get(workbench.url(f"inventories/{created.json()['id']}/hosts"))
    assert shown.status_code == 200, shown.text
    assert sorted(host["name"] for host in shown.json()["hosts"]) == ["gone", "hidden"]
