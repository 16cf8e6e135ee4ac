"""The one mapping from errors to RFC 9457 problem+json responses."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, cast

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException

from steward.errors import (
    Conflict,
    DomainError,
    InvalidInput,
    InvalidState,
    NotAuthenticated,
    NotFound,
    PermissionDenied,
    TooManyRequests,
    Unavailable,
    Unreachable,
)

log = logging.getLogger(__name__)


class FieldError(BaseModel):
    field: str
    message: str


class Problem(BaseModel):
    """RFC 9457 problem details: every 4xx/5xx answer has this shape."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    errors: list[FieldError] | None = None


_PROBLEM = {"model": Problem, "content": {"application/problem+json": {}}}
OPENAPI_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not authenticated", **_PROBLEM},
    403: {"description": "Forbidden: the missing permission is named", **_PROBLEM},
    404: {"description": "Not found (or not visible to the caller)", **_PROBLEM},
    409: {"description": "Conflict or invalid state", **_PROBLEM},
    413: {"description": "Content too large: the body is over the server's limit", **_PROBLEM},
    422: {"description": "Invalid input: each error names its field", **_PROBLEM},
}

STATUS: dict[type[DomainError], tuple[int, str]] = {
    NotFound: (404, "Not Found"),
    NotAuthenticated: (401, "Not Authenticated"),
    PermissionDenied: (403, "Forbidden"),
    Conflict: (409, "Conflict"),
    InvalidState: (409, "Invalid State"),
    Unreachable: (422, "Unreachable"),
    InvalidInput: (422, "Invalid Input"),
    TooManyRequests: (429, "Too Many Requests"),
    Unavailable: (503, "Service Unavailable"),
}


def problem(
    status: int,
    title: str,
    detail: str,
    *,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extra}
    return JSONResponse(body, status, headers=headers, media_type="application/problem+json")


def _field(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in {"body", "query", "path", "header", "cookie"}:
        parts = parts[1:] if parts[0] == "body" else parts
    return ".".join(parts) or "body"


def _invalid(errors: list[dict[str, str]]) -> JSONResponse:
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
    return problem(422, "Invalid Input", detail, errors=errors)


def _validation(_request: Request, exc: Exception) -> JSONResponse:
    exc = cast(RequestValidationError, exc)  # registered for this class only
    errors = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            errors.append({"field": "body", "message": _json_error(err, exc.body)})
            continue
        field = _field(err.get("loc", ()))
        message = err.get("msg", "invalid")
        if err.get("type") == "extra_forbidden":
            message = "unknown field"
        errors.append({"field": field, "message": message})
    return _invalid(errors)


def _json_error(err: Mapping[str, Any], document: Any) -> str:
    """FastAPI gives the offset into the body; people look for a line and a column."""
    cause = err.get("ctx", {}).get("error", "syntax error")
    loc = err.get("loc", ())
    offset = loc[-1] if loc and isinstance(loc[-1], int) else None
    if offset is None or not isinstance(document, str):
        return f"is not valid JSON: {cause}"
    line = document.count("\n", 0, offset) + 1
    column = offset - document.rfind("\n", 0, offset)
    return f"is not valid JSON: {cause} (line {line}, column {column})"


def _unreadable_body(cause: BaseException | None) -> str | None:
    """Why FastAPI could not read a JSON body, for the causes its generic 400 hides."""
    if isinstance(cause, UnicodeDecodeError):
        byte = cause.object[cause.start]
        encoding = cause.encoding.upper()
        return f"is not valid {encoding} (byte 0x{byte:02x} at position {cause.start})"
    if isinstance(cause, RecursionError):
        return "is not valid JSON: nested too deeply to parse"
    if isinstance(cause, ValueError):  # a number too long to convert, …
        return f"is not valid JSON: {str(cause).partition(';')[0]}"
    return None


def _domain(_request: Request, exc: Exception) -> JSONResponse:
    exc = cast(DomainError, exc)
    for cls in type(exc).__mro__:
        if cls in STATUS:
            status, title = STATUS[cls]
            break
    else:  # a domain error with no more precise meaning (a checkout that failed, …)
        status, title = 400, "Bad Request"
    extra: dict[str, Any] = {}
    headers = None
    if isinstance(exc, InvalidInput):
        extra["errors"] = [{"field": exc.field, "message": exc.reason}]
    if isinstance(exc, TooManyRequests):
        headers = {"Retry-After": str(exc.retry_after)}
    if isinstance(exc, NotAuthenticated):
        headers = {"WWW-Authenticate": "Bearer"}
    return problem(status, title, exc.message, headers=headers, **extra)


def _integrity(_request: Request, exc: Exception) -> JSONResponse:
    # services check what they can name precisely; this is the backstop for races between
    # two requests and for references still in use (a key used by a template, …)
    log.info("integrity error: %s", exc.__class__.__name__)
    return problem(409, "Conflict", "the change conflicts with existing data (duplicate or in use)")


def _http(_request: Request, exc: Exception) -> JSONResponse:
    exc = cast(HTTPException, exc)
    unreadable = _unreadable_body(exc.__cause__) if exc.status_code == 400 else None
    if unreadable is not None:  # the same status as a JSON syntax error: the body is invalid
        return _invalid([{"field": "body", "message": unreadable}])
    return problem(exc.status_code, str(exc.detail), str(exc.detail), headers=exc.headers)


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(DomainError, _domain)
    app.add_exception_handler(IntegrityError, _integrity)
    app.add_exception_handler(HTTPException, _http)
