"""How ``steward plan`` prints a plan (``GET …/runs/{id}/plan``): the summary line, the hosts
that would change, then each task, unknowns first, with its hosts' diffs or reasons. The read
holds the first results only: a plan with more is read whole, page after page (``paged``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from steward.bounds import PLAN_HOSTS_PAGE_MAX, PLAN_TASKS_PAGE_MAX

Get = Callable[..., Any]  # ``Api.get``: a path and its query parameters


def paged(get: Get, base: str) -> Iterator[dict[str, Any]]:
    """Every task of the plan of run ``base`` (``/projects/P/runs/R``), unknowns first, each with
    all its results: ``…/plan/tasks`` and each task's ``…/plan/tasks/{key}/hosts``, followed
    page by page (``next_after``) to their ends."""
    for entry in _pages(get, f"{base}/plan/tasks", PLAN_TASKS_PAGE_MAX):
        hosts = _pages(get, f"{base}/plan/tasks/{entry['key']}/hosts", PLAN_HOSTS_PAGE_MAX)
        yield {**entry, "hosts": list(hosts)}


def _pages(get: Get, path: str, limit: int) -> Iterator[dict[str, Any]]:
    after: int | None = None
    while True:
        page = get(path, limit=limit, **({} if after is None else {"after": after}))
        yield from page["items"]
        after = page["next_after"]
        if after is None:
            return


def shown(plan: dict[str, Any], tasks: Iterable[dict[str, Any]] | None = None) -> list[str]:
    """The plan's lines; ``tasks``: all its tasks (``paged``) instead of the read's first
    results."""
    lines = [plan["summary"]]
    if plan["hosts_changing"]:
        lines.append("hosts that would change: " + ", ".join(plan["hosts_changing"]))
    for task in plan["tasks"] if tasks is None else tasks:
        mark = "?" if task["outcome"] == "unknown" else "~"
        lines.append(f"{mark} {task['task']} ({task['task_path']}, {task['action']})")
        for host in task["hosts"]:
            if task["outcome"] == "unknown":
                lines.append(f"    {host['host']}: unknown: {host['reason']}")
                continue
            lines.append(f"    {host['host']}:" + ("" if host["diff"] else " changes (no diff)"))
            lines += [f"      {line}" for line in host["diff"].splitlines()]
    if plan["tasks_truncated"] and tasks is None:
        lines.append("… more results: see the plan's page")
    if plan["approval"]["required"]:
        lines.append(f"approval: {plan['approval']['state']} ({plan['approval']['who']})")
    if plan["apply_refusal"]:
        lines.append(f"cannot be applied: {plan['apply_refusal']}")
    return lines
