"""One periodic health pass over 1,000 hosts (issue 27: "a periodic health check of 1,000 hosts
finishes within its interval on 2 cores without slowing runs").

    .venv/bin/python bench/host_health.py [--hosts N] [--slow-share F] [--refused-share F]
                                          [--timeout S] [--concurrency N] [--passes N]

The hosts are listeners on 127.0.0.1 in a child process (so their CPU is not ours): most answer
with an SSH version line at once, some ports are refused (nothing listens), some answer after
the timeout (slow). Each host is its own inventory host (its own name, its port one of those).
Measured, per pass, in this process:

- **probes only**: ``checks.run_checks`` over the targets (wall, CPU of this process);
- **the whole pass**: ``health.service.sweep`` on a SQLite database (claim, targets read from
  ``inventory_hosts``, the checks, history and latest written), wall and CPU.

CPU / wall is the share of one core the pass takes while it runs. Then **beside a run**: the
many_tasks scenario's bare `ansible-playbook` alternately alone and with whole passes back to
back beside it (``--beside N`` rounds; a pass every interval is far less): the run's wall both
ways. Prints a Markdown report and writes it to bench/results/host_health.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from measure import bare_command, run_bare
from scenarios import SCENARIOS
from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

import steward.models  # noqa: F401 - every table, for create_all
from steward.config import Settings
from steward.db import Base, make_engine, make_session_factory, utcnow
from steward.health import checks, probe, service
from steward.health.models import HealthSweep
from steward.inventories.models import Inventory, InventoryFormat, InventoryHost, InventoryKind
from steward.projects.models import Project

BENCH = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"


async def _listen(delay: float) -> None:
    async def fast(_r: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"SSH-2.0-OpenSSH_9.2 bench\r\n")
        await writer.drain()
        await asyncio.sleep(0.5)
        writer.close()

    async def slow(_r: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(delay)
        writer.close()

    servers = [
        await asyncio.start_server(fast, LOOPBACK, 0, backlog=2048),
        await asyncio.start_server(slow, LOOPBACK, 0, backlog=2048),
    ]
    ports = [s.sockets[0].getsockname()[1] for s in servers]
    print(json.dumps(ports), flush=True)
    await asyncio.Event().wait()


def _refused_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return int(s.getsockname()[1])


def _plan(hosts: int, slow_share: float, refused_share: float) -> list[str]:
    slow = round(hosts * slow_share)
    refused = round(hosts * refused_share)
    kinds = ["slow"] * slow + ["refused"] * refused + ["open"] * (hosts - slow - refused)
    # spread the kinds as an inventory would (not all slow ones in one batch)
    return [kinds[(i * 7919) % hosts] for i in range(hosts)]


def _database(workdir: Path, kinds: list[str], ports: dict[str, int]) -> sessionmaker[Session]:
    engine = make_engine(f"sqlite:///{workdir / 'bench.db'}")
    Base.metadata.create_all(engine)
    sessions = make_session_factory(engine)
    with sessions() as session:
        project = Project(name="bench")
        session.add(project)
        session.flush()
        inventory = Inventory(
            project_id=project.id,
            name="fleet",
            kind=InventoryKind.STATIC,
            format=InventoryFormat.INI,
            content="",
        )
        inventory.host_rows = [
            InventoryHost(
                name=f"db{n:04d}",
                groups=[],
                vars={},
                connection={"host": LOOPBACK, "port": ports[kind]},
            )
            for n, kind in enumerate(kinds)
        ]
        inventory.hosts_read_at = utcnow()
        session.add(inventory)
        session.commit()
    return sessions


T = TypeVar("T")


def _timed[T](call: Callable[[], T]) -> tuple[T, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _sweep(sessions: sessionmaker[Session], settings: Settings) -> tuple[int, float, float]:
    with sessions() as session:
        session.execute(delete(HealthSweep))  # due again: this pass claims it
        session.commit()
        return _timed(lambda: service.sweep(session, settings))


def _beside_runs(
    sessions: sessionmaker[Session], settings: Settings, workdir: Path, rounds: int
) -> dict[str, list[float]]:
    """The wall of a bare run of many_tasks alone and with health passes back to back."""
    scenario = next(s for s in SCENARIOS if s.name == "many_tasks")
    command = bare_command(scenario, BENCH / "playbooks", workdir, quick=False)
    walls: dict[str, list[float]] = {"alone": [], "beside passes": []}
    for _ in range(rounds):
        for way, got in walls.items():
            stop = threading.Event()

            def passes(stop: threading.Event = stop) -> None:
                while not stop.is_set():
                    _sweep(sessions, settings)

            sweeping = threading.Thread(target=passes) if way == "beside passes" else None
            if sweeping is not None:
                sweeping.start()
            got.append(run_bare(command, workdir / "run.out").wall)
            stop.set()
            if sweeping is not None:
                sweeping.join()
    return walls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--slow-share", type=float, default=0.05)
    parser.add_argument("--refused-share", type=float, default=0.15)
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--beside", type=int, default=3, help="rounds of a run beside passes")
    parser.add_argument("--listen", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.listen is not None:
        asyncio.run(_listen(args.listen))
        return 0

    listener = subprocess.Popen(
        [sys.executable, __file__, "--listen", str(args.timeout * 3)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert listener.stdout is not None
        fast, slow = json.loads(listener.stdout.readline())
        ports = {"open": fast, "slow": slow, "refused": _refused_port()}
        kinds = _plan(args.hosts, args.slow_share, args.refused_share)
        settings = Settings(
            health_allowed_networks=[LOOPBACK],
            health_timeout_seconds=args.timeout,
            health_concurrency=args.concurrency,
            health_interval_seconds=300,
        )
        found = [
            probe.Target((1, f"db{n:04d}"), address=LOOPBACK, port=ports[kind])
            for n, kind in enumerate(kinds)
        ]
        probes: list[tuple[float, float]] = []
        statuses: Counter[str] = Counter()
        for _ in range(args.passes):
            results, wall, cpu = _timed(lambda: checks.run_checks(found, settings))
            probes.append((wall, cpu))
            statuses = Counter(r.status.value for r in results)
        with tempfile.TemporaryDirectory(prefix="steward-bench-health-") as tmp:
            sessions = _database(Path(tmp), kinds, ports)
            passes: list[tuple[float, float]] = []
            for _ in range(args.passes):
                checked, wall, cpu = _sweep(sessions, settings)
                assert checked == args.hosts, checked
                passes.append((wall, cpu))
            beside = _beside_runs(sessions, settings, Path(tmp), args.beside)
    finally:
        listener.terminate()
        listener.wait(timeout=10)

    bound = math.ceil(args.hosts / args.concurrency) * args.timeout
    load = os.getloadavg()

    def row(name: str, samples: list[tuple[float, float]]) -> str:
        walls = [w for w, _ in samples]
        cpus = [c for _, c in samples]
        share = statistics.median(c / w for w, c in samples)
        return (
            f"| {name} | {statistics.median(walls):.2f} | {max(walls):.2f}"
            f" | {statistics.median(cpus):.2f} | {share:.0%} |"
        )

    alone, crowded = (statistics.median(beside[way]) for way in ("alone", "beside passes"))
    report = "\n".join(
        [
            f"# One health pass over {args.hosts} hosts",
            "",
            f"{dict(statuses)}; timeout {args.timeout:g} s, {args.concurrency} at once,"
            f" {args.passes} passes; worst case by construction"
            f" ceil(hosts / concurrency) x timeout = {bound:g} s."
            f" Load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
            f" on {os.cpu_count()} CPUs.",
            "",
            "| what | wall s (median) | wall s (worst) | CPU s (median) | CPU / wall |",
            "|---|---|---|---|---|",
            row("probes only", probes),
            row("whole pass (SQLite: claim, read, check, write)", passes),
            "",
            f"A run of many_tasks (bare ansible-playbook, {args.beside} alternate rounds), wall"
            f" median: alone {alone:.2f} s, with passes back to back beside it {crowded:.2f} s"
            f" ({crowded / alone:.3f}x).",
            "",
        ]
    )
    print(report)
    results_dir = BENCH / "results"
    results_dir.mkdir(exist_ok=True)
    (results_dir / "host_health.md").write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
