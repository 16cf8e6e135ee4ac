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


def _at(module: str, function: str) -> Check:
    """The check ``function`` of ``steward.doctor.<module>``, imported when it runs: each check
    imports what it needs in its own thread, so the self-test's ansible-playbook starts while
    the others still import the database layer."""

    def check(settings: Settings) -> Finding:
        found: Check = getattr(importlib.import_module(f"steward.doctor.{module}"), function)
        return found(settings)

    return check


# name (as its line shows it, and --skip takes it) -> check, in the order printed
CHECKS: dict[str, Check] = {
    "data-dir": _at("storage", "data_dir"),
    "database": _at("storage", "database"),
    "master-key": _at("storage", "master_key"),
    "git": _at("tools", "git"),
    "ssh": _at("tools", "ssh"),
    "ansible": _at("tools", "ansible_core"),
    "sandbox": _at("selftest", "sandbox_check"),
    "pcp": _at("peers", "pcp"),
    "broker": _at("peers", "broker"),
}
# the self-test run is the longest: started first
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


def examine(settings: Settings, *, skip: Collection[str] = ()) -> Report:
    """Run every check but ``skip`` at once (each bounds its own waits); their findings in
    CHECKS' order."""
    chosen = [(name, check) for name, check in CHECKS.items() if name not in skip]
    order = sorted(chosen, key=lambda item: item[0] not in STARTED_FIRST)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, len(chosen))) as pool:
        futures = {name: pool.submit(_guarded, name, check, settings) for name, check in order}
        findings = [futures[name].result() for name, _ in chosen]
    return Report(findings, time.monotonic() - started)
