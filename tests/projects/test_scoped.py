"""What every object of a project shares, below HTTP: a PATCH's changes with a rename checked."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session
from support import services

from steward.environments import service as environments
from steward.environments.schemas import EnvironmentCreate, EnvironmentUpdate
from steward.errors import Conflict
from steward.projects import scoped


def test_a_rename_to_a_name_taken_in_the_project_is_refused(db_session: Session) -> None:
    project, actor = services.project(db_session), services.admin(db_session)
    mine, _theirs = (
        environments.create(db_session, project, EnvironmentCreate(name=name), actor=actor)
        for name in ("mine", "taken")
    )
    with pytest.raises(Conflict, match="an environment named 'taken' already exists"):
        scoped.changes_of(db_session, project, mine, EnvironmentUpdate(name="taken"), "environment")
    # controls: a free name, and the object's own name, are its changes as sent
    free = EnvironmentUpdate(name="free", description="d")
    assert scoped.changes_of(db_session, project, mine, free, "environment") == {
        "name": "free",
        "description": "d",
    }
    own = EnvironmentUpdate(name="mine")
    assert scoped.changes_of(db_session, project, mine, own, "environment") == {"name": "mine"}
