"""Business rules below HTTP, on ``db_session`` (support.databases): the actor, a project, and
``refused``, which names the field the way the API's 422 does.

A rule is checked where it lives: in the request model (pydantic) or in the service
(``errors.InvalidInput``). ``refused`` accepts either, so a test does not depend on which of
them holds the rule; the route's own test still sends one refused body through HTTP for the
wiring (and tests/access/test_matrix.py every route).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pydantic
import pytest
from cryptography.fernet import Fernet
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.auth.models import TokenScope, User
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.errors import InvalidInput
from steward.keys import service as keys_service
from steward.keys.models import KeyKind
from steward.keys.schemas import SecretKeyCreate
from steward.outbound import network
from steward.projects import service as projects
from steward.projects.models import Project
from steward.projects.schemas import ProjectCreate
from support.outbound import LOOPBACK_ALLOWED


def admin(session: Session) -> Actor:
    """The bootstrap admin of the seeded database, as a console session."""
    user = session.scalars(select(User).where(User.username == "admin")).one()
    return Actor(user=user, scope=TokenScope.WRITE, via="session")


def project(session: Session, name: str = "p") -> Project:
    """A project made by the admin, its owner (as ``builders.make_project`` over HTTP)."""
    return projects.create(session, admin(session), ProjectCreate(name=name))


def cipher() -> KeyCipher:
    """A key cipher of a fresh master key (the app's is ``Runtime.cipher``)."""
    return KeyCipher([Fernet.generate_key()])


def guard() -> network.Guard:
    """The outbound guard of the tests' app (conftest ``settings``): the defaults, and the
    loopback addresses the tests' receivers listen on allowed as an admin would."""
    return network.Guard.of(Settings(outbound_allowed_networks=list(LOOPBACK_ALLOWED)))


def secret_key(session: Session, keys: KeyCipher, project: Project, name: str, value: str) -> int:
    """A ``secret`` key of ``project`` holding ``value`` (as support.notifications.secret_key)."""
    body = SecretKeyCreate(name=name, kind=KeyKind.SECRET, value=value)
    return keys_service.create(session, keys, project, body, actor=admin(session)).id


def _field(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc)


def refused(call: Callable[[], Any], field: str) -> str:
    """``call`` (validating a request body, then calling the service) is refused naming
    ``field``, as a 422 is (``api.problems``: each of a model's errors as its dotted ``loc``
    and message, or the service's ``InvalidInput``); returns the detail a 422 would carry,
    which must name ``field`` (as ``builders.assert_problem`` checks it)."""
    with pytest.raises((pydantic.ValidationError, InvalidInput)) as raised:
        call()
    error = raised.value
    if isinstance(error, InvalidInput):
        detail = error.message
    else:
        assert isinstance(error, pydantic.ValidationError)
        detail = "; ".join(f"{_field(each['loc'])}: {each['msg']}" for each in error.errors())
    assert field in detail, detail
    return detail


@contextmanager
def counted(session: Session) -> Iterator[list[str]]:
    """The SQL statements run on ``session``'s connection within the block."""
    statements: list[str] = []
    connection = session.connection()

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(connection, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(connection, "before_cursor_execute", count)
