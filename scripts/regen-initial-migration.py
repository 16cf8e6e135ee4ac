"""Regenerate the single initial migration from the models (before the first release only)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from alembic import command

from steward.migrations import HERE, alembic_config

for old in (HERE / "versions").glob("*.py"):
    old.unlink()
with tempfile.TemporaryDirectory() as tmp:
    cfg = alembic_config(f"sqlite:///{Path(tmp) / 'empty.db'}")
    command.revision(cfg, message="initial schema", autogenerate=True, rev_id="0001")
