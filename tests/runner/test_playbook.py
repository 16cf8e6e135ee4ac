"""The runner wrapper against real ansible-playbook on localhost (no database involved)."""

from __future__ import annotations

import dataclasses
import shutil
import sys
import time
import uuid
from pathlib import Path

import pytest
from support.builders import PLAYBOOKS

from steward.runner import processes
from steward.runner.playbook import Event, RunnerSpec, run_playbook


def _spec(tmp_path: Path, playbook: str, **extra: object) -> RunnerSpec:
    project = tmp_path / "project"
    if not project.exists():
        shutil.copytree(PLAYBOOKS, project)
    (tmp_path / "pd").mkdir(mode=0o700, exist_ok=True)
    inventory = tmp_path / "hosts"
    inventory.write_text(
        f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"
    )
    return RunnerSpec(
        run_uuid=str(uuid.uuid4()),
        private_data_dir=tmp_path / "pd",
        project_dir=project,
        playbook=playbook,
        inventory=inventory,
        **extra,  # type: ignore[arg-type]
    )


def test_successful_run_streams_events_in_order(tmp_path: Path) -> None:
    events: list[Event] = []
    outcome = run_playbook(
        _spec(tmp_path, "ok.yml"), on_event=events.append, should_cancel=lambda: False
    )
    assert outcome.status == "successful"
    assert outcome.rc == 0
    counters = [e["counter"] for e in events]
    assert counters == sorted(counters)
    assert any("hello world" in e.get("stdout", "") for e in events)
    assert events[-1]["event"] == "playbook_on_stats"
    # no second, unmasked copy of the output on disk
    assert not (tmp_path / "pd" / "artifacts" / "run" / "stdout").exists()


def test_secrets_in_extravars_file_never_reach_argv(tmp_path: Path) -> None:
    secret_file = tmp_path / "extravars.json"
    secret_file.write_text('{"who": "s3cr3t-in-file"}')
    spec = _spec(tmp_path, "ok.yml", extravars_files=(secret_file,))
    (spec.project_dir / "greet_then_sleep.yml").write_text(
        "- hosts: all\n  gather_facts: false\n  tasks:\n"
        "    - ansible.builtin.debug: {msg: 'hello {{ who }}'}\n"
        "    - ansible.builtin.command: sleep 30\n"
    )
    spec = dataclasses.replace(spec, playbook="greet_then_sleep.yml")
    events: list[Event] = []
    seen_cmdlines: list[str] = []

    def watch() -> bool:
        # look at every process of the run until the playbook is in its sleep, then stop it
        seen_cmdlines.extend(processes.cmdlines(spec.run_uuid))
        return "sleep" in processes.names(spec.run_uuid)

    outcome = run_playbook(spec, on_event=events.append, should_cancel=watch)
    processes.kill_all(spec.run_uuid)
    assert outcome.status == "canceled"
    assert any("ansible-playbook" in c for c in seen_cmdlines)
    assert not any("s3cr3t-in-file" in c for c in seen_cmdlines)
    assert any("hello s3cr3t-in-file" in e.get("stdout", "") for e in events)


@pytest.mark.slow
def test_terminate_then_kill_leaves_no_process_of_the_run(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "slow.yml")
    started: list[float] = []
    sleeping = False

    def cancel() -> bool:
        nonlocal sleeping
        sleeping = sleeping or any("sleep" in name for name in processes.names(spec.run_uuid))
        if not sleeping:
            return False
        if not started:
            assert processes.terminate_playbook(spec.run_uuid)
            started.append(time.monotonic())
            return False
        if time.monotonic() - started[0] > 2:
            processes.kill_all(spec.run_uuid)
            return True
        return False

    t0 = time.monotonic()
    outcome = run_playbook(spec, on_event=lambda e: None, should_cancel=cancel)
    processes.kill_all(spec.run_uuid)
    assert outcome.status in {"canceled", "failed"}
    assert time.monotonic() - t0 < 30
    assert processes.run_processes(spec.run_uuid) == []
