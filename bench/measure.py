"""One measured run of each kind: bare ansible-playbook, and a run through Steward's API."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import psutil
from harness import FINISHED, Api, Project
from scenarios import Scenario

ANSIBLE_PLAYBOOK = Path(sys.executable).parent / "ansible-playbook"
FIRST_LINE_POLL_SECONDS = 0.01
STATUS_POLL_SECONDS = 0.2
CALIBRATION_REQUESTS = 100
PAGE = 10_000  # the API's largest /lines page
RUN_TIMEOUT_SECONDS = 1800.0


@dataclasses.dataclass(frozen=True)
class BareSample:
    wall: float  # process start → exit
    first_line: float | None  # process start → first bytes on its stdout
    last_output: float | None  # process start → last bytes on its stdout (then it exits)
    lines: int  # lines of its stdout
    rc: int
    cpu: float  # user + system seconds of ansible-playbook and all its processes


@dataclasses.dataclass(frozen=True)
class StewardSample:
    run_id: int
    wall: float  # POST sent → finished_at recorded by the server (same clock)
    observed: float  # POST sent → a GET showed the final status (polled every 200 ms)
    post: float  # the POST's round trip
    first_line: float | None  # POST sent → line 0 visible through GET /lines
    first_line_lag: float | None  # line 0 visible minus its event's emission
    status: str
    line_count_at_final: int  # the run's line_count in the first GET that showed final status
    lines_paged_at_final: int  # lines fetched through /lines right after that GET
    line_count: int  # line_count read again at the very end
    paged_fetch: float  # seconds to fetch every line through /lines, 10,000 per page
    output_fetch: float  # seconds to download /output (plain text)
    output_lines: int
    phases: dict[str, float]
    cpu_ansible: float  # user + system seconds of the run's processes (the server's children)
    cpu_server: float  # the server's own, during the run (includes answering our polling)
    polls: dict[str, int]  # requests made while the run ran: "lines" (line 0), "run" (status)


@dataclasses.dataclass(frozen=True)
class BareCommand:
    argv: list[str]
    cwd: Path
    env: dict[str, str]


def bare_command(scenario: Scenario, repo_dir: Path, workdir: Path, quick: bool) -> BareCommand:
    """The same playbook, inventory, forks and extra vars as the scenario's template."""
    inventory = workdir / f"{scenario.name}.ini"
    inventory.write_text(scenario.inventory(sys.executable))
    argv = [str(ANSIBLE_PLAYBOOK), "-i", str(inventory), scenario.playbook]
    if scenario.forks is not None:
        argv += ["-f", str(scenario.forks)]
    extra_vars = scenario.extra_vars(quick)
    if extra_vars:  # Steward passes them as -e @file too
        vars_file = workdir / f"{scenario.name}-vars.json"
        vars_file.write_text(json.dumps(extra_vars))
        argv += ["-e", f"@{vars_file}"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("STEWARD_")}
    env["PATH"] = f"{ANSIBLE_PLAYBOOK.parent}:{env.get('PATH', '/usr/bin:/bin')}"
    return BareCommand(argv=argv, cwd=repo_dir, env=env)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_bare(command: BareCommand, stdout_file: Path) -> BareSample:
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.Popen(
        command.argv,
        cwd=command.cwd,
        env=command.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    first: float | None = None
    last: float | None = None
    newlines = 0
    with stdout_file.open("wb") as out:
        while chunk := os.read(proc.stdout.fileno(), 1 << 16):
            last = time.perf_counter() - start
            if first is None:
                first = last
            newlines += chunk.count(b"\n")
            out.write(chunk)
    rc = proc.wait()
    wall = time.perf_counter() - start
    return BareSample(wall, first, last, newlines, rc, _children_cpu() - cpu)


def _timestamp(value: str) -> float:
    parsed = dt.datetime.fromisoformat(value)
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)).timestamp()


@dataclasses.dataclass
class _Clock:
    """One run's reference points: wall clock (to compare with server timestamps) and monotonic."""

    wall: float = dataclasses.field(default_factory=time.time)
    mono: float = dataclasses.field(default_factory=time.perf_counter)

    def since(self) -> float:
        return time.perf_counter() - self.mono


FirstLine = tuple[float, float, dict[str, Any]]  # seconds since POST, wall time, the line


def _first_line(api: Api, url: str, clock: _Clock, polls: dict[str, int]) -> FirstLine | None:
    """Poll line 0 until it is visible (None: the run ended without output)."""
    deadline = time.monotonic() + RUN_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        page = api.get(f"{url}/lines", after=-1, limit=1)
        polls["lines"] += 1
        if page["items"]:
            return clock.since(), time.time(), page["items"][0]
        if page["status"] in FINISHED:
            return None
        time.sleep(FIRST_LINE_POLL_SECONDS)
    raise TimeoutError(f"{url}: no output after {RUN_TIMEOUT_SECONDS}s")


def _final(api: Api, url: str, polls: dict[str, int]) -> dict[str, Any]:
    deadline = time.monotonic() + RUN_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        run = api.get(url)
        polls["run"] += 1
        if run["status"] in FINISHED:
            return run
        time.sleep(STATUS_POLL_SECONDS)
    raise TimeoutError(f"{url}: not finished after {RUN_TIMEOUT_SECONDS}s")


def fetch_paged(api: Api, url: str) -> tuple[int, float]:
    """Every line through /lines: (how many, seconds)."""
    start = time.perf_counter()
    count, after = 0, -1
    while True:
        page = api.get(f"{url}/lines", after=after, limit=PAGE)
        count += len(page["items"])
        if page["next_after"] is None:
            return count, time.perf_counter() - start
        after = page["next_after"]


def fetch_output(api: Api, url: str) -> tuple[int, float]:
    """The plain-text download: (lines, seconds)."""
    start = time.perf_counter()
    newlines = 0
    with api.http.stream("GET", f"{url}/output") as response:
        response.raise_for_status()
        for chunk in response.iter_bytes():
            newlines += chunk.count(b"\n")
    return newlines, time.perf_counter() - start


def _event(api: Api, url: str, counter: int) -> dict[str, Any] | None:
    items: list[dict[str, Any]] = api.get(f"{url}/events", after=counter - 1, limit=1)["items"]
    return items[0] if items else None


def _phases(api: Api, url: str, run: dict[str, Any], clock: _Clock) -> dict[str, float]:
    """Where the time went, from the server's own timestamps (seconds)."""
    first = _event(api, url, 1)
    last = _event(api, url, run["event_count"])
    if first is None or last is None or not run["started_at"]:
        return {}
    created, started = _timestamp(run["created_at"]), _timestamp(run["started_at"])
    first_at, last_at = _timestamp(first["created_at"]), _timestamp(last["created_at"])
    return {
        "launch": created - clock.wall,  # POST → run row created
        "claim": started - created,  # queued → claimed by the dispatcher
        "startup": first_at - started,  # prepare + ansible-runner + ansible up to its 1st event
        "ansible": last_at - first_at,  # first → last event emitted by ansible
        "finish": _timestamp(run["finished_at"]) - last_at,  # last event → final status
    }


def _cpu(server: psutil.Process) -> tuple[float, float]:
    """(the server's children, the server itself): user + system seconds so far."""
    t = server.cpu_times()
    return t.children_user + t.children_system, t.user + t.system


def run_steward(
    api: Api, project: Project, scenario: Scenario, server: psutil.Process
) -> StewardSample:
    cpu_before = _cpu(server)
    clock = _Clock()
    run_id = api.post(project.url("runs"), {"template_id": project.templates[scenario.name]})["id"]
    post = clock.since()
    url = project.url(f"runs/{run_id}")
    polls = {"lines": 0, "run": 0}
    first = _first_line(api, url, clock, polls)
    run = _final(api, url, polls)
    observed = clock.since()
    cpu_ansible, cpu_server = (a - b for a, b in zip(_cpu(server), cpu_before, strict=True))
    paged, paged_seconds = fetch_paged(api, url)
    output_lines, output_seconds = fetch_output(api, url)
    lag = None
    if first is not None:
        event = _event(api, url, first[2]["counter"])
        lag = first[1] - _timestamp(event["created_at"]) if event else None
    again = api.get(url)
    return StewardSample(
        run_id=run_id,
        wall=_timestamp(run["finished_at"]) - clock.wall,
        observed=observed,
        post=post,
        first_line=first[0] if first else None,
        first_line_lag=lag,
        status=run["status"],
        line_count_at_final=run["line_count"],
        lines_paged_at_final=paged,
        line_count=again["line_count"],
        paged_fetch=paged_seconds,
        output_fetch=output_seconds,
        output_lines=output_lines,
        phases=_phases(api, url, again, clock),
        cpu_ansible=cpu_ansible,
        cpu_server=cpu_server,
        polls=polls,
    )


def poll_cost(api: Api, project: Project, run_id: int, server: psutil.Process) -> dict[str, float]:
    """The server's CPU seconds per poll of each kind, measured while no run runs."""
    url = project.url(f"runs/{run_id}")
    requests = {"lines": (f"{url}/lines", {"after": -1, "limit": 1}), "run": (url, {})}
    cost = {}
    for kind, (path, params) in requests.items():
        before = _cpu(server)[1]
        for _ in range(CALIBRATION_REQUESTS):
            api.get(path, **params)
        cost[kind] = (_cpu(server)[1] - before) / CALIBRATION_REQUESTS
    return cost


class RssSampler:
    """Peak RSS of a process and, separately, of all its descendants together."""

    def __init__(self, process: psutil.Process, interval: float = 0.05) -> None:
        self._process = process
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="rss", daemon=True)
        self.peak_server = 0
        self.peak_children = 0

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(
        self, _t: type[BaseException] | None, _e: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self.peak_server = max(self.peak_server, self._process.memory_info().rss)
                children = self._process.children(recursive=True)
            except psutil.NoSuchProcess:
                return
            self.peak_children = max(self.peak_children, sum(map(_rss, children)))


def _rss(process: psutil.Process) -> int:
    try:
        rss: int = process.memory_info().rss
    except psutil.NoSuchProcess:
        return 0
    return rss
