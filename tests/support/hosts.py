"""Hosts for the hosts view's tests: a static inventory of a DBA's hosts, finished runs with
their per-host recap, a recap as the recorder hands it to ``hosts.seen``."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from steward.db import utcnow
from steward.hosts import seen
from steward.inventories import service as inventories
from steward.inventories.models import Inventory
from steward.inventories.schemas import InventoryCreate
from steward.metrics import packing
from steward.metrics.models import MetricChunk
from steward.metrics.series import HOST_SERIES, LaneKind, stored_names
from steward.projects.models import Project
from steward.repositories.checkout import Reach
from steward.runs.models import RunHost
from steward.runs.status import RunStatus
from support import services
from support.builders import inserted_run

INI = """
[db]
oradb01 ansible_host=10.0.0.1 tier=gold
oradb02 tier=silver db_password=hunter2

[app]
web01

[prod:children]
db
"""


def recap(host: str, **counts: int) -> dict[str, Any]:
    return {"host": host, "ok": 0, "changed": 0, "failed": 0, "unreachable": 0, **counts}


def finished_run(session: Session, project: Project, *hosts: RunHost, **columns: Any) -> int:
    """A finished run of ``project`` with the recap ``hosts``, kept per host as the recorder
    keeps a recap (``hosts.seen``)."""
    run = inserted_run(project.id, None, RunStatus.SUCCESSFUL, **columns)
    session.add(run)
    session.flush()
    for host in hosts:
        host.run_id = run.id
        session.add(host)
    session.flush()
    counts = [
        {"host": h.host, "failed": h.failed, "unreachable": h.unreachable, "changed": h.changed}
        for h in hosts
    ]
    seen.record(session, run.id, counts, at=run.created_at or utcnow())
    return run.id


def static_inventory(
    session: Session, project: Project, tmp_path: Path, content: str = INI
) -> Inventory:
    body = InventoryCreate.model_validate_json(
        json.dumps({"name": "prod", "kind": "static", "format": "ini", "content": content})
    )
    reach = Reach(services.cipher(), [], services.guard(), tmp_path)
    return inventories.create(session, project, body, actor=services.admin(session), reach=reach)


def metric_chunk(run_id: int, host: str, start: int, rows: list[dict[str, float]]) -> MetricChunk:
    """A chunk of ``host``'s lane in run ``run_id``: one sample a second from ``start`` (epoch
    ms), each row the values of some series (the others not measured)."""
    times = [start + 1000 * i for i in range(len(rows))]
    columns = [[row.get(name, math.nan) for row in rows] for name in HOST_SERIES]
    return MetricChunk(
        run_id=run_id,
        kind=LaneKind.HOST,
        host=host,
        start_ms=times[0],
        end_ms=times[-1],
        count=len(times),
        series=stored_names(HOST_SERIES),
        data=packing.pack(times[0], times, columns),
    )
