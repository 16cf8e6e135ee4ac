"""The variables launch values may not set: derived from the installed ansible-core (its plugins'
documentation, configuration definitions, play-context and magic variables), once per
installation; the prefix rule; a template's exceptions; failing closed."""

from __future__ import annotations

import json
import time
from importlib.metadata import version
from pathlib import Path

import pytest

from steward.errors import InvalidInput, InvalidState
from steward.execution.ansible.playbook import BIN_DIR
from steward.templates import reserved


def test_the_derived_list_holds_what_ansible_reads_as_settings() -> None:
    derived = reserved.setting_variables()
    assert derived.ansible_version == version("ansible-core")
    found = derived.variables
    expected = {
        "ansible_ssh_common_args": "connection plugin ansible.builtin.ssh option 'ssh_common_args'",
        "ansible_sudo_exe": "become plugin ansible.builtin.sudo option 'become_exe'",
        "ansible_shell_executable": "play context setting 'executable'",
        "ansible_python_interpreter": "Ansible configuration setting INTERPRETER_PYTHON",
        # config definitions' variables outside the ansible_* namespace
        "_ansible_ansiballz_debugpy_config": "Ansible configuration setting",
        "hostvars": "magic variable Ansible sets itself",
        "playbook_dir": "magic variable Ansible sets itself",
        "environment": "reserved name",
        "omit": "reserved name",
    }
    for name, why in expected.items():
        assert why in found[name], (name, found[name])
    assert "become plugin" in found["ansible_become_password"]
    for plain in ("db_name", "release", "db_port", "who"):
        assert plain not in found
        assert reserved.why_reserved(plain) is None


def test_it_is_derived_once_per_installation() -> None:
    first = reserved.setting_variables()
    started = time.perf_counter()
    again = reserved.setting_variables()
    assert again is first
    assert time.perf_counter() - started < 0.05


def test_every_ansible_name_and_the_unlisted_magic_ones_are_refused() -> None:
    assert reserved.why_reserved("ansible_not_a_setting_yet") == "every ansible_* name is Ansible's"
    assert reserved.why_reserved("_ansible_internal") == "every ansible_* name is Ansible's"
    assert reserved.why_reserved("item") == reserved.UNLISTED["item"]
    # a plugin's reason wins over the prefix rule: it says what the variable does
    assert "ssh_common_args" in (reserved.why_reserved("ansible_ssh_common_args") or "")


def test_exceptions_let_only_the_names_they_list() -> None:
    excepted = ["ansible_shell_executable"]
    assert reserved.refusal("ansible_shell_executable", exceptions=excepted) is None
    assert reserved.refusal("ansible_connection", exceptions=excepted) is not None
    reserved.check(["db_name", "ansible_shell_executable"], field="x", exceptions=excepted)
    with pytest.raises(InvalidInput) as refused:
        reserved.check(["db_name", "hostvars", "omit"], field="extra_vars")
    assert refused.value.field == "extra_vars.hostvars"
    assert "launch values may not set it" in refused.value.reason
    assert "launch_var_exceptions" in refused.value.reason


def test_a_venv_whose_ansible_cannot_be_asked_refuses_launch_values(tmp_path: Path) -> None:
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    python.write_text("#!/bin/sh\necho 'no ansible here' >&2\nexit 3\n")
    python.chmod(0o755)
    with pytest.raises(InvalidState, match="no ansible here"):
        reserved.why_reserved("db_name", str(tmp_path))
    # the server's own list does not depend on it
    assert reserved.why_reserved("db_name") is None


def test_a_restart_reuses_the_kept_list_until_a_collection_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    collections = tmp_path / "collections"
    monkeypatch.setenv("ANSIBLE_COLLECTIONS_PATH", str(collections))
    monkeypatch.setattr(reserved, "_derived", {})  # as a new process
    monkeypatch.setattr(reserved, "_cache", [])
    reserved.keep_in(tmp_path)
    first = reserved.setting_variables()  # derived by the probe, then kept
    kept = tmp_path / reserved.CACHE_FILE
    assert "ansible_ssh_common_args" in first.variables
    # mark the kept list: a restart that reads it rather than probing again returns the mark
    entries = json.loads(kept.read_text())
    (entry,) = entries.values()
    entry["variables"]["kept_not_probed"] = "a mark"
    kept.write_text(json.dumps(entries))
    monkeypatch.setattr(reserved, "_derived", {})  # a restart
    assert "kept_not_probed" in reserved.setting_variables().variables
    # a different ANSIBLE_* environment (another configuration) is not the kept one
    with monkeypatch.context() as changed:
        changed.setenv("ANSIBLE_CONFIG", str(tmp_path / "ansible.cfg"))
        assert reserved._kept(BIN_DIR) is None
    assert reserved._kept(BIN_DIR) is not None  # control: the same environment is
    # a collection installed where this Ansible looks: not kept, so derived again
    (collections / "ansible_collections" / "acme" / "tools").mkdir(parents=True)
    assert reserved._kept(BIN_DIR) is None
