"""A template's labels below HTTP: the templates list's ``label`` filter, read in the stored
JSON on both databases (a label is a slug: no quote, and '_' is no wildcard)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services

from steward.templates import service as templates


@pytest.mark.both_databases
def test_the_list_filters_by_one_label_exactly(db_session: Session) -> None:
    project = services.project(db_session)
    support_runs.template(db_session, project, "db", labels=["db_tier", "prod"])
    support_runs.template(db_session, project, "web", labels=["dbxtier", "prod.eu"])
    support_runs.template(db_session, project, "bare")

    def named(label: str | None) -> list[str]:
        rows, total = templates.list_for_project(
            db_session, project, limit=10, offset=0, label=label
        )
        assert total == len(rows)
        return [t.name for t in rows]

    assert named("prod") == ["db"]
    assert named("db_tier") == ["db"]  # '_' matches itself only
    assert named("prod.eu") == ["web"]
    assert named("pro") == named("tier") == []
    assert named(None) == ["bare", "db", "web"]  # the control: no filter
