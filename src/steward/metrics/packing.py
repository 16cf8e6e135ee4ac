"""A chunk of samples as one compact blob: what ``MetricChunk.data`` holds.

Layout, zlib-compressed: ``count`` sample times as uint32 milliseconds after the chunk's start,
then for each series in the chunk's order ``count`` float32 values (NaN: not measured). All
little-endian. float32 keeps 7 significant digits: a byte count of 24 GB to within 2 KB.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Sequence

LEVEL = 6


def _little(values: array[int] | array[float]) -> array[int] | array[float]:
    if sys.byteorder == "big":
        values.byteswap()
    return values


def pack(start_ms: int, times: Sequence[int], columns: Sequence[Sequence[float]]) -> bytes:
    """``columns[s][i]``: series ``s`` at ``times[i]`` (epoch ms, each >= ``start_ms``)."""
    offsets = array("I", (t - start_ms for t in times))
    raw = bytearray(_little(offsets).tobytes())
    for column in columns:
        if len(column) != len(times):
            raise ValueError("every column needs one value per sample time")
        raw += _little(array("f", column)).tobytes()
    return zlib.compress(bytes(raw), LEVEL)


def unpack(
    data: bytes, start_ms: int, count: int, width: int
) -> tuple[list[int], list[list[float | None]]]:
    """The sample times (epoch ms) and ``width`` columns; NaN comes back as None."""
    raw = zlib.decompress(data)
    offsets = array("I")
    offsets.frombytes(raw[: 4 * count])
    values = array("f")
    values.frombytes(raw[4 * count : 4 * count * (width + 1)])
    _little(offsets)
    _little(values)
    times = [start_ms + offset for offset in offsets]
    # v != v: NaN (a call of math.isnan per value costs more than the rest of the unpacking)
    columns = [
        [None if v != v else v for v in values[s * count : (s + 1) * count]] for s in range(width)
    ]
    return times, columns
