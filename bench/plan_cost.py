"""What a plan costs beside a normal run of the same template (issue 26: at most 1.1x).

    .venv/bin/python bench/plan_cost.py [--runs N]

Starts a real `steward serve` (SQLite), makes the many_tasks scenario's template with plans
allowed, then launches it alternately as a run and as a plan (check + diff mode, its changes
kept per host and task), N of each, one at a time. For each: the run's own time from queued
to finished (the server's timestamps). Bare `ansible-playbook` and `ansible-playbook --check
--diff` of the same playbook, in the same alternation, give the floor. Prints the medians and
the plan/run ratio. (CPU is not compared: a run's ansible-playbook runs in the sandbox, whose
children's time the server's process never collects.)
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness import Api, Server, create_project
from measure import bare_command, run_bare
from scenarios import SCENARIOS

BENCH = Path(__file__).resolve().parent
TARGET = 1.1
FINAL = {"successful", "failed", "error", "canceled"}


def _seconds(stamp: str) -> float:
    return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def _launch(api: Api, path: str, body: dict[str, int]) -> float:
    """Queued to finished of one launch: ``body`` posted to ``path``."""
    run = api.post(path, body)
    url = f"/projects/{run['project_id']}/runs/{run['id']}"
    while run["status"] not in FINAL:
        time.sleep(0.05)
        run = api.get(url)
    if run["status"] != "successful":
        raise SystemExit(f"{path}: run {run['id']} ended {run['status']}: {run['status_reason']}")
    return _seconds(run["finished_at"]) - _seconds(run["created_at"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="runs and plans each (default 7)")
    args = parser.parse_args()
    scenario = next(s for s in SCENARIOS if s.name == "many_tasks")
    samples: dict[str, list[float]] = {
        way: [] for way in ("bare", "bare --check --diff", "run", "plan")
    }
    with tempfile.TemporaryDirectory(prefix="steward-plan-cost-") as tmp:
        workdir = Path(tmp)
        repo_dir = workdir / "playbooks"  # inside the server's local repository root
        shutil.copytree(BENCH / "playbooks", repo_dir)
        with Server(workdir) as server:
            api = Api(server.base_url)
            project = create_project(api, repo_dir, (scenario,), quick=False)
            base = f"/projects/{project.id}"
            template = api.get(f"{base}/templates/{project.templates[scenario.name]}")
            fields = ("playbook", "repository_id", "inventory_id", "forks", "extra_vars")
            planned = api.post(
                f"{base}/templates",
                {"name": "many_tasks-plans", "plans_allowed": True}
                | {name: template[name] for name in fields},
            )["id"]
            paths = {"run": f"{base}/runs", "plan": f"{base}/templates/{planned}/plans"}
            bare = bare_command(scenario, repo_dir, workdir, quick=False)
            check = dataclasses.replace(bare, argv=[*bare.argv, "--check", "--diff"])
            out = workdir / "bare.out"
            for round_ in range(args.runs + 1):  # the first round warms up, uncounted
                for way, command in (("bare", bare), ("bare --check --diff", check)):
                    sample = run_bare(command, out)
                    if round_:
                        samples[way].append(sample.wall)
                for way, body in (("run", {"template_id": template["id"]}), ("plan", {})):
                    measured = _launch(api, paths[way], body)
                    if round_:
                        samples[way].append(measured)
                print(f"round {round_}/{args.runs}", file=sys.stderr, flush=True)
    median = {way: statistics.median(got) for way, got in samples.items()}
    print(f"\n### A plan of many_tasks (300 tasks) beside a run of it: medians of {args.runs}\n")
    print("| way | wall s |")
    print("|---|---|")
    for way, wall in median.items():
        print(f"| {way} | {wall:.2f} |")
    ratio = median["plan"] / median["run"]
    floor = median["bare --check --diff"] / median["bare"]
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(
        f"\nplan / run: {ratio:.3f}x (target <= {TARGET}x: {verdict});"
        f" bare --check --diff / bare: {floor:.3f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
