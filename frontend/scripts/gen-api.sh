#!/bin/sh
# Regenerate the typed API client: dump the server's OpenAPI document by importing the app
# (no server, no network; scripts/api-schema.py, also behind `make api-schema`), then turn
# it into TypeScript types for openapi-fetch. A file whose text did not change is left as it
# was, its time too (`npm run check:api` would otherwise make the built console look stale to
# `make ui`, which then builds it again).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$here/.." && pwd)
python="${STEWARD_PYTHON:-$repo/.venv/bin/python}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$python" "$repo/scripts/api-schema.py" "$tmp/openapi.json"
cd "$here"
npx --no-install openapi-typescript "$tmp/openapi.json" -o "$tmp/schema.d.ts"
npx --no-install prettier --log-level warn --stdin-filepath src/api/schema.d.ts <"$tmp/schema.d.ts" >"$tmp/schema.pretty.d.ts"
cmp -s "$tmp/openapi.json" openapi.json || cp "$tmp/openapi.json" openapi.json
cmp -s "$tmp/schema.pretty.d.ts" src/api/schema.d.ts || cp "$tmp/schema.pretty.d.ts" src/api/schema.d.ts
