from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response, status

from steward.api.deps import (
    SESSION_COOKIE,
    ActorDep,
    DirectoryReader,
    RuntimeDep,
    SessionDep,
    StoredPathIds,
    client_ip,
)
from steward.api.schemas import Page, PageParams
from steward.auth import service
from steward.auth.models import WebSession
from steward.auth.policy import require_admin
from steward.auth.schemas import (
    LoginRequest,
    LoginResponse,
    PasswordChange,
    PasswordReset,
    TokenCreate,
    TokenCreated,
    TokenRead,
    UserCreate,
    UserRead,
    UserUpdate,
)
from steward.auth.throttle import Limits
from steward.errors import NotAuthenticated

router = APIRouter(tags=["auth"])


@router.post("/auth/login")
def login(
    body: LoginRequest, request: Request, response: Response, session: SessionDep, rt: RuntimeDep
) -> LoginResponse:
    """Start a browser session: sets an HttpOnly cookie and returns the CSRF token.

    Repeated failures for an account or from an address are refused with 429 and Retry-After."""
    agent = request.headers.get("user-agent", "")
    user = service.authenticate(
        session,
        body.username,
        body.password,
        limits=Limits.from_settings(rt.settings),
        source_ip=client_ip(request),
        user_agent=agent,
    )
    secret, web = service.start_session(
        session,
        user,
        hours=rt.settings.session_hours,
        source_ip=client_ip(request),
        user_agent=request.headers.get("user-agent", ""),
    )
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=int(rt.settings.session_hours * 3600),
        httponly=True,
        samesite="lax",
        secure=rt.settings.secure_cookies or request.url.scheme == "https",
        path="/",
    )
    return _session_read(web)


def _session_read(web: WebSession) -> LoginResponse:
    return LoginResponse(
        user=UserRead.model_validate(web.user), csrf_token=web.csrf_token, expires_at=web.expires_at
    )


@router.get("/auth/session")
def read_session(request: Request, response: Response, session: SessionDep) -> LoginResponse:
    """The browser session behind the cookie, with its CSRF token (the console, after a reload).

    Only for a session cookie: a request with an API token gets 401, never a CSRF token."""
    if request.headers.get("authorization"):
        raise NotAuthenticated("only a browser session has a session; an API token has none")
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        raise NotAuthenticated("no browser session: log in")
    response.headers["Cache-Control"] = "no-store"
    return _session_read(service.resolve_session(session, cookie))


@router.post("/auth/logout", status_code=status.HTTP_204_NO_CONTENT)
def logout(request: Request, response: Response, session: SessionDep, actor: ActorDep) -> None:
    """End the browser session server-side (the cookie stops working everywhere)."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if actor.via == "session" and cookie:
        service.end_session(session, actor, service.resolve_session(session, cookie))
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")


@router.get("/auth/me")
def me(actor: ActorDep) -> UserRead:
    return UserRead.model_validate(actor.user)


@router.get("/users/me/tokens")
def list_tokens(session: SessionDep, actor: ActorDep) -> list[TokenRead]:
    return [TokenRead.model_validate(t) for t in service.list_tokens(session, actor.user)]


@router.post("/users/me/tokens", status_code=status.HTTP_201_CREATED)
def create_token(body: TokenCreate, session: SessionDep, actor: ActorDep) -> TokenCreated:
    """Create a personal API token; the secret is in this response only."""
    secret, token = service.create_token(session, actor, body)
    return TokenCreated.model_validate(
        {**TokenRead.model_validate(token).model_dump(), "token": secret}
    )


@router.delete(
    "/users/me/tokens/{token_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    dependencies=[StoredPathIds],
)
def revoke_token(token_id: int, session: SessionDep, actor: ActorDep) -> None:
    service.revoke_token(session, actor, token_id)


@router.post("/users/me/password", status_code=status.HTTP_204_NO_CONTENT)
def change_password(
    body: PasswordChange, request: Request, session: SessionDep, actor: ActorDep, rt: RuntimeDep
) -> None:
    """Change your own password, given the current one; your other browser sessions end."""
    service.change_own_password(
        session,
        actor,
        body,
        limits=Limits.from_settings(rt.settings),
        current_session=request.cookies.get(SESSION_COOKIE),
    )


@router.get("/users")
def list_users(
    session: SessionDep,
    actor: DirectoryReader,
    page: Annotated[PageParams, Query()],
    q: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
) -> Page[UserRead]:
    """Users by username, for admins and for project owners picking members.

    Owners see names only: e-mail addresses are blank unless the caller is an admin."""
    rows, total = service.list_users(session, q=q, limit=page.limit, offset=page.offset)
    items = [UserRead.model_validate(u) for u in rows]
    if not actor.user.is_admin:
        items = [item.model_copy(update={"email": ""}) for item in items]
    return Page(items=items, total=total, limit=page.limit, offset=page.offset)


@router.post("/users", status_code=status.HTTP_201_CREATED)
def create_user(body: UserCreate, session: SessionDep, actor: ActorDep) -> UserRead:
    require_admin(actor)
    return UserRead.model_validate(service.create_user(session, body, actor))


@router.patch("/users/{user_id}", dependencies=[StoredPathIds])
def update_user(user_id: int, body: UserUpdate, session: SessionDep, actor: ActorDep) -> UserRead:
    """Change a user (admins only). ``is_active: false`` ends their sessions and tokens at once;
    the last active admin cannot be disabled or demoted (409)."""
    require_admin(actor)
    return UserRead.model_validate(service.update_user(session, actor, user_id, body))


@router.post(
    "/users/{user_id}/password",
    status_code=status.HTTP_204_NO_CONTENT,
    dependencies=[StoredPathIds],
)
def reset_password(user_id: int, body: PasswordReset, session: SessionDep, actor: ActorDep) -> None:
    """Set a user's password (admins only); their browser sessions end."""
    require_admin(actor)
    service.reset_password(session, actor, user_id, body.password)
