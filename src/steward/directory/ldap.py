"""The LDAP client of LDAP logins: find a user, check their password by binding as them, read
their groups. ``directory.ldap_login`` turns the answer into a Steward login.

- The typed username only ever reaches the directory as an escaped filter value (RFC 4515,
  ``escape_filter_chars``): ``*)(uid=*`` searches for a user literally named so, never for
  everyone. A search finding more than one entry is refused as ambiguous.
- The password is checked by a simple bind as the DN found, on a connection of its own. An
  empty password is refused before any bind: to an LDAP server, a simple bind with a DN and no
  password is an *unauthenticated* bind, which succeeds without checking anything (RFC 4513
  5.1.2).
- TLS: ``ldaps://``, or ``ldap://`` with StartTLS before any bind; certificates are verified
  (``ldap_ca_file``, else the system's CAs). Plain ``ldap://`` sends passwords in clear: only
  for a directory on the same machine or a trusted network.
- No server answering (connection refused, timeout, TLS failure) is ``LdapUnavailable``: 503,
  never a failed login and never a 500. The bind password is never logged or put in an error.
- A person is known by a stable attribute of their entry (``ldap_id_attribute``: entryUUID,
  objectGUID on Active Directory), kept as ``<attribute>:<value>`` in ``users.external_id``,
  never by their DN: a moved or renamed entry is still the same account. Accounts made when the
  DN was the id are moved over at their next login or sync (``legacy``: an id that is a DN).
- ``lookup`` checks Steward's LDAP users against the directory for ``directory.sync``.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import ssl
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from steward.config import Settings
from steward.directory.dn import ldap3_quietly
from steward.directory.provision import GROUPS_MAX, group_key
from steward.errors import Unavailable

with ldap3_quietly():
    from ldap3 import ANONYMOUS, BASE, NONE, SIMPLE, SUBTREE, Connection, Server, Tls
    from ldap3.core.exceptions import (
        LDAPException,
        LDAPInvalidDnError,
        LDAPInvalidFilterError,
        LDAPStartTLSError,
    )
    from ldap3.utils.conv import escape_bytes, escape_filter_chars
    from ldap3.utils.dn import parse_dn

log = logging.getLogger(__name__)

INVALID_CREDENTIALS = 49  # the LDAP result code of a wrong password (or an unknown DN)


class LdapUnavailable(Unavailable):
    """No directory server answered as it should: the login cannot be checked now (503)."""


@dataclasses.dataclass(frozen=True)
class LdapConfig:
    urls: tuple[str, ...]
    start_tls: bool
    ca_file: str | None
    bind_dn: str
    bind_password: str = dataclasses.field(repr=False)
    user_base: str
    user_filter: str
    username_attribute: str
    email_attribute: str
    display_name_attribute: str
    group_base: str
    group_filter: str
    member_of_attribute: str
    admin_groups: tuple[str, ...]
    timeout: float
    id_attribute: str = "entryUUID"

    @classmethod
    def from_settings(cls, settings: Settings) -> LdapConfig | None:
        """The LDAP settings, or None when LDAP login is off. The bind password file is read
        here (at each login), so a rotated password needs no restart."""
        if not settings.ldap_enabled:
            return None
        password = ""
        if settings.ldap_bind_password is not None:
            password = settings.ldap_bind_password.get_secret_value()
        if settings.ldap_bind_password_file is not None:
            try:
                password = settings.ldap_bind_password_file.read_text().strip()
            except OSError as exc:
                raise LdapUnavailable(
                    f"LDAP: cannot read ldap_bind_password_file ({exc.strerror})"
                ) from None
        return cls(
            urls=tuple(settings.ldap_url),
            start_tls=settings.ldap_start_tls,
            ca_file=str(settings.ldap_ca_file) if settings.ldap_ca_file else None,
            bind_dn=settings.ldap_bind_dn,
            bind_password=password,
            user_base=settings.ldap_user_base,
            user_filter=settings.ldap_user_filter,
            username_attribute=settings.ldap_username_attribute,
            email_attribute=settings.ldap_email_attribute,
            display_name_attribute=settings.ldap_display_name_attribute,
            group_base=settings.ldap_group_base,
            group_filter=settings.ldap_group_filter,
            member_of_attribute=settings.ldap_member_of_attribute,
            admin_groups=tuple(settings.ldap_admin_groups),
            timeout=settings.ldap_timeout_seconds,
            id_attribute=settings.ldap_id_attribute,
        )


@dataclasses.dataclass(frozen=True)
class DirectoryEntry:
    """A person the directory vouched for (their password bound)."""

    dn: str
    external_id: str  # "<id attribute>:<value>" (``stable_id``)
    username: str
    email: str
    display_name: str
    groups: tuple[str, ...]
    admin: bool | None  # None: no admin groups configured


def user_filter(config: LdapConfig, username: str) -> str:
    """The user search filter with the username as an escaped value, never as filter syntax."""
    return config.user_filter.replace("{username}", escape_filter_chars(username))


def any_user_filter(config: LdapConfig) -> str:
    """The user filter matching every user it would let log in (``{username}`` a wildcard)."""
    return config.user_filter.replace("{username}", "*")


def _prefix(config: LdapConfig) -> str:
    return f"{config.id_attribute.lower()}:"


def is_legacy(config: LdapConfig, external_id: str) -> bool:
    """Whether ``external_id`` predates the stable ids (a DN, or another id attribute's)."""
    return not external_id.startswith(_prefix(config))


def stable_id(config: LdapConfig, entry: dict[str, Any]) -> str:
    """``<id attribute>:<value>`` of a search result: objectGUID's 16 bytes as a UUID string
    (as Active Directory shows it), a text value as it is. ``LdapUnavailable`` when the entry
    has no such attribute (a wrong setting, or the service account may not read it)."""
    raw = {k.lower(): v for k, v in (entry.get("raw_attributes") or {}).items()}
    values = raw.get(config.id_attribute.lower()) or []
    value = values[0] if isinstance(values, list) and values else values
    if not isinstance(value, bytes) or not value:
        raise LdapUnavailable(
            f"LDAP: the user's entry has no {config.id_attribute} (ldap_id_attribute), or"
            " Steward's bind DN may not read it"
        )
    if config.id_attribute.lower() == "objectguid" and len(value) == 16:
        text = str(uuid.UUID(bytes_le=value))
    else:
        try:
            text = value.decode()
        except UnicodeDecodeError:
            text = value.hex()
    return f"{_prefix(config)}{text}"


def _id_filter(config: LdapConfig, external_id: str) -> str:
    """An equality filter on the id attribute for a stored ``external_id``."""
    value = external_id[len(_prefix(config)) :]
    if config.id_attribute.lower() == "objectguid":
        try:
            return f"({config.id_attribute}={escape_bytes(uuid.UUID(value).bytes_le)})"
        except ValueError:
            pass
    return f"({config.id_attribute}={escape_filter_chars(value)})"


def _is_dn(value: str) -> bool:
    try:
        return bool(parse_dn(value))
    except (LDAPInvalidDnError, ValueError, IndexError):
        return False


def _servers(config: LdapConfig) -> list[Server]:
    tls = Tls(validate=ssl.CERT_REQUIRED, ca_certs_file=config.ca_file)
    return [
        Server(
            url,
            use_ssl=url.lower().startswith("ldaps://"),
            tls=tls,
            get_info=NONE,
            connect_timeout=config.timeout,
        )
        for url in config.urls
    ]


def _open(config: LdapConfig, servers: list[Server], dn: str, password: str) -> Connection:
    """A connection to the first server that answers, in order (ldap3's ServerPool would sleep
    ten seconds between rounds: a dead directory must be a quick 503)."""
    failure: LDAPException | None = None
    for server in servers:
        conn = Connection(
            server,
            user=dn or None,
            password=password or None,
            authentication=SIMPLE if dn else ANONYMOUS,
            receive_timeout=max(1, math.ceil(config.timeout)),  # ldap3 packs it as an integer
            read_only=True,
            auto_referrals=False,
            raise_exceptions=False,
        )
        try:
            conn.open()
            if config.start_tls and not conn.start_tls():
                raise LDAPStartTLSError(f"StartTLS refused: {conn.result.get('description')}")
        except LDAPException as exc:
            if conn.socket is not None:  # ldap3 leaves a socket that failed to connect open
                conn.socket.close()
            conn.unbind()
            failure = exc
            log.warning("LDAP: %s does not answer: %s", server.name, type(exc).__name__)
            continue
        return conn
    raise failure or LDAPException("no LDAP server configured")


@contextmanager
def _connection(
    config: LdapConfig, servers: list[Server], dn: str, password: str
) -> Iterator[Connection]:
    """An open connection (StartTLS done when configured), bound or not: ``.bound`` says."""
    conn = _open(config, servers, dn, password)
    try:
        conn.bind()
        yield conn
    finally:
        conn.unbind()


def _first(attributes: dict[str, Any], name: str) -> str:
    value = attributes.get(name)
    if isinstance(value, list):
        value = value[0] if value else ""
    return value if isinstance(value, str) else ""


def _all(attributes: dict[str, Any], name: str) -> list[str]:
    value = attributes.get(name) or []
    values = value if isinstance(value, list) else [value]
    return [v for v in values if isinstance(v, str)]


def _entries(conn: Any) -> list[dict[str, Any]]:
    return [r for r in conn.response or [] if r.get("type") == "searchResEntry"]


def _find_user(conn: Any, config: LdapConfig, username: str) -> dict[str, Any] | None:
    return _search_one(conn, config, config.user_base, user_filter(config, username), SUBTREE)


def _user_attributes(config: LdapConfig) -> list[str]:
    attributes = [
        config.username_attribute,
        config.email_attribute,
        config.display_name_attribute,
        config.id_attribute,
    ]
    if not config.group_base:
        attributes.append(config.member_of_attribute)
    return attributes


def _search_one(
    conn: Any, config: LdapConfig, base: str, search_filter: str, scope: Any
) -> dict[str, Any] | None:
    """The one entry ``search_filter`` finds; None for none, or for two (ambiguous)."""
    conn.search(
        base,
        search_filter,
        search_scope=scope,
        attributes=_user_attributes(config),
        size_limit=2,
        time_limit=max(1, int(config.timeout)),
    )
    _check_answer(conn, "searching the user")
    found = _entries(conn)
    if len(found) > 1:
        log.warning("LDAP: more than one entry matches a user search; refused as ambiguous")
        return None
    return found[0] if found else None


def _groups(conn: Any, config: LdapConfig, entry: dict[str, Any]) -> list[str]:
    if not config.group_base:
        return _all(entry.get("attributes", {}), config.member_of_attribute)[:GROUPS_MAX]
    conn.search(
        config.group_base,
        config.group_filter.replace("{user_dn}", escape_filter_chars(entry["dn"])),
        search_scope=SUBTREE,
        attributes=[],
        size_limit=GROUPS_MAX,
        time_limit=max(1, int(config.timeout)),
    )
    _check_answer(conn, "searching the user's groups")
    return [str(found["dn"]) for found in _entries(conn)]


_ANSWERED = {0, 4, 32}  # success, sizeLimitExceeded (counted by the caller), noSuchObject


def _check_answer(conn: Any, doing: str) -> None:
    result = conn.result or {}
    if result.get("result") not in _ANSWERED:
        raise LdapUnavailable(
            f"LDAP: the directory refused {doing}: {result.get('description')}"
            f" {result.get('message') or ''}".rstrip()
        )


def _password_binds(config: LdapConfig, servers: list[Server], dn: str, password: str) -> bool:
    with _connection(config, servers, dn, password) as conn:
        if conn.bound:
            return True
        code = (conn.result or {}).get("result")
        if code is not None and code != INVALID_CREDENTIALS:
            log.info("LDAP: the bind as a user was refused with result %s", code)
        if code is None:
            raise LdapUnavailable("LDAP: the directory server did not answer the bind")
        return False


def authenticate(config: LdapConfig, username: str, password: str) -> DirectoryEntry | None:
    """The directory's entry of ``username`` when ``password`` is theirs; None for an unknown
    user, a wrong or empty password, or an ambiguous username. ``LdapUnavailable`` when no
    directory server answers."""
    if not username or not password:
        return None  # an empty password would be an unauthenticated bind: it checks nothing
    servers = _servers(config)
    filters = "ldap_user_filter or ldap_group_filter is not a valid LDAP filter"
    with (
        _answered(filters, "; local accounts can still log in"),
        _service(config, servers) as service,
    ):
        entry = _find_user(service, config, username)
        if entry is None or not _password_binds(config, servers, entry["dn"], password):
            return None
        groups = _groups(service, config, entry)
    return _directory_entry(config, entry, groups, username)


@contextmanager
def _answered(invalid_filter: str, unanswered: str = "") -> Iterator[None]:
    """The failures of the LDAP work inside as ``LdapUnavailable``: a filter the settings make
    invalid (``invalid_filter`` says which), or no directory server answering (``unanswered``:
    what still works then)."""
    try:
        yield
    except LDAPInvalidFilterError:
        raise LdapUnavailable(f"LDAP: {invalid_filter}") from None
    except LDAPException as exc:
        log.warning("LDAP: no directory server answered: %s", type(exc).__name__)
        raise LdapUnavailable(
            f"LDAP: no directory server answered ({type(exc).__name__}){unanswered}"
        ) from None


def _directory_entry(
    config: LdapConfig, entry: dict[str, Any], groups: list[str], typed: str = ""
) -> DirectoryEntry:
    attributes = entry.get("attributes", {})
    admin = None
    if config.admin_groups:
        wanted = {group_key("ldap", g) for g in config.admin_groups}
        admin = bool(wanted & {group_key("ldap", g) for g in groups})
    return DirectoryEntry(
        dn=str(entry["dn"]),
        external_id=stable_id(config, entry),
        username=_first(attributes, config.username_attribute) or typed,
        email=_first(attributes, config.email_attribute),
        display_name=_first(attributes, config.display_name_attribute),
        groups=tuple(groups),
        admin=admin,
    )


def password_binds(config: LdapConfig, external_id: str, password: str) -> bool:
    """Whether ``password`` is the password of the entry ``external_id`` names (to confirm a
    sensitive change of an LDAP user): found by its id, then bound as its current DN."""
    if not password:
        return False
    servers = _servers(config)
    try:
        if is_legacy(config, external_id):
            dn = external_id  # an account of before the stable ids: its id is its DN
        else:
            with _service(config, servers) as service:
                entry = _search_one(
                    service, config, config.user_base, _id_filter(config, external_id), SUBTREE
                )
            if entry is None:
                return False
            dn = str(entry["dn"])
        return _password_binds(config, servers, dn, password)
    except LDAPInvalidFilterError:
        raise LdapUnavailable("LDAP: ldap_id_attribute does not make a valid filter") from None
    except LDAPException as exc:
        raise LdapUnavailable(
            f"LDAP: no directory server answered ({type(exc).__name__})"
        ) from None


@contextmanager
def _service(config: LdapConfig, servers: list[Server]) -> Iterator[Connection]:
    """A connection bound as Steward's own account (``ldap_bind_dn``)."""
    with _connection(config, servers, config.bind_dn, config.bind_password) as service:
        if not service.bound:
            result = service.result or {}
            raise LdapUnavailable(
                "LDAP: the directory refused Steward's own bind (ldap_bind_dn):"
                f" {result.get('description') or 'no answer'}"
            )
        yield service


@dataclasses.dataclass(frozen=True)
class Gone:
    """A Steward LDAP user the directory no longer lets log in, and why."""

    reason: str


def lookup(config: LdapConfig, external_ids: list[str]) -> dict[str, DirectoryEntry | Gone]:
    """Each stored ``external_id`` checked against the directory on one connection: its entry
    (with groups and admin flag, as at a login) when it still matches the user filter, else
    ``Gone`` saying whether the entry is missing or just no longer matches. An id that predates
    the stable ids is looked up as the DN it is (one that is not a DN is left out).

    Any answer that is not a clear one (no server, a refused search, a bad filter) raises
    ``LdapUnavailable`` before the caller changes anything."""
    everyone = any_user_filter(config)
    found: dict[str, DirectoryEntry | Gone] = {}
    filters = "ldap_user_filter, ldap_group_filter or ldap_id_attribute does not make a valid"
    with _answered(f"{filters} LDAP filter"), _service(config, _servers(config)) as service:
        for external_id in external_ids:
            scope: str
            if is_legacy(config, external_id):
                if not _is_dn(external_id):
                    continue  # not looked up: the caller leaves the account as it is
                base, by, scope = external_id, "(objectClass=*)", BASE
            else:
                base, by, scope = config.user_base, _id_filter(config, external_id), SUBTREE
            entry = _search_one(service, config, base, f"(&{everyone}{by})", scope)
            if entry is not None:
                groups = _groups(service, config, entry)
                found[external_id] = _directory_entry(config, entry, groups)
                continue
            exists = _search_one(service, config, base, by, scope) is not None
            found[external_id] = Gone(
                "no longer matches ldap_user_filter" if exists else "no longer in the directory"
            )
    return found
