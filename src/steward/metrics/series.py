"""The series a run records, for the controller and for target hosts, named once.

The same names on both kinds of lane, so the console draws one CPU lane whichever machine it
shows: CPU in percent of the whole machine (every CPU), memory in bytes, rates per second.
``run.*`` exist only on the controller: the run's own process tree.
"""

from __future__ import annotations

import enum


class LaneKind(enum.StrEnum):
    CONTROLLER = "controller"  # the machine executing the run (the server, or a worker)
    HOST = "host"  # a target host of the inventory, sampled through its pmproxy


# name -> unit; in the order they are packed
UNITS: dict[str, str] = {
    "cpu.user": "%",
    "cpu.system": "%",
    "cpu.iowait": "%",
    "mem.used": "bytes",  # total - available: what a new workload could not have
    "mem.total": "bytes",
    "disk.read_iops": "1/s",
    "disk.write_iops": "1/s",
    "disk.read_bytes": "bytes/s",
    "disk.write_bytes": "bytes/s",
    "net.rx_packets": "1/s",  # loopback excluded
    "net.tx_packets": "1/s",
    "net.rx_bytes": "bytes/s",
    "net.tx_bytes": "bytes/s",
    "run.cpu": "% of one CPU",  # the run's processes: ansible-playbook, its workers, modules
    "run.rss": "bytes",
    "run.processes": "count",
}
HOST_SERIES: tuple[str, ...] = tuple(name for name in UNITS if not name.startswith("run."))
CONTROLLER_SERIES: tuple[str, ...] = tuple(UNITS)
ALL_SERIES = frozenset(UNITS)


def series_of(kind: LaneKind) -> tuple[str, ...]:
    return CONTROLLER_SERIES if kind is LaneKind.CONTROLLER else HOST_SERIES


# What a chunk's ``series`` column holds when its series are one of these lists in this order:
# a short name instead of ~190 characters of names in each of the 360 rows of a lane-hour. The
# lists are frozen here: if ``UNITS`` changes, chunks are written with their names again (or a
# new entry is added), and the rows written before keep meaning what they meant.
LAYOUTS: dict[str, tuple[str, ...]] = {
    "@controller.1": (
        *("cpu.user", "cpu.system", "cpu.iowait", "mem.used", "mem.total"),
        *("disk.read_iops", "disk.write_iops", "disk.read_bytes", "disk.write_bytes"),
        *("net.rx_packets", "net.tx_packets", "net.rx_bytes", "net.tx_bytes"),
        *("run.cpu", "run.rss", "run.processes"),
    ),
    "@host.1": (
        *("cpu.user", "cpu.system", "cpu.iowait", "mem.used", "mem.total"),
        *("disk.read_iops", "disk.write_iops", "disk.read_bytes", "disk.write_bytes"),
        *("net.rx_packets", "net.tx_packets", "net.rx_bytes", "net.tx_bytes"),
    ),
}


def stored_names(names: tuple[str, ...]) -> str:
    """What a chunk of ``names`` (in packed order) stores in its ``series`` column."""
    for code, layout in LAYOUTS.items():
        if layout == names:
            return code
    return ",".join(names)


def names_of(stored: str) -> list[str]:
    """The series of a chunk, in packed order, from its ``series`` column."""
    layout = LAYOUTS.get(stored)
    return list(layout) if layout is not None else stored.split(",")
