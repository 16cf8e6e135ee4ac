"""Record a run's host metrics while it executes, on threads of their own.

``start`` (by the executor, once the run is prepared) returns at once; ``stop`` (when it ends)
signals and waits only for the controller's last flush, a small insert: a target host that hangs
costs its own thread, never the run. A target thread still waiting for an answer after the run
ended writes its last gap itself when the answer (or its timeout) comes.

Threads: the controller's samples every ``metrics_interval_seconds`` and writes every lane
every ``metrics_flush_seconds``; when the run's inventory names a pmproxy endpoint, a thread
resolves the hosts and starts one thread per host as the run's events name them (the hosts
the run actually touches, its limit included), up to ``metrics_max_hosts``.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable

import psutil
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from steward.inventories.models import Inventory, InventoryFormat, InventoryKind
from steward.inventories.resolve import (
    InventoryUnparsable,
    ResolvedInventory,
    parse_content,
    plugins_for,
    resolve,
)
from steward.metrics import endpoints
from steward.metrics.controller import ControllerProbe
from steward.metrics.endpoints import Endpoint, Unusable
from steward.metrics.lanes import Lane
from steward.metrics.models import MetricChunk, MetricGap
from steward.metrics.pcp import PcpProbe, Unavailable
from steward.metrics.series import LaneKind
from steward.notifications import network
from steward.runner.playbook import RunnerSpec
from steward.runs.models import Run, RunEvent
from steward.runs.params import RunParams
from steward.runtime import Runtime

log = logging.getLogger(__name__)

HOST_POLL_SECONDS = 2.0  # how often the run's events are asked for new hosts
STOP_WAIT_SECONDS = 5.0  # the controller's last flush; past it the run ends without waiting


def now_ms() -> int:
    return int(time.time() * 1000)


class Recording:
    def __init__(self, runtime: Runtime, run_id: int, spec: RunnerSpec) -> None:
        self._runtime = runtime
        self._settings = runtime.settings
        self._run_id = run_id
        self._spec = spec
        self._interval = self._settings.metrics_interval_seconds
        self._interval_ms = int(self._interval * 1000)
        self._stop = threading.Event()
        self._lanes_lock = threading.Lock()
        self._lanes: dict[str, Lane] = {}
        self._controller = threading.Thread(
            target=self._guarded(self._record_controller),
            name=f"metrics-run-{run_id}",
            daemon=True,
        )

    def start(self) -> Recording:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._controller.is_alive():
            self._controller.join(STOP_WAIT_SECONDS)

    def _guarded(self, work: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                work()
            except Exception:  # a thread's edge: metrics must never fail a run
                log.exception("run %s: recording host metrics failed", self._run_id)

        return run

    def _lane(self, kind: LaneKind, host: str) -> Lane:
        lane = Lane(kind, host, self._interval_ms)
        with self._lanes_lock:
            self._lanes[f"{kind}:{host}"] = lane
        return lane

    def _every_interval(self, sample: Callable[[], None]) -> None:
        """Call ``sample`` every interval until stopped (slots missed while it ran are skipped)."""
        due = time.monotonic()
        while not self._stop.is_set():
            sample()
            due += self._interval
            due = max(due, time.monotonic())
            if self._stop.wait(due - time.monotonic()):
                return

    # --- the controller -------------------------------------------------------------------

    def _record_controller(self) -> None:
        lane = self._lane(LaneKind.CONTROLLER, socket.gethostname())
        if self._endpoint_template():
            threading.Thread(
                target=self._guarded(self._record_targets),
                name=f"metrics-run-{self._run_id}-hosts",
                daemon=True,
            ).start()
        probe = ControllerProbe(self._spec.run_uuid)
        next_flush = time.monotonic() + self._settings.metrics_flush_seconds

        def sample() -> None:
            nonlocal next_flush
            at = now_ms()
            try:
                values = probe.sample()
            except (psutil.Error, OSError) as exc:
                lane.fail(at, now_ms(), f"psutil could not read the machine: {exc}")
            else:
                if values is not None:
                    lane.add(at, values)
            if time.monotonic() >= next_flush:
                self._flush(self._all_lanes())
                next_flush = time.monotonic() + self._settings.metrics_flush_seconds

        try:
            self._every_interval(sample)
        finally:
            self._flush(self._all_lanes())

    def _all_lanes(self) -> list[Lane]:
        with self._lanes_lock:
            return list(self._lanes.values())

    def _flush(self, lanes: list[Lane]) -> None:
        rows: list[MetricChunk | MetricGap] = []
        for lane in lanes:
            chunk, gaps = lane.take(self._run_id)
            rows += gaps if chunk is None else [chunk, *gaps]
        if not rows:
            return
        try:
            with self._runtime.sessions() as session:
                session.add_all(rows)
                session.commit()
        except SQLAlchemyError as exc:  # the database is away, or the run was deleted
            log.warning("run %s: %d metric rows not written: %s", self._run_id, len(rows), exc)

    # --- target hosts ---------------------------------------------------------------------

    def _inventory(self) -> Inventory | None:
        with self._runtime.sessions() as session:
            run = session.get(Run, self._run_id)
            if run is None:
                return None
            inventory = session.get(Inventory, RunParams.of(run.params, run.id).inventory_id)
            if inventory is not None:
                session.expunge(inventory)
            return inventory

    def _endpoint_template(self) -> str:
        if self._settings.metrics_max_hosts == 0:
            return ""
        try:
            inventory = self._inventory()
        except SQLAlchemyError as exc:
            log.warning("run %s: target hosts not sampled: %s", self._run_id, exc)
            return ""
        return inventory.metrics_endpoint if inventory is not None else ""

    def _resolved(self, inventory: Inventory) -> ResolvedInventory:
        """The hosts and their variables, as the run's ansible-playbook reads them."""
        if inventory.kind == InventoryKind.STATIC and inventory.format is not None:
            return parse_content(InventoryFormat(inventory.format), inventory.content)
        return resolve(
            self._spec.inventory,
            cwd=self._spec.project_dir,
            plugins=plugins_for(inventory),
            sandbox=self._runtime.sandbox,
        )

    def _endpoints(self) -> tuple[dict[str, Endpoint | Unusable | None], str]:
        """Each host's endpoint (None: not sampled; ``Unusable``: why not), or the reason no
        host can be sampled."""
        inventory = self._inventory()
        if inventory is None:
            return {}, "the run's inventory no longer exists"
        try:
            resolved = self._resolved(inventory)
        except InventoryUnparsable as exc:
            return {}, f"the inventory could not be read: {exc.reason}"[:300]
        found: dict[str, Endpoint | Unusable | None] = {}
        for host in resolved.hosts:
            try:
                found[host.name] = endpoints.for_host(
                    inventory.metrics_endpoint, host.name, host.vars
                )
            except Unusable as exc:
                found[host.name] = exc
        return found, ""

    def _new_hosts(self, known: set[str]) -> list[str]:
        """Hosts the run's events named since the last look (none while the database is away)."""
        try:
            with self._runtime.sessions() as session:
                named = session.scalars(
                    select(RunEvent.host)
                    .where(RunEvent.run_id == self._run_id, RunEvent.host != "")
                    .distinct()
                ).all()
        except SQLAlchemyError:
            return []
        return sorted(set(named) - known)

    def _record_targets(self) -> None:
        found, failure = self._endpoints()
        known: set[str] = set()
        failing: list[tuple[Lane, str]] = []  # lanes with no endpoint: one gap as long as the run
        limit, made = self._settings.metrics_max_hosts, 0
        while True:
            for host in self._new_hosts(known):
                known.add(host)
                endpoint = found.get(host) if not failure else Unusable(failure)
                if endpoint is None:
                    continue
                lane = self._lane(LaneKind.HOST, host)
                made += 1
                if made > limit:
                    failing.append((lane, f"not sampled: the run has more than {limit} hosts"))
                elif isinstance(endpoint, Unusable):
                    failing.append((lane, f"no endpoint: {endpoint}"))
                else:
                    self._start_host(lane, endpoint)
            at = now_ms()
            for lane, reason in failing:
                lane.fail(at, at + int(HOST_POLL_SECONDS * 1000), reason)
            if self._stop.wait(HOST_POLL_SECONDS):
                self._flush([lane for lane, _ in failing])  # any written after the last flush
                return

    def _start_host(self, lane: Lane, endpoint: Endpoint) -> None:
        threading.Thread(
            target=self._guarded(lambda: self._record_host(lane, endpoint)),
            name=f"metrics-run-{self._run_id}-host",
            daemon=True,
        ).start()

    def _record_host(self, lane: Lane, endpoint: Endpoint) -> None:
        settings = self._settings
        probe = PcpProbe(
            endpoint,
            timeout=settings.metrics_timeout_seconds,
            blocked=network.networks(settings.metrics_blocked_networks),
            polltimeout=int(max(30.0, 10 * self._interval)),
        )

        def sample() -> None:
            at = now_ms()
            try:
                values = probe.sample()
            except Unavailable as exc:
                lane.fail(at, now_ms(), str(exc))
                return
            if values is not None:
                lane.add(at, values)

        try:
            self._every_interval(sample)
        finally:
            probe.close()
            self._flush([lane])  # after the run's last flush when an answer came late


class Idle:
    """What ``start`` returns with metrics off."""

    def stop(self) -> None:
        return None


def start(runtime: Runtime, run_id: int, spec: RunnerSpec) -> Recording | Idle:
    if not runtime.settings.metrics_enabled:
        return Idle()
    return Recording(runtime, run_id, spec).start()
