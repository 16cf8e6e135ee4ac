"""An export document made into a new project, in one transaction (all or nothing).

Every object goes through its domain's create schema and service, exactly as its create
endpoint sends it: the document's name fields are turned into the ids of the objects made
before it in the same import (names resolve inside the document only: nothing of another
project, no id given in the document, is ever looked up). An error names the document path of
the field (``templates[2].inventory``) and undoes everything.

The services commit as they go; they run in a session joined to an outer transaction with
savepoints (``join_transaction_mode="create_savepoint"``), so their commits only release
savepoints and the import commits (or, on a dry run, rolls back) once at the end.

What comes back without what it needs:

- keys are placeholders: the right kind and plain fields, no secret (``Key.ciphertext`` is
  null, which the key store already reads as "no value"; ``PATCH /keys/{id}`` sets it);
- schedules are disabled (they would fire without their keys) and webhooks are disabled with a
  fresh hook id (their secret key has no value yet);
- workflows come back without their nodes' secret survey answers (never exported), each node
  that had some listed; a workflow whose template requires one of them is not made (nor are
  the schedules and webhooks of the workflow, made once the workflows are);
- Slack and Teams destinations are not made: their key must hold the incoming-webhook URL,
  which the destination's own check reads, and a placeholder holds none; nor are their
  subscriptions. Each is listed in ``needs_attention``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import access
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.audit.service import Named
from steward.auth.models import User
from steward.bounds import Description, Name
from steward.environments import service as environments
from steward.environments.schemas import EnvironmentCreate
from steward.errors import Conflict, InvalidInput, InvalidState, NotFound
from steward.inventories import service as inventories
from steward.inventories.schemas import InventoryCreate
from steward.keys import service as keys
from steward.keys.models import Key, KeyKind
from steward.keys.schemas import Username, VaultId
from steward.notifications import service as notifications
from steward.notifications.models import Destination, DestinationKind
from steward.notifications.schemas import DestinationCreate, SubscriptionCreate
from steward.outbound import network
from steward.portability.export import REFERENCES
from steward.portability.schemas import Attention, ExportDocument, ImportReport, ImportRequest
from steward.projects import scoped
from steward.projects import service as projects
from steward.projects.models import Project
from steward.projects.schemas import LocalRootsSet, ProjectCreate
from steward.repositories import service as repositories
from steward.repositories.checkout import Reach
from steward.repositories.schemas import RepositoryCreate
from steward.runner_groups.models import RunnerGroup
from steward.runtime import Runtime
from steward.schedules import service as schedules
from steward.schedules.schemas import ScheduleCreate
from steward.schemas import RequestModel
from steward.templates import service as templates
from steward.templates.models import Template
from steward.templates.schemas import TemplateCreate
from steward.webhooks import service as webhooks
from steward.webhooks.schemas import WebhookCreate
from steward.workflows import service as workflows
from steward.workflows.models import Workflow
from steward.workflows.schemas import WorkflowCreate


class _Placeholder(RequestModel):
    """A key as the document carries it: the create body of its kind without the secret
    fields (the same field types as ``keys.schemas``)."""

    name: Name
    description: Description = ""


class SshPlaceholder(_Placeholder):
    kind: Literal[KeyKind.SSH]
    username: Username = ""


class LoginPasswordPlaceholder(_Placeholder):
    kind: Literal[KeyKind.LOGIN_PASSWORD]
    username: Username = ""


class VaultPasswordPlaceholder(_Placeholder):
    kind: Literal[KeyKind.VAULT_PASSWORD]
    vault_id: VaultId = ""


class SecretPlaceholder(_Placeholder):
    kind: Literal[KeyKind.SECRET]


KeyPlaceholder = TypeAdapter(
    Annotated[
        SshPlaceholder | LoginPasswordPlaceholder | VaultPasswordPlaceholder | SecretPlaceholder,
        Field(discriminator="kind"),
    ]
)
DESTINATION: TypeAdapter[Any] = TypeAdapter(DestinationCreate)
# destinations whose own check reads the key's value (the incoming-webhook URL)
_NEEDS_KEY_VALUE = frozenset({DestinationKind.SLACK, DestinationKind.TEAMS})
_NOUNS = {
    "key": "key",
    "repository": "repository",
    "inventory": "inventory",
    "environment": "environment",
    "ssh_key": "key",
    "become_key": "key",
    "vault_keys": "key",
    "secret_key": "key",
    "template": "template",
    "workflow": "workflow",
    "schedule": "schedule",
    "destination": "notification destination",
}


@dataclasses.dataclass(frozen=True)
class Context:
    """What the create endpoints get from the server's settings."""

    roots: Sequence[Path]
    venvs: Sequence[str]
    guard: network.Guard  # where destinations, pmproxies and git servers may be
    min_interval: dt.timedelta

    @classmethod
    def of(cls, runtime: Runtime, venvs: Sequence[str]) -> Context:
        settings = runtime.settings
        return cls(
            roots=settings.repository_roots,
            venvs=venvs,
            guard=network.Guard.of(settings),
            min_interval=dt.timedelta(seconds=settings.schedule_min_interval_seconds),
        )


def _path(parts: Sequence[str | int]) -> str:
    """``("templates", 2, "inventory_id")`` -> ``templates[2].inventory``."""
    if not parts:
        return "document"
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{REFERENCES.get(part, part)}" if out else REFERENCES.get(part, part)
    return out


def _service_field(field: str) -> list[str | int]:
    """``secrets[0].key_id`` or ``survey.2.choices`` as path parts."""
    parts: list[str | int] = []
    for segment in field.replace("[", ".").replace("]", "").split("."):
        if segment:
            parts.append(int(segment) if segment.isdigit() else segment)
    return parts


@contextlib.contextmanager
def _at(*where: str | int, tagged: bool = False) -> Iterator[None]:
    """Errors of the schema or service of the object at ``where`` in the document, as a 422
    naming the field by its document path (name fields for id fields). ``tagged``: a union
    chosen by ``kind``, whose errors start with the kind (left out of the path)."""
    try:
        yield
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = [p for p in error.get("loc", ()) if isinstance(p, str | int)]
        if tagged and len(loc) > 1:
            loc = loc[1:]
        message = "unknown field" if error.get("type") == "extra_forbidden" else error["msg"]
        raise InvalidInput(_path([*where, *loc]), message) from None
    except InvalidInput as exc:
        raise InvalidInput(_path([*where, *_service_field(exc.field)]), exc.reason) from None
    except (Conflict, InvalidState, NotFound) as exc:
        # a name given twice in the document, a schedule refused, …: the document is wrong
        field, _, reason = exc.message.partition(": ")
        if reason and field.isidentifier():
            raise InvalidInput(_path([*where, field]), reason) from None
        raise InvalidInput(_path(where), exc.message) from None


class _Importer:
    def __init__(
        self,
        session: Session,
        runtime: Runtime,
        actor: Actor,
        context: Context,
        document: ExportDocument,
    ) -> None:
        self.session = session
        self.cipher = runtime.cipher
        self.actor = actor
        self.context = context
        self.reach = Reach(runtime.cipher, context.roots, context.guard, runtime.settings.data_dir)
        self.document = document
        self.ids: dict[str, dict[str, int]] = {noun: {} for noun in set(_NOUNS.values())}
        self.created: Counter[str] = Counter()
        self.attention: list[Attention] = []
        self.skipped_destinations: set[str] = set()  # Slack and Teams ones, by name
        self.skipped_schedules: set[str] = set()  # needing a secret answer never exported
        self.skipped_workflows: set[str] = set()  # the same

    # --- references -------------------------------------------------------------------------

    def _ref(self, item: Mapping[str, Any], field: str, where: tuple[str | int, ...]) -> int | None:
        """The id, in this import, of the object the name ``item[field]`` names (None: none)."""
        value = item.get(field)
        return None if value is None else self._one(value, field, (*where, field))

    def _one(self, value: Any, field: str, where: tuple[str | int, ...]) -> int:
        """The id of the object named ``value`` (one name of a list of names)."""
        noun = _NOUNS[field]
        if not isinstance(value, str):
            raise InvalidInput(
                _path(where), f"refers to a {noun} by its name (a string); ids are not accepted"
            )
        if value not in self.ids[noun]:
            raise InvalidInput(_path(where), f'no {noun} named "{value}" in the document')
        return self.ids[noun][value]

    def _body(
        self,
        item: Mapping[str, Any],
        where: tuple[str | int, ...],
        refs: Sequence[str],
        many: Sequence[str] = (),
    ) -> dict[str, Any]:
        """``item`` with its name fields ``refs`` (and lists of names ``many``) as id fields.
        An id field in the document itself is refused: names only."""
        if not isinstance(item, Mapping):
            raise InvalidInput(_path(where), "an object is expected")
        given_ids = sorted(set(item) & set(REFERENCES))
        if given_ids:
            raise InvalidInput(
                _path(where) + f".{given_ids[0]}",
                "ids are not accepted in a document; refer to objects by name",
            )
        body = {k: v for k, v in item.items() if k not in refs and k not in many}
        id_field = {name: field for field, name in REFERENCES.items()}
        for field in refs:
            if field in item:
                body[id_field[field]] = self._ref(item, field, where)
        for field in many:
            if field in item:
                values = item[field]
                if not isinstance(values, list):
                    raise InvalidInput(_path([*where, field]), "a list of names")
                body[id_field[field]] = [
                    self._one(v, field, (*where, field, i)) for i, v in enumerate(values)
                ]
        return body

    def _imported(self, noun: str, counted: str, obj: Named) -> None:
        """``obj`` is in the project now: later objects refer to it by name (``noun``), and the
        report counts it (``counted``)."""
        self.ids[noun][obj.name] = obj.id
        self.created[counted] += 1

    def _note(self, kind: str, name: str, reason: str) -> None:
        self.attention.append(Attention(kind=kind, name=name, reason=reason))

    # --- the objects, in the order they refer to each other ---------------------------------

    def run(self, name: str | None) -> Project:
        project = self._project(name)
        self._keys(project)
        self._repositories(project)
        self._inventories(project)
        self._environments(project)
        self._templates(project)
        self._schedules(project, of_workflows=False)
        self._webhooks(project, of_workflows=False)
        self._workflows(project)
        # those of a workflow once the workflows are made
        self._schedules(project, of_workflows=True)
        self._webhooks(project, of_workflows=True)
        self._destinations(project)
        self._subscriptions(project)
        return project

    def _runner_group(
        self, value: Any, where: tuple[str | int, ...], owner: str, kind: str
    ) -> int | None:
        if value is None:
            return None
        if not isinstance(value, str):
            raise InvalidInput(_path([*where, "runner_group"]), "a runner group's name (a string)")
        found = self.session.scalar(select(RunnerGroup.id).where(RunnerGroup.name == value))
        if found is None:
            self._note(
                kind,
                owner,
                f"runner group '{value}' does not exist on this server: its runs use the default",
            )
        return found

    def _project(self, name: str | None) -> Project:
        item = dict(self.document.project)
        where: tuple[str | int, ...] = ("project",)
        if name is not None:
            item["name"] = name
        group = item.pop("runner_group", None)
        local_roots = item.pop("local_roots", [])
        if "runner_group_id" in item:
            raise InvalidInput("project.runner_group_id", "ids are not accepted; use runner_group")
        with _at(*where):
            body = ProjectCreate.model_validate(item)
        body.runner_group_id = self._runner_group(group, where, body.name, "project")
        # a taken name is a 409, as on POST /projects
        project = projects.create(self.session, self.actor, body)
        if local_roots:  # the importer is an admin: assigned as PUT /local-roots does
            with _at(*where):
                roots = LocalRootsSet.model_validate({"local_roots": local_roots})
                projects.set_local_roots(
                    self.session, self.actor, project, roots, self.context.roots
                )
        return project

    def _keys(self, project: Project) -> None:
        for i, item in enumerate(self.document.keys):
            where = ("keys", i)
            with _at(*where, tagged=True):
                body = KeyPlaceholder.validate_python(item)
                scoped.check_name_free(self.session, Key, project, body.name, "key")
            key = Key(project_id=project.id, ciphertext=None, **body.model_dump())
            self.session.add(key)
            self.session.flush()
            changes = audit.diff({}, audit.snapshot(key, keys.AUDITED_FIELDS))
            audit.record_change(
                self.session,
                self.actor,
                AuditAction.KEY_CREATE,
                key,
                changes,
                detail="imported without its secret",
            )
            self._imported("key", "keys", key)
            self._note("key", key.name, "needs a value: imported without its secret")

    def _repositories(self, project: Project) -> None:
        def create(body: dict[str, Any]) -> Named:
            validated = RepositoryCreate.model_validate(body)
            return repositories.create(
                self.session, project, validated, actor=self.actor, reach=self.reach
            )

        self._each(self.document.repositories, "repositories", "repository", ["key"], create)

    def _inventories(self, project: Project) -> None:
        def create(body: dict[str, Any]) -> Named:
            validated = InventoryCreate.model_validate(body)
            return inventories.create(
                self.session, project, validated, actor=self.actor, reach=self.reach
            )

        self._each(self.document.inventories, "inventories", "inventory", ["repository"], create)

    def _each(
        self,
        items: Sequence[Any],
        plural: str,
        noun: str,
        refs: Sequence[str],
        create: Callable[[dict[str, Any]], Named],
    ) -> None:
        """Import each of ``items`` (the document's ``plural``) with ``create``, its names
        ``refs`` given as ids; an error names the item's place in the document."""
        for i, item in enumerate(items):
            where = (plural, i)
            body = self._body(item, where, refs)
            with _at(*where):
                created = create(body)
            self._imported(noun, plural, created)

    def _environments(self, project: Project) -> None:
        for i, item in enumerate(self.document.environments):
            where = ("environments", i)
            body = self._body(item, where, [])
            secrets = body.get("secrets", [])
            if isinstance(secrets, list):
                body["secrets"] = [
                    self._body(s, (*where, "secrets", j), ["key"]) for j, s in enumerate(secrets)
                ]
            with _at(*where):
                created = environments.create(
                    self.session, project, EnvironmentCreate.model_validate(body), actor=self.actor
                )
            self._imported("environment", "environments", created)

    def _templates(self, project: Project) -> None:
        refs = ["repository", "inventory", "environment", "ssh_key", "become_key"]
        for i, item in enumerate(self.document.templates):
            where = ("templates", i)
            body = self._body(item, where, refs, many=["vault_keys"])
            if isinstance(body.get("survey"), list):
                body["survey"] = [
                    self._question(q, (*where, "survey", j)) for j, q in enumerate(body["survey"])
                ]
            group = body.pop("runner_group", None)
            name = str(body.get("name", ""))
            with _at(*where):
                validated = TemplateCreate.model_validate(body)
                validated.runner_group_id = self._runner_group(group, where, name, "template")
                created = templates.create(
                    self.session,
                    project,
                    validated,
                    actor=self.actor,
                    reach=self.reach,
                    venvs=self.context.venvs,
                )
            self._imported("template", "templates", created)

    def _question(self, question: Any, where: tuple[str | int, ...]) -> Any:
        """A survey question whose option source names its key (``key``) by name."""
        source = question.get("source") if isinstance(question, Mapping) else None
        if not isinstance(source, Mapping):
            return question
        if source.get("key_id") is not None:
            raise InvalidInput(
                _path([*where, "source", "key_id"]),
                "ids are not accepted in a document; refer to objects by name",
            )
        if "key" not in source:
            return question
        named = {k: v for k, v in source.items() if k != "key"}
        named["key_id"] = self._one(source["key"], "key", (*where, "source", "key"))
        return {**question, "source": named}

    def _template(self, item: Mapping[str, Any], where: tuple[str | int, ...]) -> Template:
        template_id = self._ref(item, "template", where)
        if template_id is None:
            raise InvalidInput(_path([*where, "template"]), "the template's name is required")
        return self.session.get_one(Template, template_id)

    @staticmethod
    def _of_workflow(item: Any) -> bool:
        """A schedule or webhook of a workflow (``workflow`` names it): made after workflows."""
        return isinstance(item, Mapping) and item.get("workflow") is not None

    def _target(
        self, item: Mapping[str, Any], where: tuple[str | int, ...], kind: str
    ) -> Template | Workflow | None:
        """The template or workflow a schedule or webhook launches (one of them: a 422 naming
        ``workflow`` when both are given); None: its workflow was not imported (noted)."""
        if not isinstance(item, Mapping):
            raise InvalidInput(_path(where), "an object is expected")
        if not self._of_workflow(item):
            return self._template(item, where)
        if item.get("template") is not None:
            raise InvalidInput(
                _path([*where, "workflow"]), "one target: a template or a workflow, not both"
            )
        name = item.get("workflow")
        if isinstance(name, str) and name in self.skipped_workflows:
            self._note(
                kind,
                str(item.get("name", "")),
                f"not imported: its workflow '{name}' was not imported; create it again",
            )
            return None
        workflow_id = self._ref(item, "workflow", where)
        return self.session.get_one(Workflow, workflow_id)

    def _schedules(self, project: Project, *, of_workflows: bool) -> None:
        rights = access(self.session, self.actor, project)
        for i, item in enumerate(self.document.schedules):
            if self._of_workflow(item) != of_workflows:
                continue
            where = ("schedules", i)
            target = self._target(item, where, "schedule")
            if target is None:
                self.skipped_schedules.add(str(item.get("name", "")))
                continue
            body = self._body(item, where, ["template", "workflow"])
            omitted = body.pop("omitted_secret_answers", [])
            if not isinstance(omitted, list) or not all(isinstance(v, str) for v in omitted):
                raise InvalidInput(
                    _path([*where, "omitted_secret_answers"]), "a list of variable names"
                )
            body.pop("template_id", None)
            body.pop("workflow_id", None)
            launch = body.get("launch")
            if isinstance(launch, Mapping):
                body["launch"] = self._body(launch, (*where, "launch"), ["inventory"])
            was_enabled = body.get("enabled", True)
            body["enabled"] = False
            try:
                with _at(*where):
                    saver = schedules.Saver(
                        rights, self.actor, self.cipher, self.context.min_interval
                    )
                    created = schedules.create(
                        self.session, saver, target, ScheduleCreate.model_validate(body)
                    )
            except InvalidInput as exc:
                # a required password answer was left out of the export: the schedule cannot
                # be saved without it (its launch values are checked like a launch)
                needed = [v for v in omitted if exc.field == _path([*where, "launch", "survey", v])]
                if not needed:
                    raise
                self._forget_unsaved()
                name = str(body.get("name", ""))
                self.skipped_schedules.add(name)
                self._note(
                    "schedule",
                    name,
                    f"not imported: template '{target.name}' requires the secret survey answer"
                    f" {needed[0]}, which is never exported; create the schedule again",
                )
                continue
            self._imported("schedule", "schedules", created)
            reasons = []
            if was_enabled:
                reasons.append("imported disabled: enable it once the keys it needs have values")
            if omitted:
                answers = ", ".join(omitted)
                reasons.append(f"secret survey answers were not exported: {answers}")
            if reasons:
                self._note("schedule", created.name, "; ".join(reasons))

    def _forget_unsaved(self) -> None:
        """Drop what a refused create left pending in the session (nothing is flushed yet)."""
        for obj in list(self.session.new):
            self.session.expunge(obj)

    def _webhooks(self, project: Project, *, of_workflows: bool) -> None:
        for i, item in enumerate(self.document.webhooks):
            if self._of_workflow(item) != of_workflows:
                continue
            where = ("webhooks", i)
            target = self._target(item, where, "webhook")
            if target is None:
                continue
            body = self._body(item, where, ["template", "workflow", "secret_key"])
            body.pop("template_id", None)
            body.pop("workflow_id", None)
            body["enabled"] = False
            with _at(*where):
                created = webhooks.create(
                    self.session,
                    project,
                    target,
                    WebhookCreate.model_validate(body),
                    actor=self.actor,
                )
            self.created["webhooks"] += 1
            key = item.get("secret_key")
            self._note(
                "webhook",
                created.name,
                f"imported disabled with a new URL: give key '{key}' a value, tell the sender"
                " the new URL, then enable it",
            )

    def _workflows(self, project: Project) -> None:
        for i, item in enumerate(self.document.workflows):
            where = ("workflows", i)
            body = self._body(item, where, [])
            nodes = body.get("nodes", [])
            omitted: dict[str, list[str]] = {}  # node key -> its secret answers not exported
            if isinstance(nodes, list):
                body["nodes"] = [
                    self._workflow_node(n, (*where, "nodes", j), omitted)
                    for j, n in enumerate(nodes)
                ]
            name = str(body.get("name", ""))
            try:
                with _at(*where):
                    created = workflows.create(
                        self.session,
                        project,
                        WorkflowCreate.model_validate(body),
                        actor=self.actor,
                        cipher=self.cipher,
                    )
            except InvalidInput as exc:
                needed = [
                    (j, key, var)
                    for j, n in enumerate(body.get("nodes", []))
                    for key in [n.get("key") if isinstance(n, Mapping) else None]
                    for var in omitted.get(str(key), [])
                    if exc.field == _path([*where, "nodes", j, "launch", "survey", var])
                ]
                if not needed:
                    raise
                self._forget_unsaved()
                self.skipped_workflows.add(name)
                _j, key, var = needed[0]
                self._note(
                    "workflow",
                    name,
                    f"not imported: node '{key}' requires the secret survey answer {var}, which"
                    " is never exported; create the workflow again",
                )
                continue
            self._imported("workflow", "workflows", created)
            if omitted:
                listed = "; ".join(f"node '{k}': {', '.join(v)}" for k, v in omitted.items())
                self._note(
                    "workflow",
                    created.name,
                    f"secret survey answers were not exported ({listed}): give them in the"
                    " workflow's nodes",
                )

    def _workflow_node(
        self, node: Any, where: tuple[str | int, ...], omitted: dict[str, list[str]]
    ) -> dict[str, Any]:
        """A node of the document with its template (and launch inventory) as ids; its
        ``omitted_secret_answers`` noted by key."""
        body = self._body(node, where, ["template"])
        left_out = body.pop("omitted_secret_answers", [])
        if not isinstance(left_out, list) or not all(isinstance(v, str) for v in left_out):
            raise InvalidInput(
                _path([*where, "omitted_secret_answers"]), "a list of variable names"
            )
        launch = body.get("launch")
        if isinstance(launch, Mapping):
            body["launch"] = self._body(launch, (*where, "launch"), ["inventory"])
        if left_out:
            omitted[str(body.get("key", ""))] = left_out
        return body

    def _destinations(self, project: Project) -> None:
        for i, item in enumerate(self.document.notification_destinations):
            where = ("notification_destinations", i)
            body = self._body(item, where, ["secret_key"])
            with _at(*where, tagged=True):
                validated = DESTINATION.validate_python(body)
            if validated.kind in _NEEDS_KEY_VALUE:
                with _at(*where):
                    scoped.check_name_free(
                        self.session,
                        Destination,
                        project,
                        validated.name,
                        "destination",
                    )
                self._note(
                    "notification_destination",
                    validated.name,
                    f"not imported: a {validated.kind} destination's key must hold its"
                    f" incoming-webhook URL; give key '{item.get('secret_key')}' a value and"
                    " create the destination (and its subscriptions) again",
                )
                self.skipped_destinations.add(validated.name)
                continue
            with _at(*where):
                created = notifications.create_destination(
                    self.session,
                    self.cipher,
                    self.context.guard,
                    project,
                    validated,
                    actor=self.actor,
                )
            self._imported("notification destination", "notification_destinations", created)

    def _subscriptions(self, project: Project) -> None:
        rights = access(self.session, self.actor, project)
        for i, item in enumerate(self.document.notification_subscriptions):
            where = ("notification_subscriptions", i)
            destination, schedule = item.get("destination"), item.get("schedule")
            if (isinstance(destination, str) and destination in self.skipped_destinations) or (
                isinstance(schedule, str) and schedule in self.skipped_schedules
            ):
                self._note(
                    "notification_subscription",
                    str(item.get("destination")),
                    "not imported: its destination or schedule was not imported",
                )
                continue
            body = self._body(item, where, ["destination", "template", "schedule"])
            with _at(*where):
                notifications.create_subscription(
                    self.session, rights, SubscriptionCreate.model_validate(body), actor=self.actor
                )
            self.created["notification_subscriptions"] += 1


KINDS = (
    "keys",
    "repositories",
    "inventories",
    "environments",
    "templates",
    "schedules",
    "webhooks",
    "workflows",
    "notification_destinations",
    "notification_subscriptions",
)


def import_project(
    runtime: Runtime, actor: Actor, request: ImportRequest, context: Context
) -> ImportReport:
    """Make the project of ``request.document`` (named ``request.name`` if given), or on a dry
    run check all of it and make nothing. The importer becomes its owner."""
    with _at():
        document = ExportDocument.model_validate(request.document)
    with runtime.engine.connect() as connection:
        outer = connection.begin()
        if connection.dialect.name == "sqlite":
            # pysqlite begins a transaction only before a write: without this, the first
            # SAVEPOINT would start one that its RELEASE (a service's commit) commits for good.
            # IMMEDIATE: the write lock now, waited for (busy_timeout) like any writer; a
            # deferred one failed at once with "database is locked" when another connection
            # wrote between its first read and its first write
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        session = Session(
            bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
        )
        try:
            importer_actor = dataclasses.replace(actor, user=session.get_one(User, actor.user.id))
            importer = _Importer(session, runtime, importer_actor, context, document)
            project = importer.run(request.name)
            created = {kind: importer.created.get(kind, 0) for kind in KINDS}
            audit.record_change(
                session,
                importer_actor,
                AuditAction.PROJECT_IMPORT,
                project,
                {"created": [None, created]},
                project_id=project.id,
                detail="dry run" if request.dry_run else "",
            )
            session.commit()
            report = ImportReport(
                project_id=None if request.dry_run else project.id,
                project_name=project.name,
                dry_run=request.dry_run,
                created=created,
                needs_attention=importer.attention,
            )
        except BaseException:
            session.close()
            outer.rollback()
            raise
        session.close()
        if request.dry_run:
            outer.rollback()
        else:
            outer.commit()
        return report
