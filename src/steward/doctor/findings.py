"""What a check says: its level, its name and one detail line (the cause and the fix)."""

from __future__ import annotations

import dataclasses
import enum


class Level(enum.StrEnum):
    OK = "ok"
    WARN = "warn"  # worth knowing, the installation works
    FAIL = "FAIL"  # something an operator must fix: the doctor exits non-zero


@dataclasses.dataclass(frozen=True)
class Finding:
    level: Level
    name: str
    detail: str

    def line(self) -> str:
        return f"{self.level.value:<4} {self.name}: {self.detail}"


def ok(name: str, detail: str) -> Finding:
    return Finding(Level.OK, name, detail)


def warn(name: str, detail: str) -> Finding:
    return Finding(Level.WARN, name, detail)


def fail(name: str, detail: str) -> Finding:
    return Finding(Level.FAIL, name, detail)


def seconds(value: float) -> str:
    """A duration as the doctor prints it: ms below a second, else seconds with one decimal."""
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.1f} s"
