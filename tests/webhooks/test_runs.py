"""Deliveries that run real playbooks: body fields arrive as data (never Jinja) and a pushed
branch or commit is what runs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support.builders import assign_local_roots, git, git_commit_all, git_init, post
from support.waits import wait_finished
from support.webhooks import (
    HookServer,
    encode,
    github_headers,
)

pytestmark = pytest.mark.sqlite_only  # what reaches Ansible does not depend on the database

ECHO = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "{{ {'message': message, 'repository': repository} | to_json }}"
    - ansible.builtin.debug: {msg: "control={{ control }}"}
"""


def payload(marker: Path) -> str:
    """Jinja that would create ``marker`` on the server if it were evaluated."""
    return "{{ lookup('pipe', 'touch " + str(marker) + "') }}{% if true %}x{% endif %}"


def output(hook_server: HookServer, project: int, run_id: int) -> str:
    run = wait_finished(hook_server.api, project, run_id)
    text = hook_server.api.get(f"/projects/{project}/runs/{run_id}/output").text
    assert run["status"] == "successful", text
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def first_message(text: str) -> dict[str, Any]:
    start = text.index('"msg": ') + len('"msg": ')
    value: dict[str, Any] = json.loads(json.loads(text[start : text.index("\n", start)]))
    return value


def test_extracted_body_fields_reach_the_playbook_as_literal_strings(
    hook_server: HookServer, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # outside the server's data and repository directories, which the run's sandbox hides
    markers = tmp_path_factory.mktemp("markers")
    control, evil = markers / "control", [markers / f"pwned-{n}" for n in range(3)]
    ids = hook_server.project("echo")
    (hook_server.repo_dir("echo") / "echo.yml").write_text(ECHO)
    template = hook_server.template(
        ids,
        "echo.yml",
        overridable=["extra_vars"],
        # the template's own variables are trusted: this one proves the marker directory is
        # one a playbook's lookup can write to
        extra_vars={"control": "{{ lookup('pipe', 'touch " + str(control) + "') }}done"},
    )
    hook = hook_server.webhook(
        ids, template, extractors={"message": "head_commit.message", "repository": "repository"}
    )
    repository = {"name": payload(evil[1]), "topics": [payload(evil[2]), {"k": "v"}]}
    body = encode({"head_commit": {"message": payload(evil[0])}, "repository": repository})
    answer = hook_server.deliver(hook["url"], body, github_headers(body))
    assert answer.status_code == 202, answer.text

    text = output(hook_server, ids["project"], answer.json()["run_id"])
    assert first_message(text) == {"message": payload(evil[0]), "repository": repository}
    assert "control=done" in text
    assert control.exists()
    assert [m for m in evil if m.exists()] == []
    recorded = hook_server.delivery(hook, answer.json()["delivery_id"])
    assert recorded["launch"] == {
        "extra_vars": {"message": payload(evil[0]), "repository": repository}
    }


def test_the_pushed_branch_or_commit_is_what_runs(hook_server: HookServer) -> None:
    repo = hook_server.root / "two-branches"
    git_init(repo)
    say = "- hosts: all\n  gather_facts: false\n  tasks:\n    - ansible.builtin.debug: {msg: %s}\n"
    (repo / "site.yml").write_text(say % "from-main")
    git_commit_all(repo, "main")
    git(repo, "checkout", "--quiet", "-b", "release")
    (repo / "site.yml").write_text(say % "from-release")
    git_commit_all(repo, "release")
    release = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "--quiet", "main")

    ids = hook_server.project("refs")
    base = f"/projects/{ids['project']}"
    assign_local_roots(hook_server.api, ids["project"], repo)
    repository = post(
        hook_server.api,
        f"{base}/repositories",
        {"name": "git", "kind": "git", "url": f"file://{repo}", "ref": "main"},
    )["id"]
    template = hook_server.template(
        {**ids, "repository": repository}, "site.yml", overridable=["ref"]
    )
    by_ref = hook_server.webhook(ids, template, name="by-ref", ref_from="ref")
    by_commit = hook_server.webhook(ids, template, name="by-commit", ref_from="after")

    runs = {}
    for name, hook, document in (
        ("release", by_ref, {"ref": "refs/heads/release"}),
        ("main", by_ref, {"ref": "refs/heads/main"}),
        ("commit", by_commit, {"ref": "refs/heads/release", "after": release}),
    ):
        body = encode(document)
        answer = hook_server.deliver(hook["url"], body, github_headers(body))
        assert answer.status_code == 202, answer.text
        runs[name] = answer.json()["run_id"]
    assert "from-release" in output(hook_server, ids["project"], runs["release"])
    main = output(hook_server, ids["project"], runs["main"])
    assert "from-main" in main
    assert "from-release" not in main
    assert "from-release" in output(hook_server, ids["project"], runs["commit"])
    run = hook_server.api.get(f"{base}/runs/{runs['commit']}").json()
    assert run["params"]["ref"] == release
