"""A PCP sample out of two readings: CPU shares from the counters alone, rates per second."""

from __future__ import annotations

import math

from steward.metrics.pcp import CPU_STATES, rates

ZERO = dict.fromkeys(CPU_STATES, 0.0)


def _reading(stamp: float, **cpu_ms: float) -> tuple[float, dict[str, float]]:
    values = {**ZERO, "hinv.ncpu": 2.0, "mem.physmem": 1024.0, "mem.util.available": 512.0}
    values |= {f"kernel.all.cpu.{k.replace('wait', 'wait.total')}": v for k, v in cpu_ms.items()}
    values["network.all.in.bytes"] = 1000.0 * stamp
    return stamp, values


def test_cpu_shares_come_from_the_counters_whatever_the_stamps_say() -> None:
    # half a second of 2 CPUs: 700 ms user, 100 sys, 200 idle; the stamps say a third of one
    before = _reading(10.0, user=1000, sys=500, idle=5000)
    after = _reading(10.33, user=1700, sys=600, idle=5200)
    sample = rates(before, after)
    assert math.isclose(sample["cpu.user"], 70.0)
    assert math.isclose(sample["cpu.system"], 10.0)
    assert sample["cpu.iowait"] == 0.0
    assert math.isclose(sample["net.rx_bytes"], 1000.0)  # other rates: per second of the stamps
    assert sample["mem.used"] == 512 * 1024


def test_without_every_cpu_state_the_shares_are_per_second_of_the_stamps() -> None:
    before = _reading(10.0, user=1000)
    after = _reading(10.5, user=1500)
    for values in (before[1], after[1]):
        del values["kernel.all.cpu.steal"]  # an older PMDA
    assert math.isclose(rates(before, after)["cpu.user"], 50.0)  # 500 ms of 1,000 ms


def test_a_counter_going_backwards_or_no_time_spent_is_no_value() -> None:
    backwards = rates(_reading(1.0, user=900, idle=10), _reading(1.5, user=800, idle=900))
    assert math.isnan(backwards["cpu.user"])
    assert math.isclose(backwards["cpu.system"], 0.0)
    still = rates(_reading(1.0, user=5), _reading(1.5, user=5))
    assert math.isnan(still["cpu.user"])
