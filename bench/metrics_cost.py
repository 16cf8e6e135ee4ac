"""What recording host metrics costs a run: many_tasks through two real servers, one recording
metrics (the default) and one with STEWARD_METRICS_ENABLED=false, in interleaved pairs.

    .venv/bin/python bench/metrics_cost.py [--pairs N]      # N pairs (default 10), ~1 min each

Two answers, because wall time on a shared 2-core machine is noisy (single runs spread ±10 %):

- **wall**: per pair (on and off run back to back, the order alternating ABBA), the ratio
  on/off; the median of those ratios and of the two sides, with a 95 % bootstrap interval
  (percentile, 10,000 resamples of the pairs). "≤ 1 %" is shown only when the interval's upper
  end is ≤ 1.01; otherwise the wall figures only bound the cost.
- **CPU accounting**: the CPU seconds the recording's own threads took in each run (logged by
  the server: per-thread ``time.thread_time``; sampling, packing and writing included) divided
  by the CPU seconds of the whole run: the server's own during the run plus ansible-playbook
  and its processes. The latter are not the server's children (the sandbox detaches them), so
  they are the run's own ``run.cpu`` series (its process tree, reaped workers included)
  integrated over the run: they miss at most the last sample interval of the run. This does
  not depend on the noise: on a machine whose cores the run keeps busy, extra CPU is at most
  that much extra wall time.

Also the sampler alone (ms of CPU per sample, its own thread, 1 sample a second beside a
process carrying a run's marker) and load averages before, during and after. Prints a Markdown
report and writes it to bench/results/metrics_cost.md.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import psutil
from harness import Api, Project, Server, create_project
from measure import StewardSample, run_steward
from scenarios import SCENARIOS, WARMUP

from steward.metrics.controller import ControllerProbe
from steward.metrics.lanes import Lane
from steward.metrics.series import LaneKind

BENCH = Path(__file__).resolve().parent
MANY_TASKS = next(s for s in SCENARIOS if s.name == "many_tasks")
RESAMPLES = 10_000
THREADS_CPU = re.compile(r"run (\d+): host metrics: (\d+) controller samples, ([\d.]+) s CPU")


@contextlib.contextmanager
def _server(workdir: Path, metrics: bool) -> Iterator[tuple[Server, Api, Project]]:
    server = Server(workdir)
    os.environ["STEWARD_METRICS_ENABLED"] = "true" if metrics else "false"
    try:
        server.__enter__()  # its environment is read here
    finally:
        del os.environ["STEWARD_METRICS_ENABLED"]
    try:
        api = Api(server.base_url)
        repo = workdir / "playbooks"
        shutil.copytree(BENCH / "playbooks", repo)
        project = create_project(api, repo, (MANY_TASKS, WARMUP), quick=False)
        try:
            yield server, api, project
        finally:
            api.close()
    finally:
        server.stop()


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _load() -> str:
    return "/".join(f"{v:.2f}" for v in os.getloadavg())


def sampler_cost(seconds: float) -> tuple[float, int]:
    """CPU seconds the controller's sampling takes per sample (psutil and /proc, the run's tree
    found by its marker, packing every 10 samples), measured on its own thread at 1 sample a
    second beside a process carrying a run's marker."""
    marker = {**os.environ, "STEWARD_RUN_UUID": "bench-metrics"}
    child = subprocess.Popen(["sleep", str(seconds + 5)], env=marker)
    probe = ControllerProbe("bench-metrics")
    lane = Lane(LaneKind.CONTROLLER, "bench", 1000)
    samples = 0
    start = time.thread_time()
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            values = probe.sample()
            if values is not None:
                lane.add(int(time.time() * 1000), values)
                samples += 1
            if samples % 10 == 9:
                lane.take(run_id=1)
            time.sleep(1.0)
    finally:
        child.kill()
        child.wait()
    return (time.thread_time() - start) / max(samples, 1), samples


def run_cpu(api: Api, project: Project, run_id: int) -> float:
    """CPU seconds of the run's processes: its recorded ``run.cpu`` (% of one CPU over the
    interval before each sample) integrated over the run."""
    answer = api.get(
        project.url(f"runs/{run_id}/metrics"), kind="controller", series="run.cpu", points=5000
    )
    lane = answer["lanes"][0]
    total, previous = 0.0, None
    for t, value in zip(lane["times"], lane["series"]["run.cpu"], strict=True):
        seconds = 1.0 if previous is None else (t - previous) / 1000
        previous = t
        total += (value or 0.0) / 100 * seconds
    return total


def threads_cpu(log: Path) -> dict[int, tuple[int, float]]:
    """Run id -> (controller samples, CPU seconds of the recording's threads), from the log."""
    found: dict[int, tuple[int, float]] = {}
    for match in THREADS_CPU.finditer(log.read_text(errors="replace")):
        found[int(match[1])] = (int(match[2]), float(match[3]))
    return found


def interval(
    values: Sequence[float], statistic: Callable[[Sequence[float]], float]
) -> tuple[float, float]:
    """95 % percentile bootstrap interval of ``statistic`` over ``values`` (fixed seed)."""
    rng = random.Random(15)  # noqa: S311  # resampling, not secrets
    n = len(values)
    stats = sorted(
        statistic([values[rng.randrange(n)] for _ in range(n)]) for _ in range(RESAMPLES)
    )
    return stats[int(0.025 * RESAMPLES)], stats[int(0.975 * RESAMPLES) - 1]


def _pairs_interval(on: Sequence[float], off: Sequence[float]) -> tuple[float, float]:
    """Bootstrap interval of median(on) / median(off), resampling whole pairs."""
    rng = random.Random(13)  # noqa: S311  # resampling, not secrets
    n = len(on)
    ratios = []
    for _ in range(RESAMPLES):
        picks = [rng.randrange(n) for _ in range(n)]
        ratios.append(
            statistics.median(on[i] for i in picks) / statistics.median(off[i] for i in picks)
        )
    ratios.sort()
    return ratios[int(0.025 * RESAMPLES)], ratios[int(0.975 * RESAMPLES) - 1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10, help="on/off pairs (>= 5)")
    parser.add_argument("--sampler-seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    load_before = _load()
    _log(f"load average {load_before}")
    per_sample, counted = sampler_cost(args.sampler_seconds)
    _log(f"sampler: {per_sample * 1000:.3f} ms CPU per sample ({counted} samples)")
    on: list[StewardSample] = []
    off: list[StewardSample] = []
    loads: list[float] = []
    tree_cpu: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="steward-bench-metrics-") as tmp:
        (Path(tmp) / "on").mkdir()
        (Path(tmp) / "off").mkdir()
        with (
            _server(Path(tmp) / "on", metrics=True) as (server_on, api_on, project_on),
            _server(Path(tmp) / "off", metrics=False) as (server_off, api_off, project_off),
        ):
            sides = {
                True: (api_on, project_on, psutil.Process(server_on.pid), on),
                False: (api_off, project_off, psutil.Process(server_off.pid), off),
            }
            for api, project, process, _ in sides.values():
                run_steward(api, project, WARMUP, process)
            for n in range(args.pairs):
                for metrics in (True, False) if n % 2 == 0 else (False, True):  # ABBA
                    api, project, process, samples = sides[metrics]
                    sample = run_steward(api, project, MANY_TASKS, process)
                    samples.append(sample)
                    loads.append(os.getloadavg()[0])
                    if metrics:
                        tree_cpu[sample.run_id] = run_cpu(api, project, sample.run_id)
                    _log(
                        f"pair {n + 1} metrics {'on ' if metrics else 'off'}: {sample.wall:.2f} s,"
                        f" CPU server {sample.cpu_server:.2f} s"
                        f" run {tree_cpu[sample.run_id] if metrics else math.nan:.2f} s"
                        f" ({sample.status}), load {_load()}"
                    )
            time.sleep(1.0)  # the last run's log line is written before its final status
            recorded = threads_cpu(server_on.log)
    loads_seen = (load_before, loads, _load())
    report = _report(args, on, off, recorded, tree_cpu, per_sample, counted, loads_seen)
    print(report)
    out = BENCH / "results"
    out.mkdir(exist_ok=True)
    (out / "metrics_cost.md").write_text(report)
    return 0


def _report(
    args: argparse.Namespace,
    on: list[StewardSample],
    off: list[StewardSample],
    recorded: dict[int, tuple[int, float]],
    tree_cpu: dict[int, float],
    per_sample: float,
    counted: int,
    loads: tuple[str, list[float], str],
) -> str:
    wall_on = [s.wall for s in on]
    wall_off = [s.wall for s in off]
    ratios = [a / b for a, b in zip(wall_on, wall_off, strict=True)]
    median_ratio = statistics.median(ratios)
    low, high = interval(ratios, statistics.median)
    of_medians = statistics.median(wall_on) / statistics.median(wall_off)
    m_low, m_high = _pairs_interval(wall_on, wall_off)
    shares = []
    samples = []
    for s in on:
        taken, cpu = recorded.get(s.run_id, (0, math.nan))
        samples.append(taken)
        shares.append(cpu / (tree_cpu[s.run_id] + s.cpu_server))
    whole = [tree_cpu[s.run_id] + s.cpu_server for s in on]
    thread_cpu = [recorded.get(s.run_id, (0, float("nan")))[1] for s in on]
    server_diff = [a.cpu_server - b.cpu_server for a, b in zip(on, off, strict=True)]
    d_low, d_high = interval(server_diff, statistics.median)
    load_before, during, load_after = loads
    verdict = (
        "shown: the interval's upper end is within 1 %"
        if high <= 1.01
        else "not decidable from wall time on this machine: the interval is wider than 1 %"
    )
    cpu_verdict = "within 1 %" if max(shares) <= 0.01 else "ABOVE 1 %"
    lines = [
        f"# Host metrics: cost on many_tasks ({time.strftime('%Y-%m-%d %H:%M')})",
        "",
        f"{args.pairs} interleaved pairs (ABBA), metrics on vs off, two real servers (SQLite).",
        f"Load average (1/5/15 min) before {load_before}, during (1 min) "
        f"{min(during):.2f} to {max(during):.2f}, after {load_after}; "
        f"{os.cpu_count()} CPUs.",
        "",
        "| | on | off |",
        "|---|---|---|",
        f"| wall median s | {statistics.median(wall_on):.2f} | {statistics.median(wall_off):.2f} |",
        f"| wall min - max s | {min(wall_on):.2f} - {max(wall_on):.2f} | "
        f"{min(wall_off):.2f} - {max(wall_off):.2f} |",
        f"| server CPU median s | {statistics.median(s.cpu_server for s in on):.2f} | "
        f"{statistics.median(s.cpu_server for s in off):.2f} |",
        "",
        f"**Wall**: median of pair ratios {median_ratio:.4f}"
        f" (95 % bootstrap {low:.4f} to {high:.4f});"
        f" ratio of medians {of_medians:.4f} ({m_low:.4f} to {m_high:.4f}). ≤ 1 %: {verdict}.",
        f"Pair ratios: {', '.join(f'{r:.3f}' for r in ratios)}.",
        "",
        f"**CPU accounting**: the recording's threads took median "
        f"{statistics.median(thread_cpu) * 1000:.1f} ms of CPU a run "
        f"({statistics.median(samples)} samples) of the run's "
        f"{statistics.median(whole):.1f} s (ansible's processes "
        f"{statistics.median(tree_cpu.values()):.1f} s + server "
        f"{statistics.median(s.cpu_server for s in on):.1f} s): "
        f"median {statistics.median(shares) * 100:.3f} %, max {max(shares) * 100:.3f} % "
        f"— {cpu_verdict}. Server CPU on - off per pair: median "
        f"{statistics.median(server_diff):+.3f} s (95 % {d_low:+.3f} to {d_high:+.3f}).",
        "",
        f"**Sampler alone**: {per_sample * 1000:.3f} ms of CPU a sample, at 1 sample a second "
        f"{per_sample * 100:.3f} % of one CPU ({counted} samples).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
