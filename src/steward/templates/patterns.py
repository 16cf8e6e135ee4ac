"""Host patterns and tag lists as a template or a launch gives them to ``ansible-playbook``.

They are data: never an option and never a file. Each value is split into its elements exactly as
ansible-core splits it, and every element is checked, so no spelling slips between the two
readings:

- ``--limit``: ``ansible.inventory.manager.split_host_pattern`` (commas; else one address with
  its ``[x:y]`` ranges or IPv6 colons; else colons, brackets kept whole, *and whitespace*), then
  ``InventoryManager.subset`` reads every element starting with ``@`` as a file of host names
  (``all @/etc/shadow``, ``a, @f``, ``all\\u00a0@f`` all read the file). Refused: an element
  starting with ``@`` (also after ``!``/``&``: Ansible then reads no file, but the element can
  name no host and the spelling is one character away) or with ``-``.
- ``--tags``/``--skip-tags``: ``ansible.cli.CLI.post_process_args`` splits on ``,`` and strips
  each tag. Tags never name a file; an element starting with ``-`` is refused.

Only ``parse_address`` is imported from ansible-core: ``split_host_pattern``'s module loads
Ansible's configuration (an ``ansible.cfg`` of the working directory, ``ANSIBLE_*``) into the
server. The few lines around it are copied, and tests/templates/test_patterns.py compares the copy
with the installed ansible-core on every spelling of the table, so a new ansible-core that splits
differently fails the tests instead of passing a file. It is imported at the first limit read, not
with the server (ansible-core: 2 MiB and 45 modules a server that is only read never needs).

Every path that takes these values validates through ``HostPattern``/``TagList``: template save,
launch, relaunch (the failed hosts' limit included), schedules, workflow nodes, webhooks;
``steward.metrics.limit`` reads a limit's hosts through ``host_pattern_elements``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Annotated

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from steward.bounds import Line

# split_host_pattern's fallback: anything but whitespace or ':[]', or one complete [...]
_COLON_OR_SPACE_SEPARATED = re.compile(r"(?:[^\s:\[\]]|\[[^\]]*\])+")


def host_pattern_elements(pattern: str) -> list[str]:
    """The elements of a ``--limit`` value, as ``split_host_pattern`` gives them to Ansible."""
    if "," in pattern:
        parts = pattern.split(",")
    else:
        from ansible.parsing.utils.addresses import parse_address

        try:
            parse_address(pattern, allow_ranges=True)
            parts = [pattern]
        except Exception:  # noqa: BLE001 - Ansible's own `except Exception`: any failure splits
            parts = _COLON_OR_SPACE_SEPARATED.findall(pattern)
    return [part.strip() for part in parts if part.strip()]


def tag_elements(value: str) -> list[str]:
    """The tags of a ``--tags``/``--skip-tags`` value, as ``CLI.post_process_args`` reads it."""
    return [tag.strip() for tag in value.split(",")]


def _host_element_refusal(element: str) -> str | None:
    if element.startswith("@"):
        return f"element '{element}' would make Ansible read the file '{element[1:]}'"
    if element[:1] in ("!", "&") and element[1:].lstrip().startswith("@"):
        return f"element '{element}': a host pattern may not start with '@' (a file to Ansible)"
    if element.startswith("-"):
        return f"element '{element}' starts with '-', as an option of ansible-playbook does"
    return None


def _tag_refusal(element: str) -> str | None:
    if element.startswith("-"):
        return f"tag '{element}' starts with '-', as an option of ansible-playbook does"
    return None


def limit_refusal(value: str) -> str | None:
    """Why Ansible would read ``value`` as more than a host pattern, or None."""
    for element in host_pattern_elements(value):
        if cause := _host_element_refusal(element):
            return cause
    return None


def tags_refusal(value: str) -> str | None:
    """Why Ansible would read ``value`` as more than a list of tags, or None."""
    for element in tag_elements(value):
        if cause := _tag_refusal(element):
            return cause
    return None


def _checked(kind: str, refusal: Callable[[str], str | None]) -> Callable[[str], str]:
    def check(value: str) -> str:
        if cause := refusal(value):
            raise PydanticCustomError(kind, "{cause}", {"cause": cause})
        return value

    return check


def _one_line(value: str) -> str:
    """No NUL (an argument cannot hold one) nor any other control character."""
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in value):
        raise PydanticCustomError("control_character", "must not contain control characters")
    return value


# the element checks come first: `all\t@f` is refused for the file it names, not only the tab
HostPattern = Annotated[
    Line,
    AfterValidator(_checked("host_pattern_element", limit_refusal)),
    AfterValidator(_one_line),
]


def scope_refusal(element: str) -> str | None:
    """Why ``element`` cannot be one entry of a grant's host scope, or None: an entry names
    hosts to allow (a host, a group, a glob or ``~regex``), one element as Ansible splits a
    limit, never an exclusion or an intersection (the scope is the union of its entries)."""
    if cause := limit_refusal(element):
        return cause
    if host_pattern_elements(element) != [element]:
        return f"'{element}' is several host patterns to Ansible: give one per entry"
    if element[:1] in ("!", "&"):
        return f"'{element}': an entry names hosts to allow, not an exclusion or intersection"
    return None


def scoped_limit(limit: str, scope: Sequence[str]) -> str:
    """The limit that selects the hosts both ``limit`` ('' = every host) and one of ``scope``'s
    entries select, as one ``--limit`` value; ValueError when Ansible's patterns cannot say it.

    Ansible reads a limit as (union of its plain elements) and every ``&`` element but no ``!``
    element, whatever their order (no plain element: ``all``). So a scope of one entry becomes
    an ``&`` element of the limit, and a limit of at most one plain element becomes an ``&``
    element of the scope; a limit of several plain elements and a scope of several entries has
    no such pattern. Whatever the limit says (``all``, ``!x``, ``~.*``, commas, colons), the
    result selects no host outside the scope."""
    entries = [e.strip() for e in scope if e.strip()]
    if not entries or any(scope_refusal(e) for e in entries):
        raise ValueError("the host scope is empty or not a list of host patterns")
    elements = host_pattern_elements(limit)
    plain = [e for e in elements if not e.startswith(("&", "!"))]
    rest = [e for e in elements if e.startswith(("&", "!"))]
    if not plain:
        combined = [*entries, *rest]
    elif len(entries) == 1:
        combined = [*plain, f"&{entries[0]}", *rest]
    elif len(plain) == 1:
        combined = [*entries, f"&{plain[0]}", *rest]
    else:
        raise ValueError(
            f"with a host scope of several entries ({', '.join(entries)}), a limit may name one"
            " host pattern (with '&' and '!' elements): launch once per pattern"
        )
    value = ",".join(combined)
    if limit_refusal(value) or host_pattern_elements(value) != combined:
        raise ValueError("the limit and the host scope do not combine into one host pattern")
    return value


TagList = Annotated[
    Line, AfterValidator(_checked("tag_element", tags_refusal)), AfterValidator(_one_line)
]
HostScopeEntry = Annotated[
    Line,
    AfterValidator(_checked("host_scope_entry", scope_refusal)),
    AfterValidator(_one_line),
]
