"""Samples packed in chunks, gaps merged, stretches averaged: the storage and read paths
without a run (a run's lane is written here the way the recorder writes it)."""

from __future__ import annotations

import math
import random

from steward.metrics import packing
from steward.metrics.downsampling import buckets
from steward.metrics.lanes import Lane
from steward.metrics.series import (
    CONTROLLER_SERIES,
    HOST_SERIES,
    LaneKind,
    names_of,
    stored_names,
)


def test_a_chunk_keeps_times_values_and_what_was_not_measured() -> None:
    times = [10_000, 10_498, 11_003]
    columns = [[1.5, 2.25, 3.0], [math.nan, 7.0, 1e9]]
    data = packing.pack(10_000, times, columns)
    assert packing.unpack(data, 10_000, 3, 2) == (times, [[1.5, 2.25, 3.0], [None, 7.0, 1e9]])


def test_a_lane_writes_its_samples_once_and_a_gap_going_on_in_pieces_that_touch() -> None:
    lane = Lane(LaneKind.HOST, "web1", interval_ms=1000)
    lane.add(1_000, {"cpu.user": 10.0})
    lane.fail(2_000, 2_005, "no answer within 2 s")
    lane.fail(3_000, 5_000, "no answer within 2 s")  # the same gap, longer
    chunk, gaps = lane.take(run_id=7)
    assert chunk is not None
    assert (chunk.run_id, chunk.kind, chunk.host, chunk.count) == (7, "host", "web1", 1)
    assert chunk.series == "@host.1"  # a short name for the host series, in their order
    assert names_of(chunk.series) == list(HOST_SERIES)
    times, columns = packing.unpack(chunk.data, chunk.start_ms, chunk.count, len(HOST_SERIES))
    assert times == [1_000]
    assert columns[0] == [10.0]
    assert columns[1] == [None]  # cpu.system was not given: not measured, not zero
    assert [(g.start_ms, g.end_ms, g.reason) for g in gaps] == [
        (2_000, 5_000, "no answer within 2 s")
    ]
    lane.fail(6_000, 6_000, "no answer within 2 s")
    lane.add(8_000, {"cpu.user": 1.0})
    chunk, gaps = lane.take(run_id=7)
    assert chunk is not None
    assert chunk.count == 1
    # written from where the last piece ended, up to one interval after the last attempt
    assert [(g.start_ms, g.end_ms) for g in gaps] == [(5_000, 7_000)]
    assert lane.take(run_id=7) == (None, [])


def test_averaging_keeps_empty_stretches_empty() -> None:
    times = [0, 100, 200, 900, 1000]
    columns: list[list[float | None]] = [[1.0, 3.0, None, 5.0, 7.0]]
    width, at, means = buckets(times, columns, 0, 1199, points=3)
    assert width == 400
    assert at == [0, 400, 800]
    assert means == [[2.0, None, 6.0]]  # no sample between 400 and 800: null, never 0
    # fewer samples than points: every sample as it was taken
    assert buckets(times, columns, 0, 1199, points=5) == (None, times, columns)


def test_an_hour_of_a_lane_is_a_few_hundred_kilobytes() -> None:
    """What one lane of a 1-hour run stores: 360 chunks (a flush every 10 s) of the 16 series,
    with noisy values (random CPU, memory walking, disk and network idle half the time)."""
    rng = random.Random(15)  # noqa: S311  # test data, not a secret
    lane = Lane(LaneKind.CONTROLLER, "worker-1", interval_ms=1000)
    used = 2e9
    sizes = []
    for second in range(3600):
        used += rng.uniform(-5e6, 5e6)
        values = {name: rng.uniform(0, 100) for name in CONTROLLER_SERIES}
        values |= {"mem.used": used, "mem.total": 24e9, "run.processes": float(rng.randint(3, 12))}
        for name in ("disk.read_iops", "disk.write_bytes", "net.rx_packets", "net.tx_bytes"):
            values[name] = 0.0 if rng.random() < 0.5 else rng.uniform(0, 1e6)
        lane.add(1_795_000_000_000 + second * 1000 + rng.randint(0, 5), values)
        if second % 10 == 9:
            chunk, _ = lane.take(run_id=1)
            assert chunk is not None
            sizes.append(len(chunk.data))
    assert len(sizes) == 360
    # 3,600 samples x 16 series: 245 KB raw (float32 and a uint32 time each); 212 KB
    # packed. A row per sample would be 3,600 rows, a row per value 57,600.
    assert sum(sizes) < 240_000, sum(sizes)


def test_a_chunk_names_its_series_briefly_and_rows_with_every_name_still_read() -> None:
    assert stored_names(CONTROLLER_SERIES) == "@controller.1"
    assert names_of("@controller.1") == list(CONTROLLER_SERIES)
    # another list (another order, or series added one day) is stored with its names
    assert stored_names(("cpu.user", "mem.used")) == "cpu.user,mem.used"
    assert names_of("cpu.user,mem.used") == ["cpu.user", "mem.used"]
    assert names_of(",".join(HOST_SERIES)) == list(HOST_SERIES)  # rows written before
