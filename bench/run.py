"""Steward benchmark: bare ansible-playbook vs the same playbook through a real `steward serve`.

    .venv/bin/python bench/run.py [--quick] [--only NAME ...] [--runs N]

Writes bench/results/latest.md and latest.json, and prints the Markdown report.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psutil
import report
from harness import Api, Project, Server, create_project
from measure import RssSampler, bare_command, run_bare, run_steward
from report import ScenarioResult
from scenarios import SCENARIOS, WARMUP, Scenario

BENCH = Path(__file__).resolve().parent


@dataclasses.dataclass(frozen=True)
class Bench:
    """Everything a scenario is measured with."""

    api: Api
    project: Project
    server: psutil.Process
    repo_dir: Path  # the playbooks: Steward's local repository and bare runs' cwd
    workdir: Path  # inventories and stdout files of bare runs
    quick: bool


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    names = [s.name for s in SCENARIOS]
    parser = argparse.ArgumentParser(description="Steward vs bare ansible-playbook.")
    parser.add_argument("--quick", action="store_true", help="1 run each, big_output 20,000 lines")
    parser.add_argument("--only", action="append", choices=names, metavar="NAME", help=str(names))
    parser.add_argument(
        "--runs", type=int, metavar="N", help="runs of each way per scenario (default: its own)"
    )
    return parser.parse_args(argv)


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _measure(bench: Bench, scenario: Scenario) -> ScenarioResult:
    """Bare and Steward runs alternately, so load noise hits both alike."""
    command = bare_command(scenario, bench.repo_dir, bench.workdir, bench.quick)
    result = ScenarioResult(scenario)
    with RssSampler(bench.server) as rss:
        for n in range(scenario.runs(bench.quick)):
            bare = run_bare(command, bench.workdir / f"{scenario.name}-{n}.out")
            result.bare.append(bare)
            steward = run_steward(bench.api, bench.project, scenario, bench.server)
            result.steward.append(steward)
            _log(
                f"{scenario.name} #{n + 1}: bare {bare.wall:.2f}s (rc {bare.rc}),"
                f" Steward {steward.wall:.2f}s ({steward.status}),"
                f" lines {bare.lines}/{steward.line_count_at_final}"
            )
    result.peak_server_rss, result.peak_children_rss = rss.peak_server, rss.peak_children
    return result


def _warm_up(bench: Bench) -> None:
    """One untimed run of each kind (imports, page cache, .pyc files)."""
    command = bare_command(WARMUP, bench.repo_dir, bench.workdir, bench.quick)
    run_bare(command, bench.workdir / "warmup.out")
    run_steward(bench.api, bench.project, WARMUP, bench.server)


def _run_all(
    scenarios: tuple[Scenario, ...], workdir: Path, info: dict[str, Any], quick: bool
) -> list[ScenarioResult]:
    repo_dir = workdir / "playbooks"
    shutil.copytree(BENCH / "playbooks", repo_dir)
    with Server(workdir) as server:
        api = Api(server.base_url)
        try:
            # one template per name: --runs gives scenarios that differ from WARMUP in runs only
            named = {s.name: s for s in (WARMUP, *scenarios)}
            templates = tuple(named.values())
            project = create_project(api, repo_dir, templates, quick)
            bench = Bench(api, project, psutil.Process(server.pid), repo_dir, workdir, quick)
            _warm_up(bench)
            return [_measure(bench, scenario) for scenario in scenarios]
        finally:
            api.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    scenarios = tuple(s for s in SCENARIOS if not args.only or s.name in args.only)
    if args.runs:
        scenarios = tuple(dataclasses.replace(s, repetitions=args.runs) for s in scenarios)
    info = report.machine()
    _log(f"load average {os.getloadavg()}; scenarios: {', '.join(s.name for s in scenarios)}")
    with tempfile.TemporaryDirectory(prefix="steward-bench-") as tmp:
        results = _run_all(scenarios, Path(tmp), info, args.quick)
    info["load_end"] = os.getloadavg()
    text = report.markdown(info, results, args.quick)
    report.write(BENCH / "results", text, report.to_json(info, results))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
