"""Record a run's host metrics while it executes, on threads of their own.

``start`` (by the executor, once the run is prepared) returns at once; ``stop`` (when it ends)
signals and waits only for the controller's last flush, a small insert: a target host that hangs
costs its own thread, never the run. A target thread still waiting for an answer after the run
ended writes its last gap itself when the answer (or its timeout) comes.

Threads: the controller's samples every ``metrics_interval_seconds`` and writes every lane
every ``metrics_flush_seconds``; when the run's inventory names a pmproxy endpoint, a thread
resolves the hosts and starts one thread per host, up to ``metrics_max_hosts``:

- from the run's start, for every host its limit selects (``limit.selected``) when they are
  no more than ``metrics_max_hosts``: the first seconds of a play (gathering facts) are
  recorded too. Once the run has its final status (all its events stored), the lanes of those
  hosts that no event named (a play for other hosts) are removed: a run keeps the metrics of
  the hosts it touched.
- otherwise (more hosts, a limit not understood, hosts added by the play) as the run's events
  name them.

Each thread adds the CPU time it took to the recording's; the controller's logs the total
when the run ends (``bench/metrics_cost.py`` reads it).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable

import psutil
from sqlalchemy import delete, select
from sqlalchemy.exc import SQLAlchemyError

from steward.execution.ansible.playbook import RunnerSpec
from steward.inventories.models import Inventory
from steward.inventories.resolve import InventoryUnparsable, ResolvedInventory, as_run_reads
from steward.metrics import endpoints, limit
from steward.metrics.controller import ControllerProbe
from steward.metrics.endpoints import Endpoint, Unusable
from steward.metrics.lanes import Lane
from steward.metrics.models import MetricChunk, MetricGap
from steward.metrics.pcp import PcpProbe, Unavailable
from steward.metrics.series import LaneKind
from steward.outbound import network
from steward.runs.models import Run, RunEvent
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from steward.runtime import Runtime

log = logging.getLogger(__name__)

HOST_POLL_SECONDS = 2.0  # how often the run's events are asked for new hosts
STOP_WAIT_SECONDS = 5.0  # the controller's last flush; past it the run ends without waiting
FINAL_WAIT_SECONDS = 60.0  # how long untouched lanes wait for the run's final status


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
        self._write_lock = threading.Lock()  # a flush, or the removal of untouched lanes
        self._dropped: set[str] = set()  # hosts whose lanes were removed: never written again
        self._cpu_lock = threading.Lock()
        self._cpu = 0.0  # CPU seconds the recording's finished threads took
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
            started = time.thread_time()
            try:
                work()
            except Exception:  # a thread's edge: metrics must never fail a run
                log.exception("run %s: recording host metrics failed", self._run_id)
            finally:
                with self._cpu_lock:
                    self._cpu += time.thread_time() - started

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
        started, samples = time.thread_time(), 0

        def sample() -> None:
            nonlocal next_flush, samples
            samples += 1
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
            with self._cpu_lock:
                cpu = self._cpu + time.thread_time() - started
            log.info(
                "run %s: host metrics: %d controller samples, %.4f s CPU on their threads",
                self._run_id,
                samples,
                cpu,
            )

    def _all_lanes(self) -> list[Lane]:
        with self._lanes_lock:
            return list(self._lanes.values())

    def _flush(self, lanes: list[Lane]) -> None:
        with self._write_lock:
            rows: list[MetricChunk | MetricGap] = []
            for lane in lanes:
                chunk, gaps = lane.take(self._run_id)
                if lane.kind is LaneKind.HOST and lane.host in self._dropped:
                    continue
                rows += gaps if chunk is None else [chunk, *gaps]
            if not rows:
                return
            try:
                with self._runtime.sessions() as session:
                    session.add_all(rows)
                    session.commit()
            except SQLAlchemyError as exc:  # the database is away, or the run was deleted
                log.warning("run %s: %d metric rows not written: %s", self._run_id, len(rows), exc)

    def _drop(self, hosts: set[str]) -> None:
        """Remove the lanes of ``hosts`` (sampled from the start, never touched by the run)."""
        if not hosts:
            return
        with self._lanes_lock:
            for host in hosts:
                self._lanes.pop(f"{LaneKind.HOST}:{host}", None)
        with self._write_lock:
            self._dropped |= hosts
            try:
                with self._runtime.sessions() as session:
                    for model in (MetricChunk, MetricGap):
                        session.execute(
                            delete(model).where(
                                model.run_id == self._run_id,
                                model.kind == LaneKind.HOST,
                                model.host.in_(sorted(hosts)),
                            )
                        )
                    session.commit()
            except SQLAlchemyError as exc:
                log.warning("run %s: untouched hosts' metrics not removed: %s", self._run_id, exc)

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
        spec = self._spec
        return as_run_reads(inventory, spec.inventory, spec.project_dir, self._runtime.sandbox)

    def _endpoints(self) -> tuple[dict[str, Endpoint | Unusable | None], set[str] | None, str]:
        """Each host's endpoint (None: not sampled; ``Unusable``: why not), the hosts the run's
        limit selects (None: not known before its events), or the reason no host can be
        sampled."""
        inventory = self._inventory()
        if inventory is None:
            return {}, None, "the run's inventory no longer exists"
        try:
            resolved = self._resolved(inventory)
        except InventoryUnparsable as exc:
            return {}, None, f"the inventory could not be read: {exc.reason}"[:300]
        found: dict[str, Endpoint | Unusable | None] = {}
        for host in resolved.hosts:
            try:
                found[host.name] = endpoints.for_host(
                    inventory.metrics_endpoint, host.name, host.vars
                )
            except Unusable as exc:
                found[host.name] = exc
        return found, limit.selected(resolved, self._spec.limit), ""

    def _named(self) -> set[str]:
        """Hosts the run's events named so far (none while the database is away)."""
        try:
            with self._runtime.sessions() as session:
                return set(
                    session.scalars(
                        select(RunEvent.host)
                        .where(RunEvent.run_id == self._run_id, RunEvent.host != "")
                        .distinct()
                    )
                )
        except SQLAlchemyError:
            return set()

    def _finished(self) -> bool:
        """Whether the run has its final status (every event stored); waits for it a while."""
        deadline = time.monotonic() + FINAL_WAIT_SECONDS
        while time.monotonic() < deadline:
            try:
                with self._runtime.sessions() as session:
                    status = session.scalar(select(Run.status).where(Run.id == self._run_id))
            except SQLAlchemyError:
                status = RunStatus.RUNNING
            if status is None:
                return False  # deleted: its metrics went with it
            if RunStatus(status).is_finished:
                return True
            time.sleep(HOST_POLL_SECONDS / 4)
        return False

    def _record_targets(self) -> None:
        found, chosen, failure = self._endpoints()
        known: set[str] = set()  # hosts with a lane
        failing: list[tuple[Lane, str]] = []  # lanes with no endpoint: one gap as long as the run
        cap, made = self._settings.metrics_max_hosts, 0

        def add(host: str) -> bool:
            nonlocal made
            known.add(host)
            endpoint = found.get(host) if not failure else Unusable(failure)
            if endpoint is None:
                return False
            lane = self._lane(LaneKind.HOST, host)
            made += 1
            if made > cap:
                failing.append((lane, f"not sampled: the run has more than {cap} hosts"))
            elif isinstance(endpoint, Unusable):
                failing.append((lane, f"no endpoint: {endpoint}"))
            else:
                self._start_host(lane, endpoint)
            return True

        early: set[str] = set()  # lanes started before an event named their host
        if not failure and chosen is not None:
            sampled = sorted(h for h in chosen if found.get(h) is not None)
            if len(sampled) <= cap:
                early = {host for host in sampled if add(host)}
        named: set[str] = set()
        while True:
            named = self._named() | named
            for host in sorted(named - known):
                add(host)
            at = now_ms()
            for lane, reason in failing:
                lane.fail(at, at + int(HOST_POLL_SECONDS * 1000), reason)
            if self._stop.wait(HOST_POLL_SECONDS):
                self._flush([lane for lane, _ in failing])  # any written after the last flush
                break
        if early - named and self._finished():
            self._drop(early - self._named() - named)

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
            guard=network.Guard.of(settings),
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
