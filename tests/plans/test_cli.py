"""``steward plan`` and ``steward apply``: their arguments, and how a plan is printed (the
commands' HTTP path is the API's, tested in test_plans.py)."""

from __future__ import annotations

from steward.cli import parser, runs
from steward.cli import plans as printed


def test_plan_and_apply_parse_like_run() -> None:
    args = parser().parse_args(["plan", "ops/site", "-a", "db=ORCL", "--limit", "web*"])
    assert (args.fn, args.target, args.answer, args.limit) == (
        runs.plan, "ops/site", ["db=ORCL"], "web*",
    )  # fmt: skip
    assert parser().parse_args(["apply", "42"]).run_id == 42


def test_a_plan_prints_its_summary_unknowns_and_diffs() -> None:
    plan = {
        "summary": "1 host changes, 1 task, 1 unknown",
        "hosts_changing": ["db1"],
        "tasks": [
            {"task": "probe", "task_path": "site.yml:3", "action": "command", "outcome": "unknown",
             "hosts": [{"host": "db1", "reason": "skipped in check mode: …", "diff": ""}]},
            {"task": "config", "task_path": "site.yml:9", "action": "copy", "outcome": "change",
             "hosts": [{"host": "db1", "reason": "", "diff": "--- before\n+++ after\n+port=1\n"}]},
        ],
        "tasks_truncated": False,
        "approval": {"required": True, "state": "waiting", "who": "another operator"},
        "apply_refusal": "plan 3 needs an approval",
    }  # fmt: skip
    assert printed.shown(plan) == [
        "1 host changes, 1 task, 1 unknown",
        "hosts that would change: db1",
        "? probe (site.yml:3, command)",
        "    db1: unknown: skipped in check mode: …",
        "~ config (site.yml:9, copy)",
        "    db1:",
        "      --- before",
        "      +++ after",
        "      +port=1",
        "approval: waiting (another operator)",
        "cannot be applied: plan 3 needs an approval",
    ]
