from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, exists, select
from sqlalchemy.orm import Session, joinedload

from steward.access.actor import Actor
from steward.access.policy import Action, ProjectAccess, require_run_label, visible_runs
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.crypto import KeyCipher
from steward.db import utcnow
from steward.errors import InvalidInput, InvalidState, NotFound
from steward.freezes import service as freezes
from steward.freezes.models import FreezeWindow
from steward.keys.models import Key
from steward.projects.models import Project
from steward.queue import RunQueue
from steward.runner_groups import service as runner_groups
from steward.runs import adhoc, handoff, lifecycle, read, values
from steward.runs import relaunch as relaunch_values
from steward.runs.models import LaunchType, Run, RunHost, RunKind
from steward.runs.params import RunParams
from steward.runs.read import READ_COLUMNS
from steward.runs.schemas import AdhocCreate, RunFilters, RunLabelUpdate
from steward.runs.status import Reason, RunStatus
from steward.templates.launch import LaunchOverrides, resolve_launch
from steward.templates.models import Template


def launchable(session: Session, rights: ProjectAccess, template_id: int) -> Template:
    """The template ``rights`` allow to launch: the one check of run:launch (404 when its
    holder cannot see the template, 403 naming the permission when they may not launch it)."""
    rights.require_on_template(template_id, Action.RUN_LAUNCH)
    project = rights.project
    # its vault keys joined: one query, not a second one for the collection (selectin)
    template = session.get(Template, template_id, options=[joinedload(Template.vault_keys)])
    return _in_project(template, template_id, project)


def _in_project(template: Template | None, template_id: int, project: Project) -> Template:
    if template is None or template.project_id != project.id:
        raise NotFound(f"template {template_id} not found in project '{project.name}'")
    return template


# the names of a template's ssh and become keys, for its launch's snapshot: scalar subqueries
# (two more joins took PostgreSQL's planner longer than the subqueries take to run)
_SSH_KEY = select(Key.name).where(Key.id == Template.ssh_key_id).scalar_subquery()
_BECOME_KEY = select(Key.name).where(Key.id == Template.become_key_id).scalar_subquery()


@dataclasses.dataclass(frozen=True)
class _Launchable:
    """``launchable``'s template, the freeze windows its launch is checked against and the
    names of its ssh and become keys (for its snapshot)."""

    template: Template
    windows: list[FreezeWindow]
    ssh_key: str | None
    become_key: str | None


def _launchable_in_freezes(
    session: Session, rights: ProjectAccess, template_id: int
) -> _Launchable:
    """``launchable``'s template, and the freeze windows its launch is checked against (the
    instance's and the project's: ``freezes.service.applicable``), in one statement: its
    vault keys and the windows joined (a row per window, each with the vault keys), its
    other keys' names beside."""
    rights.require_on_template(template_id, Action.RUN_LAUNCH)
    project = rights.project
    rows = session.execute(
        select(Template, FreezeWindow, _SSH_KEY, _BECOME_KEY)
        .outerjoin(FreezeWindow, freezes.applying([project.id]))
        .where(Template.id == template_id)
        .order_by(FreezeWindow.id)
        .options(joinedload(Template.vault_keys))
    ).unique()
    found = rows.all()
    template = _in_project(found[0][0] if found else None, template_id, project)
    windows = [row[1] for row in found if row[1] is not None]
    return _Launchable(template, windows, found[0][2], found[0][3])


def _snapshot(found: _Launchable) -> dict[str, Any]:
    """The template as it was at launch, with the names of what it referenced."""
    template = found.template
    return {
        "id": template.id,
        "name": template.name,
        "playbook": template.playbook,
        "repository_id": template.repository_id,
        "inventory_id": template.inventory_id,
        "environment_id": template.environment_id,
        "ssh_key": found.ssh_key,
        "become_key": found.become_key,
        "vault_keys": [k.name for k in template.vault_keys],
        "updated_at": template.updated_at.isoformat(),
        "preflight": template.preflight,
    }


@dataclasses.dataclass(frozen=True)
class Trigger:
    """How a run was launched: by a person (api, ui, cli), a schedule, a webhook or a
    workflow run. Its fields are the run's columns of the same names."""

    launch_type: LaunchType
    schedule_id: int | None = None
    webhook_id: int | None = None
    relaunch_of_id: int | None = None
    workflow_run_id: int | None = None


@dataclasses.dataclass(frozen=True)
class Launch:
    """One launch: who asks (``actor``, with their ``rights`` in the template's project), which
    template, with which values (``granted``: see ``resolve_launch``), triggered how; or, with
    no template (``template_id`` None), an ad-hoc command (``adhoc``)."""

    rights: ProjectAccess
    actor: Actor
    template_id: int | None
    overrides: LaunchOverrides
    trigger: Trigger
    granted: frozenset[str] = frozenset()
    kind: RunKind = RunKind.RUN  # a plan runs in check + diff mode; an apply in neither
    plan_id: int | None = None  # an apply: its plan
    adhoc: adhoc.AdhocLaunch | None = None  # an ad-hoc command (kind adhoc, no template)
    freeze_override_reason: str | None = None  # launching during a freeze (freeze:override)


def kind_refusal(template: Template, kind: RunKind) -> str:
    """Why ``template`` may not be launched as a run of ``kind`` ('' when it may): the one rule
    of which templates plan (asked by the gate, and by a schedule of plans when it is saved)."""
    if kind is RunKind.PLAN and not template.plans_allowed:
        return (
            f"template '{template.name}' does not allow plans: its editor may allow them"
            " (plans_allowed)"
        )
    return ""


def _for_kind(template: Template, kind: RunKind, params: RunParams) -> RunParams:
    """The launch values of a run of ``kind``: a plan (which the template must allow) in check
    and diff mode whatever the template says, an apply in neither."""
    if kind is RunKind.RUN:
        return params
    refused = kind_refusal(template, kind)
    if refused:
        raise InvalidState(refused)
    planned = kind is RunKind.PLAN
    return params.model_copy(update={"check_mode": planned, "diff_mode": planned})


def scoped(rights: ProjectAccess, template: Template, params: RunParams) -> RunParams:
    """The launch values with the launcher's host scope (``ProjectAccess.host_scope``): the run
    keeps it beside its limit and targets their intersection (``RunParams.effective_limit``),
    which must be one host pattern (422 on ``limit`` otherwise). A plan's apply hashes its
    values scoped so (``plans.service.apply``): a scope other than the plan's is a change."""
    scope = rights.host_scope(template.id)
    if scope is None:
        return params
    limited = params.model_copy(update={"host_scope": list(scope)})
    try:
        limited.effective_limit  # noqa: B018 - computed to refuse what cannot be said now
    except ValueError as exc:
        raise InvalidInput("limit", str(exc)) from exc
    return limited


def _freeze(
    session: Session,
    request: Launch,
    *,
    labels: Collection[str],
    windows: Sequence[FreezeWindow] | None = None,
) -> freezes.Override | None:
    """The freeze a launch meets now, for ``labels``: the template's own (never anything the
    request says), none for an ad-hoc command; ``windows``: the project's, read with the
    template (None: read now)."""
    reason = request.freeze_override_reason
    return freezes.check_launch(
        session, request.rights, reason, utcnow(), labels=labels, windows=windows
    )


def launch(session: Session, request: Launch, *, cipher: KeyCipher, queue: RunQueue) -> Run:
    """The launch gate: every run starts here (API, console, CLI, relaunch, schedule,
    webhook, workflow node). The asker's rights must allow run:launch on the template (404
    when they cannot see it, 403 naming the permission otherwise); no freeze window may hold
    now for the template's labels (none for an ad-hoc command) unless the asker overrides it
    (``freezes.service.check_launch``); the overrides are checked by ``resolve_launch``.

    The run is added in the caller's transaction, which the caller commits: the run is handed
    to ``queue`` once it does (``runs.handoff``), never if it rolls back."""
    actor, trigger, project = request.actor, request.trigger, request.rights.project
    if request.adhoc is not None:  # adhoc:run, the module allow-list, the keys (``runs.adhoc``)
        template, secrets = None, {}
        override = _freeze(session, request, labels=())
        params, snapshot = adhoc.resolve(session, request.rights, request.adhoc)
    else:
        found = _launchable_in_freezes(session, request.rights, request.template_id or 0)
        template = found.template
        override = _freeze(session, request, labels=template.labels, windows=found.windows)
        resolved = resolve_launch(session, template, request.overrides, granted=request.granted)
        kind_params = _for_kind(template, request.kind, resolved.params)
        params, secrets = scoped(request.rights, template, kind_params), resolved.secrets
        snapshot = _snapshot(found)
    run = Run(
        project_id=project.id,
        template_id=template.id if template else None,
        status=RunStatus.QUEUED,
        launched_by_id=actor.user.id,
        **dataclasses.asdict(trigger),
        runner_group=runner_groups.group_of(session, project, template),
        source_ip=actor.source_ip,
        user_agent=actor.user_agent,
        kind=RunKind.ADHOC if request.adhoc else request.kind,
        plan_id=request.plan_id,
        params=params.model_dump(mode="json"),
        template_snapshot=snapshot,
        secret_params=cipher.encrypt({"extra_vars": secrets}) if secrets else None,
    )
    session.add(run)
    session.flush()
    session.add_all(values.rows(run, params))
    relaunched = trigger.relaunch_of_id is not None
    action = AuditAction.RUN_RELAUNCH if relaunched else AuditAction.RUN_LAUNCH
    _audit(session, actor, action, run, run.name, launched=True, cipher=cipher)
    if override is not None:
        freezes.record_override(session, actor, run, override)
    handoff.submit_after_commit(session, queue, run.id)
    return run


def launch_now(session: Session, request: Launch, *, cipher: KeyCipher, queue: RunQueue) -> Run:
    """A launch in a transaction of its own (a person's: API, console, CLI, relaunch)."""
    run = launch(session, request, cipher=cipher, queue=queue)
    session.commit()
    return run


def _audit(
    session: Session,
    actor: Actor,
    action: AuditAction,
    run: Run,
    template_name: str,
    *,
    launched: bool = False,
    cipher: KeyCipher | None = None,
) -> None:
    """Who ran what, where and with which parameters; a launch records its launch settings
    and the answers and extra vars given (``vars.<name>``), never a secret answer, not even
    its name (``values.searchable``: what the runs list can find, the trail shows); an ad-hoc
    command its module and arguments (``adhoc.audited_args``: key-store secrets masked)."""
    params = RunParams.of(run.params, run.id)
    given = values.searchable(params) if launched else []
    command = ""
    if launched and params.adhoc is not None and cipher is not None:
        args = adhoc.audited_args(session, cipher, run.project_id, params.adhoc.args)
        given += [(values.LAUNCH, "module", params.adhoc.module), (values.LAUNCH, "args", args)]
        command = f" become={params.adhoc.become} args={args}"
    audit.record(
        session,
        actor,
        action,
        object_type="run",
        object_id=run.id,
        object_name=template_name,
        project_id=run.project_id,
        changes={
            (f"vars.{name}" if kind == values.ANSWER else name): [None, value]
            for kind, name, value in given
        },
        detail=(
            template_name
            + (f" ({params.playbook})" if params.playbook else "")
            + (f" {run.kind}" if run.kind != RunKind.RUN else "")
            + (f" of plan {run.plan_id}" if run.plan_id else "")
            + f" limit={params.limit or 'all'}"
            + (f" hosts={','.join(params.host_scope)}" if params.host_scope is not None else "")
            + f" via {run.launch_type}"
            + (f" of run {run.relaunch_of_id}" if run.relaunch_of_id else "")
            + "".join(f" {name}={value}" for kind, name, value in given if kind == values.ANSWER)
            + command
        ),
    )


def get(
    session: Session, project: Project, run_id: int, *, templates: Collection[int] | None = None
) -> Run:
    """``templates``: the ids whose runs the caller may see (None: all, see
    policy.templates_allowing); any other run is not found."""
    run = session.get(Run, run_id)
    hidden = templates is not None and run is not None and run.template_id not in templates
    if run is None or run.project_id != project.id or hidden:
        raise NotFound(f"run {run_id} not found in project '{project.name}'")
    return run


def cancel(session: Session, queue: RunQueue, project: Project, actor: Actor, run_id: int) -> Run:
    run = get(session, project, run_id)
    status = RunStatus(run.status)
    if status.is_finished:
        raise InvalidState(f"run {run_id} already ended ({status}); there is nothing to cancel")
    if status is RunStatus.QUEUED:  # else (or if a worker claimed it meanwhile) it is signalled
        lifecycle.transition(
            session, run.id, RunStatus.CANCELED, reason=Reason.CANCELED_QUEUED, current=status
        )
    run.cancel_requested_at = run.cancel_requested_at or utcnow()
    _audit(session, actor, AuditAction.RUN_CANCEL, run, str(run.template_snapshot.get("name", "")))
    session.commit()
    queue.cancel(run.id)
    return run


LABEL_FIELDS = ("label", "note")


def set_label(
    session: Session, rights: ProjectAccess, actor: Actor, run: Run, body: RunLabelUpdate
) -> Run:
    """Set the run's label and note (the fields sent; surrounding spaces dropped), for who
    may launch its template (``policy.require_run_label``); audited with the change. Commits."""
    require_run_label(rights, run)
    before = audit.snapshot(run, LABEL_FIELDS)
    for field, value in body.changes().items():
        setattr(run, field, value.strip())
    audit.commit_updated(session, actor, AuditAction.RUN_LABEL, run, before, LABEL_FIELDS)
    return run


def relaunch(
    session: Session,
    *,
    rights: ProjectAccess,
    actor: Actor,
    previous: Run,
    overrides: LaunchOverrides,
    failed_only: bool,
    cipher: KeyCipher,
    queue: RunQueue,
    adhoc_modules: Collection[str] = (),
    freeze_override_reason: str | None = None,
) -> Run:
    """Launch ``previous``'s template again with its launch values, ``overrides`` replacing
    them (``runs.relaunch``); through the launch gate like any launch. Commits.

    An ad-hoc run: its command again (``adhoc_modules``: the allow-list), only ``limit`` and
    ``forks`` replaceable, ``failed_only`` as for any run. ``freeze_override_reason``: launching
    during a freeze window, as for a launch."""
    if previous.kind == RunKind.ADHOC:
        body = _adhoc_again(session, previous, overrides, failed_only=failed_only)
        trigger = Trigger(LaunchType.RELAUNCH, relaunch_of_id=previous.id)
        command = adhoc.AdhocLaunch(
            RunParams.of(previous.params, previous.id).inventory_id, body, adhoc_modules
        )
        request = Launch(
            rights,
            actor,
            None,
            LaunchOverrides(),
            trigger,
            adhoc=command,
            freeze_override_reason=freeze_override_reason,
        )
        return launch_now(session, request, cipher=cipher, queue=queue)
    template = relaunched_template(session, rights, previous)
    values, granted = relaunch_values.overrides(
        session, cipher, previous, template, overrides, failed_only=failed_only
    )
    trigger = Trigger(LaunchType.RELAUNCH, relaunch_of_id=previous.id)
    request = Launch(
        rights,
        actor,
        template.id,
        values,
        trigger,
        granted,
        freeze_override_reason=freeze_override_reason,
    )
    return launch_now(session, request, cipher=cipher, queue=queue)


def _adhoc_again(
    session: Session, previous: Run, overrides: LaunchOverrides, *, failed_only: bool
) -> AdhocCreate:
    """The command of ad-hoc run ``previous`` with the limit (or its failed hosts) and forks
    given; any other override is a 422 naming it."""
    given = overrides.model_dump(exclude_none=True, exclude_defaults=True)
    for field in given:
        if field not in ("limit", "forks"):
            raise InvalidInput(field, "an ad-hoc command's relaunch takes only limit and forks")
    limit = given.get("limit")
    if failed_only:
        if limit is not None:
            raise InvalidInput("limit", "hosts=failed sets the limit to the failed hosts; not both")
        hosts = relaunch_values.failed_hosts(session, previous)
        if not hosts:
            raise InvalidState(f"run {previous.id} has no failed or unreachable hosts to relaunch")
        limit = ",".join(hosts)
    params = RunParams.of(previous.params, previous.id)
    return adhoc.relaunched(params, limit=limit, forks=given.get("forks"))


def relaunched_template(session: Session, rights: ProjectAccess, previous: Run) -> Template:
    """``previous``'s template, which ``rights`` must allow to launch (``launchable``)."""
    if previous.kind == RunKind.ADHOC:
        raise InvalidState(f"run {previous.id} is an ad-hoc command: it has no template")
    if previous.template_id is None:
        rights.require_on_template(None, Action.RUN_LAUNCH)
        raise InvalidState(f"run {previous.id}'s template was deleted; it cannot be relaunched")
    return launchable(session, rights, previous.template_id)


def _filtered[Q: Select[Any]](query: Q, filters: RunFilters) -> Q:
    conditions: list[ColumnElement[bool]] = []
    if filters.template_id is not None:
        conditions.append(Run.template_id == filters.template_id)
    if filters.status:
        conditions.append(Run.status.in_(filters.status))
    if filters.launched_by_id is not None:
        conditions.append(Run.launched_by_id == filters.launched_by_id)
    if filters.host:
        conditions.append(exists().where(RunHost.run_id == Run.id, RunHost.host == filters.host))
    if filters.since is not None:
        conditions.append(Run.created_at >= filters.since)
    if filters.until is not None:
        conditions.append(Run.created_at < filters.until)
    if filters.answer:
        conditions += values.matching(values.ANSWER, values.parse(filters.answer, values.ANSWER))
    if filters.launch:
        conditions += values.matching(values.LAUNCH, values.parse(filters.launch, values.LAUNCH))
    if filters.before_id is not None:
        conditions.append(Run.id < filters.before_id)
    return query.where(*conditions).order_by(Run.id.desc()).limit(filters.limit + 1)


def list_runs(
    session: Session, actor: Actor, filters: RunFilters, project: Project | None = None
) -> tuple[list[dict[str, Any]], int | None]:
    """Newest first, keyset-paged by id; each run as ``READ_COLUMNS`` by name, with
    ``template_name`` (an ad-hoc run's recorded name; "" for a deleted template), ``template``
    (the template's name, None once deleted), ``recorded_name`` and ``launched_by``, in one query.

    Only the runs the actor may see: every run of a project where a role allows it, and the
    runs of templates granted to the actor.
    """
    query = read.with_names(*READ_COLUMNS, launcher="launched_by").where(visible_runs(actor))
    if project is not None:
        query = query.where(Run.project_id == project.id)
    rows = session.execute(_filtered(query, filters)).mappings().all()
    page = []
    for row in rows[: filters.limit]:
        run = dict(row)
        recorded = run["recorded_name"] = run["recorded_name"] or ""
        adhoc = (recorded or f"run {run['id']}") if run["kind"] == RunKind.ADHOC else ""
        run["template_name"] = run["template"] or adhoc
        run["launched_by"] = run["launched_by"] or ""
        page.append(run)
    next_before = page[-1]["id"] if len(rows) > filters.limit else None
    return page, next_before


def names(session: Session, run: Run) -> tuple[str, str]:
    """The names of its template (as it ran, once the template is gone) and of its launcher
    (columns only: loading the objects would load their eager relationships too)."""
    template = (
        session.scalar(select(Template.name).where(Template.id == run.template_id))
        if run.template_id
        else None
    )
    user = (
        session.scalar(select(User.username).where(User.id == run.launched_by_id))
        if run.launched_by_id
        else None
    )
    return template or str(run.template_snapshot.get("name", "")), user or ""


def names_at_launch(run: Run, actor: Actor) -> tuple[str, str]:
    """``names`` of a run ``actor`` has just launched, without a query: its template's name as
    the launch recorded it (in the same transaction), and the launcher's."""
    return str(run.template_snapshot.get("name", "")), actor.user.username
