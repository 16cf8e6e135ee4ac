"""Request dependencies: database session, acting user, project access (load + authorize)."""

from __future__ import annotations

import dataclasses
import pathlib
import secrets
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import Connection, event
from sqlalchemy.orm import Session, SessionTransaction

from steward.access.actor import Actor
from steward.access.policy import (
    Action,
    ProjectAccess,
    access,
    require_admin,
    require_directory,
)
from steward.api import conditional
from steward.auth import credentials
from steward.auth.models import TokenScope
from steward.crypto import KeyCipher
from steward.errors import NotAuthenticated, NotFound, PermissionDenied
from steward.outbound.network import Guard
from steward.projects.models import Project
from steward.projects.scoped import ProjectScoped, get_in_project
from steward.queue import RunQueue
from steward.repositories.checkout import Reach
from steward.runs import read
from steward.runs import service as runs
from steward.runs.models import Run
from steward.runs.schemas import RunRead
from steward.runtime import Runtime
from steward.schemas import PageParams
from steward.templates import service as templates
from steward.templates.models import Template
from steward.triggers import targets

SESSION_COOKIE = "steward_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# what both databases bind and compare (SQLite's integers, PostgreSQL's bigint): a number
# outside names no row, and SQLite cannot even bind it (an OverflowError, a 500)
DB_INTEGERS = range(-(2**63), 2**63)
_INT = TypeAdapter(int)


def runtime_of(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


# The dependencies that do no I/O are coroutines: FastAPI awaits them on the event loop, where
# a plain function would cost a hop to a worker thread and back on every request.
async def get_runtime(request: Request) -> Runtime:
    return runtime_of(request)


async def get_session(request: Request) -> AsyncIterator[Session]:
    """The request's session, made on the event loop (making one does no I/O: it connects at
    its first query, in whichever worker thread runs that). Closing it gives its connection
    back to the pool (a rollback): done in a worker thread when that may wait (``_waits``)."""
    session = runtime_of(request).sessions()
    try:
        yield session
    finally:
        if _waits(session):
            await run_in_threadpool(session.close)
        else:
            session.close()


_CONNECTED = "steward.api.deps.connected"  # Session.info: the Connection its transaction holds


@event.listens_for(Session, "after_begin")
def _connected(session: Session, _transaction: SessionTransaction, connection: Connection) -> None:
    session.info[_CONNECTED] = connection


@event.listens_for(Session, "after_transaction_end")
def _released(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:
        session.info.pop(_CONNECTED, None)


def _waits(session: Session) -> bool:
    """Whether closing ``session`` may wait on I/O: it holds a connection (a session that
    only merged the caller holds none), and the rollback that gives it back is a round trip
    (PostgreSQL) or undoes a write (SQLite). SQLite opens a transaction only before a write
    (pysqlite), so after reads alone its rollback is a call of microseconds in the process:
    less than the hop to a worker thread and back (~0.13 ms)."""
    connection: Connection | None = session.info.get(_CONNECTED)
    if connection is None or connection.closed:
        return False
    if connection.invalidated:  # a connection lost mid-request: a worker's job
        return True
    driver = connection.connection.driver_connection
    return not isinstance(driver, sqlite3.Connection) or driver.in_transaction


async def get_queue(request: Request) -> RunQueue:
    queue: RunQueue = request.app.state.queue
    return queue


async def get_cipher(request: Request) -> KeyCipher:
    return runtime_of(request).cipher


SessionDep = Annotated[Session, Depends(get_session)]
# a list's page (limit, offset) from its query string
PageQuery = Annotated[PageParams, Query()]
RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
QueueDep = Annotated[RunQueue, Depends(get_queue)]
CipherDep = Annotated[KeyCipher, Depends(get_cipher)]


async def get_repository_roots(runtime: RuntimeDep) -> tuple[pathlib.Path, ...]:
    """The instance's local repository roots (``Settings.repository_roots``): each project's own
    local directories, where its local repositories must be, are inside them
    (``repositories.local``)."""
    return runtime.settings.repository_roots


RootsDep = Annotated[tuple[pathlib.Path, ...], Depends(get_repository_roots)]


async def get_outbound_guard(runtime: RuntimeDep) -> Guard:
    """Where the server may connect (``outbound.network``), from the settings."""
    return Guard.of(runtime.settings)


OutboundDep = Annotated[Guard, Depends(get_outbound_guard)]


async def get_reach(
    cipher: CipherDep, roots: RootsDep, guard: OutboundDep, runtime: RuntimeDep
) -> Reach:
    return Reach(cipher, roots, guard, runtime.settings.data_dir)


ReachDep = Annotated[Reach, Depends(get_reach)]  # what a save needs to look into a repository


def client_ip(request: Request) -> str:
    return request.client.host if request.client else ""


async def get_actor(request: Request, session: SessionDep) -> Actor:
    """Who asks: an API token, else the console's session cookie (with its CSRF header on a
    change). A credential resolved lately is known without I/O (``auth.credentials``), so
    this runs on the event loop; resolving one is a worker thread's job."""
    ip, agent = client_ip(request), request.headers.get("user-agent", "")[:400]
    authorization = request.headers.get("authorization", "")
    if authorization:
        scheme, _, secret = authorization.partition(" ")
        if scheme.lower() != "bearer" or not secret:
            raise NotAuthenticated("Authorization header must be 'Bearer <token>'")
        token = await _resolved(request, session, credentials.TOKEN, secret.strip())
        return Actor(
            token.for_session(session),
            token.scope,
            "token",
            token.token_name,
            ip,
            agent,
            token_id=token.token_id,
        )
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        raise NotAuthenticated("log in, or send an API token as 'Authorization: Bearer <token>'")
    web = await _resolved(request, session, credentials.SESSION, cookie)
    if request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not secrets.compare_digest(sent, web.csrf_token):
            raise PermissionDenied(f"missing or wrong {CSRF_HEADER} header (CSRF protection)")
    return Actor(web.for_session(session), TokenScope.WRITE, "session", "", ip, agent)


async def _resolved(
    request: Request, session: Session, kind: credentials.Kind, secret: str
) -> credentials.Resolved:
    """A kept credential on the event loop; resolving one is a worker thread's job."""
    kept = runtime_of(request).credentials
    found = kept.kept(kind, secret)
    if found is None:
        found = await run_in_threadpool(kept.resolve, kind, session, secret)
    return found


ActorDep = Annotated[Actor, Depends(get_actor)]


async def count_preview(actor: ActorDep, runtime: RuntimeDep) -> None:
    """A preview or test evaluates what the caller typed, and may cost up to its budget of
    CPU: at most ``STEWARD_PREVIEW_MAX_PER_MINUTE`` a minute per user (429 above it)."""
    runtime.previews.take(actor.user.id)


# a route dependency of every preview and test endpoint: dependencies=[Previewing]
Previewing = Depends(count_preview)


async def _admin(actor: ActorDep) -> Actor:
    require_admin(actor)
    return actor


def _directory_reader(actor: ActorDep, session: SessionDep) -> Actor:
    require_directory(session, actor)
    return actor


AdminActor = Annotated[Actor, Depends(_admin)]  # global admin, with a write-scoped credential
DirectoryReader = Annotated[Actor, Depends(_directory_reader)]  # may list users and teams


def _check_path_ids(request: Request) -> None:
    """Every ``{..._id}`` of the path that parses as an integer (as the route will parse it) is
    in ``DB_INTEGERS``, else it names nothing: a 404 before any query. Values that do not parse
    are left to the route's validation (422)."""
    for name, raw in request.path_params.items():
        if not name.endswith("_id"):
            continue
        try:
            value = _INT.validate_python(raw)
        except ValidationError:
            continue
        if value not in DB_INTEGERS:
            raise NotFound(f"{name}: no {name.removesuffix('_id')} has this id (out of range)")


async def _stored_path_ids(request: Request, _actor: ActorDep) -> None:
    _check_path_ids(request)


# the check for routes outside a project (users, tokens, teams), once the caller is known
StoredPathIds = Depends(_stored_path_ids)


def get_access(
    project_id: int, request: Request, session: SessionDep, actor: ActorDep
) -> ProjectAccess:
    """``{project_id}`` and the actor's rights in it, computed once per request; a project the
    actor may not see is a 404. Every id of the path (the project's and those of the objects in
    it, looked up by the dependencies built on this one) is checked first: ``_check_path_ids``."""
    _check_path_ids(request)
    return _rights(session, actor, project_id, session.get(Project, project_id))


def _rights(
    session: Session, actor: Actor, project_id: int, project: Project | None
) -> ProjectAccess:
    """The actor's rights in ``project`` (``{project_id}``, None when there is no such
    project): a project the actor may not see is a 404, as one that is not."""
    rights = access(session, actor, project) if project is not None else None
    if rights is None or not rights.visible:
        raise NotFound(f"project {project_id} not found")
    return rights


AccessDep = Annotated[ProjectAccess, Depends(get_access)]


def project_access(action: Action) -> Callable[..., Awaitable[Project]]:
    """A dependency that loads ``{project_id}`` and checks the project-wide ``action`` on it
    (``AccessDep`` loaded it: the check itself does no I/O)."""

    async def load(rights: AccessDep) -> Project:
        rights.require(action)
        return rights.project

    return load


def project_object[M: ProjectScoped](model: type[M], what: str, action: Action) -> Callable[..., M]:
    """A dependency that loads the ``{<what>_id}`` object of ``{project_id}`` (404 when it is not
    in the project) once the project-wide ``action`` is checked; routes hand it to the service."""

    def load(
        rights: AccessDep, session: SessionDep, object_id: int = Path(alias=f"{what}_id")
    ) -> M:
        rights.require(action)
        return get_in_project(session, model, rights.project, object_id, what)

    return load


def viewed_object[M: ProjectScoped](model: type[M], what: str) -> Any:
    """``Depends`` on the ``{<what>_id}`` object of the project, resource:view checked."""
    return Depends(project_object(model, what, Action.RESOURCE_VIEW))


def edited_object[M: ProjectScoped](model: type[M], what: str) -> Any:
    """``Depends`` on the ``{<what>_id}`` object of the project, resource:write checked."""
    return Depends(project_object(model, what, Action.RESOURCE_WRITE))


ProjectView = Annotated[Project, Depends(project_access(Action.PROJECT_VIEW))]
ProjectEdit = Annotated[Project, Depends(project_access(Action.PROJECT_EDIT))]
MembersView = Annotated[Project, Depends(project_access(Action.MEMBERS_VIEW))]
MembersManage = Annotated[Project, Depends(project_access(Action.MEMBERS_MANAGE))]
ResourceView = Annotated[Project, Depends(project_access(Action.RESOURCE_VIEW))]
ResourceWrite = Annotated[Project, Depends(project_access(Action.RESOURCE_WRITE))]
TemplateWrite = Annotated[Project, Depends(project_access(Action.TEMPLATE_WRITE))]


def _viewed_template(template_id: int, rights: AccessDep, session: SessionDep) -> Template:
    """``{template_id}``, when the caller sees it (template:view on it; 404 otherwise)."""
    visible = rights.templates_allowing(Action.TEMPLATE_VIEW)
    return templates.get(session, rights.project, template_id, only=visible)


ViewedTemplate = Annotated[Template, Depends(_viewed_template)]


async def _edited_template(template: ViewedTemplate, rights: AccessDep) -> Template:
    rights.require_on_template(template.id, Action.TEMPLATE_WRITE)
    return template


EditedTemplate = Annotated[Template, Depends(_edited_template)]


def _trigger_template(template: ViewedTemplate, rights: AccessDep, session: SessionDep) -> Template:
    """template:write on it, and run:launch: whoever saves a schedule or a webhook becomes its
    owner, whose rights it launches with."""
    return targets.edited_template(session, rights, template)


TriggerTemplate = Annotated[Template, Depends(_trigger_template)]


def _viewed_run(run_id: int, rights: AccessDep, session: SessionDep) -> Run:
    """``{run_id}``, when the caller may see its output (run:view on its template; 404)."""
    visible = rights.templates_allowing(Action.RUN_VIEW)
    return runs.get(session, rights.project, run_id, templates=visible)


ViewedRun = Annotated[Run, Depends(_viewed_run)]


@dataclasses.dataclass(frozen=True)
class RunAnswer:
    """A run's tag (``runs.read``: its head's) and, unless the caller's ``If-None-Match``
    names that tag, its whole read."""

    tag: str
    read: RunRead | None


def _viewed_run_answer(
    run_id: int,
    project_id: int,
    request: Request,
    session: SessionDep,
    actor: ActorDep,
    runtime: RuntimeDep,
) -> RunAnswer:
    """``AccessDep``'s checks, ``{run_id}``'s head and, when the caller's tag is not current,
    the rest of its read, in one worker-thread hop: 404 for a project or a run the caller
    may not see, as ``ViewedRun``. A route taking this takes no ``AccessDep`` (another hop).

    The project and the run's head are one query (``read.located``); without an
    ``If-None-Match`` (no tag to compare: the whole read will be answered) the rest of the
    read is in it too. The rights decide what is answered, as when they came first."""
    _check_path_ids(request)
    whole = "if-none-match" not in request.headers
    found = read.located(session, project_id, run_id, whole=whole)
    rights = _rights(session, actor, project_id, found and found[0])
    row = found and found[1]
    head = read.head_of(session, rights, run_id, row, runtime.settings)
    tag = conditional.etag(*head.tag_parts(rights.sees_resources))
    if conditional.unchanged(request, tag):  # a poller whose tag is current: the head alone
        answer = RunAnswer(tag, None)
    else:
        answer = RunAnswer(tag, read.full(session, rights, head, row if whole else None))
    # read: its connection goes back from this thread (its rollback is a round trip on
    # PostgreSQL), not from another hop to a worker when the request ends (``get_session``)
    session.close()
    return answer


ViewedRunAnswer = Annotated[RunAnswer, Depends(_viewed_run_answer)]


@dataclasses.dataclass(frozen=True)
class Launching:
    """What a route that launches runs (or moves a workflow run on) hands the services: the
    caller's rights in ``{project_id}``, the caller, the request's session, the key cipher (the
    sealed launch values) and the queue the runs go to."""

    rights: ProjectAccess
    actor: Actor
    session: Session
    cipher: KeyCipher
    queue: RunQueue


async def _launching(
    rights: AccessDep, actor: ActorDep, session: SessionDep, cipher: CipherDep, queue: QueueDep
) -> Launching:
    return Launching(rights, actor, session, cipher, queue)


LaunchingDep = Annotated[Launching, Depends(_launching)]
