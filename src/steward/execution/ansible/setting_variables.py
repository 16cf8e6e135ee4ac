"""Print, as JSON ``{variable: why}``, every variable the installed Ansible reads as a setting.

Run by path with the Python of a virtual environment (``templates.reserved`` does, once per
ansible-core installation): it imports nothing of Steward, only that venv's ansible-core, so
the answer is about the Ansible and the collections that venv's runs would use. Derived, not
listed by hand: a new ansible-core or collection is covered as soon as it is installed.

- every ``vars:`` name of every option of every configurable plugin (connection, become,
  shell, lookup, callback, inventory, …) of ansible-core and the installed collections, read
  from the plugins' own DOCUMENTATION (with its doc fragments, as ``ansible-doc`` reads it);
- the ``vars:`` of ansible-core's configuration definitions (``ansible_python_interpreter``,
  ``ansible_pipelining``, its debugger and coverage hooks, …);
- the play context's variables (``MAGIC_VARIABLE_MAPPING``: ``ansible_shell_executable``, …)
  and the common connection variables;
- the magic variables ansible-core sets itself (``INTERNAL_STATIC_VARS``: ``hostvars``,
  ``groups``, ``inventory_hostname``, ``playbook_dir``, …) and the reserved names of
  ``ansible.vars.reserved`` (play keywords such as ``environment``, template globals such as
  ``omit``).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def _plugin_options(found: dict[str, str]) -> None:
    from ansible import constants as C
    from ansible.plugins import loader
    from ansible.plugins.list import list_plugins
    from ansible.utils.plugin_docs import get_plugin_docs

    loader.init_plugin_loader()
    for kind in C.CONFIGURABLE_PLUGINS:
        plugin_loader = getattr(loader, f"{kind}_loader")
        for name in sorted(list_plugins(kind)):
            try:
                doc = get_plugin_docs(name, kind, plugin_loader, loader.fragment_loader, False)[0]
            except Exception:  # noqa: BLE001, S112 - an undocumented plugin documents no option
                continue
            options: dict[str, Any] = (doc or {}).get("options") or {}
            for option, spec in sorted(options.items()):
                for var in (spec or {}).get("vars") or ():
                    if isinstance(var, dict) and isinstance(var.get("name"), str):
                        found.setdefault(var["name"], f"{kind} plugin {name} option '{option}'")


def _core(found: dict[str, str]) -> None:
    from ansible import constants as C
    from ansible.vars.reserved import get_reserved_names

    for setting, definition in sorted(C.config.get_configuration_definitions().items()):
        for var in definition.get("vars") or ():
            if isinstance(var, dict) and isinstance(var.get("name"), str):
                found.setdefault(var["name"], f"Ansible configuration setting {setting}")
    for attribute, names in sorted(C.MAGIC_VARIABLE_MAPPING.items()):
        for name in names:
            found.setdefault(name, f"play context setting '{attribute}'")
    for name in sorted(C.COMMON_CONNECTION_VARS):
        found.setdefault(name, "connection variable")
    for name in sorted(C.INTERNAL_STATIC_VARS):
        found.setdefault(name, "magic variable Ansible sets itself")
    for name in sorted(get_reserved_names()):
        found.setdefault(name, "reserved name (a play keyword or template global)")


def main() -> None:
    os.environ["ANSIBLE_DEPRECATION_WARNINGS"] = "False"
    os.environ["ANSIBLE_DEVEL_WARNING"] = "False"
    found: dict[str, str] = {}
    _plugin_options(found)
    _core(found)
    from ansible.release import __version__

    json.dump(
        {"ansible_version": __version__, "variables": found, "collection_roots": _roots()},
        sys.stdout,
    )


def _roots() -> list[str]:
    """Where this Ansible looks for collections, found or not (``templates.reserved`` keeps the
    answer across restarts until one of them changes)."""
    from ansible import constants as C

    paths = [*C.COLLECTIONS_PATHS, *(sys.path if C.COLLECTIONS_SCAN_SYS_PATH else ())]
    return sorted({os.path.abspath(os.path.expanduser(path)) for path in paths if path})


if __name__ == "__main__":
    main()
