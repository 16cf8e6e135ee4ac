"""Host patterns and tag lists as a template or a launch gives them to ``ansible-playbook``.

They are data: never an option (``--limit -x`` would be read as a flag) and never a file (a limit
element ``@path`` makes Ansible read that file, outside the checkout).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from steward.api.bounds import Line

_FILE_ELEMENT = re.compile(r"(?:^|[,:])\s*[!&]?\s*@")


def _not_an_option(value: str) -> str:
    if value.lstrip().startswith("-"):
        raise PydanticCustomError("not_an_option", "must not start with '-'")
    return value


def _one_line(value: str) -> str:
    """No NUL (an argument cannot hold one) nor any other control character."""
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in value):
        raise PydanticCustomError("control_character", "must not contain control characters")
    return value


def _no_file(value: str) -> str:
    if _FILE_ELEMENT.search(value):
        raise PydanticCustomError(
            "host_pattern_file", "a pattern may not start with '@' (Ansible would read a file)"
        )
    return value


HostPattern = Annotated[
    Line, AfterValidator(_one_line), AfterValidator(_not_an_option), AfterValidator(_no_file)
]
TagList = Annotated[Line, AfterValidator(_one_line), AfterValidator(_not_an_option)]
