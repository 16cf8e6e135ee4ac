"""Regenerate the single initial migration from the models (before the first release only)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from alembic import command

from steward.migrations import HERE, alembic_config

for old in (HERE / "versions").glob("*.py"):
    old.unlink()
with tempfile.TemporaryDirectory() as tmp:
    cfg = alembic_config(f"sqlite:///{Path(tmp) / 'empty.db'}")
    command.revision(cfg, message="initial schema", autogenerate=True, rev_id="0001")

# Autogenerate writes what it writes; make it pass `make lint` as committed.
generated = [str(path) for path in (HERE / "versions").glob("*.py")]
ruff = str(Path(sys.executable).with_name("ruff"))
subprocess.run([ruff, "format", "--quiet", *generated], check=True)
subprocess.run([ruff, "check", "--fix", "--quiet", *generated], check=True)
