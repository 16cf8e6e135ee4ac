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
    cpu_machine: float  # every process of the machine meanwhile (this benchmark's reading too)


@dataclasses.dataclass(frozen=True)
class StewardSample:
    run_id: int
    wall: float  # POST sent → finished_at recorded by the server (same clock)
    observed: float  # POST sent → the live stream announced the final status
    post: float  # the POST's round trip
    first_line: float | None  # POST sent → line 0 received through the live stream
    first_line_lag: float | None  # line 0 visible minus its event's emission
    status: str
    line_count_at_final: int  # the run's line_count in a GET right after the final status
    lines_paged_at_final: int  # lines fetched through /lines right after that GET
    line_count: int  # line_count read again at the very end
    paged_fetch: float  # seconds to fetch every line through /lines, 10,000 per page
    output_fetch: float  # seconds to download /output (plain text)
    output_lines: int
    phases: dict[str, float]
    cpu_ansible: float  # user + system seconds of the run's processes (the server's children)
    cpu_server: float  # the server's own during the run, serving the live stream included
    # every process of the machine, POST to final status: the sandboxed ansible processes are
    # reaped inside bubblewrap's PID namespace, so the server's children CPU misses them
    cpu_machine: float


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


def _machine_cpu() -> float:
    """Busy seconds of every CPU so far (user, nice, system, interrupts), as /proc/stat says."""
    t = psutil.cpu_times()
    return t.user + t.nice + t.system + getattr(t, "irq", 0.0) + getattr(t, "softirq", 0.0)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_bare(command: BareCommand, stdout_file: Path) -> BareSample:
    cpu, machine = _children_cpu(), _machine_cpu()
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
    cpu_machine = _machine_cpu() - machine
    return BareSample(wall, first, last, newlines, rc, _children_cpu() - cpu, cpu_machine)


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


def _follow(api: Api, url: str, clock: _Clock) -> tuple[FirstLine | None, float]:
    """Watch the run as the console does, through its live stream (Server-Sent Events): the
    first ``lines`` message is the first line visible; returns it (None: the run ended without
    output) and the moment the stream announced the final status (seconds since POST).

    One open stream rather than polling: a poll costs the server ~10 ms of CPU (authentication,
    a session), and at the rate a latency measurement needs, polls would compete with ansible
    for the 2 cores and slow the run they measure."""
    first: FirstLine | None = None
    kind = ""
    params = {"after": -1}
    with api.http.stream("GET", f"{url}/stream", params=params) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                data = json.loads(line.removeprefix("data: "))
                if kind == "lines" and first is None:
                    first = clock.since(), time.time(), {"counter": data["lines"][0]["c"]}
                elif kind in {"status", "end"} and data["status"] in FINISHED:
                    return first, clock.since()
    raise RuntimeError(f"{url}: the live stream ended before the run did")


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
        "startup": first_at - started,  # prepare + executor + ansible up to its 1st event
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
    cpu_before, machine = _cpu(server), _machine_cpu()
    clock = _Clock()
    run_id = api.post(project.url("runs"), {"template_id": project.templates[scenario.name]})["id"]
    post = clock.since()
    url = project.url(f"runs/{run_id}")
    first, observed = _follow(api, url, clock)
    run = api.get(url)
    cpu_ansible, cpu_server = (a - b for a, b in zip(_cpu(server), cpu_before, strict=True))
    cpu_machine = _machine_cpu() - machine
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
        cpu_machine=cpu_machine,
    )


class RssSampler:
    """Peak RSS of a process and, separately, of all its descendants together."""

    def __init__(self, process: psutil.Process, interval: float = 0.25) -> None:
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
