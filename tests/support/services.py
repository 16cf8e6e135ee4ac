"""Business rules below HTTP, on ``db_session`` (support.databases): the actor, a project, and
``refused``, which names the field the way the API's 422 does.

A rule is checked where it lives: in the request model (pydantic) or in the service
(``errors.InvalidInput``). ``refused`` accepts either, so a test does not depend on which of
them holds the rule; the route's own test still sends one refused body through HTTP for the
wiring (and tests/access/test_matrix.py every route).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pydantic
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.auth.actor import Actor
from steward.auth.models import TokenScope, User
from steward.errors import InvalidInput
from steward.projects import service as projects
from steward.projects.models import Project
from steward.projects.schemas import ProjectCreate


def admin(session: Session) -> Actor:
    """The bootstrap admin of the seeded database, as a console session."""
    user = session.scalars(select(User).where(User.username == "admin")).one()
    return Actor(user=user, scope=TokenScope.WRITE, via="session")


def project(session: Session, name: str = "p") -> Project:
    """A project made by the admin, its owner (as ``builders.make_project`` over HTTP)."""
    return projects.create(session, admin(session), ProjectCreate(name=name))


def _field(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc)


def refused(call: Callable[[], Any], field: str) -> str:
    """``call`` (validating a request body, then calling the service) is refused naming
    ``field``, as a 422 would (``api.problems``: a model's ``loc`` dotted, or the service's
    ``InvalidInput``); returns the message."""
    with pytest.raises((pydantic.ValidationError, InvalidInput)) as raised:
        call()
    error = raised.value
    if isinstance(error, InvalidInput):
        fields = {error.field: error.reason}
    else:
        assert isinstance(error, pydantic.ValidationError)
        fields = {_field(each["loc"]): each["msg"] for each in error.errors()}
    assert field in fields, fields
    return fields[field]
