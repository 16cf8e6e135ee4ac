"""Request dependencies: database session, acting user, project access (load + authorize)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from steward.auth import service as auth_service
from steward.auth.actor import Actor
from steward.auth.models import TokenScope
from steward.auth.policy import Action, authorize
from steward.dispatch.queue import RunQueue
from steward.errors import NotAuthenticated, NotFound, PermissionDenied
from steward.keys.crypto import KeyCipher
from steward.projects.models import Project
from steward.runtime import Runtime

SESSION_COOKIE = "steward_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def get_session(request: Request) -> Iterator[Session]:
    with get_runtime(request).sessions() as session:
        yield session


def get_queue(request: Request) -> RunQueue:
    queue: RunQueue = request.app.state.queue
    return queue


def get_cipher(request: Request) -> KeyCipher:
    return get_runtime(request).cipher


SessionDep = Annotated[Session, Depends(get_session)]
RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
QueueDep = Annotated[RunQueue, Depends(get_queue)]
CipherDep = Annotated[KeyCipher, Depends(get_cipher)]


def client_ip(request: Request) -> str:
    return request.client.host if request.client else ""


def get_actor(request: Request, session: SessionDep) -> Actor:
    ip, agent = client_ip(request), request.headers.get("user-agent", "")[:400]
    authorization = request.headers.get("authorization", "")
    if authorization:
        scheme, _, secret = authorization.partition(" ")
        if scheme.lower() != "bearer" or not secret:
            raise NotAuthenticated("Authorization header must be 'Bearer <token>'")
        token = auth_service.resolve_token(session, secret.strip())
        return Actor(token.user, TokenScope(token.scope), "token", token.name, ip, agent)
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        raise NotAuthenticated("log in, or send an API token as 'Authorization: Bearer <token>'")
    web = auth_service.resolve_session(session, cookie)
    if request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not secrets.compare_digest(sent, web.csrf_token):
            raise PermissionDenied(f"missing or wrong {CSRF_HEADER} header (CSRF protection)")
    return Actor(web.user, TokenScope.WRITE, "session", "", ip, agent)


ActorDep = Annotated[Actor, Depends(get_actor)]


def project_access(action: Action) -> Callable[..., Project]:
    """A dependency that loads ``{project_id}`` and checks ``action`` on it, once."""

    def load(project_id: int, session: SessionDep, actor: ActorDep) -> Project:
        project = session.get(Project, project_id)
        if project is None:
            raise NotFound(f"project {project_id} not found")
        authorize(session, actor, action, project)
        return project

    return load


ProjectView = Annotated[Project, Depends(project_access(Action.PROJECT_VIEW))]
ProjectEdit = Annotated[Project, Depends(project_access(Action.PROJECT_EDIT))]
MembersManage = Annotated[Project, Depends(project_access(Action.MEMBERS_MANAGE))]
ResourceView = Annotated[Project, Depends(project_access(Action.RESOURCE_VIEW))]
ResourceWrite = Annotated[Project, Depends(project_access(Action.RESOURCE_WRITE))]
TemplateView = Annotated[Project, Depends(project_access(Action.TEMPLATE_VIEW))]
TemplateWrite = Annotated[Project, Depends(project_access(Action.TEMPLATE_WRITE))]
RunView = Annotated[Project, Depends(project_access(Action.RUN_VIEW))]
RunLaunch = Annotated[Project, Depends(project_access(Action.RUN_LAUNCH))]
RunCancel = Annotated[Project, Depends(project_access(Action.RUN_CANCEL))]
