"""Launch values are data: they may not set a variable Ansible reads as a setting.

A value given at launch (the extra vars override, a survey answer, a webhook extractor, a
schedule's or a workflow node's stored values, a relaunch) reaches Ansible as an extra var, the
highest precedence there is. ``!unsafe`` stops Jinja in it, but Ansible still *obeys* some
variables: ``ansible_shell_executable``, ``ansible_ssh_common_args`` (a ProxyCommand),
``ansible_python_interpreter``, ``ansible_become_exe``, ``ansible_connection``… each runs a
program of the launcher's choice on the controller. So a launch value may not be named:

- any ``ansible_*`` (or ``_ansible_*``) name: Ansible's namespace;
- any variable the installed Ansible reads as a setting or reserves, derived from ansible-core
  itself by ``execution/ansible/setting_variables.py`` (every ``vars:`` of every plugin option
  in the plugins' documentation, of its configuration definitions, its play-context and magic
  variables, ``ansible.vars.reserved``), so a new ansible-core or collection is covered with no
  list to update;
- the few magic variables ansible-core sets without listing them (``UNLISTED``).

Which Ansible: a run uses its template's venv (``runner.venvs``), and that venv's ansible-core
and collections decide what it reads; so the names are those of the server's own Ansible *and*
of the template's venv (the union: switching venvs never lets a name through). Each list is
derived once per process per installation (recomputed when the venv's packages change), in a
child process of that venv's Python (about 2 s; ``warm`` starts the server's own in the
background at start, so the server starts as fast as before). The server keeps each answer in
its data directory (``CACHE_FILE``) with what it depended on (the venv's packages, the
collection directories Ansible looks in, the ``ANSIBLE_*`` environment, the probe's source): a
restart reuses it while all of that is unchanged and derives it again otherwise. Collections a
project's requirements install at run time are not known at launch: their variables are
covered by the ``ansible_*`` rule, Ansible's convention for plugin variables.

A template writer may allow named exceptions (``Template.launch_var_exceptions``, audited with
the template). Values template and environment editors write (their extra vars) are trusted and
never checked here. The check is at save (survey questions, schedules, webhook extractors,
workflow nodes) and at launch (``templates.launch.resolve_launch``, every launch's path).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from steward.errors import InvalidInput, InvalidState
from steward.execution.ansible.playbook import BIN_DIR

if TYPE_CHECKING:
    from steward.templates.models import Template

log = logging.getLogger(__name__)

PROBE = Path(__file__).resolve().parents[1] / "execution" / "ansible" / "setting_variables.py"
PROBE_TIMEOUT_SECONDS = 120
PREFIXES = ("ansible_", "_ansible_")
# magic variables ansible-core sets without listing them (docs: "Special variables")
UNLISTED: Mapping[str, str] = {
    "item": "the loop variable Ansible sets itself",
}
EXCEPTIONS_MAX = 20  # names a template may except
CACHE_FILE = "ansible-setting-variables.json"  # in the server's data directory


@dataclasses.dataclass(frozen=True)
class SettingVariables:
    """What one installation of Ansible reads or reserves: ``{name: why}``."""

    ansible_version: str
    variables: Mapping[str, str]


_lock = threading.Lock()
_derived: dict[tuple[str, tuple[int, ...]], SettingVariables] = {}
_cache: list[Path] = []  # the file derived lists are kept in across restarts (set by ``warm``)


def _bin_dir(venv: str) -> Path:
    return BIN_DIR if venv == "" else Path(venv) / "bin"


def _stamp(bin_dir: Path) -> tuple[int, ...]:
    """Changes when packages (ansible-core, collections) are installed in the venv."""
    paths = [
        bin_dir / "ansible-playbook",
        *sorted(bin_dir.parent.glob("lib/python*/site-packages")),
    ]
    stamp = []
    for path in paths:
        try:
            stamp.append(path.stat().st_mtime_ns)
        except OSError:
            stamp.append(0)
    return tuple(stamp)


def _derive(bin_dir: Path) -> SettingVariables:
    python = Path(sys.executable) if bin_dir == BIN_DIR else bin_dir / "python"
    began = time.time_ns()
    with tempfile.TemporaryDirectory(prefix="steward-setting-vars-") as cwd:  # no ansible.cfg
        try:
            done = subprocess.run(
                [str(python), str(PROBE)],
                cwd=cwd,
                capture_output=True,
                text=True,
                timeout=PROBE_TIMEOUT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise InvalidState(
                f"the variables Ansible reads as settings could not be listed ({python}): {exc}"
            ) from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise InvalidState(
            f"the variables Ansible reads as settings could not be listed ({python}): {last}"
        )
    answer = json.loads(done.stdout)
    found = SettingVariables(str(answer["ansible_version"]), dict(answer["variables"]))
    if _cache:
        _keep(_cache[0], bin_dir, [str(root) for root in answer["collection_roots"]], found, began)
    return found


def _inputs(bin_dir: Path, roots: list[str]) -> dict[str, Any]:
    """What a derived list depends on beyond ``_stamp``: the directories Ansible looks for
    collections in (each root, namespace and collection directory's mtime: installing,
    upgrading or removing a collection changes one), the ``ANSIBLE_*`` environment, the probe."""
    dirs: dict[str, int] = {}
    for root in roots:
        for top in (Path(root), Path(root) / "ansible_collections"):
            try:
                dirs[str(top)] = top.stat().st_mtime_ns
                for namespace in top.iterdir() if top.name == "ansible_collections" else ():
                    dirs[str(namespace)] = namespace.stat().st_mtime_ns
                    for collection in namespace.iterdir() if namespace.is_dir() else ():
                        dirs[str(collection)] = collection.stat().st_mtime_ns
            except OSError:
                dirs.setdefault(str(top), 0)
    return {
        "bin_dir": str(bin_dir),
        "stamp": list(_stamp(bin_dir)),
        "dirs": dirs,
        "environment": sorted((k, v) for k, v in os.environ.items() if k.startswith("ANSIBLE_")),
        "probe": hashlib.sha256(PROBE.read_bytes()).hexdigest(),
    }


def _keep(file: Path, bin_dir: Path, roots: list[str], found: SettingVariables, began: int) -> None:
    """Kept unless something it depends on changed while the probe ran (derived again then)."""
    inputs = _inputs(bin_dir, roots)
    mtimes = [*inputs["stamp"], *inputs["dirs"].values()]
    if max(mtimes, default=0) >= began:
        return
    kept = {k: v for k, v in _read(file).items() if k != str(bin_dir)}
    kept[str(bin_dir)] = {
        "roots": roots,
        "inputs": inputs,
        "ansible_version": found.ansible_version,
        "variables": dict(found.variables),
    }
    try:
        scratch = file.with_suffix(".tmp")
        scratch.write_text(json.dumps(kept))
        scratch.replace(file)
    except OSError as exc:
        log.warning("could not keep the variables Ansible reads as settings in %s: %s", file, exc)


def _read(file: Path) -> dict[str, Any]:
    try:
        kept = json.loads(file.read_text())
    except (OSError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def _kept(bin_dir: Path) -> SettingVariables | None:
    """The list an earlier start derived for ``bin_dir``, while nothing it depends on changed."""
    if not _cache:
        return None
    entry = _read(_cache[0]).get(str(bin_dir))
    if not isinstance(entry, dict):
        return None
    try:
        roots = [str(root) for root in entry["roots"]]
        if entry["inputs"] != json.loads(json.dumps(_inputs(bin_dir, roots))):
            return None
        return SettingVariables(str(entry["ansible_version"]), dict(entry["variables"]))
    except (KeyError, TypeError, ValueError):
        return None


def setting_variables(venv: str = "") -> SettingVariables:
    """What the Ansible of ``venv`` (a template's ``ansible_venv``; ``""`` the server's own)
    reads as settings or reserves; derived once per installation. ``InvalidState`` when it
    cannot be told (the launch values are then refused, never let through)."""
    bin_dir = _bin_dir(venv)
    key = (str(bin_dir), _stamp(bin_dir))
    found = _derived.get(key)
    if found is None:
        with _lock:
            found = _derived.get(key)
            if found is None:
                found = _kept(bin_dir) or _derive(bin_dir)
                _derived[key] = found
                log.info(
                    "ansible-core %s at %s: %d variables Ansible reads or reserves",
                    found.ansible_version,
                    bin_dir,
                    len(found.variables),
                )
    return found


def keep_in(data_dir: Path) -> None:
    """Keep derived lists in ``data_dir`` across restarts (the server's)."""
    _cache[:] = [data_dir / CACHE_FILE]


def warm(data_dir: Path | None = None) -> None:
    """Derive the server's own list in the background (at server start), or read it from
    ``data_dir`` where an earlier start kept it and nothing it depends on changed since."""
    if data_dir is not None:
        keep_in(data_dir)

    def derive() -> None:
        try:
            setting_variables()
        except InvalidState as exc:
            log.error("%s", exc.message)

    threading.Thread(target=derive, name="setting-variables", daemon=True).start()


def _reserved(venv: str) -> Mapping[str, str]:
    """The names the Ansible of the server and of ``venv`` read or reserve (looked up once per
    check: each lookup stats the venv to see whether its packages changed)."""
    found: dict[str, str] = {}
    for where in dict.fromkeys(("", venv)):
        for name, why in setting_variables(where).variables.items():
            found.setdefault(name, why)
    return found


def _why(name: str, listed: Mapping[str, str]) -> str | None:
    why = listed.get(name)
    if why is not None:
        return why
    if name.startswith(PREFIXES):
        return "every ansible_* name is Ansible's"
    return UNLISTED.get(name)


def why_reserved(name: str, venv: str = "") -> str | None:
    """Why launch values may not set ``name``, or None when they may."""
    return _why(name, _reserved(venv))


def _cause(why: str) -> str:
    return (
        f"is an Ansible setting or reserved variable ({why}); launch values may not set it"
        " unless the template lists it in launch_var_exceptions"
    )


def refusal(name: str, *, venv: str = "", exceptions: Collection[str] = ()) -> str | None:
    """The cause of a 422 for a launch value named ``name``, or None when it may be set
    (``exceptions``: the template's ``launch_var_exceptions``)."""
    if name in exceptions:
        return None
    why = why_reserved(name, venv)
    return None if why is None else _cause(why)


def check(
    names: Iterable[str], *, field: str, venv: str = "", exceptions: Collection[str] = ()
) -> None:
    """A 422 naming ``<field>.<name>`` and why, for the first name launch values may not set."""
    wanted = [name for name in names if name not in exceptions]
    if not wanted:
        return  # no launch value: nothing to derive
    listed = _reserved(venv)
    for name in wanted:
        why = _why(name, listed)
        if why is not None:
            raise InvalidInput(f"{field}.{name}", _cause(why))


def check_for(template: Template, names: Iterable[str], *, field: str) -> None:
    """``check`` with the template's venv and exceptions."""
    check(
        names,
        field=field,
        venv=template.ansible_venv,
        exceptions=template.launch_var_exceptions,
    )
