"""The floor under Steward's overhead: ansible-runner alone vs bare ansible-playbook.

    .venv/bin/python bench/runner_floor.py [--runs N]

Steward must run playbooks through ansible-runner. This runs each scenario's playbook three
ways, alternately, and prints the medians of wall time and CPU (user + system of the whole
process tree, which does not depend on load):

- bare `ansible-playbook`;
- callback only: the same command with ansible-runner's event callback plugin (`awx_display`)
  loaded the way ansible-runner loads it, and nothing else: no pexpect, no runner process. The
  plugin runs inside ansible's main process: for every event it serialises the event to JSON,
  writes it to a file and base64-encodes a reference into stdout. This is how ansible-runner
  gets events, it has no option to do otherwise;
- ansible-runner: `ansible_runner.run()` called the way Steward calls it (no Steward, no
  database, events dropped).

Together they show what ansible-runner alone costs before Steward adds anything, and how much
of it is spent inside ansible itself.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ansible_runner.utils import get_callback_dir
from measure import bare_command
from scenarios import SCENARIOS

BENCH = Path(__file__).resolve().parent

# a child process per run, as clean as bare's: runner with Steward's settings, events dropped
RUNNER = """
import sys, ansible_runner
r = ansible_runner.run(private_data_dir=sys.argv[1], project_dir=sys.argv[2],
    playbook=sys.argv[3], inventory=sys.argv[4], cmdline=sys.argv[5],
    forks=int(sys.argv[6]) or None,
    settings={"pexpect_timeout": 0.25, "suppress_ansible_output": True},
    suppress_env_files=True, suppress_output_file=True, quiet=True, ident="run",
    event_handler=lambda e: False, cancel_callback=lambda: False)
sys.exit(0 if r.status == "successful" else 1)
"""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one process tree run to completion, output discarded."""
    cpu, start = _cpu(), time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start, _cpu() - cpu


def _callback_env(env: dict[str, str], workdir: Path) -> dict[str, str]:
    """What ansible-runner puts in ansible's environment to load its event callback."""
    artifacts = Path(tempfile.mkdtemp(dir=workdir))
    return {
        **env,
        "ANSIBLE_STDOUT_CALLBACK": "awx_display",
        "ANSIBLE_CALLBACK_PLUGINS": get_callback_dir(),
        "AWX_ISOLATED_DATA_DIR": str(artifacts),
    }


def _runner_argv(argv: list[str], cwd: Path, workdir: Path) -> list[str]:
    playbook, inventory = argv[3], argv[2]
    forks = argv[argv.index("-f") + 1] if "-f" in argv else "0"
    cmdline = " ".join(argv[argv.index("-e") :]) if "-e" in argv else ""
    private = Path(tempfile.mkdtemp(dir=workdir))
    return [
        sys.executable,
        "-c",
        RUNNER,
        str(private),
        str(cwd),
        playbook,
        inventory,
        cmdline,
        forks,
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ways = ("bare", "callback only", "ansible-runner")
    print("Medians; ratios against bare. Wall time depends on load, CPU does not.\n")
    print("| scenario | " + " | ".join(f"{w} wall s | {w} CPU s" for w in ways) + " |")
    print("|---|" + "---|---|" * len(ways))
    with tempfile.TemporaryDirectory(prefix="steward-floor-") as tmp:
        workdir = Path(tmp)
        for scenario in SCENARIOS:
            command = bare_command(scenario, BENCH / "playbooks", workdir, quick=False)
            samples: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
            for _ in range(args.runs):
                cwd, env = command.cwd, command.env
                samples["bare"].append(_timed(command.argv, cwd, env))
                callback_env = _callback_env(env, workdir)
                samples["callback only"].append(_timed(command.argv, cwd, callback_env))
                samples["ansible-runner"].append(
                    _timed(_runner_argv(command.argv, cwd, workdir), cwd, env)
                )
            walls = {w: statistics.median(x for x, _ in samples[w]) for w in ways}
            cpus = {w: statistics.median(c for _, c in samples[w]) for w in ways}
            cells = [
                f"{walls[w]:.2f} ({walls[w] / walls['bare']:.2f}x) | "
                f"{cpus[w]:.2f} ({cpus[w] / cpus['bare']:.2f}x)"
                for w in ways
            ]
            print(f"| {scenario.name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
