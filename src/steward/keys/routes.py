from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, status

from steward.api import deps
from steward.keys import service
from steward.keys.models import Key, KeyKind
from steward.keys.schemas import KeyCreate, KeyRead, KeyUpdate
from steward.schemas import Page

router = APIRouter(prefix="/projects/{project_id}/keys", tags=["keys"])


ViewedKey = Annotated[Key, deps.viewed_object(Key, "key")]
EditedKey = Annotated[Key, deps.edited_object(Key, "key")]


@router.get("")
def list_keys(
    project: deps.ResourceView,
    session: deps.SessionDep,
    page: deps.PageQuery,
    kind: KeyKind | None = None,
) -> Page[KeyRead]:
    """Keys of the project, by name: metadata only, never a secret."""
    rows, total = service.list_for_project(
        session, project, kind=kind, limit=page.limit, offset=page.offset
    )
    return Page.of([KeyRead.model_validate(k) for k in rows], total, page)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_key(
    body: KeyCreate,
    project: deps.ResourceWrite,
    session: deps.SessionDep,
    cipher: deps.CipherDep,
    actor: deps.ActorDep,
) -> KeyRead:
    """Store a secret, encrypted. An ssh key is checked (format, passphrase) before it is saved."""
    return KeyRead.model_validate(service.create(session, cipher, project, body, actor=actor))


@router.get("/{key_id}")
def read_key(key: ViewedKey) -> KeyRead:
    return KeyRead.model_validate(key)


@router.patch("/{key_id}")
def update_key(
    key: EditedKey,
    body: KeyUpdate,
    project: deps.ResourceWrite,
    session: deps.SessionDep,
    cipher: deps.CipherDep,
    actor: deps.ActorDep,
) -> KeyRead:
    """Change metadata, or replace the secret; the kind cannot change."""
    return KeyRead.model_validate(service.update(session, cipher, project, key, body, actor=actor))


@router.delete("/{key_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_key(key: EditedKey, session: deps.SessionDep, actor: deps.ActorDep) -> None:
    """Delete a key no repository, environment or template uses (409 names the users)."""
    service.delete(session, key, actor=actor)
