"""A project as an export document: every object by name, no secret value, no id.

Each object keeps the fields of its domain's create body (so that the import can hand it to the
same schema and service), its id fields replaced by name fields (``REFERENCES``). What is secret
is left out by construction: keys are exported without their payload (only ``name``,
``description``, ``kind`` and the plain fields of the kind), a schedule's password answers are
dropped (their variables listed), as are a workflow's nodes', webhooks keep no hook id; the
other objects hold no secret, only references to keys by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.db import utcnow
from steward.environments.models import Environment
from steward.environments.schemas import EnvironmentCreate
from steward.inventories.models import Inventory
from steward.inventories.schemas import InventoryCreate
from steward.keys.models import Key, KeyKind
from steward.keys.service import PLAIN_FIELDS
from steward.masking import MASK
from steward.notifications.models import Destination, Subscription
from steward.portability.schemas import EXPORT_VERSION, ExportDocument
from steward.projects.models import Project
from steward.projects.scoped import ProjectScoped
from steward.repositories.models import Repository
from steward.repositories.schemas import RepositoryCreate
from steward.runner_groups.models import RunnerGroup
from steward.schedules.models import Schedule
from steward.schedules.schemas import ScheduleCreate
from steward.templates.models import Template
from steward.templates.schemas import TemplateCreate
from steward.webhooks.models import Webhook
from steward.webhooks.schemas import WebhookCreate
from steward.workflows.models import NodeKind, Workflow, approver_must_differ

# id field of a create body -> name field of the document
REFERENCES: dict[str, str] = {
    "key_id": "key",
    "repository_id": "repository",
    "inventory_id": "inventory",
    "environment_id": "environment",
    "ssh_key_id": "ssh_key",
    "become_key_id": "become_key",
    "vault_key_ids": "vault_keys",
    "runner_group_id": "runner_group",
    "secret_key_id": "secret_key",
    "template_id": "template",
    "workflow_id": "workflow",
    "schedule_id": "schedule",
    "destination_id": "destination",
}
# create-body fields that are another spelling of a stored field, never exported
_INPUT_ONLY = frozenset({"extra_vars_yaml"})


class _Names:
    """id -> name of every object of the project (and of the server's runner groups)."""

    def __init__(self, session: Session, project: Project) -> None:
        self._by_model: dict[type[Any], dict[int, str]] = {}
        models = (
            Key,
            Repository,
            Inventory,
            Environment,
            Template,
            Workflow,
            Schedule,
            Destination,
        )
        for model in models:
            rows = session.execute(
                select(model.id, model.name).where(model.project_id == project.id)
            )
            self._by_model[model] = {object_id: name for object_id, name in rows}
        groups = session.execute(select(RunnerGroup.id, RunnerGroup.name))
        self._by_model[RunnerGroup] = {group_id: name for group_id, name in groups}

    def of(self, model: type[Any], object_id: int | None) -> str | None:
        return None if object_id is None else self._by_model[model].get(object_id)


def _fields(
    model: type[BaseModel],
    obj: object,
    names: _Names,
    refs: Mapping[str, type[Any]],
    skip: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The create-body fields of ``model`` read from ``obj``, id fields as names; ``skip``: the
    fields the caller writes itself."""
    out: dict[str, Any] = {}
    for field in model.model_fields:
        if field in _INPUT_ONLY or field in skip:
            continue
        if field in refs:
            target = refs[field]
            value = getattr(obj, field)
            if isinstance(value, list):
                out[REFERENCES[field]] = [names.of(target, v) for v in value]
            else:
                out[REFERENCES[field]] = names.of(target, value)
            continue
        out[field] = getattr(obj, field)
    return out


def _sorted[M: ProjectScoped](session: Session, model: type[M], project: Project) -> list[M]:
    return list(
        session.scalars(select(model).where(model.project_id == project.id).order_by(model.name))
    )


def _key(key: Key) -> dict[str, Any]:
    plain = sorted(PLAIN_FIELDS[KeyKind(key.kind)])
    return {"kind": str(key.kind), **{f: getattr(key, f) for f in plain}}


def _environment(env: Environment, names: _Names) -> dict[str, Any]:
    out = _fields(EnvironmentCreate, env, names, {}, skip=frozenset({"secrets"}))
    out["secrets"] = [
        {"name": s.name, "target": str(s.target), "key": names.of(Key, s.key_id)}
        for s in sorted(env.secrets, key=lambda s: (str(s.target), s.name))
    ]
    return out


def _template(template: Template, names: _Names) -> dict[str, Any]:
    refs = {
        "repository_id": Repository,
        "inventory_id": Inventory,
        "environment_id": Environment,
        "ssh_key_id": Key,
        "become_key_id": Key,
        "runner_group_id": RunnerGroup,
    }
    out = _fields(TemplateCreate, template, names, refs, skip=frozenset({"vault_key_ids"}))
    out["vault_keys"] = sorted(k.name for k in template.vault_keys)
    out["survey"] = [_question(question, names) for question in template.survey]
    return out


def _question(question: Mapping[str, Any], names: _Names) -> dict[str, Any]:
    """A survey question; the key of its option source (a URL's credential) by name."""
    source = question.get("source")
    if not isinstance(source, Mapping) or source.get("key_id") is None:
        return dict(question)
    named = {k: v for k, v in source.items() if k != "key_id"}
    named["key"] = names.of(Key, source["key_id"])
    return {**question, "source": named}


def _launch(stored: Mapping[str, Any], names: _Names) -> tuple[dict[str, Any], list[str]]:
    """A schedule's stored launch body without its password answers (stored as ``********``,
    their values sealed apart) and with its inventory by name."""
    launch = dict(stored)
    survey = dict(launch.get("survey", {}))
    omitted = sorted(var for var, value in survey.items() if value == MASK)
    launch["survey"] = {var: value for var, value in survey.items() if var not in omitted}
    if "inventory_id" in launch:
        launch["inventory"] = names.of(Inventory, launch.pop("inventory_id"))
    return launch, omitted


def _schedule(schedule: Schedule, names: _Names) -> dict[str, Any]:
    out = _fields(ScheduleCreate, schedule, names, {}, skip=frozenset({"launch"}))
    out["template"] = names.of(Template, schedule.template_id)
    out["workflow"] = names.of(Workflow, schedule.workflow_id)  # or a workflow target's
    out["start_at"] = schedule.start_at.isoformat() if schedule.start_at else None
    out["end_at"] = schedule.end_at.isoformat() if schedule.end_at else None
    out["launch"], out["omitted_secret_answers"] = _launch(schedule.launch or {}, names)
    return out


def _workflow(workflow: Workflow, names: _Names) -> dict[str, Any]:
    """Its document: template nodes name their template, their launch values without the
    password answers (listed in the node's ``omitted_secret_answers``)."""
    nodes = []
    for stored in workflow.nodes:
        node = {k: v for k, v in stored.items() if k not in ("template_id", "launch")}
        if stored["kind"] == NodeKind.APPROVAL:  # said, also for a document saved before it
            node["approver_must_differ"] = approver_must_differ(stored)
        if stored.get("template_id") is not None:
            node["template"] = names.of(Template, stored["template_id"])
            node["launch"], node["omitted_secret_answers"] = _launch(
                stored.get("launch") or {}, names
            )
        nodes.append(node)
    return {
        "name": workflow.name,
        "description": workflow.description,
        "nodes": nodes,
        "edges": [dict(e) for e in workflow.edges],
    }


def _webhook(webhook: Webhook, names: _Names) -> dict[str, Any]:
    out = _fields(WebhookCreate, webhook, names, {"secret_key_id": Key})
    out["template"] = names.of(Template, webhook.template_id)
    out["workflow"] = names.of(Workflow, webhook.workflow_id)  # or a workflow target's
    return out


def _destination(destination: Destination, names: _Names) -> dict[str, Any]:
    return {
        "name": destination.name,
        "description": destination.description,
        "kind": str(destination.kind),
        "config": dict(destination.config),
        "secret_key": names.of(Key, destination.secret_key_id),
        "enabled": destination.enabled,
    }


def _subscription(sub: Subscription, names: _Names) -> dict[str, Any]:
    return {
        "destination": names.of(Destination, sub.destination_id),
        "template": names.of(Template, sub.template_id),
        "schedule": names.of(Schedule, sub.schedule_id),
        "events": list(sub.events),
        "long_running_minutes": sub.long_running_minutes,
        "host_quiet_minutes": sub.host_quiet_minutes,
    }


def _subscription_order(item: Mapping[str, Any]) -> tuple[str, ...]:
    return (
        str(item["destination"]),
        str(item["template"] or ""),
        str(item["schedule"] or ""),
        ",".join(item["events"]),
    )


def _named(items: Iterable[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """``{"name": …, "description": …, …}``: the name first, as people read a file."""
    return [{"name": name, **fields} for name, fields in items]


def export_project(session: Session, project: Project) -> ExportDocument:
    names = _Names(session, project)
    keys = _sorted(session, Key, project)
    subscriptions = [
        _subscription(s, names)
        for s in session.scalars(select(Subscription).where(Subscription.project_id == project.id))
    ]
    return ExportDocument(
        steward_export=EXPORT_VERSION,
        exported_at=utcnow(),
        project={
            "name": project.name,
            "description": project.description,
            "max_parallel_runs": project.max_parallel_runs,
            "runner_group": names.of(RunnerGroup, project.runner_group_id),
            "local_roots": list(project.local_roots or []),
        },
        keys=_named((k.name, {"description": k.description, **_key(k)}) for k in keys),
        repositories=[
            _fields(RepositoryCreate, r, names, {"key_id": Key})
            for r in _sorted(session, Repository, project)
        ],
        inventories=[_inventory(i, names) for i in _sorted(session, Inventory, project)],
        environments=[_environment(e, names) for e in _sorted(session, Environment, project)],
        templates=[_template(t, names) for t in _sorted(session, Template, project)],
        schedules=[_schedule(s, names) for s in _sorted(session, Schedule, project)],
        webhooks=[_webhook(w, names) for w in _sorted(session, Webhook, project)],
        workflows=[_workflow(w, names) for w in _sorted(session, Workflow, project)],
        notification_destinations=[
            _destination(d, names) for d in _sorted(session, Destination, project)
        ],
        notification_subscriptions=sorted(subscriptions, key=_subscription_order),
    )


def _inventory(inventory: Inventory, names: _Names) -> dict[str, Any]:
    out = _fields(
        InventoryCreate, inventory, names, {"repository_id": Repository}, skip=frozenset({"path"})
    )
    out["path"] = inventory.path or None  # a static inventory has none ("" is not a path)
    return out
