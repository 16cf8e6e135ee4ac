"""Where a choice question's options come from: the shapes a template writer saves.

Each shape is checked when the template is saved (a 422 naming ``survey.<i>.source.<field>``);
``check_at_save`` adds what needs the database or the settings: the key is one of the
project's, the URL's host is somewhere the server may connect (``outbound.network.Guard``).
"""

from __future__ import annotations

import enum
import urllib.parse
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from steward.bounds import (
    LINE_MAX,
    PATH_MAX,
    SURVEY_SOURCE_TIMEOUT_DEFAULT,
    SURVEY_SOURCE_TIMEOUT_MAX,
    URL_MAX,
    Id,
)
from steward.outbound import network
from steward.templates.options import cascade, jsonpath
from steward.templates.patterns import HostPattern
from steward.templates.variables import VariableName

ARGUMENTS_MAX = 20

Timeout = Annotated[float, Field(gt=0, le=SURVEY_SOURCE_TIMEOUT_MAX)]


class Select(enum.StrEnum):
    HOSTS = "hosts"
    GROUPS = "groups"
    VARIABLE = "variable"


class InventorySource(BaseModel):
    """The template's inventory as Steward last read it (``inventories.InventoryHost``): the
    hosts matching ``pattern``, the groups matching it, or the distinct values of the host
    variable ``variable`` on the hosts matching it."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["inventory"]
    pattern: HostPattern = "all"
    select: Select = Select.HOSTS
    variable: VariableName | None = None

    @model_validator(mode="after")
    def _variable_with_select(self) -> InventorySource:
        if (self.select is Select.VARIABLE) != (self.variable is not None):
            raise ValueError("a variable is given exactly when select is 'variable'")
        return self


def _url_with_placeholders(url: str) -> str:
    """Earlier answers may fill the path and the query, never the scheme or the host (the
    host is what the guard checks at save)."""
    try:
        network.parse_url(cascade.PLACEHOLDER.sub("x", url))
    except network.Refused as exc:
        raise PydanticCustomError("url", "{cause}", {"cause": str(exc)}) from None
    if "{" in urllib.parse.urlsplit(url).netloc:
        raise PydanticCustomError(
            "url", "an earlier answer may fill the URL's path or query, not its host"
        )
    return url


class UrlSource(BaseModel):
    """A GET of ``url`` answering JSON; ``path`` leads to the list of options
    (``jsonpath``); ``key_id``: a password or secret key of the project sent as the
    ``Authorization`` header (a password key: Basic with its user name; a secret: Bearer)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["url"]
    url: Annotated[
        str, Field(min_length=1, max_length=URL_MAX), AfterValidator(_url_with_placeholders)
    ]
    key_id: Id | None = None
    path: Annotated[str, Field(max_length=LINE_MAX), AfterValidator(jsonpath.checked)] = ""
    timeout_seconds: Timeout = SURVEY_SOURCE_TIMEOUT_DEFAULT


def _relative_path(path: str) -> str:
    if path.startswith("/") or "\\" in path or any(part == ".." for part in path.split("/")):
        raise PydanticCustomError(
            "path", "must be a path inside the repository (relative, no '..')"
        )
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in path):
        raise PydanticCustomError("path", "must not contain control characters")
    return path


Argument = Annotated[str, Field(max_length=LINE_MAX)]


class ScriptSource(BaseModel):
    """An executable of the template's repository, run in the run sandbox from a fresh
    checkout with ``arguments``; its output is one option per line or a JSON list."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["script"]
    path: Annotated[str, Field(min_length=1, max_length=PATH_MAX), AfterValidator(_relative_path)]
    arguments: list[Argument] = Field(default_factory=list, max_length=ARGUMENTS_MAX)
    timeout_seconds: Timeout = SURVEY_SOURCE_TIMEOUT_DEFAULT


OptionSource = Annotated[InventorySource | UrlSource | ScriptSource, Field(discriminator="kind")]


def depends_on(source: InventorySource | UrlSource | ScriptSource) -> list[str]:
    """The earlier answers ``source`` names."""
    if isinstance(source, InventorySource):
        return cascade.names(source.pattern)
    if isinstance(source, UrlSource):
        return cascade.names(source.url)
    return list(
        dict.fromkeys(name for argument in source.arguments for name in cascade.names(argument))
    )
