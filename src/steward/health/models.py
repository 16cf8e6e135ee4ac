from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base


class Status(enum.StrEnum):
    """What one check found, on the port Ansible uses."""

    REACHABLE = "reachable"  # connected, and the SSH version line came
    NOT_SSH = "not_ssh"  # connected, but no SSH version line came
    REFUSED = "refused"  # the connection was refused: nothing listens
    TIMEOUT = "timeout"  # no connection, or no banner, within the timeout
    UNREACHABLE = "unreachable"  # no route, network down, the name does not resolve
    BLOCKED = "blocked"  # the outbound rules forbid the address: not probed
    LOCAL = "local"  # ansible_connection=local: nothing to probe
    NOT_MEASURED = "not_measured"  # another connection plugin, or values we cannot use


# what counts as "unreachable now" (the inventory's count, pre-flight's skip)
FAILING = frozenset({Status.NOT_SSH, Status.REFUSED, Status.TIMEOUT, Status.UNREACHABLE})


class Trigger(enum.StrEnum):
    PERIODIC = "periodic"
    MANUAL = "manual"
    PREFLIGHT = "preflight"


class HostCheck(Base):
    """One check of one host of an inventory (the history, pruned after
    ``health_retention_days``)."""

    __tablename__ = "host_checks"
    __table_args__ = (
        Index("ix_host_checks_host", "project_id", "host", "checked_at"),
        Index("ix_host_checks_checked_at", "checked_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    inventory_id: Mapped[int] = mapped_column(ForeignKey("inventories.id", ondelete="CASCADE"))
    host: Mapped[str] = mapped_column(String(255))
    checked_at: Mapped[dt.datetime]
    status: Mapped[Status] = mapped_column(String(16))
    tcp_ms: Mapped[float | None]  # connect time
    banner_ms: Mapped[float | None]  # from the connect's start to the SSH version line
    reason: Mapped[str] = mapped_column(String(300), default="")
    trigger: Mapped[Trigger] = mapped_column(String(16))


class HostHealth(Base):
    """The latest check of each host of each inventory: what "2 of 40 unreachable now" counts
    (joined with ``inventory_hosts``, so a host gone from the inventory does not count)."""

    __tablename__ = "host_health"

    inventory_id: Mapped[int] = mapped_column(
        ForeignKey("inventories.id", ondelete="CASCADE"), primary_key=True
    )
    host: Mapped[str] = mapped_column(String(255), primary_key=True)
    checked_at: Mapped[dt.datetime]
    status: Mapped[Status] = mapped_column(String(16))
    tcp_ms: Mapped[float | None]
    banner_ms: Mapped[float | None]
    reason: Mapped[str] = mapped_column(String(300), default="")


class HealthSweep(Base):
    """The periodic pass: whichever server moves ``next_at`` on (a conditional UPDATE) runs it,
    so several servers on one database check each host once per interval."""

    __tablename__ = "health_sweeps"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    next_at: Mapped[dt.datetime]
    started_at: Mapped[dt.datetime | None]
    finished_at: Mapped[dt.datetime | None]
    hosts: Mapped[int] = mapped_column(default=0)


class RunPreflightHost(Base):
    """A host the pre-flight of a run found failing: why, and whether the run skipped it."""

    __tablename__ = "run_preflight_hosts"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    host: Mapped[str] = mapped_column(String(255), primary_key=True)
    status: Mapped[Status] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(300), default="")
    skipped: Mapped[bool] = mapped_column(default=False)
