#!/bin/sh
# Regenerate the typed API client: dump the server's OpenAPI document by importing the app
# (no server, no network; scripts/api-schema.py, also behind `make api-schema`), then turn
# it into TypeScript types for openapi-fetch.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$here/.." && pwd)
python="${STEWARD_PYTHON:-$repo/.venv/bin/python}"

"$python" "$repo/scripts/api-schema.py" "$here/openapi.json"
cd "$here"
npx --no-install openapi-typescript openapi.json -o src/api/schema.d.ts
npx --no-install prettier --log-level warn --write src/api/schema.d.ts
