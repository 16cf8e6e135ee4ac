"""Ad-hoc commands (``runs.adhoc``): the modules allowed, and launching one on an inventory."""

from __future__ import annotations

from fastapi import APIRouter, Depends, status

from steward.access.policy import Action
from steward.api import deps
from steward.bounds import Id
from steward.runs import adhoc, schemas, service
from steward.runs.models import LaunchType
from steward.runs.routes import _read
from steward.templates.launch import LaunchOverrides

router = APIRouter(prefix="/projects/{project_id}", tags=["runs"])


@router.get("/adhoc/modules")
def list_adhoc_modules(rights: deps.AccessDep, rt: deps.RuntimeDep) -> schemas.AdhocModules:
    """The modules an ad-hoc command may run here, and whether the caller may run one
    (``adhoc:run``)."""
    rights.require(Action.PROJECT_VIEW)
    modules = list(rt.settings.adhoc_modules)
    return schemas.AdhocModules(
        modules=modules,
        free_form=[module for module in modules if module in adhoc.FREE_FORM],
        allowed=Action.ADHOC_RUN in rights.actions,
    )


async def _may_run_adhoc(rights: deps.AccessDep) -> None:
    """adhoc:run, answered before the body is (the gate asks it again): 404, 403."""
    rights.require(Action.ADHOC_RUN)


@router.post(
    "/inventories/{inventory_id}/adhoc",
    status_code=status.HTTP_201_CREATED,
    dependencies=[Depends(_may_run_adhoc)],
)
def launch_adhoc(
    inventory_id: Id,
    body: schemas.AdhocCreate,
    launching: deps.LaunchingDep,
    rt: deps.RuntimeDep,
) -> schemas.RunRead:
    """Queue an ad-hoc command on the inventory's hosts (``limit``): an allowed module with its
    arguments (data, never templated); needs ``adhoc:run``. The run is like any other."""
    command = adhoc.AdhocLaunch(inventory_id, body, rt.settings.adhoc_modules)
    trigger = service.Trigger(LaunchType(body.launch_type))
    request = service.Launch(
        launching.rights, launching.actor, None, LaunchOverrides(), trigger, adhoc=command
    )
    session = launching.session
    run = service.launch_now(session, request, cipher=launching.cipher, queue=launching.queue)
    return _read(run, *service.names(session, run))
