"""Ansible variable names (extra vars, survey questions); extra vars are bounded JSON."""

from __future__ import annotations

import keyword
import re
from typing import Annotated, Any

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from steward.bounds import VARIABLE_NAME_MAX, JsonObject

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED = frozenset({"True", "False", "None"})


def is_variable_name(name: str) -> bool:
    """The rule of ``ansible.utils.vars.isidentifier``: a Python identifier, not a keyword."""
    return (
        _NAME.fullmatch(name) is not None and not keyword.iskeyword(name) and name not in _RESERVED
    )


def _variable_name(name: str) -> str:
    if not is_variable_name(name):
        raise PydanticCustomError(
            "variable_name",
            "'{name}' is not a valid variable name (letters, digits and _; not a keyword)",
            {"name": name},
        )
    return name


def _variable_names(variables: dict[str, Any]) -> dict[str, Any]:
    for name in variables:
        _variable_name(name)
    return variables


VariableName = Annotated[str, Field(max_length=VARIABLE_NAME_MAX), AfterValidator(_variable_name)]
ExtraVars = Annotated[JsonObject, AfterValidator(_variable_names)]
