"""A new migration revision from what the models changed: ``make migration MESSAGE="…"``.

The database is migrated to the newest revision first, so autogenerate writes only the change;
the revision is numbered after the newest (0002, 0003, …). Read it before committing: renames
come out as a drop and an add, and data moves are for you to write (docs/patterns.md)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.script import ScriptDirectory

from steward import migrations


def main(message: str) -> int:
    if not message.strip():
        print('usage: make migration MESSAGE="what changes"', file=sys.stderr)  # noqa: T201
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'head.db'}"
        migrations.upgrade(url)
        cfg = migrations.alembic_config(url)
        head = ScriptDirectory.from_config(cfg).get_current_head() or "0000"
        script = command.revision(
            cfg, message=message, autogenerate=True, rev_id=f"{int(head) + 1:04d}"
        )
    paths = [str(s.path) for s in (script if isinstance(script, list) else [script]) if s]
    ruff = str(Path(sys.executable).with_name("ruff"))
    subprocess.run([ruff, "format", "--quiet", *paths], check=True)
    subprocess.run([ruff, "check", "--fix", "--quiet", *paths], check=True)
    print(*paths)  # noqa: T201
    return 0


if __name__ == "__main__":
    sys.exit(main(" ".join(sys.argv[1:])))
