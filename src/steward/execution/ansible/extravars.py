"""Extra vars files for ansible-playbook: trusted values as JSON, untrusted values marked unsafe.

Jinja in a variable is evaluated only when whoever wrote it may edit the template or the
environment. Launch-time values (extra vars overrides, survey answers, and later schedule and
webhook values) come from people who may only *run* the template: they are written as YAML with
every string, at any depth and in mapping keys too, tagged ``!unsafe``. Ansible then treats them
as data: ``{{ lookup('pipe', 'id') }}`` arrives in the playbook as that literal text (AWX's
``ALLOW_JINJA_IN_EXTRA_VARS = template`` rule, without the option to loosen it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import yaml

UNSAFE_TAG = "!unsafe"


class _UnsafeDumper(yaml.SafeDumper):
    """Every ``str`` becomes ``!unsafe '…'``; numbers, booleans and null stay plain."""


def _unsafe_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # double quotes: every character, newline or control character survives escaped
    return dumper.represent_scalar(UNSAFE_TAG, value, style='"')


_UnsafeDumper.add_representer(str, _unsafe_str)


def trusted(values: Mapping[str, Any]) -> str:
    """Values written by template or environment editors: Jinja in them is evaluated."""
    return json.dumps(dict(values))


def untrusted(values: Mapping[str, Any]) -> str:
    """Values given at launch: every string is data, never a template."""
    return yaml.dump(dict(values), Dumper=_UnsafeDumper, allow_unicode=True, sort_keys=False)
