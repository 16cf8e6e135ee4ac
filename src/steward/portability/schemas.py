"""The export document and the import request and report.

A document holds a project's objects as JSON, each referring to the others BY NAME (never by
id), without any secret value. Each object is the create body of its domain with its id fields
replaced by name fields (``repository_id`` -> ``repository``); the import checks it with that
same create schema and service, so the document schema here only bounds its shape and size.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from pydantic import BaseModel, Field, field_validator

from steward.bounds import Name
from steward.schemas import RequestModel

EXPORT_VERSION = 1
DOCUMENT_MAX_BYTES = 5 * 1024 * 1024  # the import body, before any parsing of its objects
OBJECTS_MAX = 1000  # objects of each kind in one document

ObjectList = Annotated[list[dict[str, Any]], Field(default_factory=list, max_length=OBJECTS_MAX)]


class ExportDocument(BaseModel):
    """One project, as ``GET /projects/{id}/export`` writes it and ``POST /projects/import``
    reads it. Unknown top-level fields are refused."""

    model_config = {"extra": "forbid"}

    steward_export: int = Field(description=f"the format version: {EXPORT_VERSION}")
    exported_at: dt.datetime | None = None
    project: dict[str, Any] = Field(
        description="name, description, max_parallel_runs, runner_group (a name or null),"
        " local_roots (directories of this server, assigned by the admin who imports)"
    )
    keys: ObjectList = Field(
        description="name, description, kind and the non-secret fields of the kind; no value"
    )
    repositories: ObjectList
    inventories: ObjectList
    environments: ObjectList = Field(description="secrets name their key, never a value")
    templates: ObjectList = Field(description="with surveys, overridable fields and defaults")
    schedules: ObjectList = Field(
        description="secret survey answers are left out (listed in omitted_secret_answers)"
    )
    webhooks: ObjectList = Field(description="matchers and extractors; no hook id, no secret")
    workflows: ObjectList = Field(
        description="nodes name their template; secret survey answers are left out (listed in"
        " each node's omitted_secret_answers)"
    )
    notification_destinations: ObjectList = Field(description="the credential key by name")
    notification_subscriptions: ObjectList

    @field_validator("steward_export")
    @classmethod
    def _known_version(cls, value: int) -> int:
        if value != EXPORT_VERSION:
            raise ValueError(
                f"unknown export version {value}; this server reads version {EXPORT_VERSION}"
            )
        return value


class ImportRequest(RequestModel):
    document: dict[str, Any] = Field(
        description="an export document (ExportDocument), checked by the import itself so"
        " that each error names its place in the document (templates[2].inventory)"
    )
    name: Name | None = Field(
        default=None, description="the new project's name (default: the document's)"
    )
    dry_run: bool = Field(
        default=False, description="check everything and report, without creating anything"
    )


class Attention(BaseModel):
    kind: str = Field(description="key, schedule, webhook, notification_destination, …")
    name: str
    reason: str


class ImportReport(BaseModel):
    project_id: int | None = Field(description="null on a dry run")
    project_name: str
    dry_run: bool
    created: dict[str, int] = Field(description="how many objects of each kind (would be) made")
    needs_attention: list[Attention]
