"""Celery mode (``STEWARD_BROKER_URL``): a launch publishes a wake-up on its runner group's queue
and a ``steward worker`` of that group claims and executes the run.

A message says only "a run of this group may be claimable" (its run id is informative): the
worker claims the oldest claimable run of its queues from the database, so a duplicate or late
message is a no-op and the run row stays the truth. Publishing happens on a thread of its own,
so a launch never waits for the broker; when the broker is down the message is dropped and the
reaper sends a new one once it is back (``reaper.redeliveries``).
"""

from __future__ import annotations

import datetime as dt
import logging
import queue
import threading
from collections.abc import Callable, Collection

from celery import Celery
from kombu.exceptions import OperationalError as BrokerError
from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.config import Settings
from steward.dispatch import presence, reaper
from steward.runner_groups.models import DEFAULT_GROUP
from steward.runs.models import Run
from steward.runtime import Runtime
from steward.ticker import Ticker

log = logging.getLogger(__name__)

TASK = "steward.run"
PRUNE_WORKERS_AFTER = dt.timedelta(days=1)
# a publish waits this long for a broker that is down, then gives up (the reaper re-sends)
PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0.2, "interval_step": 0.5, "interval_max": 1}


def make_app(settings: Settings) -> Celery:
    if settings.broker_url is None:
        raise ValueError("Celery mode needs STEWARD_BROKER_URL")
    app = Celery("steward", broker=settings.broker_url.get_secret_value(), set_as_current=False)
    app.conf.update(
        # a message is acknowledged once its task returned; a worker's slots hold one message
        # each, so a busy worker reserves nothing another worker could start
        task_acks_late=True,
        worker_prefetch_multiplier=1,
        task_default_queue=DEFAULT_GROUP,
        task_ignore_result=True,
        task_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,  # a worker waits for the broker, however long
        # runs keep executing (and recording to the database) while the broker is away
        worker_cancel_long_running_tasks_on_connection_loss=False,
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
        broker_transport_options={"visibility_timeout": 3600},
    )
    return app


Executing = Callable[[], Collection[int]]  # the runs this process executes
Tick = Callable[[Session], None]  # more housekeeping of a worker (its presence)


def publish(app: Celery, group: str, run_id: int | None = None) -> bool:
    """Send a wake-up to ``group``'s queue; False (logged) when the broker did not take it."""
    try:
        app.send_task(
            TASK,
            kwargs={"run_id": run_id},
            queue=group,
            retry=True,
            retry_policy=PUBLISH_RETRY,
        )
    except (BrokerError, OSError) as exc:
        log.warning("could not publish to queue %s (%s); the reaper will re-send", group, exc)
        return False
    return True


class Housekeeping:
    """A thread that reaps expired leases, re-sends runs left queued and renews presence;
    ``executing`` tells which runs this process executes (never failed as lost)."""

    def __init__(self, runtime: Runtime, app: Celery, executing: Executing) -> None:
        self.runtime = runtime
        self.app = app
        self.executing = executing
        self.on_tick: list[Tick] = []
        self._ticker = Ticker("housekeeping", self.pass_once, lambda: self.tick)
        self.stopping = self._ticker.stopping

    @property
    def tick(self) -> float:
        settings = self.runtime.settings
        return min(settings.heartbeat_seconds, settings.redeliver_seconds)

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()

    def pass_once(self) -> None:
        settings = self.runtime.settings
        lease = dt.timedelta(seconds=settings.lease_seconds)
        with self.runtime.sessions() as session:
            for tick in self.on_tick:
                tick(session)
            reaper.fail_expired(session, lease, self.executing())
            wake = reaper.redeliveries(
                session, dt.timedelta(seconds=settings.redeliver_seconds), lease
            )
            presence.prune(session, PRUNE_WORKERS_AFTER)
        for group in wake:
            if not publish(self.app, group):
                break


class CeleryQueue:
    """The server's ``RunQueue`` in Celery mode, and its housekeeping as a service."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.app = make_app(runtime.settings)
        self.housekeeping = Housekeeping(runtime, self.app, executing=frozenset)
        self._pending: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        self._publisher: threading.Thread | None = None

    # RunQueue
    def submit(self, run_id: int) -> None:
        self._pending.put(run_id)

    def cancel(self, run_id: int) -> None:
        """Nothing to send: the executing worker reads the cancel request from the run's row
        (every 0.5 s)."""

    # lifecycle
    def start(self) -> None:
        self._publisher = threading.Thread(target=self._publish, name="publisher", daemon=True)
        self._publisher.start()
        self.housekeeping.start()

    def stop(self) -> None:
        self.housekeeping.stop()
        self._pending.put(None)
        if self._publisher is not None:
            self._publisher.join(timeout=10)

    def _publish(self) -> None:
        while (run_id := self._pending.get()) is not None:
            try:
                with self.runtime.sessions() as session:
                    group = session.scalar(select(Run.runner_group).where(Run.id == run_id))
            except Exception:
                log.exception("could not read the group of run %s; the reaper will send it", run_id)
                continue
            if group is not None:
                publish(self.app, group, run_id)
