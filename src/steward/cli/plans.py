"""How ``steward plan`` prints a plan (``GET …/runs/{id}/plan``): the summary line, the hosts
that would change, then each task, unknowns first, with its hosts' diffs or reasons."""

from __future__ import annotations

from typing import Any


def shown(plan: dict[str, Any]) -> list[str]:
    lines = [plan["summary"]]
    if plan["hosts_changing"]:
        lines.append("hosts that would change: " + ", ".join(plan["hosts_changing"]))
    for task in plan["tasks"]:
        mark = "?" if task["outcome"] == "unknown" else "~"
        lines.append(f"{mark} {task['task']} ({task['task_path']}, {task['action']})")
        for host in task["hosts"]:
            if task["outcome"] == "unknown":
                lines.append(f"    {host['host']}: unknown: {host['reason']}")
                continue
            lines.append(f"    {host['host']}:" + ("" if host["diff"] else " changes (no diff)"))
            lines += [f"      {line}" for line in host["diff"].splitlines()]
    if plan["tasks_truncated"]:
        lines.append("… more results: see the plan's page")
    if plan["approval"]["required"]:
        lines.append(f"approval: {plan['approval']['state']} ({plan['approval']['who']})")
    if plan["apply_refusal"]:
        lines.append(f"cannot be applied: {plan['apply_refusal']}")
    return lines
