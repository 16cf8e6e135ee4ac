"""The ASGI application: routers under /api/v1, problem+json errors, the body limit, the offline
API reference and the run queue's lifecycle."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter
from starlette.routing import BaseRoute

from steward import __version__
from steward.api import problems
from steward.api.branches import branched, unbranched
from steward.api.limits import BodyLimit
from steward.api.spa import DEFAULT_DIST, mount_spa
from steward.audit.routes import router as audit_router
from steward.auth.routes import router as auth_router
from steward.dashboard.routes import router as dashboard_router
from steward.directory.oidc_routes import router as oidc_router
from steward.directory.sync_routes import router as directory_sync_router
from steward.drift.routes import router as drift_router
from steward.environments.routes import router as environments_router
from steward.freezes.routes import project_router as project_freezes_router
from steward.freezes.routes import router as freezes_router
from steward.galaxy.routes import router as galaxy_router
from steward.grants.routes import router as grants_router
from steward.health.routes import instance as all_health_router
from steward.health.routes import router as health_router
from steward.hosts.routes import instance as all_hosts_router
from steward.hosts.routes import router as hosts_router
from steward.inventories.routes import router as inventories_router
from steward.keys.routes import router as keys_router
from steward.metrics.routes import router as metrics_router
from steward.monitoring.routes import router as monitoring_router
from steward.notifications.routes import router as notifications_router
from steward.plans.routes import router as plans_router
from steward.plans.routes import waiting_plans as waiting_plans_router
from steward.portability.routes import router as portability_router
from steward.projects.routes import router as projects_router
from steward.queue import RunQueue
from steward.repositories.routes import router as repositories_router
from steward.retention.routes import router as retention_router
from steward.runner_groups.routes import router as runner_groups_router
from steward.runner_groups.routes import workers as workers_router
from steward.runs.adhoc_routes import router as adhoc_router
from steward.runs.compare_routes import router as compare_runs_router
from steward.runs.routes import all_runs as all_runs_router
from steward.runs.routes import router as runs_router
from steward.runs.values import LaunchSetting
from steward.runtime import Runtime
from steward.schedules.routes import router as schedules_router
from steward.teams.routes import router as teams_router
from steward.templates.options.routes import router as survey_options_router
from steward.templates.routes import router as templates_router
from steward.templates.routes import venvs_router
from steward.templates.stats_routes import router as template_stats_router
from steward.webhooks.routes import hooks as hooks_router
from steward.webhooks.routes import router as webhooks_router
from steward.workflows.routes import approvals as approvals_router
from steward.workflows.routes import router as workflows_router

API_PREFIX = "/api/v1"
DOCS_URL = f"{API_PREFIX}/docs"
DOCS_STATIC_URL = f"{DOCS_URL}/static"
# Swagger UI's JS and CSS as the pinned fastapi-offline package ships them: the reference works
# on a server without Internet access and loads nothing from a third party
DOCS_STATIC_DIR = Path(str(resources.files("fastapi_offline") / "static"))
# what the console lists value by value though no body names it (a query's "field:value"): in
# the document's schemas all the same, so the typed client fails to build when one grows
LISTED: dict[str, Any] = {"LaunchSetting": LaunchSetting}


class Lifecycle(Protocol):
    """Anything the app starts and stops with itself: the in-process dispatcher, the scheduler,
    the notifier."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


def create_app(runtime: Runtime, queue: RunQueue, services: Sequence[Lifecycle] = ()) -> FastAPI:
    """``services`` start in order when the app starts and stop in reverse order."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        with contextlib.ExitStack() as stack:
            for service in services:
                service.start()
                stack.callback(service.stop)
            yield

    app = FastAPI(
        title="Steward",
        version=__version__,
        summary="Run Ansible playbooks as a team: projects, keys, templates, recorded runs.",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,  # served by _mount_docs, without a CDN
        redoc_url=None,
        lifespan=lifespan,
    )
    app.openapi = functools.partial(_openapi, app)  # type: ignore[method-assign]
    app.state.runtime = runtime
    app.state.queue = queue
    problems.install(app)
    app.add_middleware(BodyLimit, max_bytes=runtime.settings.max_body_bytes)
    _mount_docs(app)

    app.router.routes.extend(branched(_api_routes()))
    mount_spa(app, runtime.settings.ui_dir or DEFAULT_DIST)
    return app


def health() -> dict[str, str]:
    """Liveness: answers without authentication, with the server's version."""
    return {"status": "ok", "version": __version__}


@functools.cache
def _api_routes() -> tuple[BaseRoute, ...]:
    """Every route under ``/api/v1``, built once per process.

    FastAPI compiles each route's parameter and response models when a router is included
    (a quarter of a second for this API). A route holds nothing of the app it serves (the
    runtime is found through ``request.app``), so every app of a process shares them.
    """
    api = APIRouter(prefix=API_PREFIX, responses=problems.OPENAPI_RESPONSES)
    api.add_api_route("/health", health, methods=["GET"], tags=["health"])
    api.include_router(monitoring_router)
    for router in (
        auth_router,
        oidc_router,
        directory_sync_router,
        teams_router,
        portability_router,  # before projects_router: "import" is not a project id
        projects_router,
        keys_router,
        repositories_router,
        inventories_router,
        environments_router,
        galaxy_router,
        templates_router,
        template_stats_router,
        survey_options_router,
        venvs_router,
        grants_router,
        schedules_router,
        workflows_router,
        waiting_plans_router,  # before approvals_router
        approvals_router,
        notifications_router,
        adhoc_router,
        compare_runs_router,  # before runs_router: "compare" is not a run id
        runs_router,
        plans_router,
        drift_router,
        metrics_router,
        all_runs_router,
        hosts_router,
        health_router,
        all_health_router,
        all_hosts_router,
        dashboard_router,
        audit_router,
        retention_router,
        webhooks_router,
        hooks_router,
        runner_groups_router,
        workers_router,
        freezes_router,
        project_freezes_router,
    ):
        api.include_router(router)
    return tuple(api.routes)


_DESCRIBED = ("title", "version", "openapi_version", "summary", "description")


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, with ``LISTED`` among its schemas."""
    if app.openapi_schema is None:
        described = {name: getattr(app, name) for name in _DESCRIBED}
        # api.branches: the document walks the routers behind the branches
        document = get_openapi(routes=unbranched(app.routes), **described)
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        for name, listed in LISTED.items():
            schemas[name] = {"title": name, **TypeAdapter(listed).json_schema()}
        app.openapi_schema = document
    return app.openapi_schema


def _mount_docs(app: FastAPI) -> None:
    """Swagger UI at ``/api/v1/docs``, its assets served by this process."""
    app.mount(DOCS_STATIC_URL, StaticFiles(directory=DOCS_STATIC_DIR), name="docs-static")

    @app.get(DOCS_URL, include_in_schema=False)
    def docs(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} API",
            swagger_js_url=f"{root}{DOCS_STATIC_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{DOCS_STATIC_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{DOCS_STATIC_URL}/favicon.png",
            # Swagger UI would otherwise show a badge fetched from validator.swagger.io
            swagger_ui_parameters={"validatorUrl": None},
        )
