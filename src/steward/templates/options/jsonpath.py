"""A small JSON path to the list of options in an answer: ``data.items[*].name``.

Steps are names (``a.b``), indexes (``[0]``) and ``[*]`` (each element of a list; what follows
applies to each). An empty path is the document itself. No filters, no recursion, no scripts:
the path is data a template writer typed, and it is evaluated on an untrusted answer.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic_core import PydanticCustomError

STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_-]*)|\[(\*|\d{1,6})\]")
STEPS_MAX = 16


class PathMissed(Exception):
    """The path does not lead to a list of options in this document; ``str()`` says why."""


def parse(path: str) -> list[str | int | None]:
    """The steps of ``path``: a name, an index, or None for ``[*]``; ValueError when it is not
    a path of this grammar."""
    steps: list[str | int | None] = []
    position = 0
    while position < len(path):
        match = STEP.match(path, position)
        if match is None or (position == 0 and path.startswith(".")):
            raise ValueError(
                f"not a JSON path at character {position + 1} (e.g. data.items[*].name)"
            )
        name, index = match.groups()
        if name is not None:
            steps.append(name)
        else:
            steps.append(None if index == "*" else int(index))
        position = match.end()
    if len(steps) > STEPS_MAX:
        raise ValueError(f"at most {STEPS_MAX} steps")
    return steps


def checked(path: str) -> str:
    """A pydantic validator: ``path`` parses."""
    try:
        parse(path)
    except ValueError as exc:
        raise PydanticCustomError("json_path", "{cause}", {"cause": str(exc)}) from None
    return path


def evaluate(path: str, document: Any) -> list[Any]:
    """The values ``path`` reaches in ``document``, flattened to one list: a path ending on a
    list gives its elements; ``PathMissed`` when a step finds nothing."""
    found: list[Any] = [document]
    for step in parse(path):
        found = [_step(value, step) for value in found]
        if step is None:
            found = [item for values in found for item in values]
    if len(found) == 1 and isinstance(found[0], list):
        return list(found[0])
    return found


def _step(value: Any, step: str | int | None) -> Any:
    if isinstance(step, str):
        if not isinstance(value, dict) or step not in value:
            raise PathMissed(f"no key '{step}' where the path expects an object")
        return value[step]
    if not isinstance(value, list):
        raise PathMissed("the path expects a list where the answer has none")
    if step is None:
        return value
    if step >= len(value):
        raise PathMissed(f"index {step} is past the end of a list of {len(value)}")
    return value[step]
