from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(prefix="/projects/{project_id}/runs", tags=["runs"])
