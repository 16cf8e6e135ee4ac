from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import Field

from steward.bounds import (
    JSON_MAX_BYTES,
    LIST_MAX,
    VARIABLE_NAME_MAX,
    Description,
    EnvVars,
    Id,
    JsonObject,
    Name,
)
from steward.environments.models import SecretTarget
from steward.schemas import NamedUpdate, RequestModel, ResponseModel, ScopedRead

# YAML text is at least as long as the JSON it stands for, give or take indentation
ExtraVarsYaml = Annotated[str, Field(max_length=2 * JSON_MAX_BYTES)]


class SecretRef(RequestModel):
    name: str = Field(min_length=1, max_length=VARIABLE_NAME_MAX)
    target: SecretTarget
    key_id: Id


class EnvironmentCreate(RequestModel):
    """``extra_vars`` as a JSON object, or ``extra_vars_yaml`` as YAML/JSON text (not both)."""

    name: Name
    description: Description = ""
    extra_vars: JsonObject | None = None
    extra_vars_yaml: ExtraVarsYaml | None = None
    env_vars: EnvVars = Field(default_factory=dict)
    secrets: list[SecretRef] = Field(default_factory=list, max_length=LIST_MAX)


class EnvironmentUpdate(NamedUpdate):
    """Every field optional; ``env_vars``, ``extra_vars`` and ``secrets`` replace the whole set."""

    extra_vars: JsonObject | None = None
    extra_vars_yaml: ExtraVarsYaml | None = None
    env_vars: EnvVars | None = None
    secrets: list[SecretRef] | None = Field(default=None, max_length=LIST_MAX)

    # null: left as it is (these are replaced whole when given)
    NULLABLE = frozenset({"extra_vars", "extra_vars_yaml", "env_vars", "secrets"})


class SecretRefRead(ResponseModel):
    name: str
    target: SecretTarget
    key_id: int
    key_name: str


class EnvironmentRead(ScopedRead):
    extra_vars: dict[str, Any]
    env_vars: dict[str, str]
    secrets: list[SecretRefRead]
    created_at: dt.datetime
    updated_at: dt.datetime
