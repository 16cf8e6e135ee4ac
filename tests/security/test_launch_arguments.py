"""Launch values never become options or file paths of ansible-playbook."""

from __future__ import annotations

import pytest
from support.builders import Workbench


@pytest.mark.parametrize(
    ("field", "value", "cause"),
    [
        ("limit", "@/etc/passwd", "may not start with '@'"),
        ("limit", "web,@secrets.txt", "may not start with '@'"),
        ("limit", "web:!@x", "may not start with '@'"),
        ("limit", "--list-hosts", "must not start with '-'"),
        ("tags", "-x", "must not start with '-'"),
        ("skip_tags", " --flush-cache", "must not start with '-'"),
    ],
)
def test_option_or_file_values_are_refused_at_launch_and_on_the_template(
    workbench: Workbench, field: str, value: str, cause: str
) -> None:
    template = workbench.template("ok.yml", overridable=["limit", "tags", "skip_tags"])
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
    template = workbench.template("ok.yml", limit="web:&db:!web01,user@host", tags="a,b")
    shown = workbench.client.get(workbench.url(f"templates/{template}")).json()
    assert (shown["limit"], shown["tags"]) == ("web:&db:!web01,user@host", "a,b")
