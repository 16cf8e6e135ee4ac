"""Samples of the machine executing the run (psutil), and of the run's own process tree.

The tree's CPU is the sum over its live processes of their own time plus the time of the
children they reaped: a task's worker that exits is reaped by ansible-playbook, so its time
moves into its parent's total instead of vanishing between two samples. The processes are the
ones carrying the run's marker (``runner.processes``, a scan of every process: every
``SCAN_SECONDS``) and their descendants, followed through ``/proc/<pid>/task/*/children`` at
every sample (a few files, not a scan).
"""

from __future__ import annotations

import math
import os
import time

import psutil

from steward.runner import processes

SCAN_SECONDS = 5.0  # the marker scan costs ~15 ms on a machine with 150 processes


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(child) for child in f.read().split()]
    except OSError:
        pass  # gone meanwhile, or a kernel without the children file: its marker scan finds them
    return found


class RunTree:
    """CPU seconds, RSS and count of the processes of one run."""

    def __init__(self, run_uuid: str) -> None:
        self._uuid = run_uuid
        self._marked: set[int] = set()
        self._next_scan = 0.0
        self._known: dict[int, psutil.Process] = {}

    def _pids(self) -> set[int]:
        now = time.monotonic()
        if now >= self._next_scan:
            self._marked = {p.pid for p in processes.run_processes(self._uuid)}
            # until the playbook has started, look at every sample
            self._next_scan = now + (SCAN_SECONDS if self._marked else 0.0)
        seen: set[int] = set()
        todo = list(self._marked)
        while todo:
            pid = todo.pop()
            if pid not in seen:
                seen.add(pid)
                todo += _children(pid)
        return seen

    def read(self) -> tuple[float, float, int]:
        """(CPU seconds so far, RSS bytes, processes) of the run's live processes."""
        cpu, rss, count = 0.0, 0.0, 0
        pids = self._pids()
        for pid in list(self._known):
            if pid not in pids:
                del self._known[pid]
        for pid in pids:
            try:
                proc = self._known.get(pid) or self._known.setdefault(pid, psutil.Process(pid))
                with proc.oneshot():
                    times = proc.cpu_times()
                    rss += proc.memory_info().rss
            except psutil.Error:
                self._known.pop(pid, None)
                continue
            cpu += times.user + times.system + times.children_user + times.children_system
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
        disk = psutil.disk_io_counters()
        nics = [n for name, n in psutil.net_io_counters(pernic=True).items() if name != "lo"]
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
