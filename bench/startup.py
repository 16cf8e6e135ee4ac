"""What starting ``steward serve`` costs: start to ready and idle RSS (issue 29).

    .venv/bin/python bench/startup.py [--starts N] [--against SRC]

A real ``steward serve`` on SQLite (bench/harness.py), started once to make and migrate its data
directory, then N times on it (as every start but the first after an install or an upgrade):
the wall from the command to its first answered health check, and the server's own CPU until
then (user + system, steadier than the wall on a machine other work shares); then the RSS
of a server idle for 3 s after ready. ``--against`` measures another source tree the same way,
start by start alternately (its ``src`` directory, e.g. ``git archive REV src | tar -x -C DIR``),
to compare on one machine at one time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from harness import Server, cpu_seconds, rss_mib


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another tree's src directory")
    args = parser.parse_args()
    here = os.environ.get("PYTHONPATH", "")
    trees = {"this tree": here} | ({str(args.against): str(args.against)} if args.against else {})
    walls: dict[str, list[float]] = {name: [] for name in trees}
    cpus: dict[str, list[float]] = {name: [] for name in trees}
    rss: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="steward-bench-startup-") as tmp:
        for n, src in enumerate(trees.values()):
            os.environ["PYTHONPATH"] = src  # the server's environment (harness.Server)
            (Path(tmp) / str(n)).mkdir()
            with Server(Path(tmp) / str(n)):  # the first start: creates and migrates
                pass
        for _ in range(args.starts):
            for n, (name, src) in enumerate(trees.items()):
                os.environ["PYTHONPATH"] = src
                began = time.perf_counter()
                with Server(Path(tmp) / str(n)) as server:
                    walls[name].append(time.perf_counter() - began)
                    cpus[name].append(cpu_seconds(server.pid))
        for n, (name, src) in enumerate(trees.items()):
            os.environ["PYTHONPATH"] = src
            with Server(Path(tmp) / str(n)) as server:
                time.sleep(3)
                rss[name] = rss_mib(server.pid)
    load = os.getloadavg()[0]
    print(f"\n### Starting steward serve (SQLite, median of {args.starts}, load {load:.1f})\n")
    print("| tree | start to ready s | CPU to ready s | idle RSS MiB | target |")
    print("|---|---|---|---|---|")
    for name in trees:
        print(
            f"| {name} | {statistics.median(walls[name]):.2f} | {statistics.median(cpus[name]):.2f}"
            f" | {rss[name]:.0f} | ≤ 1 s, ≤ 90 MiB |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
