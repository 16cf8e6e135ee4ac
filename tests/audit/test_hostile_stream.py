"""Hostile cases of the audit stream, each with its control: a sink on an address the outbound
rules refuse (loopback, by address or by a name resolving there) gets no connection and its
records wait, where an admin's allowing it delivers them; the HTTP sink's token reaches the
receiver but no error, status or log line, nor does a credential in the URL's query."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support.outbound import LOOPBACK_ALLOWED
from support.siem import SiemReceiver, SyslogReceiver

from steward.audit import service, sinks, stream
from steward.audit.actions import AuditAction
from steward.audit.models import StreamRow, StreamSink
from steward.config import Settings
from steward.db import utcnow
from steward.outbound import network, web

pytestmark = [pytest.mark.security]

# a server listening on every address: the refusal below is the loopback rule's, not the
# listen address's (STEWARD_HOST=127.0.0.1 is refused too, for its own reason)
WILDCARD = "0.0.0.0"  # noqa: S104 - a setting's value, not a bind


def _queued(session: Session, sink: str) -> int:
    session.info[service.STREAM_SINKS] = (sink,)
    stream.ensure_sinks(session, [sink])
    entry = service.record(session, None, AuditAction.AUDIT_PRUNE, detail="to the SIEM")
    session.commit()
    return entry.id


def _batch(session: Session, sink: sinks.Sink) -> stream.Outcome:
    claimed = stream.claim(session, sink.name, utcnow(), limit=10, lease=dt.timedelta(seconds=30))
    assert claimed is not None
    outcome = sink.send(stream.events(session, claimed.event_ids))
    # settled with no wait, so the control's batch may follow at once
    stream.settle(session, claimed, outcome, utcnow(), stream.Backoff(0.01, 0.01))
    state = session.get(StreamSink, sink.name)
    assert state is not None
    state.next_attempt_at = None
    session.commit()
    return outcome


def _pending(session: Session, sink: str) -> list[int]:
    return list(session.scalars(select(StreamRow.event_id).where(StreamRow.sink == sink)))


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_syslog_sink_on_a_refused_address_gets_no_connection(
    db_session: Session, host: str
) -> None:
    event_id = _queued(db_session, "syslog")
    with SyslogReceiver() as receiver:
        refused = sinks.SyslogSink(
            Settings(host=WILDCARD, audit_syslog_host=host, audit_syslog_port=receiver.port)
        )
        outcome = _batch(db_session, refused)
        assert "loopback" in outcome.error
        assert "STEWARD_OUTBOUND_ALLOWED_NETWORKS" in outcome.error
        assert receiver.connections == 0
        assert _pending(db_session, "syslog") == [event_id]  # kept for when it is allowed

        # control: the same receiver, loopback allowed as an admin would
        allowed = sinks.SyslogSink(
            Settings(
                audit_syslog_host=host,
                audit_syslog_port=receiver.port,
                outbound_allowed_networks=list(LOOPBACK_ALLOWED),
            )
        )
        assert _batch(db_session, allowed).sent == [event_id]
        receiver.wait_for_ids({event_id}, timeout=10)
    assert _pending(db_session, "syslog") == []


def test_an_http_sink_on_a_refused_address_gets_no_request(db_session: Session) -> None:
    event_id = _queued(db_session, "http")
    with SiemReceiver() as receiver:
        url = f"http://localhost:{receiver.port}/json"
        outcome = _batch(db_session, sinks.HttpSink(Settings(host=WILDCARD, audit_http_url=url)))
        assert "loopback" in outcome.error
        assert receiver.requests == []
        assert _pending(db_session, "http") == [event_id]

        allowed = Settings(audit_http_url=url, outbound_allowed_networks=list(LOOPBACK_ALLOWED))
        assert _batch(db_session, sinks.HttpSink(allowed)).sent == [event_id]
    assert [e["id"] for e in receiver.json] == [event_id]


def test_the_token_reaches_the_receiver_and_nothing_else(
    db_session: Session, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    token = "hec-TOKEN-9f8e7d"
    (tmp_path / "token").write_text(token)
    _queued(db_session, "http")
    caplog.set_level(logging.DEBUG)
    with SiemReceiver(token="another-token") as receiver:
        settings = Settings(
            audit_http_url=receiver.url("/services/collector/event"),
            audit_http_format="splunk",
            audit_http_token_file=tmp_path / "token",
            outbound_allowed_networks=list(LOOPBACK_ALLOWED),
        )
        sink = sinks.HttpSink(settings)
        outcome = _batch(db_session, sink)
    # control: the token was sent, and refused
    assert receiver.requests[0].headers["authorization"] == f"Splunk {token}"
    assert outcome.error.startswith("HTTP 401")
    shown = stream.status(db_session, [(sink.name, sink.kind, sink.target)], utcnow())
    row = db_session.scalars(select(StreamRow)).one()
    for text in (outcome.error, row.last_error, repr(shown), caplog.text, repr(settings)):
        assert token not in text


def test_a_credential_in_the_urls_query_is_not_logged(
    db_session: Session, caplog: pytest.LogCaptureFixture
) -> None:
    _queued(db_session, "http")
    caplog.set_level(logging.INFO)
    with SiemReceiver() as receiver:
        url = receiver.url("/json?apikey=QUERY-SECRET-1234")
        settings = Settings(audit_http_url=url, outbound_allowed_networks=list(LOOPBACK_ALLOWED))
        _batch(db_session, sinks.HttpSink(settings))
        # control: another request to the same receiver is logged with its URL, as httpx2 does
        guard = network.Guard.of(settings)
        web.post(receiver.url("/json?other=VISIBLE"), b"[]", {}, timeout=5, guard=guard)
    assert receiver.requests[0].path.endswith("QUERY-SECRET-1234")  # it was sent
    assert "VISIBLE" in caplog.text
    assert "QUERY-SECRET-1234" not in caplog.text
