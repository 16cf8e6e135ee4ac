"""The runner wrapper against real ansible-playbook on localhost (no database involved)."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest
from support.builders import PLAYBOOKS, ssh_keygen

from steward.execution.ansible import playbook, processes
from steward.execution.ansible.playbook import BIN_DIR, Event, Outcome, RunnerSpec, run_playbook


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
    # no copy of the output on disk
    assert not (tmp_path / "pd" / "artifacts").exists()


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


MIXED = """- hosts: all
  gather_facts: false
  tasks:
    - name: greet
      ansible.builtin.debug: {msg: "hello\\nworld é"}
    - name: loop
      ansible.builtin.debug: {msg: "item {{ item }}"}
      loop: [1, 2]
    - name: skipped
      ansible.builtin.debug: {msg: never}
      when: false
    - name: fails but goes on
      ansible.builtin.fail: {msg: expected}
      ignore_errors: true
    - name: changed
      ansible.builtin.command: printf 'a\\nb\\n'
"""


def test_a_huge_result_is_trimmed_in_ansible_and_its_lines_are_all_there(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "huge.yml", env={"ANSIBLE_NOCOLOR": "1"})
    (spec.project_dir / "huge.yml").write_text(
        "- hosts: all\n  gather_facts: false\n  tasks:\n"
        '    - ansible.builtin.debug: {msg: "{{ range(50000) | list }}"}\n'
        "    - ansible.builtin.command: echo small\n"
    )
    events: list[Event] = []
    assert run_playbook(spec, on_event=events.append, should_cancel=lambda: False).rc == 0
    huge, small = (e for e in events if e["event"] == "runner_on_ok")
    # the list's 50,000 lines are the event's text; its data keeps the small values only
    assert len(huge["stdout"].split("\n")) == 50_000 + 4
    assert huge["event_data"]["res"] == {"_truncated": True, "changed": False} | {
        k: v for k, v in huge["event_data"]["res"].items() if k.startswith("_ansible")
    }
    assert small["event_data"]["res"]["stdout"] == "small"
    assert "_truncated" not in small["event_data"]["res"]


def _lines(events: list[Event]) -> list[str]:
    return [line for e in events if e["stdout"] for line in e["stdout"].split("\n")]


def test_event_lines_are_exactly_what_bare_ansible_playbook_prints(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "mixed.yml", env={"ANSIBLE_NOCOLOR": "1"})
    (spec.project_dir / "mixed.yml").write_text(MIXED)
    events: list[Event] = []
    outcome = run_playbook(spec, on_event=events.append, should_cancel=lambda: False)
    assert outcome == Outcome(status="successful", rc=0)
    bare = subprocess.run(
        [str(BIN_DIR / "ansible-playbook"), "-i", str(spec.inventory), "mixed.yml"],
        cwd=spec.project_dir,
        env={"PATH": os.environ["PATH"], "ANSIBLE_NOCOLOR": "1", "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert bare.stderr == ""
    assert _lines(events) == bare.stdout.split("\n")[:-1]
    # and each event holds its own lines
    by_kind = [(e["event"], e["stdout"].strip().split("\n")[0].rstrip(" *")) for e in events]
    assert ("playbook_on_task_start", "TASK [loop]") in by_kind
    assert ("runner_item_on_ok", "ok: [localhost] => (item=1) => {") in by_kind
    assert ("runner_on_skipped", "skipping: [localhost]") in by_kind
    assert ("runner_on_ok", "changed: [localhost]") in by_kind
    assert [e["counter"] for e in events] == list(range(1, len(events) + 1))
    failed = next(e for e in events if e["event"] == "runner_on_failed")
    assert failed["event_data"]["ignore_errors"] is True
    assert failed["event_data"]["res"]["msg"] == "expected"
    assert failed["event_data"]["task"] == "fails but goes on"
    assert failed["parent_uuid"] == failed["event_data"]["task_uuid"]
    # the default callback deletes "results" from its copy of the loop's result: not from ours
    loop = next(
        e for e in events if e["event"] == "runner_on_ok" and e["event_data"]["task"] == "loop"
    )
    assert [i["msg"] for i in loop["event_data"]["res"]["results"]] == ["item 1", "item 2"]
    stats = events[-1]
    assert stats["event"] == "playbook_on_stats"
    assert stats["event_data"]["ok"] == {"localhost": 4}
    assert stats["event_data"]["ignored"] == {"localhost": 1}
    assert stats["stdout"].startswith("\nPLAY RECAP")


def test_key_and_passwords_stay_off_every_argv_and_environment(tmp_path: Path) -> None:
    key, _ = ssh_keygen(tmp_path)
    secrets = ("Conn-Pw-9f3", "Become-Pw-7c1", key.splitlines()[1])
    spec = _spec(
        tmp_path,
        "greet_then_sleep.yml",
        ssh_key=key,
        ssh_password=secrets[0],
        become_password=secrets[1],
        env={"TMPDIR": str(tmp_path)},
    )
    (spec.project_dir / "greet_then_sleep.yml").write_text(
        "- hosts: all\n  gather_facts: false\n  tasks:\n    - ansible.builtin.command: sleep 30\n"
    )
    seen: list[str] = []
    agent_keys: list[str] = []

    def watch() -> bool:
        for proc in processes.run_processes(spec.run_uuid):
            with contextlib.suppress(psutil.Error):
                seen.append(" ".join(proc.cmdline()))
                seen.append(repr(proc.environ()))
                if proc.name() == "sleep" and not agent_keys:
                    socket = proc.environ().get("SSH_AUTH_SOCK", "")
                    listed = subprocess.run(
                        ["ssh-add", "-l"],
                        env={"SSH_AUTH_SOCK": socket},
                        capture_output=True,
                        text=True,
                        check=False,
                    )
                    agent_keys.append(listed.stdout)
        return bool(agent_keys)

    outcome = run_playbook(spec, on_event=lambda e: None, should_cancel=watch)
    processes.kill_all(spec.run_uuid)
    assert outcome.status == "canceled"
    assert any("ssh-agent" in line for line in seen)
    assert any("--connection-password-file=" in line for line in seen)
    assert any("--become-password-file=" in line for line in seen)
    assert "ED25519" in agent_keys[0]  # the run's agent held the key
    for secret in secrets:
        assert not any(secret in line for line in seen)
    for name in ("connection-password", "become-password"):
        assert (spec.private_data_dir / "secrets" / name).stat().st_mode & 0o777 == 0o600
    assert not (tmp_path / "agent.sock").exists()  # the agent is gone
    assert processes.run_processes(spec.run_uuid) == []


def test_a_missing_ansible_playbook_fails_with_127_and_says_so(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "ok.yml", bin_dir=tmp_path / "nowhere")
    events: list[Event] = []
    outcome = run_playbook(spec, on_event=events.append, should_cancel=lambda: False)
    assert outcome == Outcome(status="failed", rc=127)
    assert "could not be started" in events[0]["stdout"]


def test_while_output_flows_the_pipes_are_read_at_most_every_busy_read_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each wake-up of the reading loop costs the server CPU beside ansible: while events keep
    # coming, the loop lets them gather in the pipe instead of waking for every one
    busy = 0.5
    monkeypatch.setattr(playbook, "BUSY_READ_SECONDS", busy)
    reads: list[float] = []
    drain = playbook._drain

    def timed(fd: int, sink: Callable[[bytes], None], *, budget: int | None = None) -> bool:
        started = time.monotonic()
        got: list[bytes] = []

        def keep(data: bytes) -> None:
            got.append(data)
            sink(data)

        more = drain(fd, keep, budget=budget)
        if got and budget is None:  # budget: the last reads once ansible-playbook exited
            reads.append(started)
        return more

    monkeypatch.setattr(playbook, "_drain", timed)
    events: list[Event] = []
    outcome = run_playbook(
        _spec(tmp_path, "ok.yml"), on_event=events.append, should_cancel=lambda: False
    )
    assert outcome.status == "successful"
    assert [e["counter"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["event"] == "playbook_on_stats"
    starts = sorted(set(reads))
    assert len(starts) >= 2, starts  # ansible wrote over more than one read
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    # two reads of one pass (the raw pipe, then the events pipe) are microseconds apart
    passes = [g for g in gaps if g > 0.05]
    assert passes, gaps
    assert min(passes) >= busy * 0.9, gaps
