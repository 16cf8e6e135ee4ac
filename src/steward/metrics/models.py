"""Host metrics of a run: per-second samples packed in chunks, and the gaps with their reason.

One row per lane (the controller, or a target host) and flush (every
``metrics_flush_seconds``, 10 s by default) holding every series of that stretch in one blob
(``packing``), rather than a row per sample or per value: an hour of one lane is 360 rows of
about 0.5 KB instead of 3,600 rows (or 57,600 values) with a key and an index entry each.
Both tables go with their run (ON DELETE CASCADE).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base
from steward.metrics.series import LaneKind


class MetricChunk(Base):
    __tablename__ = "run_metric_chunks"
    # a host's runs with metrics, newest first (the host page's metrics: hosts/hostmetrics.py)
    __table_args__ = (Index("ix_run_metric_chunks_lane", "kind", "host", "run_id"),)

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[LaneKind] = mapped_column(String(16), primary_key=True)
    host: Mapped[str] = mapped_column(String(255), primary_key=True)
    start_ms: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    end_ms: Mapped[int] = mapped_column(BigInteger)  # the last sample's time
    count: Mapped[int]  # samples in the chunk
    # names, comma-separated, in packed order; or the name of a list of them (series.LAYOUTS)
    series: Mapped[str] = mapped_column(String(1000))
    data: Mapped[bytes] = mapped_column(LargeBinary)


class MetricGap(Base):
    """A stretch without samples of a lane and why: unreachable, no answer in time, no PCP.

    Written per flush; stretches of one reason that touch are merged when read."""

    __tablename__ = "run_metric_gaps"
    __table_args__ = (Index("ix_run_metric_gaps_run_id_kind_host", "run_id", "kind", "host"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    kind: Mapped[LaneKind] = mapped_column(String(16))
    host: Mapped[str] = mapped_column(String(255))
    start_ms: Mapped[int] = mapped_column(BigInteger)
    end_ms: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(300))
