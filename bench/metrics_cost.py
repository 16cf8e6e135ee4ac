"""What recording host metrics costs: many_tasks through two real servers, one recording
metrics (the default) and one with STEWARD_METRICS_ENABLED=false, run alternately.

    .venv/bin/python bench/metrics_cost.py [--runs N]      # N runs on each (default 6), ~4 min

Prints the medians (wall: POST → finished_at; the server's own CPU during the run, where the
sampler's threads are counted) and what the recording server stored: bytes per sample and the
size of one lane for an hour.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
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


def _storage(data_dir: Path) -> dict[str, float]:
    """Bytes the recording server's database holds for its runs' metrics."""
    with contextlib.closing(sqlite3.connect(data_dir / "steward.db")) as db:
        rows, samples, blob = db.execute(
            "SELECT count(*), sum(count), sum(length(data)) FROM run_metric_chunks"
        ).fetchone()
        lanes_seconds = db.execute(
            "SELECT sum(end_ms - start_ms) / 1000.0 FROM run_metric_chunks"
        ).fetchone()[0]
        try:
            pages = db.execute(
                "SELECT sum(pgsize) FROM dbstat WHERE name LIKE '%run_metric_chunks%'"
            ).fetchone()[0]
        except sqlite3.OperationalError:
            pages = None
    per_sample = blob / samples
    hour = 3600 * per_sample
    return {
        "chunks": rows,
        "samples": samples,
        "blob_bytes": blob,
        "seconds_covered": lanes_seconds,
        "blob_bytes_per_sample": per_sample,
        "lane_hour_blob_kb": hour / 1024,
        "table_bytes_on_disk": pages or 0,
        "table_bytes_per_sample": (pages or 0) / samples,
    }


def sampler_cost(seconds: float) -> tuple[float, int]:
    """CPU seconds the controller's sampling takes per sample (psutil, the run's tree found by
    its marker, packing every 10 samples), measured on its own thread at 1 sample a second
    beside a process carrying a run's marker."""
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=6, help="runs on each server (>= 5)")
    args = parser.parse_args(argv)
    _log(f"load average {os.getloadavg()}")
    per_sample, counted = sampler_cost(30.0)
    _log(f"sampler: {per_sample * 1000:.2f} ms CPU per sample ({counted} samples)")
    on: list[StewardSample] = []
    off: list[StewardSample] = []
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
            for n in range(args.runs):
                for metrics in (True, False) if n % 2 == 0 else (False, True):  # ABBA
                    api, project, process, samples = sides[metrics]
                    sample = run_steward(api, project, MANY_TASKS, process)
                    samples.append(sample)
                    _log(
                        f"#{n + 1} metrics {'on ' if metrics else 'off'}: {sample.wall:.2f} s,"
                        f" server CPU {sample.cpu_server:.2f} s ({sample.status})"
                    )
            storage = _storage(server_on.data_dir)
    wall_on = statistics.median(s.wall for s in on)
    wall_off = statistics.median(s.wall for s in off)
    cpu_on = statistics.median(s.cpu_server for s in on)
    cpu_off = statistics.median(s.cpu_server for s in off)
    print(f"many_tasks, {args.runs} runs each, alternating; load {os.getloadavg()}")
    print(
        f"wall median: metrics on {wall_on:.2f} s, off {wall_off:.2f} s,"
        f" ratio {wall_on / wall_off:.3f}"
    )
    print(f"wall samples on:  {', '.join(f'{s.wall:.2f}' for s in on)}")
    print(f"wall samples off: {', '.join(f'{s.wall:.2f}' for s in off)}")
    print(
        f"server CPU median: on {cpu_on:.2f} s, off {cpu_off:.2f} s,"
        f" difference {cpu_on - cpu_off:.3f} s per run"
        f" ({(cpu_on - cpu_off) / wall_on * 100:.2f} % of one CPU)"
    )
    print(
        f"sampler alone: {per_sample * 1000:.2f} ms of CPU per sample, at 1 sample a second"
        f" {per_sample * 100:.2f} % of one CPU ({counted} samples)"
    )
    for name, value in storage.items():
        print(f"storage {name}: {value:,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
