"""The audit stream of a real ``steward serve``, killed with SIGKILL while a batch is in
flight to each sink and started again, while audit records keep being recorded (by the
server, and by another process on the same database, as a worker or the CLI records them):
every record reaches the syslog listener and the Elastic receiver; the Elastic index holds
each once (``create`` with the record's id as ``_id``: the resent batch gets 409s), and syslog
repeats at most the batch that was in flight."""

from __future__ import annotations

import collections
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from support.server import Server
from support.siem import SiemReceiver, SyslogReceiver
from support.waits import wait_until

from steward.audit import service
from steward.audit.actions import AuditAction
from steward.audit.models import AuditRecord, StreamRow
from steward.db import make_engine, make_session_factory

BATCH = 50
BACKLOG = 1000
TIMEOUT = 3.0  # a batch's lease: 3 times as long


class Producer(threading.Thread):
    """Records audit records on the server's database until stopped, a few per transaction,
    as another process would (the sinks its settings name)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.engine = make_engine(url)
        self.sessions = make_session_factory(
            self.engine, {service.STREAM_SINKS: ("syslog", "http")}
        )
        self.stopping = threading.Event()
        self.count = 0

    def record(self, n: int) -> None:
        with self.sessions() as session:
            for _ in range(n):
                service.record(session, None, AuditAction.AUDIT_PRUNE, detail=f"p{self.count}")
                self.count += 1
            session.commit()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.record(5)
            self.stopping.wait(0.05)  # ~100 records a second


def test_a_server_killed_mid_stream_resends_only_its_batch_in_flight(tmp_path: Path) -> None:
    with SyslogReceiver() as syslog, SiemReceiver() as elastic:
        server = Server(
            tmp_path / "data",
            audit_syslog_host="127.0.0.1",
            audit_syslog_port=str(syslog.port),
            audit_http_url=elastic.url("/steward-audit/_bulk"),
            audit_http_format="elastic",
            audit_stream_batch=str(BATCH),
            audit_stream_tick_seconds="0.05",
            audit_stream_timeout_seconds=str(TIMEOUT),
            audit_stream_backoff_seconds="0.1",
        )
        server.start()
        producer = Producer(f"sqlite:///{server.data_dir / 'steward.db'}")
        seeded = max(_all_ids(producer))  # recorded before the stream was configured
        try:
            with server.api() as api:  # the server's own records: a sign-in, a token, a project
                assert api.post("/projects", json={"name": "streamed"}).status_code == 201

            # a backlog drained at the receivers' pace
            started = time.monotonic()
            producer.record(BACKLOG)
            wait_until(lambda: len(set(syslog.ids())) >= BACKLOG, 60, what="syslog records")
            syslog_rate = BACKLOG / (time.monotonic() - started)
            wait_until(lambda: len(_documents(elastic)) >= BACKLOG, 60, what="documents")
            elastic_rate = BACKLOG / (time.monotonic() - started)

            # records keep coming; the next batch of each sink reaches its receiver, which
            # holds it unacknowledged: the server is killed with both batches in flight
            producer.start()
            elastic.holding.set()  # its sender waits for the answer up to its timeout
            assert elastic.held.wait(30)
            syslog.holding.set()  # its sender waits for the close a moment (sinks.CLOSE_WAIT)
            assert syslog.held.wait(TIMEOUT)
            server.kill()
            syslog.release.set()
            elastic.release.set()
            time.sleep(0.5)  # recorded while no server runs

            restarted = time.monotonic()
            server.start()
            time.sleep(1)
            producer.stopping.set()
            producer.join(10)
            expected = {i for i in _all_ids(producer) if i > seeded}
            backlog = _backlog(producer)
            wait_until(lambda: expected <= set(syslog.ids()), 60, what="every id by syslog")
            wait_until(lambda: expected <= _documents(elastic), 60, what="every document")
            drained = time.monotonic() - restarted

            with server.api() as api:  # (a sign-in and a token more, streamed too)

                def sinks() -> dict[str, dict[str, Any]]:
                    return {s["sink"]: s for s in api.get("/audit/stream").json()["sinks"]}

                # this client's own records (its sign-in, its token) are streamed too: awaited
                wait_until(
                    lambda: all(s["backlog"] == 0 for s in sinks().values()),
                    30,
                    what="an empty backlog",
                )
                status = sinks()
            recorded = {i for i in _all_ids(producer) if i > seeded}
        finally:
            producer.stopping.set()
            producer.engine.dispose()
            server.stop()

    assert expected <= _documents(elastic) <= recorded  # each exactly once (a dict by _id)
    resent = [i for i, n in elastic.creates.items() if n > 1]
    assert 0 < len(resent) <= BATCH  # the batch in flight, answered 409 the second time
    counts = collections.Counter(syslog.ids())
    assert expected <= set(counts) <= recorded
    repeated = sum(n - 1 for n in counts.values())
    assert 0 < repeated <= BATCH  # at least once: the batch written before the kill, again
    assert {s: (status[s]["backlog"], status[s]["failures"]) for s in status} == {
        "syslog": (0, 0),
        "http": (0, 0),
    }
    print(  # noqa: T201 - the figures of the report
        f"\naudit stream: syslog {syslog_rate:.0f} records/s, elastic {elastic_rate:.0f}"
        f" records/s (batches of {BATCH}); after the restart {backlog} waiting,"
        f" all of {len(expected)} arrived {drained:.1f} s after it (lease {3 * TIMEOUT:.1f} s);"
        f" resent: syslog {repeated}, elastic {len(resent)} (409)"
    )


def _all_ids(producer: Producer) -> set[int]:
    with producer.sessions() as session:
        return set(session.scalars(select(AuditRecord.id)))


def _backlog(producer: Producer) -> int:
    with producer.sessions() as session:
        return int(session.scalar(select(func.count()).select_from(StreamRow)) or 0)


def _documents(elastic: SiemReceiver) -> set[int]:
    with elastic.lock:
        return {int(i) for i in elastic.documents}
