"""What a delivery's body and headers are asked: matchers (all must hold), extractors (body
fields that become launch values) and the ref a delivery may name.

A body path is dotted: ``a.b.0.c`` walks objects by key and lists by index. Everything read
here is untrusted data; it only ever becomes a launch value (``runner.extravars`` marks it
unsafe) or a ref checked against the repositories' ref pattern.
"""

from __future__ import annotations

import enum
import fnmatch
import json
import re
from collections.abc import Mapping
from typing import Any

from steward.bounds import LABEL_MAX
from steward.repositories.schemas import REF_PATTERN

SHOWN_MAX = 100  # characters of a value quoted in a reason
_REF = re.compile(REF_PATTERN)
_BRANCH_PREFIXES = ("refs/heads/", "refs/tags/")


class MatchSource(enum.StrEnum):
    BODY = "body"
    HEADER = "header"


class MatchOp(enum.StrEnum):
    EQUALS = "equals"  # the value, exactly (a JSON scalar; a string for a header)
    ONE_OF = "one_of"  # one of a list of values
    GLOB = "glob"  # a string matching a shell pattern (fnmatch, case-sensitive): refs/tags/v*
    EXISTS = "exists"  # present (and not null)


class _Missing:
    def __repr__(self) -> str:
        return "missing"


MISSING: Any = _Missing()


def lookup(document: Any, path: str) -> Any:
    """The value at dotted ``path`` in a JSON document, or ``MISSING``."""
    value = document
    for segment in path.split("."):
        if isinstance(value, dict):
            value = value.get(segment, MISSING)
        elif isinstance(value, list) and segment.isdigit() and int(segment) < len(value):
            value = value[int(segment)]
        else:
            return MISSING
        if value is MISSING:
            return MISSING
    return value


def shown(value: Any) -> str:
    """A value as a reason quotes it: JSON, cut to ``SHOWN_MAX`` characters."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= SHOWN_MAX else text[:SHOWN_MAX] + "…"


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` is ``1.0``, ``"1"`` is neither."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def describe(source: str, path: str, op: str, value: Any) -> str:
    """``header X-GitHub-Event equals "push"``."""
    where = f"{source} {path}"
    if op == MatchOp.EXISTS:
        return f"{where} exists"
    return f"{where} {op.replace('_', ' ')} {shown(value)}"


def miss(
    source: str, path: str, op: str, value: Any, body: Any, headers: Mapping[str, str]
) -> str | None:
    """Why the matcher does not hold for this delivery, or None when it holds."""
    found = (
        headers.get(path.lower(), MISSING) if source == MatchSource.HEADER else lookup(body, path)
    )
    if found is MISSING or found is None:
        return f"there is no {path}" if source == MatchSource.HEADER else f"the body has no {path}"
    if op == MatchOp.EXISTS:
        return None
    if op == MatchOp.EQUALS:
        holds = _same(found, value)
    elif op == MatchOp.ONE_OF:
        holds = any(_same(found, v) for v in value)
    else:
        holds = isinstance(found, str) and fnmatch.fnmatchcase(found, str(value))
    return None if holds else f"it is {shown(found)}"


def extract(extractors: Mapping[str, str], body: Any) -> dict[str, Any]:
    """``{variable: value}`` of every extractor whose path is in the body (absent ones unset)."""
    values = {}
    for variable, path in extractors.items():
        value = lookup(body, path)
        if value is not MISSING:
            values[variable] = value
    return values


def ref_of(body: Any, path: str) -> str:
    """The branch, tag or commit at ``path``: ``refs/heads/x`` and ``refs/tags/x`` become
    ``x`` (what git clones); raises ``ValueError`` with the reason when it is not a safe ref."""
    value = lookup(body, path)
    if value is MISSING or value is None:
        raise ValueError(f"ref_from: the body has no {path}")
    if not isinstance(value, str):
        raise ValueError(f"ref_from: {path} is {shown(value)}, not a string")
    for prefix in _BRANCH_PREFIXES:
        if value.startswith(prefix):
            value = value.removeprefix(prefix)
            break
    if not value or len(value) > LABEL_MAX or not _REF.match(value) or ".." in value:
        raise ValueError(
            f"ref_from: {path} is {shown(value)}, not a branch, tag or commit name "
            "(letters, digits and ._/+@-, not beginning with '-', no '..')"
        )
    return value
