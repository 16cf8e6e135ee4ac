"""What facts over time take in the database per host-change, and what recording and reading
them costs: this machine's real facts (``setup``, every subset, and ``package_facts``, gathered
once by the venv's ansible) recorded through the recorder's path (``hosts.facts.record``) into
a real SQLite, for ``--hosts`` hosts over ``--runs`` runs each.

    .venv/bin/python bench/facts_storage.py [--hosts 10] [--runs 40]

Each run moves the volatile values (the clock, free memory and disk); every other run changes
nothing else (no point may be stored), the others change what hosts change: a package upgraded
(1 to 3 of them), now and then a kernel or an address. Measured: the compressed bytes of each
stored point (keyframes and deltas apart), of the current facts per host, the runs that stored
nothing, the time of one ``record`` and of reading a history page and a diff. Prints a Markdown
report and writes it to bench/results/facts_storage.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from steward import migrations
from steward.db import make_engine, make_session_factory, utcnow
from steward.hosts import factdiff, factread, facts
from steward.hosts.facts import Gathered
from steward.hosts.models import HostFactPoint, HostFacts, ProjectHost
from steward.hosts.schemas import FactsHistoryFilters
from steward.projects.models import Project
from steward.runs.models import LaunchType, Run
from steward.runs.params import RunParams
from steward.runs.status import RunStatus

BENCH = Path(__file__).resolve().parent
LIMIT = 256 * 1024


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def real_facts() -> dict[str, Any]:
    """This machine's facts: setup (all subsets) and package_facts, as the callback sends them."""
    ansible = Path(sys.executable).parent / "ansible"
    found: dict[str, Any] = {}
    for module in ("setup", "package_facts"):
        out = subprocess.run(
            [
                *(str(ansible), "-i", "localhost,", "-c", "local", "localhost", "-m", module),
                *("-o", "-e", f"ansible_python_interpreter={sys.executable}"),
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        ).stdout
        found |= json.loads(out[out.index("{") :])["ansible_facts"]
    found.pop("ansible_env", None)
    return found


def _project_run(sessions: sessionmaker[Session], hosts: list[str]) -> tuple[int, list[int]]:
    with sessions() as session:
        project = Project(name=f"facts-{time.monotonic_ns()}")
        session.add(project)
        session.flush()
        for host in hosts:
            session.add(
                ProjectHost(
                    project_id=project.id, name=host, first_seen_at=utcnow(), last_seen_at=utcnow()
                )
            )
        params = RunParams(playbook="site.yml", repository_id=1, inventory_id=1).model_dump()
        runs = [
            Run(
                project_id=project.id,
                status=RunStatus.SUCCESSFUL,
                launch_type=LaunchType.API,
                params=params,
            )
            for _ in range(ARGS.runs)
        ]
        session.add_all(runs)
        session.commit()
        return project.id, [run.id for run in runs]


def _moved(base: dict[str, Any], n: int, rng: random.Random, state: dict[str, Any]) -> None:
    """What changes on a host at its run ``n``: ``state`` carries it from run to run."""
    if n % 2 == 1:  # a run where the host did not change: only the volatile values move
        return
    packages = state["packages"]
    for name in rng.sample(sorted(packages), rng.randint(1, 3)):
        item = dict(packages[name][0])
        item["version"] = f"{item.get('version', '0')}+u{n}"
        packages[name] = [item]
    if n % 10 == 0:
        state["ansible_kernel"] = f"6.1.0-{n}-amd64"
    if n % 14 == 0 and isinstance(state.get("ansible_default_ipv4"), dict):
        state["ansible_default_ipv4"] = {**state["ansible_default_ipv4"], "address": f"10.0.{n}.9"}


def _volatile(facts_now: dict[str, Any], n: int) -> dict[str, Any]:
    out = dict(facts_now)
    out["ansible_date_time"] = {**(out.get("ansible_date_time") or {}), "epoch": str(n)}
    out["ansible_memfree_mb"] = 1000 + n
    out["ansible_mounts"] = [
        {**m, "size_available": int(m.get("size_available", 0)) - n}
        for m in out.get("ansible_mounts") or []
    ]
    return out


def run(sessions: sessionmaker[Session], base: dict[str, Any]) -> dict[str, Any]:
    hosts = [f"host{h:04d}" for h in range(ARGS.hosts)]
    project_id, run_ids = _project_run(sessions, hosts)
    rng = random.Random(27)  # noqa: S311 — the same changes every time, not a secret
    states = {h: json.loads(json.dumps(base)) for h in hosts}
    timings: list[float] = []
    for n, run_id in enumerate(run_ids):
        with sessions() as session:
            for host in hosts:
                _moved(base, n, rng, states[host])
                found = _volatile(states[host], n)
                started = time.perf_counter()
                facts.record(session, run_id, [Gathered(host, found, [])], at=utcnow(), limit=LIMIT)
                timings.append(time.perf_counter() - started)
            session.commit()
    with sessions() as session:
        points = session.scalars(
            select(HostFactPoint).where(HostFactPoint.project_id == project_id)
        ).all()
        current = session.scalars(select(HostFacts).where(HostFacts.project_id == project_id)).all()
        project = session.get_one(Project, project_id)
        started = time.perf_counter()
        page = factread.history(session, project, hosts[0], FactsHistoryFilters(limit=50))
        history_s = time.perf_counter() - started
        ids = [p.id for p in page.items]
        started = time.perf_counter()
        diff = factread.compare(session, project, hosts[0], ids[-1], ids[0])
        diff_s = time.perf_counter() - started
    keyframes = [len(p.data) for p in points if p.chain == 0]
    deltas = [len(p.data) for p in points if p.chain]
    return {
        "host_runs": len(hosts) * len(run_ids),
        "points": len(points),
        "keyframes": keyframes,
        "deltas": deltas,
        "current": [len(c.data) for c in current],
        "current_raw": [c.size for c in current],
        "record_ms": sorted(t * 1000 for t in timings),
        "history_ms": history_s * 1000,
        "diff_ms": diff_s * 1000,
        "diff_summary": diff.summary,
        "raw_bytes": len(factdiff.canonical(base)),
        "raw_compressed": len(factdiff.pack(factdiff.stable(base))),
    }


def report(r: dict[str, Any]) -> str:
    stored = r["keyframes"] + r["deltas"]
    per_change = sum(stored) / max(len(stored), 1)
    p95 = r["record_ms"][int(len(r["record_ms"]) * 0.95) - 1]
    return "\n".join(
        [
            "# Facts over time: storage per host-change (SQLite)",
            "",
            f"{ARGS.hosts} hosts x {ARGS.runs} runs = {r['host_runs']} recorded host-runs;"
            f" this machine's facts: {r['raw_bytes'] / 1024:.1f} KiB of JSON"
            f" (setup, every subset, and package_facts), {r['raw_compressed'] / 1024:.1f} KiB"
            " compressed whole.",
            "",
            "| figure | value |",
            "|---|---|",
            f"| points stored (host-changes) | {r['points']} of {r['host_runs']} host-runs"
            " (the unchanged runs stored none) |",
            f"| **bytes per host-change, mean (keyframes included)** | **{per_change:.0f}** |",
            f"| delta point, mean / max bytes | {statistics.mean(r['deltas']):.0f} /"
            f" {max(r['deltas'])} |",
            f"| keyframe point (every {facts.KEYFRAME_EVERY}), mean bytes |"
            f" {statistics.mean(r['keyframes']):.0f} |",
            f"| current facts per host, compressed / JSON bytes |"
            f" {statistics.mean(r['current']):.0f} / {statistics.mean(r['current_raw']):.0f} |",
            f"| record one host's facts, p50 / p95 ms | {statistics.median(r['record_ms']):.1f} /"
            f" {p95:.1f} |",
            f"| history page (50 points with summaries), ms | {r['history_ms']:.1f} |",
            f"| diff of the oldest and newest point of that page, ms | {r['diff_ms']:.1f} |",
            "",
            f"That diff's summary: {r['diff_summary']}",
            "",
        ]
    )


def main() -> None:
    _log("gathering this machine's facts (setup, package_facts)")
    base = real_facts()
    root = Path(tempfile.mkdtemp(prefix="steward-bench-facts-"))
    url = f"sqlite:///{root / 'steward.db'}"
    migrations.upgrade(url)
    sessions = make_session_factory(make_engine(url))
    _log(f"recording {ARGS.hosts} hosts x {ARGS.runs} runs")
    text = report(run(sessions, base))
    print(text)
    results = BENCH / "results"
    results.mkdir(exist_ok=True)
    (results / "facts_storage.md").write_text(text)


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--hosts", type=int, default=10)
parser.add_argument("--runs", type=int, default=40)
ARGS = parser.parse_args() if __name__ == "__main__" else parser.parse_args([])

if __name__ == "__main__":
    main()
