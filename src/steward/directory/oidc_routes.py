"""OpenID Connect sign-in: which login buttons to show, the way to the provider and back.

``GET /auth/oidc/login`` sends the browser to the provider; the provider sends it back to
``GET /auth/oidc/callback``, which starts the same browser session a password login does (the
session cookie of ``auth.sessions``) and sends the browser on to ``next``, a path of this site.
``POST /auth/logout`` (``auth.routes``) of such a session answers where to end the sign-in at
the provider too (``oidc.logout_url``).
A person signing in through the provider is not asked for Steward's TOTP code: the provider is
where their second factor is checked."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel

from steward.api.deps import SESSION_COOKIE, RuntimeDep, SessionDep, client_ip
from steward.api.problems import _domain as domain_problem
from steward.auth import sessions
from steward.config import Settings
from steward.directory import oidc
from steward.errors import Conflict, DomainError, NotAuthenticated, NotFound, PermissionDenied

router = APIRouter(tags=["auth"])

COOKIE_PATH = "/api/v1/auth/oidc"


class OidcButton(BaseModel):
    label: str
    login_url: str


class AuthProviders(BaseModel):
    """How people may sign in: the password form always; a single sign-on button when OpenID
    Connect is configured."""

    password: bool = True
    oidc: OidcButton | None = None


def _config(settings: Settings) -> oidc.OidcConfig:
    config = oidc.OidcConfig.from_settings(settings)
    if config is None:
        raise NotFound("single sign-on (OpenID Connect) is not configured on this server")
    return config


def _secure(request: Request, settings: Settings) -> bool:
    return settings.secure_cookies or request.url.scheme == "https"


@router.get("/auth/providers")
def providers(rt: RuntimeDep) -> AuthProviders:
    """The sign-in methods the login page offers (no authentication needed)."""
    if not rt.settings.oidc_enabled:
        return AuthProviders()
    label = rt.settings.oidc_button_label
    return AuthProviders(oidc=OidcButton(label=label, login_url=oidc.LOGIN_PATH))


@router.get("/auth/oidc/login", status_code=302, response_class=RedirectResponse)
def oidc_login(
    request: Request,
    rt: RuntimeDep,
    next: Annotated[str | None, Query(max_length=oidc.NEXT_MAX)] = None,
) -> RedirectResponse:
    """Start signing in with the OpenID provider: a redirect to it (state, nonce, PKCE S256),
    with the sign-in's state sealed in a short-lived HttpOnly cookie. ``next``: the path of this
    site to land on afterwards (anything else lands on ``/``). 503 when the provider does not
    answer."""
    begun = oidc.begin(_config(rt.settings), rt.cipher, next)
    response = RedirectResponse(begun.url, status_code=302)
    response.headers["Cache-Control"] = "no-store"
    response.set_cookie(
        oidc.STATE_COOKIE,
        begun.cookie,
        max_age=oidc.STATE_SECONDS,
        httponly=True,
        samesite="lax",  # the provider's redirect back is a top-level GET from its site
        secure=_secure(request, rt.settings),
        path=COOKIE_PATH,
    )
    return response


@router.get(
    "/auth/oidc/callback",
    status_code=302,
    response_class=RedirectResponse,
    responses={503: {"description": "The OpenID provider does not answer"}},
)
def oidc_callback(request: Request, session: SessionDep, rt: RuntimeDep) -> Response:
    """Where the OpenID provider sends the browser back: checks the answer and the ID token,
    creates or updates the user (teams from their groups), starts a browser session and
    redirects to ``next``. The sign-in's state works once: its cookie is removed whatever
    happens. Failures are problems (4xx; 503 when the provider does not answer)."""
    settings = rt.settings
    agent = request.headers.get("user-agent", "")[:400]
    ip = client_ip(request)
    response: Response
    try:
        config = _config(settings)
        finished = oidc.finish(
            session,
            config,
            rt.cipher,
            dict(request.query_params),
            request.cookies.get(oidc.STATE_COOKIE),
            source_ip=ip,
            user_agent=agent,
        )
        secret, _web = sessions.start_session(
            session,
            finished.user,
            hours=settings.session_hours,
            how=f"OpenID Connect: {config.issuer}",
            source_ip=ip,
            user_agent=agent,
        )
    except DomainError as exc:
        session.rollback()
        if isinstance(exc, NotAuthenticated | PermissionDenied | Conflict):
            # the provider vouched (or tried to) and Steward refused: the audit trail says why
            reason = f"OpenID Connect: {exc.message}"
            sessions.record_failure(session, "", None, reason, source_ip=ip, user_agent=agent)
        response = domain_problem(request, exc)
    else:
        response = RedirectResponse(finished.next_path, status_code=302)
        seconds = int(settings.session_hours * 3600)
        response.set_cookie(
            SESSION_COOKIE,
            secret,
            max_age=seconds,
            httponly=True,
            samesite="lax",
            secure=_secure(request, settings),
            path="/",
        )
        # the ID token for the logout at the provider (id_token_hint): sealed, HttpOnly, sent
        # to the logout only, bound to this session
        hint = oidc.seal_logout(rt.cipher, config, finished.id_token, secret, seconds)
        if hint is not None:
            response.set_cookie(
                oidc.LOGOUT_COOKIE,
                hint,
                max_age=seconds,
                httponly=True,
                samesite="strict",
                secure=_secure(request, settings),
                path=oidc.LOGOUT_COOKIE_PATH,
            )
    response.headers["Cache-Control"] = "no-store"
    response.delete_cookie(
        oidc.STATE_COOKIE,
        path=COOKIE_PATH,
        httponly=True,
        samesite="lax",
        secure=_secure(request, settings),
    )
    return response
