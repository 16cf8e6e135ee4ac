from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from steward.api.deps import (
    SESSION_COOKIE,
    ActorDep,
    RuntimeDep,
    SessionDep,
    client_ip,
)
from steward.auth import service
from steward.auth.policy import require_admin
from steward.auth.schemas import (
    LoginRequest,
    LoginResponse,
    TokenCreate,
    TokenCreated,
    TokenRead,
    UserCreate,
    UserRead,
)

router = APIRouter(tags=["auth"])


@router.post("/auth/login")
def login(
    body: LoginRequest, request: Request, response: Response, session: SessionDep, rt: RuntimeDep
) -> LoginResponse:
    """Start a browser session: sets an HttpOnly cookie and returns the CSRF token."""
    agent = request.headers.get("user-agent", "")
    user = service.authenticate(
        session, body.username, body.password, source_ip=client_ip(request), user_agent=agent
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
    return LoginResponse(
        user=UserRead.model_validate(user), csrf_token=web.csrf_token, expires_at=web.expires_at
    )


@router.post("/auth/logout", status_code=status.HTTP_204_NO_CONTENT)
def logout(request: Request, response: Response, session: SessionDep, actor: ActorDep) -> None:
    """End the browser session server-side (the cookie stops working everywhere)."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if actor.via == "session" and cookie:
        service.end_session(session, actor, service.resolve_session(session, cookie))
    response.delete_cookie(SESSION_COOKIE, path="/")


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


@router.delete("/users/me/tokens/{token_id}", status_code=status.HTTP_204_NO_CONTENT)
def revoke_token(token_id: int, session: SessionDep, actor: ActorDep) -> None:
    service.revoke_token(session, actor, token_id)


@router.post("/users", status_code=status.HTTP_201_CREATED)
def create_user(body: UserCreate, session: SessionDep, actor: ActorDep) -> UserRead:
    require_admin(actor)
    return UserRead.model_validate(service.create_user(session, body))
