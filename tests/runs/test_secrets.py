"""Secret values used by a run never appear in stored or streamed output, nor on a command line."""

from __future__ import annotations

import threading

from runs.workbench import Workbench
from steward.runner import processes

SECRET_VAR = "Sup3r-Secret-Var"
SECRET_ENV = "Env-Pa$$w0rd-42"
SURVEY_PW = "survey pw with spaces"


def test_secrets_are_masked_everywhere_and_kept_off_argv(workbench: Workbench) -> None:
    var_key = workbench.key(name="var", kind="secret", value=SECRET_VAR)
    env_key = workbench.key(name="env", kind="secret", value=SECRET_ENV)
    env = workbench.client.post(
        workbench.url("environments"),
        json={
            "name": "prod",
            "secrets": [
                {"name": "secret_value", "target": "extra_var", "key_id": var_key},
                {"name": "DB_PASSWORD", "target": "env", "key_id": env_key},
            ],
        },
    )
    assert env.status_code == 201, env.text
    template = workbench.template(
        "secrets.yml",
        environment_id=env.json()["id"],
        verbosity=4,
        survey=[{"variable": "survey_pw", "label": "pw", "type": "password", "required": True}],
    )
    run = workbench.launch(template, survey={"survey_pw": SURVEY_PW})
    assert SURVEY_PW not in str(run)

    cmdlines: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        uuid = workbench.uuid(run["id"])
        while not stop.is_set():
            for proc in processes.run_processes(uuid):
                try:
                    cmdlines.append("\0".join(proc.cmdline()))
                except OSError:
                    continue
            stop.wait(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        done = workbench.wait(run["id"])
    finally:
        stop.set()
        watcher.join()
    assert done["status"] == "successful", workbench.text(run["id"])
    assert any("ansible-playbook" in c for c in cmdlines)

    text = workbench.text(run["id"])
    assert "the secret is ********" in text
    assert "env says ******** and ********" in text
    events = workbench.client.get(
        workbench.url(f"runs/{run['id']}/events"), params={"limit": 1000}
    ).text
    stream = workbench.client.get(workbench.url(f"runs/{run['id']}/stream")).text
    detail = workbench.client.get(workbench.url(f"runs/{run['id']}")).text
    for secret in (SECRET_VAR, SECRET_ENV, SURVEY_PW):
        for where, content in (
            ("output", text),
            ("events", events),
            ("stream", stream),
            ("run", detail),
            ("argv", "\n".join(cmdlines)),
        ):
            assert secret not in content, f"{secret!r} leaked into {where}"
