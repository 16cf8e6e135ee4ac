"""The floor under Steward's overhead: ansible-runner alone vs bare ansible-playbook.

    .venv/bin/python bench/runner_floor.py [--runs N]

Steward must run playbooks through ansible-runner. This runs each scenario's playbook with bare
`ansible-playbook` and with `ansible_runner.run()` called the way Steward calls it (no Steward,
no database, events dropped), alternately, and prints the medians: what ansible-runner alone
costs, before Steward adds anything.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import bare_command, run_bare
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


def _runner_once(argv: list[str], cwd: Path, env: dict[str, str], workdir: Path) -> float:
    playbook, inventory = argv[3], argv[2]
    forks = argv[argv.index("-f") + 1] if "-f" in argv else "0"
    cmdline = " ".join(argv[argv.index("-e") :]) if "-e" in argv else ""
    private = Path(tempfile.mkdtemp(dir=workdir))
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", RUNNER, str(private), str(cwd), playbook, inventory, cmdline, forks],
        env=env,
        check=True,
    )
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| scenario | bare s | ansible-runner alone s | ratio |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="steward-floor-") as tmp:
        workdir = Path(tmp)
        for scenario in SCENARIOS:
            command = bare_command(scenario, BENCH / "playbooks", workdir, quick=False)
            bare, runner = [], []
            for _ in range(args.runs):
                bare.append(run_bare(command, workdir / "stdout").wall)
                runner.append(_runner_once(command.argv, command.cwd, command.env, workdir))
            b, r = statistics.median(bare), statistics.median(runner)
            print(f"| {scenario.name} | {b:.2f} | {r:.2f} | {r / b:.3f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
