"""The benchmark's one scenario table: playbook, hosts, forks, repetitions and the target."""

from __future__ import annotations

import dataclasses
from typing import Any

PYTHON_VARS = "ansible_connection=local ansible_python_interpreter={python}"


@dataclasses.dataclass(frozen=True)
class Target:
    """How Steward's median POST→final time is judged against bare ansible-playbook's."""

    ratio: float | None = None  # steward <= bare * ratio
    extra_seconds: float | None = None  # steward <= bare + extra_seconds

    def met(self, bare: float, steward: float) -> bool:
        if self.ratio is not None and steward > bare * self.ratio:
            return False
        return not (self.extra_seconds is not None and steward > bare + self.extra_seconds)

    def describe(self) -> str:
        parts = []
        if self.extra_seconds is not None:
            parts.append(f"≤ bare + {self.extra_seconds:g} s")
        if self.ratio is not None:
            parts.append(f"≤ {self.ratio:g}x")
        return ", ".join(parts)


@dataclasses.dataclass(frozen=True)
class Scenario:
    name: str
    playbook: str  # in bench/playbooks
    hosts: int  # 1: "localhost"; more: host01..hostNN, all local
    target: Target
    repetitions: int = 5  # of each kind (bare, Steward), alternating
    forks: int | None = None
    line_total: int | None = None  # big_output: lines its one task prints (full run)
    quick_line_total: int | None = None  # the same with --quick

    def extra_vars(self, quick: bool) -> dict[str, Any]:
        total = self.quick_line_total if quick else self.line_total
        return {} if total is None else {"line_total": total}

    def inventory(self, python: str) -> str:
        """INI inventory: every host local, with the interpreter pinned (RUNNER_NOTES)."""
        host_vars = PYTHON_VARS.format(python=python)
        if self.hosts == 1:
            return f"localhost {host_vars}\n"
        width = len(str(self.hosts))
        names = [f"host{n:0{max(2, width)}d}" for n in range(1, self.hosts + 1)]
        return "".join(f"{name} {host_vars}\n" for name in names)

    def runs(self, quick: bool) -> int:
        return 1 if quick else self.repetitions


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("small", "small.yml", hosts=1, target=Target(extra_seconds=0.2)),
    Scenario("many_tasks", "many_tasks.yml", hosts=1, target=Target(ratio=1.05)),
    Scenario("forks", "forks.yml", hosts=20, forks=5, target=Target(ratio=1.05)),
    Scenario(
        "big_output",
        "big_output.yml",
        hosts=1,
        target=Target(ratio=1.2),
        line_total=200_000,
        quick_line_total=20_000,
    ),
    Scenario(
        "million_lines",
        "big_output.yml",
        hosts=1,
        target=Target(ratio=1.15),
        line_total=1_000_000,
        quick_line_total=50_000,
    ),
)
WARMUP = SCENARIOS[0]  # one untimed run of each kind first: imports, page cache, pyc files
FIRST_LINE_TARGET_SECONDS = 0.3  # first line visible through the API after ansible printed it
