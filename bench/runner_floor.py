"""The floor under Steward's overhead: Steward's executor alone vs bare ansible-playbook.

    .venv/bin/python bench/runner_floor.py [--runs N] [--only NAME ...]

This runs each scenario's playbook three ways, alternately, and prints the medians of wall time
and CPU (user + system of the whole process tree, which depends much less on load than wall):

- bare `ansible-playbook`, stdout to a pipe read by this process;
- callback only: the same command with Steward's event plugin
  (`execution/ansible/callback/steward_events.py`) loaded as Steward loads it, its events pipe
  going to /dev/null: what the plugin costs inside ansible's controller (building and
  serialising events, routing the display through the pipe);
- executor: `run_playbook()` called the way Steward calls it, in a fresh process (no server,
  no database, events counted then dropped): plugin, pipes, reading and parsing the records.

The difference between the last column and Steward's own figures (`run.py`) is what the
server adds (queue, preparation, the recorder's inserts). ansible-runner, which Steward used
before, measured 1.1-1.2x of bare on many_tasks and forks (README, 2026-11-21).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import bare_command
from scenarios import SCENARIOS

from steward.execution.ansible.playbook import CALLBACK_DIR, EVENTS_FD_VARIABLE

BENCH = Path(__file__).resolve().parent
WAYS = ("bare", "callback only", "executor")

# a child process per run, as clean as bare's: run_playbook as Steward calls it, events counted
EXECUTOR = """
import json, sys, uuid
from pathlib import Path
from steward.execution.ansible.playbook import RunnerSpec, run_playbook
args = json.loads(sys.argv[1])
count = 0
def on_event(event):
    global count
    count += 1
spec = RunnerSpec(
    run_uuid=str(uuid.uuid4()), private_data_dir=Path(args["private"]),
    project_dir=Path(args["cwd"]), playbook=args["playbook"], inventory=Path(args["inventory"]),
    extravars_files=tuple(Path(p) for p in args["extravars"]), forks=args["forks"],
    env={"ANSIBLE_NOCOLOR": "1"},
)
outcome = run_playbook(spec, on_event=on_event, should_cancel=lambda: False)
sys.exit(0 if outcome.status == "successful" and count else 1)
"""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(
    argv: list[str], cwd: Path, env: dict[str, str], pass_fds: tuple[int, ...] = ()
) -> tuple[float, float]:
    """(wall, CPU) seconds of one process tree run to completion, its output read and dropped."""
    cpu, start = _cpu(), time.perf_counter()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        pass_fds=pass_fds,
    )
    if proc.stdout is None:
        raise RuntimeError("no stdout pipe")
    while os.read(proc.stdout.fileno(), 1 << 16):
        pass
    if proc.wait() != 0:
        raise RuntimeError(f"{argv[:3]} failed with {proc.returncode}")
    return time.perf_counter() - start, _cpu() - cpu


def _callback_only(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    fd = os.open(os.devnull, os.O_WRONLY)
    try:
        plugin_env = {
            **env,
            "ANSIBLE_CALLBACK_PLUGINS": str(CALLBACK_DIR),
            EVENTS_FD_VARIABLE: str(fd),
        }
        return _timed(argv, cwd, plugin_env, pass_fds=(fd,))
    finally:
        os.close(fd)


def _executor_argv(argv: list[str], cwd: Path, workdir: Path) -> list[str]:
    private = Path(tempfile.mkdtemp(dir=workdir))
    args = {
        "private": str(private),
        "cwd": str(cwd),
        "playbook": argv[3],
        "inventory": argv[2],
        "extravars": [argv[argv.index("-e") + 1][1:]] if "-e" in argv else [],
        "forks": int(argv[argv.index("-f") + 1]) if "-f" in argv else None,
    }
    return [sys.executable, "-c", EXECUTOR, json.dumps(args)]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", action="append", metavar="NAME")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}")
    print("Medians; ratios against bare. Wall time depends on load, CPU much less.\n")
    print("| scenario | " + " | ".join(f"{w} wall s | {w} CPU s" for w in WAYS) + " |")
    print("|---|" + "---|---|" * len(WAYS))
    with tempfile.TemporaryDirectory(prefix="steward-floor-") as tmp:
        workdir = Path(tmp)
        for scenario in SCENARIOS:
            if args.only and scenario.name not in args.only:
                continue
            command = bare_command(scenario, BENCH / "playbooks", workdir, quick=False)
            cwd = command.cwd
            env = {**command.env, "ANSIBLE_NOCOLOR": "1"}
            samples: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
            for _ in range(args.runs):
                samples["bare"].append(_timed(command.argv, cwd, env))
                samples["callback only"].append(_callback_only(command.argv, cwd, env))
                samples["executor"].append(
                    _timed(_executor_argv(command.argv, cwd, workdir), cwd, env)
                )
            walls = {w: statistics.median(x for x, _ in samples[w]) for w in WAYS}
            cpus = {w: statistics.median(c for _, c in samples[w]) for w in WAYS}
            cells = [
                f"{walls[w]:.2f} ({walls[w] / walls['bare']:.2f}x) | "
                f"{cpus[w]:.2f} ({cpus[w] / cpus['bare']:.2f}x)"
                for w in WAYS
            ]
            print(f"| {scenario.name} | " + " | ".join(cells) + " |", flush=True)
    print(f"\nload average {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
