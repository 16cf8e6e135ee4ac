"""Samples of the machine executing the run (psutil), and of the run's own process tree.

The tree's CPU is the sum over its live processes of their own time plus the time of the
children they reaped: a task's worker that exits is reaped by ansible-playbook, so its time
moves into its parent's total instead of vanishing between two samples. The processes are the
ones carrying the run's marker (``execution.ansible.processes.MARKER`` in their environment)
and their descendants, followed through ``/proc/<pid>/task/*/children`` at every sample.

Sampling runs once a second for every run, so it reads ``/proc`` itself, once per process and
sample: a process's ``stat`` gives its CPU times and RSS in one read (psutil reads two files and
checks for zombies). The marker is looked for at every sample, but only in processes that
appeared since the last look: a process's environment is read once in its life, not every few
seconds for every process of the machine.
"""

from __future__ import annotations

import math
import os
import time

import psutil

from steward.execution.ansible.processes import MARKER

TICKS = os.sysconf("SC_CLK_TCK")  # clock ticks a second, the unit of /proc/<pid>/stat's times
PAGE = os.sysconf("SC_PAGE_SIZE")  # bytes a page, the unit of its RSS


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", "rb") as f:
                found += [int(child) for child in f.read().split()]
    except OSError:
        pass  # gone meanwhile, or a kernel without the children file: the marker finds them
    return found


def _stat(pid: int) -> tuple[float, float] | None:
    """(CPU seconds of the process and of the children it reaped, RSS bytes); None: gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    # after the command name (which may hold spaces and parentheses): fields 3, 4, ...
    fields = raw[raw.rindex(b")") + 2 :].split()
    utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
    return (utime + stime + cutime + cstime) / TICKS, float(int(fields[21]) * PAGE)


class MarkerScan:
    """The pids of processes whose environment carries ``needle``, reading each new process's
    environment once: the pids seen before (marked or not) are remembered while they live."""

    def __init__(self, needle: bytes) -> None:
        self._needle = needle
        self._seen: dict[int, bool] = {}
        self._me = os.getpid()

    def marked(self) -> set[int]:
        live = {int(name) for name in os.listdir("/proc") if name.isdigit()}
        for pid in [pid for pid in self._seen if pid not in live]:
            del self._seen[pid]
        for pid in live:
            if pid not in self._seen:
                self._seen[pid] = pid != self._me and self._carries(pid)
        return {pid for pid, marked in self._seen.items() if marked}

    def _carries(self, pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                return self._needle in f.read().split(b"\0")
        except OSError:  # gone, or another user's process
            return False


class RunTree:
    """CPU seconds, RSS and count of the processes of one run."""

    def __init__(self, run_uuid: str) -> None:
        self._scan = MarkerScan(f"{MARKER}={run_uuid}".encode())

    def _pids(self) -> set[int]:
        seen: set[int] = set()
        todo = list(self._scan.marked())
        while todo:
            pid = todo.pop()
            if pid not in seen:
                seen.add(pid)
                todo += _children(pid)
        return seen

    def read(self) -> tuple[float, float, int]:
        """(CPU seconds so far, RSS bytes, processes) of the run's live processes."""
        cpu, rss, count = 0.0, 0.0, 0
        for pid in self._pids():
            found = _stat(pid)
            if found is not None:
                cpu += found[0]
                rss += found[1]
                count += 1
        return cpu, rss, count


class ControllerProbe:
    """System-wide rates between two samples, and the run's tree. The first sample only sets
    the baseline (None)."""

    def __init__(self, run_uuid: str) -> None:
        self._tree = RunTree(run_uuid)
        self._cpus = psutil.cpu_count() or 1
        self._previous: tuple[float, dict[str, float]] | None = None

    def sample(self) -> dict[str, float] | None:
        now = time.monotonic()
        counters = self._counters()
        previous, self._previous = self._previous, (now, counters)
        if previous is None:
            return None
        elapsed = now - previous[0]
        before = previous[1]

        def rate(name: str, scale: float = 1.0) -> float:
            delta = counters[name] - before[name]
            return math.nan if elapsed <= 0 or delta < 0 else delta * scale / elapsed

        share = 100.0 / self._cpus
        memory = psutil.virtual_memory()
        return {
            "cpu.user": rate("cpu.user", share),
            "cpu.system": rate("cpu.system", share),
            "cpu.iowait": rate("cpu.iowait", share),
            "mem.used": float(memory.total - memory.available),
            "mem.total": float(memory.total),
            "disk.read_iops": rate("disk.reads"),
            "disk.write_iops": rate("disk.writes"),
            "disk.read_bytes": rate("disk.read_bytes"),
            "disk.write_bytes": rate("disk.write_bytes"),
            "net.rx_packets": rate("net.rx_packets"),
            "net.tx_packets": rate("net.tx_packets"),
            "net.rx_bytes": rate("net.rx_bytes"),
            "net.tx_bytes": rate("net.tx_bytes"),
            "run.cpu": max(0.0, rate("run.cpu", 100.0)),  # a process leaving the tree
            "run.rss": counters["run.rss"],
            "run.processes": counters["run.processes"],
        }

    def _counters(self) -> dict[str, float]:
        cpu = psutil.cpu_times()
        disk = psutil.disk_io_counters(nowrap=False)  # a counter that wrapped: NaN, once
        nics = [
            n
            for name, n in psutil.net_io_counters(pernic=True, nowrap=False).items()
            if name != "lo"
        ]
        tree_cpu, tree_rss, tree_count = self._tree.read()
        return {
            "cpu.user": cpu.user,
            "cpu.system": cpu.system,
            "cpu.iowait": getattr(cpu, "iowait", math.nan),
            "disk.reads": float(disk.read_count) if disk else math.nan,
            "disk.writes": float(disk.write_count) if disk else math.nan,
            "disk.read_bytes": float(disk.read_bytes) if disk else math.nan,
            "disk.write_bytes": float(disk.write_bytes) if disk else math.nan,
            "net.rx_packets": float(sum(n.packets_recv for n in nics)),
            "net.tx_packets": float(sum(n.packets_sent for n in nics)),
            "net.rx_bytes": float(sum(n.bytes_recv for n in nics)),
            "net.tx_bytes": float(sum(n.bytes_sent for n in nics)),
            "run.cpu": tree_cpu,
            "run.rss": tree_rss,
            "run.processes": float(tree_count),
        }
