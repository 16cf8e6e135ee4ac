"""Options from a script of the template's repository: a fresh checkout (verified as a run's
is: ``repositories.checkout``), the script's path kept inside it (``inventories.paths.inside``:
no ``..`` nor symlink out), run in the run sandbox (``Sandbox.wrap``) with a timeout and its
output capped (a file-size limit: a script printing without end is stopped by the kernel)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from sqlalchemy.orm import Session

from steward.bounds import SURVEY_SOURCE_BYTES_MAX
from steward.execution.ansible.sandbox import Sandbox
from steward.inventories.paths import inside
from steward.repositories.checkout import CheckoutFailed, Reach, checkout
from steward.repositories.models import Repository
from steward.templates.options import listing
from steward.templates.options.sources import ScriptSource


def options(
    session: Session,
    reach: Reach,
    sandbox: Sandbox,
    repo: Repository,
    source: ScriptSource,
    arguments: list[str],
) -> list[str]:
    """The options the script prints, given ``arguments`` (earlier answers in, each one
    argument of its own)."""
    reach.scratch.mkdir(mode=0o700, parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="steward-options-", dir=reach.scratch) as tmp:
        dest = Path(tmp) / "repository"
        try:
            tree = checkout(session, reach.cipher, repo, dest, roots=reach.roots, guard=reach.guard)
        except CheckoutFailed as exc:
            raise listing.SourceFailed(exc.message) from None
        script = inside(tree.path, source.path)
        if script is None:
            raise listing.SourceFailed(f"'{source.path}' leads outside the repository")
        if not script.is_file() or not os.access(script, os.X_OK):
            raise listing.SourceFailed(f"'{source.path}' is not an executable file")
        home = Path(tmp) / "home"
        home.mkdir()
        output = Path(tmp) / "output"
        argv = sandbox.wrap([str(script), *arguments], visible=[home], read_only=[tree.path])
        _run(argv, tree.path, home, output, source.timeout_seconds)
        if output.stat().st_size > SURVEY_SOURCE_BYTES_MAX:
            raise listing.SourceFailed(
                f"the script printed more than {SURVEY_SOURCE_BYTES_MAX} bytes"
            )
        return listing.from_output(output.read_bytes())


def _cap_output() -> None:  # in the child, before exec: writing past the cap ends it
    cap = SURVEY_SOURCE_BYTES_MAX + 1
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))


def _run(argv: list[str], cwd: Path, home: Path, output: Path, timeout: float) -> None:
    env = {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.defpath}",
        "HOME": str(home),
        "LC_ALL": "C.UTF-8",
    }
    with (
        output.open("wb") as out,
        subprocess.Popen(  # a session of its own: a hanging script is killed with its children
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_cap_output,  # only setrlimit: safe with threads
        ) as child,
    ):
        try:
            rc = child.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            raise listing.SourceFailed(
                f"the script did not finish within {timeout:g} seconds"
            ) from None
    if output.stat().st_size > SURVEY_SOURCE_BYTES_MAX:
        return
    if rc != 0:
        raise listing.SourceFailed(f"the script exited with status {rc}")
