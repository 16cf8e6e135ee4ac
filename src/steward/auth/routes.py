from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response, status
from fastapi.responses import JSONResponse

from steward.access import policy
from steward.api.deps import (
    SESSION_COOKIE,
    ActorDep,
    AdminActor,
    DirectoryReader,
    PageQuery,
    RuntimeDep,
    SessionDep,
    StoredPathIds,
    client_ip,
)
from steward.api.problems import Problem, problem
from steward.auth import api_tokens, sessions, totp, users
from steward.auth.models import AuthSource, User, WebSession
from steward.auth.schemas import (
    LoginRequest,
    LoginResponse,
    PasswordChange,
    PasswordReset,
    ProfileUpdate,
    SessionRead,
    TokenCreate,
    TokenCreated,
    TokenRead,
    TotpConfirm,
    TotpDisable,
    TotpEnrollment,
    TotpRecoveryCodes,
    TotpStart,
    UserCreate,
    UserRead,
    UserUpdate,
)
from steward.auth.throttle import Limits
from steward.directory import ldap_login, oidc
from steward.directory.schemas import LogoutRedirect
from steward.errors import NotAuthenticated
from steward.schemas import Page


class LoginProblem(Problem):
    """A refused login. ``code`` is set when the password was right but a second factor is
    needed: ``otp_required`` (send ``otp``) or ``otp_invalid`` (the code sent is wrong, expired
    or already used)."""

    code: Literal["otp_required", "otp_invalid"] | None = None


router = APIRouter(tags=["auth"])


def _managed(user_id: int, _admin: AdminActor, session: SessionDep) -> User:
    return users.get_user(session, user_id)


ManagedUser = Annotated[User, Depends(_managed)]  # a user, for an admin to change


_LOGIN_REFUSED: dict[int | str, dict[str, Any]] = {
    401: {
        "description": "Not authenticated; ``code`` says when a second factor is needed",
        "model": LoginProblem,
        "content": {"application/problem+json": {}},
    }
}


@router.post("/auth/login", response_model=LoginResponse, responses=_LOGIN_REFUSED)
def login(
    body: LoginRequest, request: Request, response: Response, session: SessionDep, rt: RuntimeDep
) -> LoginResponse | JSONResponse:
    """Start a browser session: sets an HttpOnly cookie and returns the CSRF token.

    A user with two-factor authentication also sends ``otp``: without it a right password gets
    401 with ``code: otp_required``, with a wrong, expired or used code 401 ``otp_invalid``.
    Both count as failed logins. Repeated failures for an account or from an address are
    refused with 429 and Retry-After.

    With LDAP configured, a username that is no local user is checked by the directory, and
    the user created or updated from it (teams from its groups); 503 when no directory server
    answers (local users still log in)."""
    agent = request.headers.get("user-agent", "")
    attempt = sessions.Attempt(body.username, body.password, client_ip(request), agent)
    user = ldap_login.authenticate(
        session, rt.settings, attempt, limits=Limits.from_settings(rt.settings)
    )
    try:
        totp.check_login(
            session, rt.cipher, user, body.otp, source_ip=client_ip(request), user_agent=agent
        )
    except totp.SecondFactorNeeded as exc:
        headers = {"WWW-Authenticate": "Bearer"}
        return problem(401, "Not Authenticated", exc.message, headers=headers, code=exc.code)
    how = "LDAP password" if user.auth_source == AuthSource.LDAP else "password"
    secret, web = sessions.start_session(
        session,
        user,
        hours=rt.settings.session_hours,
        how=f"{how} and a second factor" if user.totp_enabled else how,
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
    return _session_read(sessions.resolve_session(session, cookie))


@router.post(
    "/auth/logout",
    status_code=status.HTTP_204_NO_CONTENT,
    response_model=None,
    responses={
        200: {
            "model": LogoutRedirect,
            "description": "Signed out here; the browser goes on to the OpenID provider's"
            " logout (``redirect_to``), which sends it back to the login page",
        }
    },
)
def logout(request: Request, session: SessionDep, actor: ActorDep, rt: RuntimeDep) -> Response:
    """End the browser session server-side (the cookie stops working everywhere). For a person
    who signed in with OpenID Connect, when the provider offers an end-session endpoint: 200
    with ``redirect_to``, the provider's logout (the browser should go there, to end the sign-in
    at the provider too); else 204."""
    cookie = request.cookies.get(SESSION_COOKIE)
    redirect_to = None
    if actor.via == "session" and cookie:
        sessions.end_session(session, actor, sessions.resolve_session(session, cookie))
        config = oidc.OidcConfig.from_settings(rt.settings)
        if config is not None and actor.user.auth_source == AuthSource.OIDC:
            hint = request.cookies.get(oidc.LOGOUT_COOKIE)
            redirect_to = oidc.logout_url(config, rt.cipher, hint, cookie)
    response: Response = (
        JSONResponse(LogoutRedirect(redirect_to=redirect_to).model_dump())
        if redirect_to
        else Response(status_code=status.HTTP_204_NO_CONTENT)
    )
    response.headers["Cache-Control"] = "no-store"
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    response.delete_cookie(
        oidc.LOGOUT_COOKIE, path=oidc.LOGOUT_COOKIE_PATH, httponly=True, samesite="strict"
    )
    return response


@router.get("/auth/me")
def me(actor: ActorDep) -> UserRead:
    return UserRead.model_validate(actor.user)


@router.get("/users/me/tokens")
def list_tokens(session: SessionDep, actor: ActorDep) -> list[TokenRead]:
    return [TokenRead.model_validate(t) for t in api_tokens.list_tokens(session, actor.user)]


@router.post("/users/me/tokens", status_code=status.HTTP_201_CREATED)
def create_token(body: TokenCreate, session: SessionDep, actor: ActorDep) -> TokenCreated:
    """Create a personal API token; the secret is in this response only. Through a token: a
    scope the token's own covers (read < run < write; else 403) and, if the token expires, an
    ``expires_at`` no later than its own (else 422)."""
    secret, token = api_tokens.create_token(session, actor, body)
    return TokenCreated.model_validate(
        {**TokenRead.model_validate(token).model_dump(), "token": secret}
    )


@router.delete(
    "/users/me/tokens/{token_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    dependencies=[StoredPathIds],
)
def revoke_token(token_id: int, session: SessionDep, actor: ActorDep) -> None:
    """Revoke one of your tokens: from a console session or a write token (a read or run token
    may revoke only itself)."""
    api_tokens.revoke_token(session, actor, token_id)


@router.post("/users/me/password", status_code=status.HTTP_204_NO_CONTENT)
def change_password(
    body: PasswordChange, request: Request, session: SessionDep, actor: ActorDep, rt: RuntimeDep
) -> None:
    """Change your own password, given the current one; your other browser sessions end."""
    users.change_own_password(
        session,
        actor,
        body,
        limits=Limits.from_settings(rt.settings),
        current_session=request.cookies.get(SESSION_COOKIE),
    )


@router.post("/users/me/totp")
def start_totp(
    body: TotpStart, session: SessionDep, actor: ActorDep, rt: RuntimeDep
) -> TotpEnrollment:
    """Start (or start again) turning on two-factor authentication, given your password: a new
    secret for your authenticator app, shown only here. ``POST /users/me/totp/confirm`` with a
    code of it turns it on. 409 if it is on already; a wrong password is 403 and counts as a
    failed login."""
    secret, uri = totp.start_enrollment(
        session,
        rt.cipher,
        actor,
        body.password,
        limits=Limits.from_settings(rt.settings),
        password_matches=functools.partial(ldap_login.password_matches, rt.settings),
    )
    return TotpEnrollment(secret=secret, otpauth_uri=uri)


@router.post("/users/me/totp/confirm")
def confirm_totp(
    body: TotpConfirm, request: Request, session: SessionDep, actor: ActorDep, rt: RuntimeDep
) -> TotpRecoveryCodes:
    """Turn two-factor authentication on with a current code of the new secret: ten recovery
    codes, shown only here. Your other browser sessions end (sessions that were open before
    would otherwise stay without the second factor); this one and your API tokens stay."""
    codes = totp.confirm_enrollment(
        session, rt.cipher, actor, body.code, current_session=request.cookies.get(SESSION_COOKIE)
    )
    return TotpRecoveryCodes(recovery_codes=codes)


@router.delete("/users/me/totp", status_code=status.HTTP_204_NO_CONTENT)
def disable_totp(
    body: TotpDisable, request: Request, session: SessionDep, actor: ActorDep, rt: RuntimeDep
) -> None:
    """Turn your two-factor authentication off, given your password and a code (or a recovery
    code); your other browser sessions end. A wrong password (403) or code (422) counts as a
    failed login."""
    totp.disable(
        session,
        rt.cipher,
        actor,
        body.password,
        body.code,
        limits=Limits.from_settings(rt.settings),
        current_session=request.cookies.get(SESSION_COOKIE),
        password_matches=functools.partial(ldap_login.password_matches, rt.settings),
    )


@router.patch("/users/me")
def update_profile(body: ProfileUpdate, session: SessionDep, actor: ActorDep) -> UserRead:
    """Change your own display name or e-mail address."""
    return UserRead.model_validate(users.update_profile(session, actor, body))


@router.get("/users/me/sessions")
def list_sessions(request: Request, session: SessionDep, actor: ActorDep) -> list[SessionRead]:
    """Your browser sessions that still work, newest first (at most 100); ``current`` marks the
    one this request came from."""
    current = sessions.session_id(session, request.cookies.get(SESSION_COOKIE))
    current = current if actor.via == "session" else None
    return [
        SessionRead.model_validate(web).model_copy(update={"current": web.id == current})
        for web in sessions.list_own(session, actor.user)
    ]


@router.delete(
    "/users/me/sessions/{session_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    dependencies=[StoredPathIds],
)
def end_session(session_id: int, session: SessionDep, actor: ActorDep) -> None:
    """Sign one of your browser sessions out (a lost laptop, a shared machine)."""
    sessions.end_own(session, actor, session_id)


@router.get("/users")
def list_users(
    session: SessionDep,
    actor: DirectoryReader,
    page: PageQuery,
    q: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
) -> Page[UserRead]:
    """Users by username, for admins and for project owners picking members.

    Owners see names only: e-mail addresses are blank unless the caller is an admin."""
    rows, total = users.list_users(session, q=q, limit=page.limit, offset=page.offset)
    items = [UserRead.model_validate(u) for u in rows]
    if not policy.sees_emails(actor):
        items = [item.model_copy(update={"email": ""}) for item in items]
    return Page.of(items, total, page)


@router.post("/users", status_code=status.HTTP_201_CREATED)
def create_user(body: UserCreate, session: SessionDep, admin: AdminActor) -> UserRead:
    return UserRead.model_validate(users.create_user(session, body, admin))


@router.patch("/users/{user_id}", dependencies=[StoredPathIds])
def update_user(
    user: ManagedUser, body: UserUpdate, session: SessionDep, admin: AdminActor
) -> UserRead:
    """Change a user (admins only). ``is_active: false`` ends their sessions and tokens at once;
    the last active admin cannot be disabled or demoted (409)."""
    return UserRead.model_validate(users.update_user(session, admin, user, body))


@router.post(
    "/users/{user_id}/password",
    status_code=status.HTTP_204_NO_CONTENT,
    dependencies=[StoredPathIds],
)
def reset_password(
    user: ManagedUser, body: PasswordReset, session: SessionDep, admin: AdminActor
) -> None:
    """Set a user's password (admins only); their browser sessions end."""
    users.reset_password(session, admin, user, body.password)


@router.delete(
    "/users/{user_id}/totp",
    status_code=status.HTTP_204_NO_CONTENT,
    dependencies=[StoredPathIds],
)
def reset_totp(user: ManagedUser, request: Request, session: SessionDep, admin: AdminActor) -> None:
    """Turn a user's two-factor authentication off (admins only: a lost phone); their browser
    sessions end. They can turn it on again themselves."""
    totp.reset(session, admin, user, current_session=request.cookies.get(SESSION_COOKIE))
