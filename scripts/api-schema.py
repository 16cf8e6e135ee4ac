"""Write the API's OpenAPI schema (as served at /api/v1/openapi.json) to the given file."""

from __future__ import annotations

import json
import secrets
import sys
import tempfile
from pathlib import Path

from steward.config import Settings
from steward.server import build_app


def main(target: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), admin_password=secrets.token_urlsafe())  # type: ignore[arg-type]  # pydantic coerces to SecretStr
        app = build_app(settings)
        schema = app.openapi()
        app.state.runtime.engine.dispose()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(schema, indent=2, sort_keys=False) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
