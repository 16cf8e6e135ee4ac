"""Every check, in the order printed; running them side by side; the summary and exit code."""

from __future__ import annotations

import dataclasses
import importlib
import time
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor

from steward.config import Settings
from steward.doctor.findings import Finding, Level, fail, seconds

Check = Callable[[Settings], Finding]


# name (as its line shows it, and --skip takes it) -> the function of steward.doctor.<module>,
# in the order printed
CHECKS: dict[str, tuple[str, str]] = {
    "data-dir": ("disk", "data_dir"),
    "database": ("storage", "database"),
    "master-key": ("storage", "master_key"),
    "git": ("tools", "git"),
    "ssh": ("tools", "ssh"),
    "ansible": ("tools", "ansible_core"),
    "sandbox": ("selftest", "sandbox_check"),
    "pcp": ("peers", "pcp"),
    "broker": ("peers", "broker"),
}
# run alone before the others, in milliseconds: they look at the directories as they are,
# before the self-test makes a data dir not made yet (and removes it after)
BEFORE_THE_OTHERS = ("data-dir",)
# the self-test run is the longest: started next, its ansible-playbook runs while the modules
# of the other checks are imported (the database layer: a second or more)
STARTED_FIRST = ("sandbox",)


@dataclasses.dataclass(frozen=True)
class Report:
    findings: list[Finding]
    seconds: float

    @property
    def failed(self) -> bool:
        return any(f.level is Level.FAIL for f in self.findings)

    def summary(self) -> str:
        counts = {level: 0 for level in Level}
        for finding in self.findings:
            counts[finding.level] += 1
        said = ", ".join(f"{n} {level.value}" for level, n in counts.items())
        return f"steward doctor: {len(self.findings)} checks, {said} ({seconds(self.seconds)})"

    def lines(self, *, brief: bool = False) -> list[str]:
        """Every check's line then the summary; ``brief``: the summary, then the lines that
        are not ok."""
        if brief:
            return [self.summary(), *(f.line() for f in self.findings if f.level is not Level.OK)]
        return [*(f.line() for f in self.findings), self.summary()]


def _guarded(name: str, check: Check, settings: Settings) -> Finding:
    try:
        return check(settings)
    except Exception as exc:  # noqa: BLE001 - a check that breaks is a finding; the others report
        return fail(name, f"the check itself failed: {type(exc).__name__}: {str(exc)[:200]}")


def _load(name: str) -> Check:
    """The check's function; its module is imported here, in the calling thread: imports never
    run in two threads at once (a package's import cycles could then meet half made)."""
    module, function = CHECKS[name]
    try:
        found: Check = getattr(importlib.import_module(f"steward.doctor.{module}"), function)
    except ImportError as exc:  # a library missing from the installation: that is the finding
        reason = str(exc)[:200]
        return lambda _settings: fail(name, f"cannot be checked ({reason}); reinstall Steward")
    return found


def examine(settings: Settings, *, skip: Collection[str] = ()) -> Report:
    """Run every check but ``skip`` side by side (each bounds its own waits), the self-test
    first; their findings in CHECKS' order."""
    chosen = [name for name in CHECKS if name not in skip]
    started = time.monotonic()
    found = {n: _guarded(n, _load(n), settings) for n in chosen if n in BEFORE_THE_OTHERS}
    with ThreadPoolExecutor(max_workers=max(1, len(chosen))) as pool:
        futures = {}
        for name in sorted(set(chosen) - set(found), key=lambda n: n not in STARTED_FIRST):
            futures[name] = pool.submit(_guarded, name, _load(name), settings)
        found.update({name: future.result() for name, future in futures.items()})
    findings = [found[name] for name in chosen]
    return Report(findings, time.monotonic() - started)
