from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import Field

from steward.api.schemas import RequestModel, ResponseModel
from steward.environments.models import SecretTarget

NAME_PATTERN = r"^[^/\x00-\x1f]+$"
Name = Annotated[str, Field(min_length=1, max_length=100, pattern=NAME_PATTERN)]
Description = Annotated[str, Field(max_length=10000)]
ExtraVarsYaml = Annotated[str, Field(max_length=1_000_000)]


class SecretRef(RequestModel):
    name: str = Field(min_length=1, max_length=200)
    target: SecretTarget
    key_id: int


class EnvironmentCreate(RequestModel):
    """``extra_vars`` as a JSON object, or ``extra_vars_yaml`` as YAML/JSON text (not both)."""

    name: Name
    description: Description = ""
    extra_vars: dict[str, Any] | None = None
    extra_vars_yaml: ExtraVarsYaml | None = None
    env_vars: dict[str, str] = Field(default_factory=dict)
    secrets: list[SecretRef] = Field(default_factory=list)


class EnvironmentUpdate(RequestModel):
    """Every field optional; ``env_vars``, ``extra_vars`` and ``secrets`` replace the whole set."""

    name: Name | None = None
    description: Description | None = None
    extra_vars: dict[str, Any] | None = None
    extra_vars_yaml: ExtraVarsYaml | None = None
    env_vars: dict[str, str] | None = None
    secrets: list[SecretRef] | None = None


class SecretRefRead(ResponseModel):
    name: str
    target: SecretTarget
    key_id: int
    key_name: str


class EnvironmentRead(ResponseModel):
    id: int
    project_id: int
    name: str
    description: str
    extra_vars: dict[str, Any]
    env_vars: dict[str, str]
    secrets: list[SecretRefRead]
    created_at: dt.datetime
    updated_at: dt.datetime
