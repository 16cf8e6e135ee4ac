"""Every check, in the order printed; running them side by side; the summary and exit code."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor

from steward.config import Settings
from steward.doctor import peers, selftest, storage, tools
from steward.doctor.findings import Finding, Level, fail, seconds

Check = Callable[[Settings], Finding]

CHECKS: dict[str, Check] = {
    storage.DATA_DIR: storage.data_dir,
    storage.DATABASE: storage.database,
    storage.MASTER_KEY: storage.master_key,
    tools.GIT: tools.git,
    tools.SSH: tools.ssh,
    tools.ANSIBLE: tools.ansible_core,
    selftest.SANDBOX: selftest.sandbox_check,
    peers.PCP: peers.pcp,
    peers.BROKER: peers.broker,
}


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
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, len(chosen))) as pool:
        futures = [pool.submit(_guarded, name, check, settings) for name, check in chosen]
        findings = [future.result() for future in futures]
    return Report(findings, time.monotonic() - started)
