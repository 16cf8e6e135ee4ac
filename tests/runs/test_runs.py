"""Runs of real playbooks through the API, the dispatcher and Steward's executor, on localhost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import update
from support.builders import Workbench

from steward.db import utcnow
from steward.execution.ansible import processes
from steward.runs.models import Run

# these exercise Ansible and the runner; the database paths they touch run on both backends above
SQLITE_ONLY = pytest.mark.sqlite_only


def test_successful_run_records_output_events_and_recap(workbench: Workbench) -> None:
    template = workbench.template("ok.yml")
    launched = workbench.launch(template)
    assert launched["status"] == "queued"
    assert launched["launched_by"] == "admin"
    run = workbench.wait(launched["id"])
    assert run["status"] == "successful", run
    assert run["rc"] == 0
    lines = workbench.lines(run["id"])
    assert len(lines) == run["line_count"] > 5
    assert any("hello world" in line for line in lines)
    assert "PLAY RECAP" in workbench.text(run["id"])
    hosts = workbench.client.get(workbench.url(f"runs/{run['id']}/hosts")).json()
    assert hosts == [
        {
            "host": "localhost",
            "ok": 2,
            "changed": 0,
            "failed": 0,
            "unreachable": 0,
            "skipped": 0,
            "rescued": 0,
            "ignored": 0,
        }
    ]
    timeline = workbench.client.get(workbench.url(f"runs/{run['id']}/timeline")).json()
    assert [t["task"] for t in timeline] == ["greet", "touch nothing"]
    assert all(t["duration"] is not None and t["duration"] >= 0 for t in timeline)
    events = workbench.client.get(workbench.url(f"runs/{run['id']}/events")).json()["items"]
    assert [e["counter"] for e in events] == sorted(e["counter"] for e in events)
    assert events[-1]["event"] == "playbook_on_stats"


def test_failing_task_fails_the_run_and_relaunch_targets_failed_hosts(
    workbench: Workbench,
) -> None:
    run = workbench.wait(workbench.launch(workbench.template("fail.yml"))["id"])
    assert run["status"] == "failed"
    assert run["status_reason"] == "ansible-playbook exited with code 2"
    failed = workbench.client.get(
        workbench.url(f"runs/{run['id']}/events"), params={"failed": True}
    ).json()["items"]
    assert [(e["task"], e["host"]) for e in failed] == [("explode", "localhost")]
    first_failure = workbench.lines(run["id"], failed=True)
    assert any("boom" in line for line in first_failure)
    again = workbench.client.post(
        workbench.url(f"runs/{run['id']}/relaunch"), json={"hosts": "failed"}
    )
    assert again.status_code == 201, again.text
    assert again.json()["params"]["limit"] == "localhost"
    assert again.json()["relaunch_of_id"] == run["id"]
    assert workbench.wait(again.json()["id"])["status"] == "failed"


def test_relaunch_failed_hosts_of_a_successful_run_is_refused(workbench: Workbench) -> None:
    run = workbench.wait(workbench.launch(workbench.template("ok.yml"))["id"])
    refused = workbench.client.post(
        workbench.url(f"runs/{run['id']}/relaunch"), json={"hosts": "failed"}
    )
    assert refused.status_code == 409
    assert "no failed or unreachable hosts" in refused.json()["detail"]


@SQLITE_ONLY
def test_unreachable_host_is_recorded(workbench: Workbench) -> None:
    inventory = workbench.inventory(
        "dead",
        "ghost ansible_host=127.0.0.1 ansible_port=9 ansible_connection=ssh "
        "ansible_ssh_common_args='-o ConnectTimeout=3'\n",
    )
    run = workbench.wait(
        workbench.launch(workbench.template("ok.yml", inventory_id=inventory))["id"]
    )
    assert run["status"] == "failed"
    hosts = workbench.client.get(workbench.url(f"runs/{run['id']}/hosts")).json()
    assert hosts[0]["host"] == "ghost"
    assert hosts[0]["unreachable"] == 1
    runs_on_ghost = workbench.client.get(workbench.url("runs"), params={"host": "ghost"}).json()
    assert [r["id"] for r in runs_on_ghost["items"]] == [run["id"]]


@SQLITE_ONLY
def test_no_log_task_output_is_censored(workbench: Workbench) -> None:
    template = workbench.template("no_log.yml", extra_vars={"hidden_value": "nobody-sees-this"})
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "successful"
    assert "nobody-sees-this" not in workbench.text(run["id"])
    events = workbench.client.get(
        workbench.url(f"runs/{run['id']}/events"), params={"event": "runner_on_ok"}
    ).json()["items"]
    assert [e["task"] for e in events] == ["hidden"]
    assert "censored" in events[0]["data"]["res"]
    assert "nobody-sees-this" not in str(events)


@SQLITE_ONLY
def test_tags_and_check_mode(workbench: Workbench, tmp_path: Path) -> None:
    tagged = workbench.template("tags.yml", overridable=["tags"])
    run = workbench.wait(workbench.launch(tagged, tags="alpha")["id"])
    text = workbench.text(run["id"])
    assert "alpha ran" in text
    assert "beta ran" not in text
    target = tmp_path / "would-be-created"
    check = workbench.template(
        "check.yml", check_mode=True, extra_vars={"target_file": str(target)}
    )
    run = workbench.wait(workbench.launch(check)["id"])
    assert run["status"] == "successful"
    assert "check mode is True" in workbench.text(run["id"])
    assert not target.exists()
    assert run["params"]["check_mode"] is True


def test_survey_answers_reach_the_playbook_typed(workbench: Workbench) -> None:
    survey = [
        {
            "variable": "db_port",
            "label": "Port",
            "type": "integer",
            "required": True,
            "min": 1,
            "max": 65535,
        },
        {
            "variable": "env_name",
            "label": "Env",
            "type": "choice",
            "required": True,
            "choices": ["staging", "production"],
        },
    ]
    template = workbench.template("survey.yml", survey=survey)
    wrong = workbench.client.post(
        workbench.url("runs"),
        json={"template_id": template, "survey": {"db_port": "eighty", "env_name": "staging"}},
    )
    assert wrong.status_code == 422
    assert "survey.db_port" in wrong.json()["detail"]
    run = workbench.launch(template, survey={"db_port": 8080, "env_name": "production"})
    done = workbench.wait(run["id"])
    assert done["status"] == "successful"
    assert "db_port=8080 db_port_type=int env=production" in workbench.text(run["id"])


@SQLITE_ONLY
def test_vault_encrypted_variable_is_decrypted_with_a_stored_vault_password(
    workbench: Workbench, tmp_path: Path
) -> None:
    password_file = tmp_path / "vault-pass"
    password_file.write_text("vault-pass-123\n")
    plain = workbench.repo_dir / "vault_vars.yml"
    plain.write_text("vaulted_word: open-sesame\n")
    subprocess.run(
        [
            str(Path(sys.executable).parent / "ansible-vault"),
            "encrypt",
            "--vault-id",
            f"prod@{password_file}",
            str(plain),
        ],
        check=True,
        capture_output=True,
    )
    assert "open-sesame" not in plain.read_text()
    key = workbench.key(
        name="vault", kind="vault_password", vault_id="prod", password="vault-pass-123"
    )
    run = workbench.wait(
        workbench.launch(workbench.template("vault.yml", vault_key_ids=[key]))["id"]
    )
    assert run["status"] == "successful", workbench.text(run["id"])
    assert "vault says open-sesame" in workbench.text(run["id"])


@SQLITE_ONLY
def test_cancel_stops_the_run_and_leaves_no_process(workbench: Workbench) -> None:
    launched = workbench.launch(workbench.template("slow.yml"))
    run_uuid = workbench.uuid(launched["id"])
    workbench.wait(
        launched["id"],
        until=lambda r: "sleep" in processes.names(run_uuid),
        timeout=60,
    )
    assert any("sleep long" in line for line in workbench.lines(launched["id"]))
    cancel = workbench.client.post(workbench.url(f"runs/{launched['id']}/cancel"))
    assert cancel.status_code == 202
    run = workbench.wait(launched["id"], timeout=15)
    assert run["status"] == "canceled"
    assert processes.run_processes(run_uuid) == []
    again = workbench.client.post(workbench.url(f"runs/{launched['id']}/cancel"))
    assert again.status_code == 409


def test_a_cancel_another_server_wrote_in_the_row_stops_the_run(workbench: Workbench) -> None:
    """Only the row says so (a server sharing the database took the request; this server's
    queue was never told): the run's fallback read of its row must notice."""
    launched = workbench.launch(workbench.template("slow.yml"))
    run_uuid = workbench.uuid(launched["id"])
    workbench.wait(launched["id"], until=lambda r: "sleep" in processes.names(run_uuid), timeout=60)
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        session.execute(
            update(Run).where(Run.id == launched["id"]).values(cancel_requested_at=utcnow())
        )
        session.commit()
    run = workbench.wait(launched["id"], timeout=20)
    assert run["status"] == "canceled"
    assert processes.run_processes(run_uuid) == []


@SQLITE_ONLY
def test_timeout_ends_the_run_as_timed_out(workbench: Workbench) -> None:
    run = workbench.wait(workbench.launch(workbench.template("slow.yml", timeout_seconds=3))["id"])
    assert run["status"] == "timed_out"
    assert processes.run_processes(workbench.uuid(run["id"])) == []
