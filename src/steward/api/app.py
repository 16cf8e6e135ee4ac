"""The ASGI application: routers under /api/v1, problem+json errors, the run queue's lifecycle."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Protocol

from fastapi import APIRouter, FastAPI

from steward.api import problems
from steward.api.spa import DEFAULT_DIST, mount_spa
from steward.audit.routes import router as audit_router
from steward.auth.routes import router as auth_router
from steward.dispatch.queue import RunQueue
from steward.environments.routes import router as environments_router
from steward.grants.routes import router as grants_router
from steward.inventories.routes import router as inventories_router
from steward.keys.routes import router as keys_router
from steward.projects.routes import router as projects_router
from steward.repositories.routes import router as repositories_router
from steward.runs.routes import all_runs as all_runs_router
from steward.runs.routes import router as runs_router
from steward.runtime import Runtime
from steward.teams.routes import router as teams_router
from steward.templates.routes import router as templates_router

API_PREFIX = "/api/v1"


class Lifecycle(Protocol):
    """Anything the app starts and stops with itself (the in-process dispatcher)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


class _Nothing:
    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


def create_app(runtime: Runtime, queue: RunQueue, lifecycle: Lifecycle | None = None) -> FastAPI:
    managed = lifecycle or _Nothing()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        managed.start()
        try:
            yield
        finally:
            managed.stop()

    app = FastAPI(
        title="Steward",
        version="0.1.0",
        summary="Run Ansible playbooks as a team: projects, keys, templates, recorded runs.",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=f"{API_PREFIX}/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.runtime = runtime
    app.state.queue = queue
    problems.install(app)

    api = APIRouter(prefix=API_PREFIX, responses=problems.OPENAPI_RESPONSES)

    @api.get("/health", tags=["health"])
    def health() -> dict[str, str]:
        """Liveness: answers without authentication."""
        return {"status": "ok"}

    for router in (
        auth_router,
        teams_router,
        projects_router,
        keys_router,
        repositories_router,
        inventories_router,
        environments_router,
        templates_router,
        grants_router,
        runs_router,
        all_runs_router,
        audit_router,
    ):
        api.include_router(router)
    app.include_router(api)
    mount_spa(app, runtime.settings.ui_dir or DEFAULT_DIST)
    return app
