"""Fewer points than samples: the mean of each equal stretch of time (a stretch without a
sample is null, never zero)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Column = Sequence[float | None]


def shown(value: float | None) -> float | None:
    """Six significant digits: float32 storage carries no more (12.300000190734863 -> 12.3)."""
    return None if value is None else float(f"{value:.6g}")


def buckets(
    times: Sequence[int], columns: Sequence[Column], start: int, end: int, points: int
) -> tuple[int | None, list[int], list[list[float | None]]]:
    """``(width, times, columns)``: the samples as they are when they fit in ``points``
    (width None), else ``points`` stretches of ``width`` ms from ``start``, each the mean of
    its samples."""
    if len(times) <= points:
        return None, list(times), [[shown(v) for v in column] for column in columns]
    width = max(1, math.ceil((end - start + 1) / points))
    sums = [[0.0] * points for _ in columns]
    counts = [[0] * points for _ in columns]
    for i, t in enumerate(times):
        slot = min((t - start) // width, points - 1)
        for s, column in enumerate(columns):
            value = column[i]
            if value is not None:
                sums[s][slot] += value
                counts[s][slot] += 1
    means = [
        [shown(total / n) if n else None for total, n in zip(sums[s], counts[s], strict=True)]
        for s in range(len(columns))
    ]
    return width, [start + k * width for k in range(points)], means
