"""Medians, targets, and the Markdown + JSON report."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import psutil
from measure import BareSample, StewardSample
from scenarios import FIRST_LINE_TARGET_SECONDS, Scenario

PHASES = ("launch", "claim", "startup", "ansible", "finish")
LINE_HEAD = (
    "scenario",
    "bare stdout",
    "line_count at final",
    "paged at final",
    "line_count end",
    "/output",
    "all present at final",
)
CPU_HEAD = (
    "scenario",
    "bare",
    "Steward: server",
    "bare: machine",
    "Steward: machine",
    "machine ratio",
)
FETCH_HEAD = (
    "scenario",
    "/lines all pages s",
    "/output s",
    "peak server RSS MB",
    "peak ansible tree RSS MB",
)
MB = 1024 * 1024


@dataclasses.dataclass
class ScenarioResult:
    scenario: Scenario
    bare: list[BareSample] = dataclasses.field(default_factory=list)
    steward: list[StewardSample] = dataclasses.field(default_factory=list)
    peak_server_rss: int = 0
    peak_children_rss: int = 0

    def bare_median(self, value: Callable[[BareSample], float | None]) -> float | None:
        return _median([value(s) for s in self.bare])

    def steward_median(self, value: Callable[[StewardSample], float | None]) -> float | None:
        return _median([value(s) for s in self.steward])

    @property
    def wall(self) -> tuple[float, float]:
        bare, steward = self.bare_median(lambda s: s.wall), self.steward_median(lambda s: s.wall)
        assert bare is not None
        assert steward is not None
        return bare, steward

    @property
    def wall_met(self) -> bool:
        return self.scenario.target.met(*self.wall)

    @property
    def first_line_met(self) -> bool:
        lag = self.steward_median(lambda s: s.first_line_lag)
        return lag is not None and lag <= FIRST_LINE_TARGET_SECONDS

    @property
    def lines_met(self) -> bool:
        return all(
            s.status == "successful"
            and s.line_count_at_final == s.lines_paged_at_final == s.line_count
            for s in self.steward
        )

    def summary(self) -> dict[str, Any]:
        bare, steward = self.wall
        return {
            "bare_wall": bare,
            "steward_wall": steward,
            "ratio": steward / bare,
            "difference": steward - bare,
            "target": self.scenario.target.describe(),
            "wall_met": self.wall_met,
            "first_line_met": self.first_line_met,
            "lines_met": self.lines_met,
            "peak_server_rss_mb": self.peak_server_rss / MB,
            "peak_children_rss_mb": self.peak_children_rss / MB,
        }


def _median(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def _s(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _yes(ok: bool) -> str:
    return "yes" if ok else "**NO**"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _wall_rows(results: Sequence[ScenarioResult]) -> list[list[str]]:
    rows = []
    for r in results:
        bare, steward = r.wall
        runs = f"{len(r.bare)}+{len(r.steward)}"
        ratio, diff = f"{steward / bare:.3f}x", f"{steward - bare:+.2f}"
        target = r.scenario.target.describe()
        rows.append([r.scenario.name, runs, _s(bare), _s(steward), ratio, diff, target])
        rows[-1].append(_yes(r.wall_met))
    return rows


def _first_line_rows(results: Sequence[ScenarioResult]) -> list[list[str]]:
    rows = []
    for r in results:
        bare = r.bare_median(lambda s: s.first_line)
        steward = r.steward_median(lambda s: s.first_line)
        diff = None if bare is None or steward is None else steward - bare
        lag = r.steward_median(lambda s: s.first_line_lag)
        rows.append(
            [r.scenario.name, _s(bare), _s(steward), _s(diff), _s(lag, 3), _yes(r.first_line_met)]
        )
    return rows


def _line_rows(results: Sequence[ScenarioResult]) -> list[list[str]]:
    rows = []
    for r in results:
        last = r.steward[-1]
        counts = (last.line_count_at_final, last.lines_paged_at_final, last.line_count)
        rows.append(
            [r.scenario.name, str(r.bare[-1].lines), *map(str, counts), str(last.output_lines)]
        )
        rows[-1].append(_yes(r.lines_met))
    return rows


def _ratio(value: float | None, base: float | None) -> str:
    return f"{value / base:.3f}x" if value is not None and base else "-"


def _cpu_rows(results: Sequence[ScenarioResult]) -> list[list[str]]:
    rows = []
    for r in results:
        bare = r.bare_median(lambda s: s.cpu)
        server = r.steward_median(lambda s: s.cpu_server)
        bare_machine = r.bare_median(lambda s: s.cpu_machine)
        steward_machine = r.steward_median(lambda s: s.cpu_machine)
        values = (bare, server, bare_machine, steward_machine)
        rows.append([r.scenario.name, *map(_s, values), _ratio(steward_machine, bare_machine)])
    return rows


def _fetch_rows(results: Sequence[ScenarioResult]) -> list[list[str]]:
    return [
        [
            r.scenario.name,
            _s(r.steward_median(lambda s: s.paged_fetch)),
            _s(r.steward_median(lambda s: s.output_fetch)),
            f"{r.peak_server_rss / MB:.0f}",
            f"{r.peak_children_rss / MB:.0f}",
        ]
        for r in results
    ]


BARE_PHASES: tuple[Callable[[BareSample], float | None], ...] = (
    lambda s: s.first_line,
    lambda s: (s.last_output or 0.0) - (s.first_line or 0.0),
    lambda s: s.wall - (s.last_output or 0.0),
)


def _phase(name: str) -> Callable[[StewardSample], float | None]:
    return lambda sample: sample.phases.get(name)


def _phase_rows(results: Sequence[ScenarioResult]) -> list[list[str]]:
    rows = []
    for r in results:
        phases = [r.steward_median(_phase(name)) for name in PHASES]
        bare = [r.bare_median(value) for value in BARE_PHASES]
        post = r.steward_median(lambda s: s.post)
        rows.append([r.scenario.name, _s(post, 3), *(_s(p, 3) for p in phases + bare)])
    return rows


def machine() -> dict[str, Any]:
    def version(package: str) -> str:
        try:
            return importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            return "?"

    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return {
        "nproc": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 1024**3, 1),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "ansible_core": version("ansible-core"),
        "steward_commit": commit,
        "started": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "load_start": os.getloadavg(),
    }


def _load(values: Sequence[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def markdown(info: dict[str, Any], results: Sequence[ScenarioResult], quick: bool) -> str:
    out = [
        f"# Steward benchmark{' (--quick)' if quick else ''}",
        "",
        f"{info['started']} · {info['nproc']} CPUs, {info['memory_gb']} GB · {info['platform']}"
        f" · Python {info['python']} · ansible-core {info['ansible_core']}"
        f" · Steward {info['steward_commit']}",
        "",
        f"Load average (1/5/15 min): start {_load(info['load_start'])},"
        f" end {_load(info['load_end'])}.",
        "",
        "## Wall time: bare `ansible-playbook` vs Steward POST→final status (medians, s)",
        "",
        *_table(
            ["scenario", "runs", "bare", "Steward", "ratio", "Δ", "target", "met"],
            _wall_rows(results),
        ),
        "",
        "## First output line (medians, s)",
        "",
        "Bare: process start → first stdout bytes. Steward: POST sent → line 0 received"
        " through the live stream (`/stream`); lag: received → the moment ansible emitted"
        f" that line's event (target ≤ {FIRST_LINE_TARGET_SECONDS} s).",
        "",
        *_table(
            ["scenario", "bare", "Steward", "Δ", "lag after ansible", "met"],
            _first_line_rows(results),
        ),
        "",
        "## CPU seconds, user + system (medians)",
        "",
        'What each run costs the machine, less dependent on load than wall time. "bare" is'
        ' ansible-playbook\'s process tree; "machine" counts every process of the machine over'
        " the run (the sandboxed ansible processes are reaped inside bubblewrap's PID namespace,"
        " so the server's children CPU misses them; run it on a quiet machine). The server's"
        " CPU includes serving the live stream this benchmark follows, as a console would.",
        "",
        *_table(
            CPU_HEAD,
            _cpu_rows(results),
        ),
        "",
        "## Lines (last run)",
        "",
        *_table(
            LINE_HEAD,
            _line_rows(results),
        ),
        "",
        "## Fetching the output, memory (medians)",
        "",
        *_table(
            FETCH_HEAD,
            _fetch_rows(results),
        ),
        "",
        "## Where Steward's time goes (medians, s; server timestamps)",
        "",
        "launch: POST → row created · claim: queued → claimed · startup: claimed → ansible's"
        " first event (prepare + executor + ansible start) · ansible: first → last event"
        " · finish: last event → final status. Bare, the same three: start → first stdout,"
        " first → last stdout, last stdout → exit.",
        "",
        *_table(
            ["scenario", "POST", *PHASES, "bare startup", "bare ansible", "bare finish"],
            _phase_rows(results),
        ),
        "",
    ]
    return "\n".join(out)


def to_json(info: dict[str, Any], results: Sequence[ScenarioResult]) -> dict[str, Any]:
    return {
        "machine": info,
        "scenarios": {
            r.scenario.name: {
                "summary": r.summary(),
                "scenario": dataclasses.asdict(r.scenario),
                "bare": [dataclasses.asdict(s) for s in r.bare],
                "steward": [dataclasses.asdict(s) for s in r.steward],
            }
            for r in results
        },
    }


def write(directory: Path, text: str, data: dict[str, Any]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "latest.md").write_text(text)
    (directory / "latest.json").write_text(json.dumps(data, indent=2, default=str) + "\n")
