"""Webhook delivery → run queued: how long a signed delivery takes to become a queued run.

    .venv/bin/python bench/webhook_latency.py [--deliveries 50] [--concurrency 1]

Starts a real `steward serve` (SQLite) with one run at a time, creates a project, a `secret`
key, a template whose playbook sleeps and a GitHub-style webhook (a matcher on the event, an
extractor) over the API. A first delivery starts a run that keeps the only run slot busy
(asleep, no CPU), so the measured runs stay queued and executing playbooks do not load the
machine. Then it posts N push deliveries signed like GitHub (X-Hub-Signature-256,
X-GitHub-Delivery), each a new delivery id, and measures per delivery:

- **answered**: POST sent → 202 received (the run row is committed before the answer);
- **queued**: POST sent → the run's ``created_at`` as the server recorded it (same clock).

Prints a Markdown table (median, p95, max in milliseconds); the server is stopped by PID.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime as dt
import hashlib
import hmac
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx2
from harness import Api, Server

SECRET = "bench-webhook-secret"
SLEEPER = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.command: sleep 600
      changed_when: false
"""


def _setup(api: Api, repo: Path) -> tuple[int, str]:
    project = api.post("/projects", {"name": "webhooks"})["id"]
    base = f"/projects/{project}"
    api.put(f"{base}/local-roots", {"local_roots": [str(repo)]})
    repository = api.post(f"{base}/repositories", {"name": "r", "kind": "local", "url": str(repo)})
    inventory = api.post(
        f"{base}/inventories",
        {
            "name": "local",
            "kind": "static",
            "format": "ini",
            "content": f"localhost ansible_connection=local ansible_python_interpreter="
            f"{sys.executable}\n",
        },
    )
    template = api.post(
        f"{base}/templates",
        {
            "name": "sleep",
            "playbook": "sleep.yml",
            "repository_id": repository["id"],
            "inventory_id": inventory["id"],
            "overridable": ["extra_vars"],
        },
    )
    key = api.post(f"{base}/keys", {"name": "hook", "kind": "secret", "value": SECRET})
    hook = api.post(
        f"{base}/templates/{template['id']}/webhooks",
        {
            "name": "push",
            "auth": "github",
            "secret_key_id": key["id"],
            "matchers": [{"source": "header", "path": "X-GitHub-Event", "value": "push"}],
            "extractors": {"commit": "after"},
            "rate_limit_per_minute": 1000,
        },
    )
    return int(project), str(hook["url"])


def _push(n: int) -> tuple[bytes, dict[str, str]]:
    body = json.dumps(
        {"ref": "refs/heads/main", "after": f"{n:040x}", "pusher": {"name": "bench"}}
    ).encode()
    signature = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    headers = {
        "Content-Type": "application/json",
        "X-GitHub-Event": "push",
        "X-GitHub-Delivery": str(uuid.uuid4()),
        "X-Hub-Signature-256": f"sha256={signature}",
    }
    return body, headers


def _deliver(sender: httpx2.Client, url: str, n: int) -> tuple[float, float, int]:
    """(sent at, answered after in s, run id) of one delivery."""
    body, headers = _push(n)
    sent = time.time()
    began = time.perf_counter()
    answer = sender.post(url, content=body, headers=headers)
    elapsed = time.perf_counter() - began
    if answer.status_code != 202 or answer.json()["outcome"] != "launched":
        raise RuntimeError(f"delivery {n}: {answer.status_code} {answer.text}")
    return sent, elapsed, int(answer.json()["run_id"])


def _row(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"| {name} | {statistics.median(ms):.1f} | {p95:.1f} | {ms[-1]:.1f} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deliveries", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    os.environ["STEWARD_MAX_PARALLEL_RUNS"] = "1"  # read by the server it starts
    with tempfile.TemporaryDirectory(prefix="steward-bench-hooks-") as tmp:
        workdir = Path(tmp)
        (workdir / "repo").mkdir()
        (workdir / "repo" / "sleep.yml").write_text(SLEEPER)
        with Server(workdir) as server, httpx2.Client(timeout=60) as sender:
            api = Api(server.base_url)
            try:
                project, url = _setup(api, workdir / "repo")
                _, _, busy = _deliver(sender, url, 0)  # takes the only run slot, asleep
                while api.get(f"/projects/{project}/runs/{busy}")["status"] != "running":
                    time.sleep(0.1)
                time.sleep(3)  # let ansible's start-up CPU pass
                with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
                    results = list(
                        pool.map(lambda n: _deliver(sender, url, n), range(1, args.deliveries + 1))
                    )
                queued: list[float] = []
                for sent, _elapsed, run_id in results:
                    run: dict[str, Any] = api.get(f"/projects/{project}/runs/{run_id}")
                    created = dt.datetime.fromisoformat(run["created_at"]).timestamp()
                    queued.append(created - sent)
                statuses = {
                    api.get(f"/projects/{project}/runs/{r}")["status"] for _, _, r in results
                }
            finally:
                api.close()
    print(
        f"\n### Webhook delivery → run queued ({args.deliveries} signed GitHub-style"
        f" deliveries, {args.concurrency} at a time, SQLite, ms)\n"
    )
    print("| measure | median | p95 | max |")
    print("|---|---|---|---|")
    print(_row("POST sent → run row created (server clock)", queued))
    print(_row("POST sent → 202 answered (run committed)", [r[1] for r in results]))
    print(f"\nrun statuses at the end: {', '.join(sorted(statuses))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
