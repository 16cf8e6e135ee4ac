"""The audit stream below HTTP: the outbox rows a record brings in its transaction, the claim
and its lease, the backoff, and each sink against a real receiver on 127.0.0.1 (syslog over
TCP and TLS, Elastic ``_bulk``, Splunk HEC, JSON), settled as the streamer settles them."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support.admin import ADMIN_TOKEN
from support.outbound import LOOPBACK_ALLOWED
from support.siem import SiemReceiver, SyslogReceiver, unused_port
from support.waits import wait_until

from steward.audit import service, sinks, stream
from steward.audit.actions import AuditAction
from steward.audit.models import StreamRow, StreamSink
from steward.audit.schemas import AuditRead
from steward.config import Settings
from steward.db import utcnow
from steward.server import build_app

LEASE = dt.timedelta(seconds=30)
BACKOFF = stream.Backoff(base=2.0, cap=10.0)


def _settings(**changes: Any) -> Settings:
    return Settings(
        outbound_allowed_networks=list(LOOPBACK_ALLOWED),
        audit_stream_timeout_seconds=5,
        **changes,
    )


def _record(session: Session, detail: str, action: AuditAction = AuditAction.AUDIT_PRUNE) -> int:
    entry = service.record(session, None, action, detail=detail, source_ip="192.0.2.7")
    session.commit()
    return entry.id


def _rows(session: Session, sink: str) -> dict[int, StreamRow]:
    return {
        row.event_id: row
        for row in session.scalars(select(StreamRow).where(StreamRow.sink == sink))
    }


def _streaming(session: Session, *sinks_: str) -> Session:
    session.info[service.STREAM_SINKS] = sinks_
    stream.ensure_sinks(session, sinks_)
    return session


def _send(session: Session, sink: sinks.Sink, limit: int = 100) -> stream.Outcome:
    """One batch as the streamer sends it: claim, send, settle."""
    claimed = stream.claim(session, sink.name, utcnow(), limit=limit, lease=LEASE)
    assert claimed is not None
    outcome = sink.send(stream.events(session, claimed.event_ids))
    stream.settle(session, claimed, outcome, utcnow(), BACKOFF)
    return outcome


@pytest.mark.both_databases
def test_a_record_brings_a_row_per_sink_in_its_own_transaction(db_session: Session) -> None:
    # control: a session that streams nowhere queues nothing
    _record(db_session, "no sink")
    assert db_session.scalar(select(func.count()).select_from(StreamRow)) == 0

    _streaming(db_session, "syslog", "http")
    kept = _record(db_session, "kept")
    service.record(db_session, None, AuditAction.AUDIT_PRUNE, detail="rolled back")
    db_session.flush()  # the rows are written, then the change is rolled back with them
    db_session.rollback()

    assert set(_rows(db_session, "syslog")) == {kept}
    assert set(_rows(db_session, "http")) == {kept}


@pytest.mark.both_databases
def test_a_claim_takes_the_oldest_rows_once_until_its_lease_expires(db_session: Session) -> None:
    _streaming(db_session, "syslog")
    ids = [_record(db_session, f"e{i}") for i in range(5)]
    now = utcnow()

    first = stream.claim(db_session, "syslog", now, limit=3, lease=LEASE)
    second = stream.claim(db_session, "syslog", now, limit=3, lease=LEASE)
    assert first is not None
    assert first.event_ids == ids[:3]
    assert second is not None
    assert second.event_ids == ids[3:]
    assert stream.claim(db_session, "syslog", now, limit=3, lease=LEASE) is None

    # a streamer that died holds its rows until its lease expires; then they are taken again
    later = now + LEASE + dt.timedelta(seconds=1)
    again = stream.claim(db_session, "syslog", later, limit=10, lease=LEASE)
    assert again is not None
    assert again.event_ids == ids
    # the dead streamer's late settle changes nothing of rows claimed by another since
    stream.settle(db_session, first, stream.Outcome.failed("late"), later, BACKOFF)
    assert all(row.last_error == "" for row in _rows(db_session, "syslog").values())


@pytest.mark.both_databases
def test_a_failing_sink_backs_off_doubling_up_to_the_cap_and_keeps_every_row(
    db_session: Session,
) -> None:
    _streaming(db_session, "syslog")
    ids = [_record(db_session, f"e{i}") for i in range(3)]
    now = utcnow()
    waits = []
    for _ in range(5):
        claimed = stream.claim(db_session, "syslog", now, limit=10, lease=LEASE)
        assert claimed is not None
        assert claimed.event_ids == ids
        stream.settle(db_session, claimed, stream.Outcome.failed("ConnectionRefused"), now, BACKOFF)
        state = db_session.get(StreamSink, "syslog")
        assert state is not None
        assert state.next_attempt_at is not None
        waits.append((state.next_attempt_at - now).total_seconds())
        # nothing is tried before the wait is over, even what is recorded meanwhile
        assert stream.claim(db_session, "syslog", now, limit=10, lease=LEASE) is None
        now = state.next_attempt_at
    assert waits == [2.0, 4.0, 8.0, 10.0, 10.0]
    rows = _rows(db_session, "syslog")
    assert set(rows) == set(ids)
    assert {(r.attempts, r.last_error) for r in rows.values()} == {(5, "ConnectionRefused")}
    state = db_session.get(StreamSink, "syslog")
    assert state is not None
    assert state.failures == 5
    assert state.last_error == "ConnectionRefused"

    # a success clears the wait, deletes what was acknowledged and says when
    claimed = stream.claim(db_session, "syslog", now, limit=10, lease=LEASE)
    assert claimed is not None
    stream.settle(db_session, claimed, stream.Outcome(sent=ids), now, BACKOFF)
    assert _rows(db_session, "syslog") == {}
    db_session.refresh(state)
    assert (state.failures, state.next_attempt_at, state.last_success_at) == (0, None, now)


def test_syslog_over_tcp_sends_octet_counted_rfc5424_messages(db_session: Session) -> None:
    _streaming(db_session, "syslog")
    prune = _record(db_session, 'a "quoted" ] detail')
    failed = _record(db_session, "bad password", AuditAction.AUTH_LOGIN_FAILED)
    with SyslogReceiver() as receiver:
        sink = sinks.SyslogSink(
            _settings(audit_syslog_host="127.0.0.1", audit_syslog_port=receiver.port)
        )
        outcome = _send(db_session, sink)
        receiver.wait_for_ids({prune, failed}, timeout=10)
    assert outcome.sent == [prune, failed]
    assert not outcome.error
    assert _rows(db_session, "syslog") == {}  # acknowledged: gone from the outbox
    by_id = {int(m.params["id"]): m for m in receiver.messages}
    message = by_id[prune]
    assert message.pri == 10 * 8 + 5  # authpriv, notice
    assert by_id[failed].pri == 10 * 8 + 4  # a failure is a warning
    assert (message.app_name, message.msgid, message.sd_id) == (
        "steward",
        "audit:prune",
        "steward@32473",
    )
    assert message.params["sourceIp"] == "192.0.2.7"
    assert message.params["outcome"] == "success"
    assert by_id[failed].params["outcome"] == "failure"
    assert message.event["detail"] == 'a "quoted" ] detail'
    assert message.event["id"] == prune
    assert dt.datetime.fromisoformat(message.timestamp).tzinfo is not None


def test_syslog_over_tls_checks_the_receivers_certificate(
    db_session: Session, tmp_path: Path
) -> None:
    _streaming(db_session, "syslog")
    event_id = _record(db_session, "over tls")
    with SyslogReceiver(tmp_path, tls=True) as receiver:
        common = {"audit_syslog_host": "127.0.0.1", "audit_syslog_port": receiver.port}
        # the system's CAs do not know the receiver's certificate: refused, the row kept
        untrusted = sinks.SyslogSink(_settings(audit_syslog_tls=True, **common))
        outcome = _send(db_session, untrusted)
        assert "CERTIFICATE_VERIFY_FAILED" in outcome.error
        assert set(_rows(db_session, "syslog")) == {event_id}
        assert receiver.messages == []

        trusted = sinks.SyslogSink(
            _settings(audit_syslog_tls=True, audit_syslog_ca_file=receiver.cert, **common)
        )
        db_session.get(StreamSink, "syslog").next_attempt_at = None  # type: ignore[union-attr]
        db_session.commit()
        outcome = _send(db_session, trusted)
        receiver.wait_for_ids({event_id}, timeout=10)
    assert outcome.sent == [event_id]
    assert _rows(db_session, "syslog") == {}


def test_a_syslog_receiver_that_is_down_keeps_the_rows(db_session: Session) -> None:
    _streaming(db_session, "syslog")
    event_id = _record(db_session, "nobody listens")
    sink = sinks.SyslogSink(
        _settings(audit_syslog_host="127.0.0.1", audit_syslog_port=unused_port())
    )
    outcome = _send(db_session, sink)
    assert outcome.error.startswith("ConnectionRefusedError")
    assert _rows(db_session, "syslog")[event_id].last_error == outcome.error


def test_elastic_bulk_creates_each_record_once_and_keeps_what_an_item_refused(
    db_session: Session, tmp_path: Path
) -> None:
    _streaming(db_session, "http")
    ids = [_record(db_session, f"e{i}") for i in range(4)]
    token = tmp_path / "token"
    token.write_text("es-api-key\n")
    with SiemReceiver(token="es-api-key") as receiver:
        receiver.documents[str(ids[0])] = {"sent": "before a crash"}  # a resend: 409
        receiver.refuse_ids = {str(ids[1])}  # a mapping error on one document
        sink = sinks.HttpSink(
            _settings(
                audit_http_url=receiver.url("/steward-audit/_bulk"),
                audit_http_format="elastic",
                audit_http_token_file=token,
            )
        )
        outcome = _send(db_session, sink)
    assert sorted(outcome.sent) == [ids[0], ids[2], ids[3]]
    rows = _rows(db_session, "http")
    assert set(rows) == {ids[1]}  # the refused one alone waits, with Elastic's error type
    assert rows[ids[1]].last_error == "HTTP 400 Bad Request: mapper_parsing_exception"
    assert rows[ids[1]].next_attempt_at > utcnow()
    assert "secret words" not in rows[ids[1]].last_error  # never the receiver's text
    state = db_session.get(StreamSink, "http")
    assert state is not None
    assert state.failures == 0
    assert state.sent == 3
    assert state.last_error.startswith("1 records refused")

    doc = receiver.documents[str(ids[2])]
    assert doc["event"]["id"] == str(ids[2])
    assert doc["event"]["action"] == "audit:prune"
    assert doc["event"]["outcome"] == "success"
    assert doc["source"]["ip"] == "192.0.2.7"
    assert doc["user"]["name"] == "system"
    assert doc["message"].startswith("system audit:prune")
    assert json.loads(doc["steward"]["changes"]) == {}
    assert "@timestamp" in doc
    assert receiver.requests[0].headers["authorization"] == "ApiKey es-api-key"


def test_an_elastic_answer_that_fails_keeps_the_batch_and_hides_the_token(
    db_session: Session, tmp_path: Path
) -> None:
    _streaming(db_session, "http")
    event_id = _record(db_session, "e")
    token = tmp_path / "token"
    token.write_text("wrong-key")
    with SiemReceiver(token="right-key") as receiver:
        settings = _settings(
            audit_http_url=receiver.url("/i/_bulk"),
            audit_http_format="elastic",
            audit_http_token_file=token,
        )
        outcome = _send(db_session, sinks.HttpSink(settings))
    assert outcome.error == "HTTP 401 Unauthorized: the receiver refused the batch"
    assert set(_rows(db_session, "http")) == {event_id}


def test_splunk_hec_and_json_get_every_record_with_its_id(
    db_session: Session, tmp_path: Path
) -> None:
    _streaming(db_session, "http")
    ids = [_record(db_session, f"e{i}") for i in range(3)]
    token = tmp_path / "hec"
    token.write_text("hec-token")
    with SiemReceiver(token="hec-token") as receiver:
        hec = sinks.HttpSink(
            _settings(
                audit_http_url=receiver.url("/services/collector/event"),
                audit_http_format="splunk",
                audit_http_token_file=token,
            )
        )
        assert _send(db_session, hec).sent == ids
        assert [e["event"]["id"] for e in receiver.hec] == ids
        assert {e["sourcetype"] for e in receiver.hec} == {"steward:audit"}

        again = [_record(db_session, f"j{i}") for i in range(2)]
        plain = sinks.HttpSink(_settings(audit_http_url=receiver.url("/json")))
        assert _send(db_session, plain).sent == again
        assert [e["id"] for e in receiver.json] == again
        assert receiver.json[0] == AuditRead.model_validate({**receiver.json[0]}).model_dump(
            mode="json"
        )


@pytest.mark.both_databases
def test_status_tells_backlog_oldest_age_and_errors_without_secrets(db_session: Session) -> None:
    _streaming(db_session, "http", "syslog")
    _record(db_session, "waiting")
    now = utcnow() + dt.timedelta(seconds=5)
    claimed = stream.claim(db_session, "http", now, limit=10, lease=LEASE)
    assert claimed is not None
    stream.settle(db_session, claimed, stream.Outcome.failed("HTTP 503"), now, BACKOFF)
    settings = _settings(
        audit_http_url="https://siem.example:8088/services/collector/event?token=SECRET",
        audit_http_format="splunk",
    )
    configured = [(s.name, s.kind, s.target) for s in sinks.configured(settings)]
    shown = {s.sink: s for s in stream.status(db_session, configured, now)}
    http = shown["http"]
    assert http.configured
    assert http.kind == "splunk"
    assert http.backlog == 1
    assert http.target == "https://siem.example:8088/services/collector/event"
    assert http.oldest_pending_seconds is not None
    assert http.oldest_pending_seconds >= 5
    assert (http.failures, http.last_error) == (1, "HTTP 503")
    # a sink configured no more still shows the records it holds
    assert not shown["syslog"].configured
    assert shown["syslog"].backlog == 1


def test_a_server_streams_its_records_and_tells_admins_how_it_goes(settings: Settings) -> None:
    with SyslogReceiver() as receiver:
        streaming = settings.model_copy(
            update={
                "audit_syslog_host": "127.0.0.1",
                "audit_syslog_port": receiver.port,
                "audit_stream_tick_seconds": 0.05,
            }
        )
        app = build_app(streaming, migrate=False)
        with TestClient(app) as client:
            client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
            created = client.post("/api/v1/projects", json={"name": "streamed"})
            assert created.status_code == 201, created.text
            wait_until(
                lambda: any(m.params.get("objectName") == "streamed" for m in receiver.messages),
                30,
                what="the project's record by syslog",
            )
            wait_until(
                lambda: client.get("/api/v1/audit/stream").json()["sinks"][0]["sent"] >= 1,
                10,
                what="the acknowledgement settled",
            )
            shown = client.get("/api/v1/audit/stream")
        app.state.runtime.engine.dispose()
    assert shown.status_code == 200, shown.text
    [sink] = shown.json()["sinks"]
    assert sink["sink"] == "syslog"
    assert sink["target"] == f"tcp://127.0.0.1:{receiver.port}"
    assert (sink["backlog"], sink["failures"], sink["last_error"]) == (0, 0, "")
