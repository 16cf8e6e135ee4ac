"""A response body made once, for the routes polled or called most (a run, the runs list, a
launch): a route run in a worker thread that returns a model has FastAPI validate it in one
more hop to a worker and back (~0.13 ms of CPU, more wall on a busy machine), then serialize
it; returned as a ``Response`` it is serialized once, by pydantic, and the route's
``response_model`` still documents it."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import Response
from pydantic import BaseModel


def json_body(
    body: BaseModel, status_code: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    return Response(
        body.model_dump_json(),
        status_code=status_code,
        media_type="application/json",
        headers=headers,
    )
