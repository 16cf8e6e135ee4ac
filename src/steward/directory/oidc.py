"""OpenID Connect single sign-on: the authorization code flow with PKCE (S256), state and nonce.

``begin`` builds the provider's authorization URL and the login's sealed state (kept by the
browser in a short-lived HttpOnly cookie, encrypted and authenticated with the master key, so
no server keeps anything between the two legs). ``finish`` checks the provider's answer against
that state, exchanges the code (with the PKCE verifier), validates the ID token with authlib
(signature through the provider's JWKS, ``iss``, ``aud``, ``exp``, ``nonce``, ``azp``,
``at_hash``; only asymmetric algorithms, never ``none``), reads the claims (asking the userinfo
endpoint when the token lacks some), and provisions the directory user
(``directory.provision``): their teams follow their groups. The session itself is started by the
route, as a password login's is.

Logout (RP-initiated, OpenID Connect RP-Initiated Logout 1.0): when the provider advertises an
``end_session_endpoint``, ``logout_url`` is where Steward's logout of an OIDC user sends the
browser, with ``id_token_hint``, ``client_id`` and ``post_logout_redirect_uri`` (the login page
of this site, derived from ``oidc_redirect_uri``: never from the request). The ID token for the
hint is kept by the browser in an HttpOnly cookie sent to the logout only, sealed with the
master key and bound to the session it was issued with (``seal_logout``): a cookie this server
did not make, or one of another session, is ignored.

The provider's metadata and keys are fetched once and cached (``oidc_discovery_cache_seconds``);
a key id the cache does not know refetches the keys, at most once a minute. A provider that
does not answer is ``Unavailable`` (503): local logins keep working.

authlib, joserfc and httpx2 are imported by the first ``begin``, ``validate_id_token`` and
request to the provider: a server without OpenID Connect never loads them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import threading
import time
import urllib.parse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy.orm import Session

from steward.auth.models import EXTERNAL_ID_MAX, AuthSource, User
from steward.config import Settings
from steward.crypto import KeyCipher, MasterKeyError
from steward.directory import provision as directory
from steward.errors import InvalidInput, NotAuthenticated, PermissionDenied, Unavailable

if TYPE_CHECKING:
    import httpx2
    from joserfc.jwk import KeySet

CALLBACK_PATH = "/api/v1/auth/oidc/callback"
LOGIN_PATH = "/api/v1/auth/oidc/login"
STATE_COOKIE = "steward_oidc"
LOGOUT_COOKIE = "steward_oidc_logout"
LOGOUT_COOKIE_PATH = "/api/v1/auth/logout"  # sent nowhere else
LOGOUT_COOKIE_MAX = 3800  # a longer cookie would be dropped by browsers (4096 with its name)
LOGIN_PAGE = "/login"
STATE_SECONDS = 600  # the time a person has at the provider to sign in
LEEWAY_SECONDS = 60  # clock difference allowed with the provider (exp, iat)
JWKS_REFETCH_SECONDS = 60.0  # an unknown key id refetches the keys at most this often
RESPONSE_MAX_BYTES = 1024 * 1024  # metadata, keys, token and userinfo answers
PARAM_MAX = 4096  # code, state, error description... from the query string
NEXT_MAX = 2000
GROUPS_MAX = 1000
GROUP_MAX = 500
CLAIM_MAX = 320
# what an ID token may be signed with: asymmetric only (an HMAC with the client secret would
# let anyone holding the secret mint tokens; "none" is no signature at all)
ASYMMETRIC = frozenset(
    ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
)
_PURPOSE = "oidc-login"
_LOGOUT_PURPOSE = "oidc-logout"


class ProviderError(NotAuthenticated):
    """The provider refused the login or answered something that does not prove it."""


@dataclasses.dataclass(frozen=True)
class OidcConfig:
    issuer: str
    client_id: str
    client_secret: str
    scopes: str
    username_claim: str
    email_claim: str
    name_claim: str
    groups_claim: str
    admin_groups: frozenset[str]
    allowed_domains: frozenset[str]
    redirect_uri: str
    post_logout_redirect_uri: str  # the login page of this site
    button_label: str
    timeout: float
    cache_seconds: float

    @classmethod
    def from_settings(cls, settings: Settings) -> OidcConfig | None:
        """The configuration, or None when OIDC is off (no issuer or no client id)."""
        if not settings.oidc_enabled:
            return None
        secret = (
            settings.oidc_client_secret.get_secret_value() if settings.oidc_client_secret else ""
        )
        if settings.oidc_client_secret_file is not None:
            try:
                secret = settings.oidc_client_secret_file.read_text().strip()
            except OSError as exc:
                raise Unavailable(
                    "single sign-on: STEWARD_OIDC_CLIENT_SECRET_FILE cannot be read"
                    f" ({exc.strerror or type(exc).__name__})"
                ) from None
        redirect_uri = settings.oidc_redirect_uri or f"{settings.url.rstrip('/')}{CALLBACK_PATH}"
        scopes = settings.oidc_scopes.split()
        if "openid" not in scopes:
            scopes.insert(0, "openid")
        return cls(
            issuer=settings.oidc_issuer.rstrip("/"),
            client_id=settings.oidc_client_id,
            client_secret=secret,
            scopes=" ".join(scopes),
            username_claim=settings.oidc_username_claim,
            email_claim=settings.oidc_email_claim,
            name_claim=settings.oidc_name_claim,
            groups_claim=settings.oidc_groups_claim,
            admin_groups=frozenset(g.strip() for g in settings.oidc_admin_groups if g.strip()),
            allowed_domains=frozenset(
                d.strip().lower().lstrip("@") for d in settings.oidc_allowed_domains if d.strip()
            ),
            redirect_uri=redirect_uri,
            post_logout_redirect_uri=urllib.parse.urljoin(redirect_uri, LOGIN_PAGE),
            button_label=settings.oidc_button_label,
            timeout=settings.oidc_timeout_seconds,
            cache_seconds=settings.oidc_discovery_cache_seconds,
        )

    def __repr__(self) -> str:  # never the secret, in a log or a traceback
        return f"OidcConfig(issuer={self.issuer!r}, client_id={self.client_id!r})"


# --- the provider: metadata (discovery) and keys, cached per issuer --------------------------


@dataclasses.dataclass
class _Cached:
    metadata: dict[str, Any]
    jwks: dict[str, Any]
    fetched: float
    jwks_fetched: float


_cache: dict[tuple[str, str], _Cached] = {}
_cache_lock = threading.Lock()


def _read_json(response: httpx2.Response, what: str) -> dict[str, Any]:
    body = response.read()
    if len(body) > RESPONSE_MAX_BYTES:
        raise Unavailable(f"the OpenID provider's {what} is larger than {RESPONSE_MAX_BYTES} bytes")
    try:
        value = json.loads(body)
    except ValueError as exc:
        raise Unavailable(f"the OpenID provider's {what} is not JSON") from exc
    if not isinstance(value, dict):
        raise Unavailable(f"the OpenID provider's {what} is not a JSON object")
    return value


def _get(config: OidcConfig, url: str, what: str, token: str = "") -> dict[str, Any]:
    import httpx2

    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        with (
            httpx2.Client(timeout=config.timeout, follow_redirects=False) as http,
            http.stream("GET", url, headers=headers) as response,
        ):
            if response.status_code != 200:
                raise Unavailable(
                    f"the OpenID provider's {what} answered HTTP {response.status_code}"
                )
            return _read_json(response, what)
    except httpx2.HTTPError as exc:
        raise Unavailable(
            f"the OpenID provider does not answer ({what}: {type(exc).__name__});"
            " local logins still work"
        ) from None


def _discover(config: OidcConfig) -> dict[str, Any]:
    metadata = _get(config, f"{config.issuer}/.well-known/openid-configuration", "discovery")
    if str(metadata.get("issuer", "")).rstrip("/") != config.issuer:
        raise Unavailable(
            "the OpenID provider's discovery names another issuer than STEWARD_OIDC_ISSUER"
        )
    for endpoint in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        if not isinstance(metadata.get(endpoint), str):
            raise Unavailable(f"the OpenID provider's discovery has no {endpoint}")
    return metadata


def provider(config: OidcConfig, *, refresh_keys: bool = False) -> _Cached:
    """The provider's metadata and keys, from the cache while it is fresh."""
    key = (config.issuer, config.client_id)
    now = time.monotonic()
    with _cache_lock:
        cached = _cache.get(key)
    if cached is None or now - cached.fetched > config.cache_seconds:
        metadata = _discover(config)
        jwks = _get(config, metadata["jwks_uri"], "keys (jwks_uri)")
        cached = _Cached(metadata, jwks, now, now)
    elif refresh_keys and now - cached.jwks_fetched > JWKS_REFETCH_SECONDS:
        jwks = _get(config, cached.metadata["jwks_uri"], "keys (jwks_uri)")
        cached = dataclasses.replace(cached, jwks=jwks, jwks_fetched=now)
    with _cache_lock:
        _cache[key] = cached
    return cached


def forget_provider(config: OidcConfig) -> None:
    """Drop the cached metadata and keys (tests; a provider that moved)."""
    with _cache_lock:
        _cache.pop((config.issuer, config.client_id), None)


# --- the first leg: to the provider ----------------------------------------------------------


def safe_next(value: str | None) -> str:
    """``next`` as a path of this site, or ``/``: never another site (``//evil``, ``/\\evil``,
    ``https://evil``), never a control character, at most ``NEXT_MAX`` characters."""
    if not value or len(value) > NEXT_MAX or not value.startswith("/"):
        return "/"
    if value.startswith(("//", "/\\")) or any(ord(c) < 0x20 or c in "\\\x7f" for c in value):
        return "/"
    parts = urllib.parse.urlsplit(value)
    if parts.scheme or parts.netloc:
        return "/"
    return value


@dataclasses.dataclass(frozen=True)
class Begun:
    url: str  # the provider's authorization endpoint with the request
    cookie: str  # the sealed state, for the STATE_COOKIE


def begin(config: OidcConfig, cipher: KeyCipher, next_path: str | None) -> Begun:
    from authlib.common.security import generate_token
    from authlib.oauth2.rfc6749.parameters import prepare_grant_uri
    from authlib.oauth2.rfc7636 import create_s256_code_challenge

    metadata = provider(config).metadata
    methods = metadata.get("code_challenge_methods_supported")
    if isinstance(methods, list) and "S256" not in methods:
        raise Unavailable("the OpenID provider does not support PKCE with S256")
    state, nonce, verifier = generate_token(43), generate_token(43), generate_token(64)
    url = prepare_grant_uri(
        metadata["authorization_endpoint"],
        config.client_id,
        "code",
        redirect_uri=config.redirect_uri,
        scope=config.scopes,
        state=state,
        nonce=nonce,
        code_challenge=create_s256_code_challenge(verifier),
        code_challenge_method="S256",
    )
    sealed = cipher.encrypt(
        {
            "purpose": _PURPOSE,
            "issuer": config.issuer,
            "state": state,
            "nonce": nonce,
            "verifier": verifier,
            "next": safe_next(next_path),
            "expires": time.time() + STATE_SECONDS,
        }
    )
    return Begun(url=url, cookie=sealed.decode())


# --- the second leg: back from the provider --------------------------------------------------


def _param(params: Mapping[str, str], name: str) -> str:
    value = params.get(name, "")
    if len(value) > PARAM_MAX:
        raise InvalidInput(name, f"is longer than {PARAM_MAX} characters")
    return value


def open_state(
    cipher: KeyCipher, config: OidcConfig, cookie: str | None, state: str
) -> dict[str, Any]:
    """The login's sealed state, when ``state`` is the one this browser was sent off with."""
    if not cookie:
        raise InvalidInput(
            "state",
            "no sign-in with the OpenID provider is in progress in this browser"
            " (already used, expired, or started elsewhere): start again",
        )
    if len(cookie) > 4 * PARAM_MAX:
        raise InvalidInput("state", "the sign-in cookie is too long")
    try:
        sealed = cipher.decrypt(cookie.encode())
    except (MasterKeyError, ValueError, UnicodeError):
        raise InvalidInput("state", "the sign-in cookie is not one this server made") from None
    if sealed.get("purpose") != _PURPOSE or sealed.get("issuer") != config.issuer:
        raise InvalidInput("state", "the sign-in cookie is not for this provider")
    if float(sealed.get("expires", 0)) < time.time():
        raise InvalidInput("state", "the sign-in took too long: start again")
    if not state or not secrets.compare_digest(str(sealed["state"]), state):
        raise InvalidInput("state", "does not match the sign-in this browser started")
    return sealed


def _exchange(
    config: OidcConfig, metadata: Mapping[str, Any], code: str, verifier: str
) -> dict[str, Any]:
    import httpx2

    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": config.redirect_uri,
        "code_verifier": verifier,
    }
    methods = metadata.get("token_endpoint_auth_methods_supported") or ["client_secret_basic"]
    auth: tuple[str, str] | None = (config.client_id, config.client_secret)
    if "client_secret_basic" not in methods and "client_secret_post" in methods:
        form |= {"client_id": config.client_id, "client_secret": config.client_secret}
        auth = None
    try:
        with (
            httpx2.Client(timeout=config.timeout, follow_redirects=False) as http,
            http.stream(
                "POST",
                metadata["token_endpoint"],
                data=form,
                auth=auth,
                headers={"Accept": "application/json"},
            ) as response,
        ):
            body = _read_json(response, "token endpoint")
            status = response.status_code
    except httpx2.HTTPError as exc:
        raise Unavailable(
            f"the OpenID provider does not answer (token endpoint: {type(exc).__name__})"
        ) from None
    if status != 200:
        error = str(body.get("error", ""))[:100]
        raise ProviderError(f"code: the OpenID provider refused the code ({error or status})")
    if not isinstance(body.get("id_token"), str) or not isinstance(body.get("access_token"), str):
        raise ProviderError("id_token: the OpenID provider's token answer has no ID token")
    return body


def _algorithms(metadata: Mapping[str, Any]) -> list[str]:
    offered = metadata.get("id_token_signing_alg_values_supported") or ["RS256"]
    allowed = [alg for alg in offered if alg in ASYMMETRIC] if isinstance(offered, list) else []
    if not allowed:
        raise Unavailable("the OpenID provider signs ID tokens with no asymmetric algorithm")
    return allowed


def _keys(cached: _Cached) -> KeySet:
    from joserfc.jwk import KeySet, KeySetSerialization

    return KeySet.import_key_set(cast(KeySetSerialization, cached.jwks))


def validate_id_token(
    config: OidcConfig, id_token: str, *, nonce: str, access_token: str
) -> dict[str, Any]:
    """The ID token's claims, once authlib/joserfc checked its signature (the provider's keys,
    an allowed algorithm) and its claims (iss, aud, exp, iat, nonce, azp, at_hash)."""
    from authlib.oidc.core import CodeIDToken
    from joserfc import jwt
    from joserfc.errors import InvalidKeyIdError, JoseError
    from joserfc.jws import JWSRegistry

    if len(id_token) > RESPONSE_MAX_BYTES:
        raise ProviderError("id_token: is too long")
    cached = provider(config)
    registry = JWSRegistry(algorithms=_algorithms(cached.metadata))
    try:
        try:
            token = jwt.decode(id_token, _keys(cached), registry=registry)
        except InvalidKeyIdError:  # the provider rolled its keys: fetch them again, once
            cached = provider(config, refresh_keys=True)
            token = jwt.decode(id_token, _keys(cached), registry=registry)
        claims = CodeIDToken(
            token.claims,
            token.header,
            {
                "iss": {"essential": True, "value": config.issuer},
                "aud": {"essential": True, "value": config.client_id},
                "exp": {"essential": True},
            },
            {"nonce": nonce, "client_id": config.client_id, "access_token": access_token},
        )
        claims.validate(leeway=LEEWAY_SECONDS)
    except JoseError as exc:
        reason = getattr(exc, "description", "") or exc.error
        raise ProviderError(f"id_token: is not valid ({exc.error}: {reason})"[:300]) from None
    except ValueError as exc:  # not a JWT at all, a key set that does not parse
        raise ProviderError(f"id_token: is not valid ({str(exc)[:200]})") from None
    return dict(claims)


def _text(claims: Mapping[str, Any], name: str) -> str:
    value = claims.get(name)
    return value.strip()[:CLAIM_MAX] if isinstance(value, str) else ""


def _groups(claims: Mapping[str, Any], name: str) -> list[str]:
    value = claims.get(name)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [g for g in value[:GROUPS_MAX] if isinstance(g, str) and 0 < len(g) <= GROUP_MAX]


def read_claims(config: OidcConfig, id_claims: dict[str, Any], access_token: str) -> dict[str, Any]:
    """The ID token's claims, completed from the userinfo endpoint when it lacks a mapped one
    (providers often keep groups and the profile out of the ID token)."""
    wanted = (config.username_claim, config.email_claim, config.name_claim, config.groups_claim)
    endpoint = provider(config).metadata.get("userinfo_endpoint")
    if all(name in id_claims for name in wanted) or not isinstance(endpoint, str):
        return id_claims
    info = _get(config, endpoint, "userinfo endpoint", token=access_token)
    if info.get("sub") != id_claims.get("sub"):
        raise ProviderError("sub: the userinfo endpoint names another person than the ID token")
    return {**info, **id_claims}


@dataclasses.dataclass(frozen=True)
class Person:
    """Who the provider vouched for, as Steward provisions them."""

    external_id: str
    username: str
    email: str
    display_name: str
    groups: list[str]


def person_from(config: OidcConfig, claims: Mapping[str, Any]) -> Person:
    sub = claims.get("sub")
    if not isinstance(sub, str) or not sub:
        raise ProviderError("sub: the ID token names nobody")
    external_id = f"{config.issuer}|{sub}"
    if len(external_id) > EXTERNAL_ID_MAX:
        raise ProviderError(f"sub: issuer|sub is longer than {EXTERNAL_ID_MAX} characters")
    username = _text(claims, config.username_claim)
    if not username:
        raise ProviderError(
            f"{config.username_claim}: the OpenID provider sent no such claim"
            " (STEWARD_OIDC_USERNAME_CLAIM names the claim holding the username)"
        )
    email = _text(claims, config.email_claim)
    if config.allowed_domains:
        domain = email.rpartition("@")[2].lower() if "@" in email else ""
        if claims.get("email_verified") is False or domain not in config.allowed_domains:
            raise PermissionDenied(
                f"{config.email_claim}: sign-in is limited to verified addresses of"
                f" {', '.join(sorted(config.allowed_domains))}"
            )
    return Person(
        external_id=external_id,
        username=username,
        email=email,
        display_name=_text(claims, config.name_claim),
        groups=_groups(claims, config.groups_claim),
    )


# --- logout at the provider ------------------------------------------------------------------


def _session_binding(session_secret: str) -> str:
    return hashlib.sha256(f"oidc-logout|{session_secret}".encode()).hexdigest()


def seal_logout(
    cipher: KeyCipher, config: OidcConfig, id_token: str, session_secret: str, seconds: float
) -> str | None:
    """The LOGOUT_COOKIE value: the ID token (for ``id_token_hint``), sealed and bound to the
    browser session it came with; None when it would be too long for a cookie (the logout then
    names the client instead: ``client_id``)."""
    sealed = cipher.encrypt(
        {
            "purpose": _LOGOUT_PURPOSE,
            "issuer": config.issuer,
            "session": _session_binding(session_secret),
            "id_token": id_token,
            "expires": time.time() + seconds,
        }
    ).decode()
    return sealed if len(sealed) <= LOGOUT_COOKIE_MAX else None


def _hint(cipher: KeyCipher, config: OidcConfig, cookie: str | None, session_secret: str) -> str:
    """The ID token of the logout cookie, when this server sealed it for this session."""
    if not cookie or len(cookie) > LOGOUT_COOKIE_MAX:
        return ""
    try:
        sealed = cipher.decrypt(cookie.encode())
    except (MasterKeyError, ValueError, UnicodeError):
        return ""  # forged, or sealed with a key this server does not have
    fits = (
        sealed.get("purpose") == _LOGOUT_PURPOSE
        and sealed.get("issuer") == config.issuer
        and secrets.compare_digest(str(sealed.get("session")), _session_binding(session_secret))
        and float(sealed.get("expires", 0)) >= time.time()
    )
    token = sealed.get("id_token")
    return token if fits and isinstance(token, str) else ""


def _web_url(value: object) -> bool:
    if not isinstance(value, str) or len(value) > NEXT_MAX:
        return False
    parts = urllib.parse.urlsplit(value)
    return parts.scheme in ("https", "http") and bool(parts.netloc) and not parts.fragment


def logout_url(
    config: OidcConfig, cipher: KeyCipher, cookie: str | None, session_secret: str
) -> str | None:
    """Where to send the browser to end the sign-in at the provider too: its
    ``end_session_endpoint`` with ``id_token_hint`` (from the logout cookie of this session),
    ``client_id`` and ``post_logout_redirect_uri``; None when the provider has no such endpoint
    or does not answer (the logout at Steward is done either way)."""
    try:
        endpoint = provider(config).metadata.get("end_session_endpoint")
    except Unavailable:
        return None
    if not _web_url(endpoint):
        return None
    params = {
        "client_id": config.client_id,
        "post_logout_redirect_uri": config.post_logout_redirect_uri,
    }
    hint = _hint(cipher, config, cookie, session_secret)
    if hint:
        params = {"id_token_hint": hint, **params}
    separator = "&" if urllib.parse.urlsplit(str(endpoint)).query else "?"
    return f"{endpoint}{separator}{urllib.parse.urlencode(params)}"


@dataclasses.dataclass(frozen=True)
class Finished:
    user: User
    next_path: str
    id_token: str  # for the logout's id_token_hint


def finish(
    session: Session,
    config: OidcConfig,
    cipher: KeyCipher,
    params: Mapping[str, str],
    cookie: str | None,
    *,
    source_ip: str,
    user_agent: str,
) -> Finished:
    """The provisioned user, the path to send them to and their ID token, from the provider's
    answer."""
    for name in ("state", "code", "iss", "error", "error_description"):
        _param(params, name)  # every size checked before anything else
    state = _param(params, "state")
    sealed = open_state(cipher, config, cookie, state)
    error = _param(params, "error")
    if error:
        described = _param(params, "error_description")[:200]
        raise ProviderError(f"the OpenID provider refused the sign-in: {error[:100]} {described}")
    issuer = _param(params, "iss")  # RFC 9207: the answer names its issuer (mix-up defence)
    if issuer and issuer.rstrip("/") != config.issuer:
        raise InvalidInput("iss", "the answer comes from another OpenID provider")
    code = _param(params, "code")
    if not code:
        raise InvalidInput("code", "the OpenID provider's answer has no code")
    metadata = provider(config).metadata
    tokens = _exchange(config, metadata, code, str(sealed["verifier"]))
    id_claims = validate_id_token(
        config, tokens["id_token"], nonce=str(sealed["nonce"]), access_token=tokens["access_token"]
    )
    person = person_from(config, read_claims(config, id_claims, tokens["access_token"]))
    admin = bool(config.admin_groups & set(person.groups)) if config.admin_groups else None
    user = directory.provision(
        session, AuthSource.OIDC, person, admin, source_ip=source_ip, user_agent=user_agent
    )
    return Finished(user, str(sealed.get("next") or "/"), tokens["id_token"])
