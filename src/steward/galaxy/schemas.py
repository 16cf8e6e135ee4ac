from __future__ import annotations

import datetime as dt
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from steward.bounds import NAME_MAX, Description, Id, Url
from steward.schemas import RequestModel, ScopedRead, UpdateModel

# ansible-galaxy takes servers from ANSIBLE_GALAXY_SERVER_<NAME>_URL…: a name fit for that
SERVER_NAME_PATTERN = r"^[a-z][a-z0-9_]*$"
POSITION_MAX = 1000


def _server_url(url: str) -> str:
    """An http(s) URL without credentials (they would be shown in ansible-galaxy's output)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PydanticCustomError("galaxy_url", "must be an http:// or https:// URL")
    if parts.username is not None or parts.password is not None:
        raise PydanticCustomError(
            "galaxy_url", "must not hold credentials: give them as the server's key"
        )
    if any(c.isspace() for c in url):
        raise PydanticCustomError("galaxy_url", "must not contain whitespace")
    return url


ServerName = Annotated[str, Field(min_length=1, max_length=NAME_MAX, pattern=SERVER_NAME_PATTERN)]
ServerUrl = Annotated[Url, AfterValidator(_server_url)]
Position = Annotated[int, Field(ge=0, le=POSITION_MAX)]


class GalaxyServerCreate(RequestModel):
    """``url``: the server's API root (``https://galaxy.ansible.com/``, an Automation Hub's
    ``https://hub.example.com/api/galaxy/content/published/``); ``key_id``: a ``secret`` key
    (its token) or a ``login_password`` key; ``auth_url``: the SSO token URL of Red Hat's
    Automation Hub (optional). Servers are asked in ``position`` order, then by name."""

    name: ServerName
    description: Description = ""
    url: ServerUrl
    auth_url: ServerUrl | None = None
    key_id: Id | None = None
    validate_certs: bool = True
    position: Position = 0


class GalaxyServerUpdate(UpdateModel):
    """Only the fields sent change; ``null`` clears ``key_id`` and ``auth_url``."""

    name: ServerName | None = None
    description: Description | None = None
    url: ServerUrl | None = None
    auth_url: ServerUrl | None = None
    key_id: Id | None = None
    validate_certs: bool | None = None
    position: Position | None = None

    NULLABLE = frozenset({"key_id", "auth_url"})


class GalaxyServerRead(ScopedRead):
    url: str
    auth_url: str
    key_id: int | None
    key_name: str | None
    validate_certs: bool
    position: int
    created_at: dt.datetime
    updated_at: dt.datetime
