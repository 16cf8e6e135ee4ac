"""Serve the built web console (``frontend/dist``, or ``steward/console`` in a wheel) from the
API process.

Hashed files under ``assets/`` never change, so browsers may keep them for a year;
``index.html`` and the other top-level files are revalidated on every load so a new
build is picked up at once. Every path outside ``/api/`` that is not a file gets
``index.html``, so the console's client-side routes survive a reload.
"""

from __future__ import annotations

import logging
from pathlib import Path

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import FileResponse
from starlette.routing import Match, Route
from starlette.types import Scope

log = logging.getLogger(__name__)

# an installed wheel carries the console in the package (steward/console, `make wheel`); a source
# checkout has it at <repo>/frontend/dist once built (src/steward/api/spa.py -> <repo>)
PACKAGED_DIST = Path(__file__).resolve().parents[1] / "console"
CHECKOUT_DIST = Path(__file__).resolve().parents[3] / "frontend" / "dist"
DEFAULT_DIST = PACKAGED_DIST if (PACKAGED_DIST / "index.html").is_file() else CHECKOUT_DIST
ROUTE_NAME = "spa"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


class _SpaRoute(Route):
    """A catch-all that steps aside for ``/api/``, so unknown API paths stay problem+json 404s."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and (scope["path"] + "/").startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)


def _resolve(dist: Path, path: str) -> Path | None:
    """The file in ``dist`` that ``path`` names, or None (also for ``..`` escapes)."""
    candidate = (dist / path.lstrip("/")).resolve()
    if candidate.is_file() and candidate.is_relative_to(dist):
        return candidate
    return None


def mount_spa(app: FastAPI, dist: Path) -> None:
    """Serve ``dist`` at ``/``; a no-op (logged) when the console has not been built."""
    dist = dist.resolve()
    index = dist / "index.html"
    if not index.is_file():
        log.info("web console not built (%s missing): serving the API only", index)
        return
    assets = dist / "assets"

    async def serve(request: Request) -> FileResponse:
        found = _resolve(dist, request.path_params["path"])
        if found is None or found == index:
            return FileResponse(index, headers={"Cache-Control": REVALIDATE})
        cache = IMMUTABLE if found.is_relative_to(assets) else REVALIDATE
        return FileResponse(found, headers={"Cache-Control": cache})

    app.router.routes.append(
        _SpaRoute("/{path:path}", serve, methods=["GET", "HEAD"], name=ROUTE_NAME)
    )
    log.info("serving the web console from %s", dist)
