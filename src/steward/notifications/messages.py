"""What a notification says: built from the database when the notifier first takes a message.

One JSON document per message (``content``): the generic webhook posts it as it is, and Slack,
Teams and email render its ``title``, ``text`` and fields. It names the template, who or what
launched the run, how long it took, the per-host recap, the first failed task with its host and
message, and links to the run in the console. Everything in it comes from rows that are already
masked (run events are masked by the recorder before they are stored) or hold no secret.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Row, case, func, select
from sqlalchemy.orm import Session

from steward.auth.models import User
from steward.freezes.models import FreezeOverride
from steward.notifications.models import Message, RunEventKind
from steward.plans import read
from steward.projects.models import Project
from steward.runs import planned, story
from steward.runs.models import Plan, Run, RunChange, RunHost, RunKind
from steward.runs.quiet import QuietHost
from steward.templates.models import Template
from steward.workflows import approvers
from steward.workflows.models import WorkflowNodeRun, WorkflowRun

HOSTS_MAX = 50  # hosts listed in a message (the failing ones first); the total is given
RECAP = ("ok", "changed", "failed", "unreachable", "skipped")
TEST_EVENT = "test"

VERBS: dict[RunEventKind, str] = {
    RunEventKind.STARTED: "started",
    RunEventKind.SUCCEEDED: "succeeded",
    RunEventKind.FAILED: "failed",
    RunEventKind.ERROR: "ended in error",
    RunEventKind.CANCELED: "was canceled",
    RunEventKind.TIMED_OUT: "timed out",
    RunEventKind.FIXED: "is fixed: it succeeded after a failed run",
    RunEventKind.CHANGED: "succeeded and changed something",
    RunEventKind.LONG_RUNNING: "is still running",
    RunEventKind.HOST_QUIET: "has a quiet host",
    RunEventKind.APPROVAL_NEEDED: "needs an approval",
    RunEventKind.DRIFT_DETECTED: "found drift",
    RunEventKind.FREEZE_OVERRIDE: "was launched during a freeze",
}
# the events that tell how a run ended: they carry the recap and the first failure
FINISHED = frozenset(VERBS) - {
    RunEventKind.STARTED,
    RunEventKind.LONG_RUNNING,
    RunEventKind.HOST_QUIET,
    RunEventKind.APPROVAL_NEEDED,
    RunEventKind.DRIFT_DETECTED,
    RunEventKind.FREEZE_OVERRIDE,
}
# a plan's messages (``for_plan``): drift, and a plan waiting for approval (a workflow's
# approval_needed has its workflow run)
PLAN_EVENTS = frozenset({RunEventKind.DRIFT_DETECTED, RunEventKind.APPROVAL_NEEDED})
DRIFT_SHOWN = 10  # hosts and tasks a drift message names; the totals are given


def run_url(base_url: str, project_id: int, run_id: int) -> str:
    """The run's page in the console (``frontend/src/app/router.tsx``)."""
    return f"{base_url.rstrip('/')}/projects/{project_id}/runs/{run_id}"


def workflow_run_url(base_url: str, project_id: int, workflow_run_id: int) -> str:
    """The workflow run's page in the console (``frontend/src/app/router.tsx``)."""
    return f"{base_url.rstrip('/')}/projects/{project_id}/workflow-runs/{workflow_run_id}"


def duration_text(seconds: float) -> str:
    """``3.2s``, ``1m 3s``, ``2h 0m 5s``."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h {minutes}m {secs}s" if hours else f"{minutes}m {secs}s"


def launcher(username: str | None, run: Run) -> str:
    """As the audit trail names it: ``alice``, ``alice (via schedule 3)``."""
    who = username or "a deleted user"
    if run.schedule_id is not None:
        return f"{who} (via schedule {run.schedule_id})"
    if run.webhook_id is not None:
        return f"{who} (via webhook {run.webhook_id})"
    return who


def _message(
    event: str, title: str, url: str, project: tuple[int, str], **fields: Any
) -> dict[str, Any]:
    """A message's content: what every message has (what a webhook receiver reads: the event,
    its title and link, the project; no run, hosts or failure unless ``fields`` give them),
    then ``fields``."""
    return {
        "event": event,
        "title": title,
        "url": url,
        "project": {"id": project[0], "name": project[1]},
        "run": None,
        "hosts": [],
        "hosts_total": 0,
        "first_failure": None,
        **fields,
    }


def _run(run: Run, template: str, launched_by: str, **fields: Any) -> dict[str, Any]:
    """A message's run: what every message about a run says of it, then ``fields``."""
    return {
        "id": run.id,
        "status": run.status,
        "kind": run.kind,
        "template": {"id": run.template_id, "name": template},
        "launched_by": launched_by,
        "launch_type": run.launch_type,
        "schedule_id": run.schedule_id,
        "webhook_id": run.webhook_id,
        **fields,
    }


def for_test(
    project: Project, destination_name: str, requested_by: str, base_url: str
) -> dict[str, Any]:
    title = f"[{project.name}] Test notification from Steward"
    url = f"{base_url.rstrip('/')}/projects/{project.id}"
    text = (
        f"{title}\nThis is a test of destination '{destination_name}', "
        f"sent at the request of {requested_by}.\n{url}"
    )
    return _message(TEST_EVENT, title, url, (project.id, project.name), text=text)


def for_run(
    session: Session,
    message: Message,
    base_url: str,
    now: dt.datetime,
    *,
    quiet: QuietHost | None = None,
) -> dict[str, Any]:
    """The content of a run event's message, from the run as it is now; a ``host_quiet``
    message's names the host (``message.host``), the task it is on and how long it has been
    quiet (``quiet``, what the notifier found when it queued the message)."""
    run, project_name, template_name, username = _run_named(session, message)
    event = RunEventKind(message.event)
    template = template_name or str(run.template_snapshot.get("name") or "a deleted template")
    url = run_url(base_url, run.project_id, run.id)
    finished = event in FINISHED
    duration = _duration(run, now, finished)
    verb = VERBS[event]
    if event is RunEventKind.LONG_RUNNING and duration is not None:
        verb = f"is still running after {duration_text(duration)}"
    quiet_host = _quiet_host(quiet, now) if event is RunEventKind.HOST_QUIET else None
    if quiet_host is not None:
        verb = (
            f"has a quiet host: {quiet_host['host']}, nothing from it for"
            f" {duration_text(quiet_host['quiet_seconds'])} on task '{quiet_host['task']}'"
        )
    overridden = (
        _freeze_override(session, run.id) if event is RunEventKind.FREEZE_OVERRIDE else None
    )
    if overridden is not None:
        verb = (
            f"was launched during freeze '{overridden['window']}' (until"
            f" {overridden['until']}): {overridden['reason']}"
        )
    title = f"[{project_name}] {template} #{run.id} {verb}"
    hosts, total = _hosts(session, run.id) if finished else ([], 0)
    failure = _first_failure(session, run.id) if finished else None
    counts = story.host_counts(session, [run.id]).get(run.id) if finished else None
    launched_by = launcher(username, run)
    content = _message(
        event.value,
        title,
        url,
        (run.project_id, project_name),
        run=_run(
            run,
            template,
            launched_by,
            status_reason=run.status_reason,
            created_at=run.created_at.isoformat(),
            started_at=run.started_at.isoformat() if run.started_at else None,
            finished_at=run.finished_at.isoformat() if run.finished_at else None,
            duration_seconds=round(duration, 3) if duration is not None else None,
        ),
        hosts=hosts,
        hosts_total=total,
        host_counts=counts.model_dump() if counts is not None else None,
        first_failure=failure,
    )
    if quiet_host is not None:
        content["quiet_host"] = quiet_host
    if overridden is not None:
        content["freeze_override"] = overridden
    if finished and run.kind == RunKind.APPLY:  # what the apply changed that its plan did not say
        shown, unplanned_total = planned.unplanned(session, run.id, limit=UNPLANNED_SHOWN)
        content["plan_id"] = run.plan_id
        content["unplanned"] = [u.model_dump() for u in shown]
        content["unplanned_total"] = unplanned_total
    content["text"] = _text(content, finished)
    return content


UNPLANNED_SHOWN = 10


def for_approval(session: Session, message: Message, base_url: str) -> dict[str, Any]:
    """The content of an ``approval_needed`` message: the workflow, the waiting node, who
    launched the workflow run, its deadline, and the link to the workflow run's page."""
    wrun, project_name, username = session.execute(
        select(WorkflowRun, Project.name, User.username)
        .join(Project, Project.id == WorkflowRun.project_id)
        .outerjoin(User, User.id == WorkflowRun.launched_by_id)
        .where(WorkflowRun.id == message.workflow_run_id)
    ).one()
    node = session.scalars(
        select(WorkflowNodeRun).where(
            WorkflowNodeRun.workflow_run_id == wrun.id, WorkflowNodeRun.key == message.node_key
        )
    ).one()
    url = workflow_run_url(base_url, wrun.project_id, wrun.id)
    who = username or "a deleted user"
    title = f"[{project_name}] {wrun.workflow_name} #{wrun.id}: approval '{node.key}' is waiting"
    deadline = node.deadline_at.isoformat() if node.deadline_at else None
    lines = [
        title,
        f"Asks: {node.name}",
        f"Launched by: {who}",
        f"May approve: {approvers.who(wrun, node, username or '')}",
        f"Decide before: {deadline}" if deadline else "Waits until decided",
        url,
    ]
    return _message(
        RunEventKind.APPROVAL_NEEDED.value,
        title,
        url,
        (wrun.project_id, project_name),
        text="\n".join(lines),
        workflow_run={
            "id": wrun.id,
            "workflow_id": wrun.workflow_id,
            "workflow_name": wrun.workflow_name,
            "launched_by": who,
            "created_at": wrun.created_at.isoformat(),
        },
        node={
            "key": node.key,
            "name": node.name,
            "deadline_at": deadline,
            "approver_must_differ": node.approver_must_differ,
        },
    )


def drift_url(base_url: str, project_id: int) -> str:
    """The project's drift view in the console (``frontend/src/app/router.tsx``)."""
    return f"{base_url.rstrip('/')}/projects/{project_id}/drift"


def _run_named(session: Session, message: Message) -> Row[Run, str, str, str]:
    """The message's run with the names of its project, template and launcher."""
    return session.execute(
        select(Run, Project.name, Template.name, User.username)
        .join(Project, Project.id == Run.project_id)
        .outerjoin(Template, Template.id == Run.template_id)
        .outerjoin(User, User.id == Run.launched_by_id)
        .where(Run.id == message.run_id)
    ).one()


def for_plan(session: Session, message: Message, base_url: str) -> dict[str, Any]:
    """The content of a plan's ``approval_needed`` (it waits for someone to approve it) or
    ``drift_detected`` message (a scheduled plan found drift): the template, the plan's summary
    line, the hosts and tasks it would change, and the links to the plan (and the drift view)."""
    run, project_name, template_name, username = _run_named(session, message)
    event = RunEventKind(message.event)
    template = template_name or str(run.template_snapshot.get("name") or "a deleted template")
    url = run_url(base_url, run.project_id, run.id)
    changes = session.execute(
        select(RunChange.host, RunChange.task)
        .where(RunChange.run_id == run.id, RunChange.outcome == "change")
        .order_by(RunChange.counter)
    ).all()
    hosts = sorted({host for host, _task in changes})
    tasks = list(dict.fromkeys(task for _host, task in changes))
    unknown = session.scalar(
        select(func.count(func.distinct(RunChange.task_path))).where(
            RunChange.run_id == run.id, RunChange.outcome == "unknown"
        )
    )
    summary = read.summary(len(hosts), len(tasks), unknown or 0)
    drift = event is RunEventKind.DRIFT_DETECTED
    verb = "found drift" if drift else "waits for an approval"
    title = f"[{project_name}] {template}: plan #{run.id} {verb}"
    lines = [title, f"Plan: {summary}", f"Launched by: {launcher(username, run)}"]
    lines.append("Hosts: " + ", ".join(hosts[:DRIFT_SHOWN]) + _more(len(hosts)))
    lines.append("Tasks: " + ", ".join(f"'{t}'" for t in tasks[:DRIFT_SHOWN]) + _more(len(tasks)))
    if drift:
        lines.append(f"Apply to fix: {url}")
        lines.append(drift_url(base_url, run.project_id))
    else:
        plan = session.get(Plan, run.id)
        if plan is not None:
            lines.append(f"Expires: {plan.expires_at.isoformat(timespec='seconds')}")
        lines.append(url)
    return _message(
        event.value,
        title,
        url,
        (run.project_id, project_name),
        text="\n".join(lines),
        run=_run(run, template, launcher(username, run)),
        summary=summary,
        hosts=[{"host": h} for h in hosts[:HOSTS_MAX]],
        hosts_total=len(hosts),
        tasks=tasks[:HOSTS_MAX],
    )


def _more(total: int) -> str:
    return f" … and {total - DRIFT_SHOWN} more" if total > DRIFT_SHOWN else ""


def _freeze_override(session: Session, run_id: int) -> dict[str, Any] | None:
    """The freeze a run was launched during, and the reason its launcher gave."""
    found = session.scalar(select(FreezeOverride).where(FreezeOverride.run_id == run_id))
    if found is None:
        return None
    return {
        "window": found.window_name,
        "until": found.window_ends_at.isoformat(),
        "reason": found.reason,
    }


def _quiet_host(quiet: QuietHost | None, now: dt.datetime) -> dict[str, Any] | None:
    if quiet is None:
        return None
    return {
        "host": quiet.host,
        "task": quiet.task,
        "quiet_since": quiet.heard_at.isoformat(),
        "quiet_seconds": round(max((now - quiet.heard_at).total_seconds(), 0.0), 3),
    }


def _duration(run: Run, now: dt.datetime, finished: bool) -> float | None:
    if run.started_at is None:
        return None
    end = run.finished_at if finished and run.finished_at else now
    return max((end - run.started_at).total_seconds(), 0.0)


def _hosts(session: Session, run_id: int) -> tuple[list[dict[str, Any]], int]:
    """The recap, hosts with failures first, at most ``HOSTS_MAX``; and how many hosts."""
    total = session.scalar(select(func.count()).where(RunHost.run_id == run_id)) or 0
    broken = case((RunHost.failed + RunHost.unreachable > 0, 0), else_=1)
    rows = session.scalars(
        select(RunHost)
        .where(RunHost.run_id == run_id)
        .order_by(broken, RunHost.host)
        .limit(HOSTS_MAX)
    )
    return [{"host": h.host, **{k: getattr(h, k) for k in RECAP}} for h in rows], total


def _first_failure(session: Session, run_id: int) -> dict[str, str] | None:
    """The run domain's first failure (``runs.story``), as a message tells it."""
    failure = story.first_failure(session, run_id)
    if failure is None:
        return None
    return {"task": failure.task, "host": failure.host, "message": failure.message}


def _text(content: dict[str, Any], finished: bool) -> str:
    run = content["run"]
    lines = [content["title"]]
    if finished:
        reason = f" ({run['status_reason']})" if run["status_reason"] else ""
        lines.append(f"Status: {run['status']}{reason}")
    lines.append(f"Launched by: {run['launched_by']} ({run['launch_type']})")
    if run["duration_seconds"] is not None and content["event"] != RunEventKind.STARTED:
        label = "Duration" if finished else "Running for"
        lines.append(f"{label}: {duration_text(run['duration_seconds'])}")
    quiet = content.get("quiet_host")
    if quiet:
        lines.append(
            f"Quiet host: {quiet['host']}, on task '{quiet['task']}', no result or loop item"
            f" for {duration_text(quiet['quiet_seconds'])} (since {quiet['quiet_since']})"
        )
    counts = content.get("host_counts")
    if counts:
        lines.append(
            f"Hosts: {counts['hosts']} ({counts['ok']} ok, {counts['changed']} changed,"
            f" {counts['failed']} failed, {counts['unreachable']} unreachable)"
        )
    if content["hosts"]:
        lines.append(f"Hosts ({content['hosts_total']}):")
        lines += [
            f"  {h['host']}: " + " ".join(f"{k}={h[k]}" for k in RECAP) for h in content["hosts"]
        ]
        if content["hosts_total"] > len(content["hosts"]):
            lines.append(f"  … and {content['hosts_total'] - len(content['hosts'])} more")
    if content.get("unplanned_total"):
        lines.append(
            f"Unplanned changes ({content['unplanned_total']}, not predicted by plan"
            f" #{content['plan_id']}):"
        )
        lines += [
            f"  task '{u['task']}' ({u['task_path']}) on {u['host']}" for u in content["unplanned"]
        ]
        if content["unplanned_total"] > len(content["unplanned"]):
            lines.append(f"  … and {content['unplanned_total'] - len(content['unplanned'])} more")
    failure = content["first_failure"]
    if failure:
        lines.append(
            f"First failure: task '{failure['task']}' on {failure['host']}: {failure['message']}"
        )
    lines.append(content["url"])
    return "\n".join(lines)
