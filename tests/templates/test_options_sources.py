"""Survey options from a real HTTP server on 127.0.0.1 and from a script of a real repository
run in the run sandbox: what a source answers, and how a failure reads
(``test_hostile_options`` holds the attacks)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from sqlalchemy.orm import Session
from support import runs, services
from support.options import SLOW_SECONDS, TOKEN, Cmdb, local_repository, options, question, script
from support.served import Served

from steward.config import Settings
from steward.crypto import KeyCipher


def test_a_url_gives_the_options_of_an_earlier_answer(
    sourced: Session, cmdb: Served, keys: KeyCipher
) -> None:
    project = services.project(sourced)
    key = services.secret_key(sourced, keys, project, "cmdb", TOKEN)
    made = runs.template(
        sourced,
        project,
        survey=[
            {"variable": "host", "label": "Host", "type": "text"},
            question(
                "db",
                {
                    "kind": "url",
                    "url": cmdb.url("/dbs?host={answer.host}"),
                    "key_id": key,
                    "path": "data.items[*].name",
                },
            ),
        ],
    )
    assert options(sourced, made) == {"db": "needs an answer to 'host' first"}
    assert options(sourced, made, host="db1&x=1") == {"db": ["db1&x=1-orders", "db1&x=1-users"]}
    assert Cmdb.seen == [("/dbs?host=db1%26x%3D1", f"Bearer {TOKEN}")]
    # the launch reads the same answer (cached), and refuses one that is not among the options
    runs.launch(sourced, project, made, survey={"host": "db1&x=1", "db": "db1&x=1-users"})
    assert len(Cmdb.seen) == 1
    detail = services.refused(
        lambda: runs.launch(sourced, project, made, survey={"host": "db1", "db": "db1&x=1-users"}),
        "survey.db",
    )
    assert "db1-orders" in detail


def test_a_slow_url_fails_at_its_timeout_with_a_reason(sourced: Session, cmdb: Served) -> None:
    source = {"kind": "url", "url": cmdb.url("/slow"), "timeout_seconds": 0.5}
    made = runs.template(sourced, services.project(sourced), survey=[question("db", source)])
    started = time.monotonic()
    assert options(sourced, made) == {"db": "no answer within 0.5 seconds"}
    assert time.monotonic() - started < SLOW_SECONDS - 1


def test_a_failing_url_says_why_in_words_of_ours(sourced: Session, cmdb: Served) -> None:
    project = services.project(sourced)
    survey = [
        question("broken", {"kind": "url", "url": cmdb.url("/broken")}),
        question("denied", {"kind": "url", "url": cmdb.url("/dbs")}),
        question("missed", {"kind": "url", "url": cmdb.url("/huge"), "path": "data"}),
    ]
    found = options(sourced, runs.template(sourced, project, survey=survey))
    assert found == {
        "broken": "the URL answered HTTP 500 Internal Server Error",
        "denied": "the URL answered HTTP 401 Unauthorized",
        "missed": "the answer is longer than 1048576 bytes",
    }
    assert "hunter2" not in json.dumps(found)


def test_a_script_of_the_repository_runs_in_the_sandbox(
    sourced: Session, source_settings: Settings, tmp_path: Path
) -> None:
    checkout = tmp_path / "repo"
    (checkout / "bin").mkdir(parents=True)
    script(checkout / "bin", "databases", 'echo "$1-orders"; echo; echo "$1-users"')
    script(checkout / "bin", "as_json", 'printf \'["a", "b", 3]\'')
    script(checkout / "bin", "slow", "sleep 5; echo late")
    # the sandbox hides the data dir: a script does not see the server's key file
    script(
        checkout / "bin",
        "peek",
        f"cat {source_settings.key_file} >/dev/null 2>&1 && echo seen || echo hidden",
    )
    project = services.project(sourced)
    local_repository(sourced, project, checkout)  # the template's (the project's first)
    made = runs.template(
        sourced,
        project,
        survey=[
            {"variable": "host", "label": "Host", "type": "text"},
            question(
                "db", {"kind": "script", "path": "bin/databases", "arguments": ["{answer.host}"]}
            ),
            question("listed", {"kind": "script", "path": "bin/as_json"}),
            question("late", {"kind": "script", "path": "bin/slow", "timeout_seconds": 1}),
            question("peek", {"kind": "script", "path": "bin/peek"}),
        ],
    )
    started = time.monotonic()
    assert options(sourced, made, host="$(id) db1") == {
        "db": ["$(id) db1-orders", "$(id) db1-users"],
        "listed": ["a", "b", "3"],
        "late": "the script did not finish within 1 seconds",
        "peek": ["hidden"],
    }
    assert time.monotonic() - started < 30
