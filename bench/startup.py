"""What starting ``steward serve`` costs: start to ready and idle RSS (issue 29).

    .venv/bin/python bench/startup.py [--starts N] [--against SRC]

A real ``steward serve`` on SQLite (bench/harness.py), started once to make and migrate its data
directory, then N times on it (as every start but the first after an install or an upgrade):
the wall from the command to its first answered health check, and the server's own CPU until
then (user + system, steadier than the wall on a machine other work shares); then the RSS
of a server idle for 3 s after ready. ``--against`` measures another source tree the same way,
start by start alternately (its ``src`` directory, e.g. ``git archive REV src | tar -x -C DIR``),
to compare on one machine at one time. Each tree is compiled to bytecode first, as
scripts/setup does for an install.

When a target is missed, where this tree's start and idle memory go, measured on three more
starts of ``bench/startup_probe.py`` (``steward serve`` with a clock around each phase): the
phases' wall and CPU; the imports' self time by package (``-X importtime``); the idle server's
Python heap by the package of the file that allocated it (``-X tracemalloc``) and the RSS that is
no Python heap (the interpreter, extension modules' code and data, the allocators' own).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import sys
import sysconfig
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from harness import Server, cpu_seconds, rss_mib

TARGET_S, TARGET_MIB = 1.0, 90.0
PROBE = Path(__file__).with_name("startup_probe.py")
SRC = Path(__file__).parents[1] / "src"  # this tree's, installed in the venv (editable)
STDLIB = sysconfig.get_paths()["stdlib"]
SHOWN = 12  # rows of a breakdown; the rest summed up


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another tree's src directory")
    parser.add_argument("--breakdown", action="store_true", help="even when the targets are met")
    args = parser.parse_args()
    here = os.environ.get("PYTHONPATH", "")
    trees = {"this tree": here} | ({str(args.against): str(args.against)} if args.against else {})
    walls: dict[str, list[float]] = {name: [] for name in trees}
    cpus: dict[str, list[float]] = {name: [] for name in trees}
    rss: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="steward-bench-startup-") as tmp:
        for n, src in enumerate(trees.values()):
            # as scripts/setup compiles src: with PYTHONDONTWRITEBYTECODE, a tree without its
            # .pyc files compiles every module at every start (0.25 s of CPU more, measured)
            compileall.compile_dir(src or SRC, quiet=1, workers=0)
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
            f" | {rss[name]:.0f} | ≤ {TARGET_S:g} s, ≤ {TARGET_MIB:g} MiB |"
        )
    missed = statistics.median(walls["this tree"]) > TARGET_S or rss["this tree"] > TARGET_MIB
    if missed or args.breakdown:
        os.environ["PYTHONPATH"] = here
        with tempfile.TemporaryDirectory(prefix="steward-bench-startup-") as tmp:
            breakdown(Path(tmp), rss["this tree"])
    return 0


def probe(workdir: Path, *flags: str, profile: bool = False) -> tuple[dict[str, Any], str]:
    """One start of startup_probe.py on ``workdir``'s data (made and migrated by the caller),
    idle 3 s after ready: what it wrote, and its log."""
    (workdir / "server.log").unlink(missing_ok=True)
    out = workdir / "probe.json"
    os.environ["STEWARD_BENCH_LAUNCHED"] = repr(time.time())
    argv = [sys.executable, *flags, str(PROBE), str(out), *(["--profile"] if profile else [])]
    with Server(workdir, argv=argv):
        time.sleep(3)
    found: dict[str, Any] = json.loads(out.read_text())
    return found, (workdir / "server.log").read_text()


def breakdown(workdir: Path, rss: float) -> None:
    with Server(workdir):  # the first start: creates and migrates
        pass
    phases = probe(workdir)[0]["phases"]
    imports = summed(
        (name, int(own) / 1e6)
        for line in probe(workdir, "-X", "importtime")[1].splitlines()
        if line.startswith("import time:") and "self [us]" not in line
        for own, _, name in [(p.strip() for p in line.removeprefix("import time:").split("|"))]
    )
    profiled = probe(workdir, profile=True)[0]
    cpu = summed((module(f), s) for f, s in profiled["own"].items())
    heap = summed(
        (module(f), b / 2**20) for f, b in probe(workdir, "-X", "tracemalloc")[0]["heap"].items()
    )

    print("\n#### Where this tree's start goes (one start, s since the command)\n")
    print("| phase | ends at | wall | CPU |")
    print("|---|---|---|---|")
    wall_then, cpu_then = 0.0, 0.0
    for phase, ends, used in phases:
        print(f"| {phase} | {ends:.3f} | {ends - wall_then:.3f} | {used - cpu_then:.3f} |")
        wall_then, cpu_then = ends, used
    table("Imports: self time by package (-X importtime)", "s", imports, 3)
    profiled_cpu = sum(cpu.values())
    share = {name: 100 * s / profiled_cpu for name, s in cpu.items()}
    table("Imports and build_app: own CPU by package (cProfile, %)", "%", share, 1)
    print("\n| step of the imports and build_app (cProfile) | times | CPU % with what it calls |")
    print("|---|---|---|")
    for step, (calls, total) in profiled["steps"].items():
        print(f"| {step} | {calls} | {100 * total / profiled_cpu:.1f} |")
    heap["not Python heap (RSS - traced)"] = rss - sum(heap.values())
    table(f"Idle memory by package (tracemalloc; RSS {rss:.0f} MiB)", "MiB", heap, 1)


def summed(by_module: Iterable[tuple[str, float]]) -> dict[str, float]:
    """Values by module summed by ``package``."""
    sums: dict[str, float] = defaultdict(float)
    for name, value in by_module:
        sums[package(name)] += value
    return sums


def table(title: str, unit: str, by_package: dict[str, float], digits: int) -> None:
    print(f"\n#### {title}\n")
    print(f"| package | {unit} |")
    print("|---|---|")
    ranked = sorted(by_package.items(), key=lambda item: -item[1])
    rest = sum(v for _, v in ranked[SHOWN:])
    for name, value in [*ranked[:SHOWN], (f"the other {len(ranked[SHOWN:])}", rest)]:
        print(f"| {name} | {value:.{digits}f} |")
    print(f"| **total** | {sum(by_package.values()):.{digits}f} |")


def module(filename: str) -> str:
    """The dotted module of a file (its path below site-packages or ``src``), ``stdlib`` for
    the standard library's, the name as it is for ``<frozen …>`` (the import system: every
    module's code objects) and ``<unknown>``."""
    path = Path(filename)
    for root in ("site-packages", "src"):
        if root in path.parts:
            below = path.parts[path.parts.index(root) + 1 :]
            return ".".join([*below[:-1], below[-1].split(".")[0]]).removesuffix(".__init__")
    return "stdlib" if filename.startswith(STDLIB) else filename


def package(name: str) -> str:
    """What a module is counted under: ``steward.<domain>`` for Steward's, the top-level
    package for the others, ``stdlib`` for the standard library's."""
    parts = name.split(".")
    if name.startswith("<frozen"):  # <frozen importlib._bootstrap_external>: modules' code
        return name
    if name.startswith("<"):  # <sqlalchemy generated __init__ for class …>, <string>
        return name.split(" ")[0].removesuffix(">") + ">"
    if parts[0] == "steward":
        return ".".join(parts[:2])
    return "stdlib" if parts[0] in sys.stdlib_module_names else parts[0]


if __name__ == "__main__":
    raise SystemExit(main())
