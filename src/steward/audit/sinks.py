"""The audit stream's sinks: a batch of records to a syslog server or an HTTP endpoint, and
what the receiver acknowledged (``stream.Outcome``).

- **syslog**: RFC 5424 messages over TCP framed by octet counting (RFC 6587 3.4.1), TLS
  optional (RFC 5425: the receiver's certificate checked against the configured host, a CA
  file and a client certificate optional). The record's id is in the structured data
  (``[steward@32473 id="…" …]``), its action is the MSGID, the record as JSON is the MSG.
  A batch is acknowledged once written and flushed to the connection: syslog over TCP has no
  answer of its own.
- **http**, one request per batch: ``elastic`` (``_bulk`` of ``create`` actions, the record's id
  as ``_id``, ECS fields; each item's result is read: 201, or 409 when the document is already
  there, acknowledge it), ``splunk`` (HTTP Event Collector, ``Authorization: Splunk <token>``)
  and ``json`` (a JSON array of the records): acknowledged by a 2xx answer.

Every connection goes through the outbound rules (``Guard.vet``, then to the very address
checked). Of an answer only its status and our reasons are kept (an Elastic item's error
type, a token-like word), never its text; the token is read from its file at each send and
masked out of any error.

The private enterprise number 32473 of the structured data's id is the one RFC 5612 reserves
for examples: Steward has none of its own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import ipaddress
import json
import logging
import os
import re
import socket
import ssl
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from steward.audit.schemas import AuditRead
from steward.audit.stream import Outcome
from steward.config import SYSLOG_FACILITIES, Settings
from steward.masking import Masker
from steward.outbound import network, web

USER_AGENT = "Steward-Audit-Stream/1"
SD_ID = "steward@32473"
BOM = b"\xef\xbb\xbf"
NOTICE, WARNING = 5, 4  # severities: a record; a failure (a refused sign-in)
ANSWER_MAX = 16 * 1024 * 1024  # bytes of an Elastic bulk answer read
CLOSE_WAIT = 0.5  # seconds the syslog receiver's close is waited for after a batch


def event(record: AuditRead) -> dict[str, Any]:
    """A record as every sink sends it (the export's fields: ``AuditRead``)."""
    return record.model_dump(mode="json")


def outcome(action: str) -> str:
    """ECS ``event.outcome``: what the record says happened."""
    return "failure" if action.endswith("_failed") else "success"


def summary(record: AuditRead) -> str:
    """One line a person reads: who did what to which object."""
    what = f"{record.object_type} '{record.object_name}'" if record.object_name else ""
    text = " ".join(part for part in (record.actor, record.action, what) if part)
    return f"{text}: {record.detail}" if record.detail else text


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


# syslog


def _printable(text: str, size: int) -> str:
    """An RFC 5424 header field: printable US-ASCII, ``-`` when empty."""
    cleaned = re.sub(r"[^!-~]", "_", text)[:size]
    return cleaned or "-"


def _param(value: object) -> str:
    """An SD-PARAM value: ``"``, ``\\`` and ``]`` escaped (RFC 5424 6.3.3)."""
    text = "" if value is None else str(value)
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("]", "\\]")


def syslog_message(
    record: AuditRead, *, facility: str, app_name: str, hostname: str, procid: str
) -> bytes:
    """One RFC 5424 message with its octet count before it (RFC 6587 3.4.1)."""
    severity = WARNING if outcome(record.action) == "failure" else NOTICE
    pri = SYSLOG_FACILITIES.index(facility) * 8 + severity
    timestamp = record.created_at.isoformat().replace("+00:00", "Z")
    params = {
        "id": record.id,
        "action": record.action,
        "outcome": outcome(record.action),
        "actor": record.actor,
        "actorType": record.actor_type,
        "objectType": record.object_type,
        "objectId": record.object_id,
        "objectName": record.object_name,
        "projectId": record.project_id,
        "sourceIp": record.source_ip,
    }
    sd = " ".join(f'{k}="{_param(v)}"' for k, v in params.items() if v not in (None, ""))
    header = " ".join(
        (
            f"<{pri}>1",
            timestamp,
            _printable(hostname, 255),
            _printable(app_name, 48),
            _printable(procid, 128),
            _printable(record.action, 32),
            f"[{SD_ID} {sd}]",
        )
    )
    message = header.encode() + b" " + BOM + _json(event(record))
    return str(len(message)).encode() + b" " + message


def tls_context(
    ca_file: Path | None, cert_file: Path | None, key_file: Path | None
) -> ssl.SSLContext:
    """Verifying the receiver (against ``ca_file``, else the system's CAs), presenting a
    client certificate when given."""
    context = ssl.create_default_context(cafile=str(ca_file) if ca_file else None)
    if cert_file is not None:
        context.load_cert_chain(str(cert_file), str(key_file) if key_file else None)
    return context


class Sink(Protocol):
    name: str

    @property
    def kind(self) -> str: ...

    @property
    def target(self) -> str: ...

    def send(self, records: Sequence[AuditRead]) -> Outcome: ...


@dataclasses.dataclass
class SyslogSink:
    settings: Settings
    name: str = "syslog"
    kind: str = "syslog"

    @property
    def port(self) -> int:
        return self.settings.audit_syslog_port or (6514 if self.settings.audit_syslog_tls else 514)

    @property
    def target(self) -> str:
        scheme = "tls" if self.settings.audit_syslog_tls else "tcp"
        return f"{scheme}://{self.settings.audit_syslog_host}:{self.port}"

    def send(self, records: Sequence[AuditRead]) -> Outcome:
        s = self.settings
        hostname, procid = socket.gethostname(), str(os.getpid())
        data = b"".join(
            syslog_message(
                r,
                facility=s.audit_syslog_facility,
                app_name=s.audit_syslog_app_name,
                hostname=hostname,
                procid=procid,
            )
            for r in records
        )
        host, timeout = s.audit_syslog_host, s.audit_stream_timeout_seconds
        try:
            context = (
                tls_context(
                    s.audit_syslog_ca_file, s.audit_syslog_cert_file, s.audit_syslog_key_file
                )
                if s.audit_syslog_tls
                else None
            )
            address = network.Guard.of(s).vet(host, self.port).address
            with contextlib.ExitStack() as stack:
                sock = stack.enter_context(socket.create_connection((address, self.port), timeout))
                if context is not None:  # the certificate checked against the configured host
                    sock = stack.enter_context(context.wrap_socket(sock, server_hostname=host))
                sock.sendall(data)
                _close(sock)
        except network.Refused as exc:
            return Outcome.failed(str(exc))
        except OSError as exc:  # refused, reset, timed out, TLS (the system's and ssl's words)
            return Outcome.failed(f"{type(exc).__name__}: {exc}")
        return Outcome(sent=[r.id for r in records])


def _close(sock: socket.socket) -> None:
    """End the connection after the last byte was written: TLS says so (close_notify), plain
    TCP half-closes; the receiver's own close is waited for a moment (``CLOSE_WAIT``), never
    required (a receiver that keeps the connection open must not slow every batch)."""
    with contextlib.suppress(OSError):
        sock.settimeout(CLOSE_WAIT)
        if isinstance(sock, ssl.SSLSocket):
            sock.unwrap()
        else:
            sock.shutdown(socket.SHUT_WR)
            while sock.recv(4096):
                pass


# HTTP


def elastic_document(record: AuditRead) -> dict[str, Any]:
    """ECS fields; what ECS has no field for under ``steward`` (changes as one JSON string,
    so no record can add fields to the index's mapping)."""
    doc: dict[str, Any] = {
        "@timestamp": record.created_at.isoformat().replace("+00:00", "Z"),
        "message": summary(record),
        "event": {
            "id": str(record.id),
            "action": record.action,
            "outcome": outcome(record.action),
            "kind": "event",
            "dataset": "steward.audit",
            "provider": "steward",
        },
        "user": {"name": record.actor},
        "labels": {
            k: str(v)
            for k, v in {
                "actor_type": record.actor_type,
                "object_type": record.object_type,
                "object_id": record.object_id,
                "project_id": record.project_id,
            }.items()
            if v not in (None, "")
        },
        "steward": {
            "object": {
                "type": record.object_type,
                "id": record.object_id,
                "name": record.object_name,
            },
            "project_id": record.project_id,
            "actor_type": record.actor_type,
            "changes": json.dumps(record.changes, sort_keys=True, ensure_ascii=False),
            "detail": record.detail,
        },
    }
    if record.actor_user_id is not None:
        doc["user"]["id"] = str(record.actor_user_id)
    with contextlib.suppress(ValueError):
        doc["source"] = {"ip": str(ipaddress.ip_address(record.source_ip))}
    if record.user_agent:
        doc["user_agent"] = {"original": record.user_agent}
    return doc


def elastic_body(records: Sequence[AuditRead]) -> bytes:
    """``_bulk``: a ``create`` per record with its id as ``_id`` (a second create of the same
    id is a 409, not a second document)."""
    lines = []
    for r in records:
        lines += [_json({"create": {"_id": str(r.id)}}), _json(elastic_document(r))]
    return b"\n".join(lines) + b"\n"


def splunk_body(records: Sequence[AuditRead], hostname: str) -> bytes:
    """HEC events, one JSON object each, one after the other."""
    return b"\n".join(
        _json(
            {
                "time": round(r.created_at.timestamp(), 6),
                "host": hostname,
                "source": "steward",
                "sourcetype": "steward:audit",
                "event": event(r),
            }
        )
        for r in records
    )


_TOKEN_WORD = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")


def elastic_outcome(records: Sequence[AuditRead], answer: bytes) -> Outcome:
    """Each item of a ``_bulk`` answer: created (201) or already there (409) is acknowledged,
    another status refuses that record alone (its error's type kept, a word of Elastic's)."""
    try:
        items = json.loads(answer)["items"]
        results = [next(iter(item.values())) for item in items]
    except (ValueError, KeyError, TypeError, StopIteration, AttributeError):
        return Outcome.failed("the answer is not an Elastic bulk answer")
    ids = {str(r.id): r.id for r in records}
    sent, refused = [], {}
    for position, result in enumerate(results):
        if not isinstance(result, dict):
            continue
        key = str(result.get("_id", ""))
        if key not in ids and position < len(records):
            key = str(records[position].id)
        if key not in ids:
            continue
        status = result.get("status")
        if status in (200, 201, 409):
            sent.append(ids[key])
        else:
            kind = (
                (result.get("error") or {}).get("type", "")
                if isinstance(result.get("error"), dict)
                else ""
            )
            shown = kind if isinstance(kind, str) and _TOKEN_WORD.match(kind) else "error"
            code = status if isinstance(status, int) else 0
            refused[ids[key]] = f"{web.status_line(code)}: {shown}"
    return Outcome(sent=sent, refused=refused)


class _BatchesAtDebug(logging.Filter):
    """httpx2 logs every request at INFO with its URL: a line per batch, and the URL's query
    (which may hold a credential). Those of the audit stream's endpoints go at DEBUG."""

    def __init__(self) -> None:
        super().__init__()
        self.endpoints: set[tuple[int, str]] = set()  # (port, path?query) of each

    def filter(self, record: logging.LogRecord) -> bool:
        import httpx2  # loaded already: it is httpx2 logging

        args = record.args if isinstance(record.args, tuple) else ()
        urls = [a for a in args if isinstance(a, httpx2.URL)]
        if record.levelno != logging.INFO or not any(
            (u.port or network.SCHEMES.get(u.scheme, 0), u.raw_path.decode()) in self.endpoints
            for u in urls
        ):
            return True
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return HTTP_LOG.isEnabledFor(logging.DEBUG)


HTTP_LOG = logging.getLogger("httpx2")
_QUIET = _BatchesAtDebug()
HTTP_LOG.addFilter(_QUIET)


@dataclasses.dataclass
class HttpSink:
    settings: Settings
    name: str = "http"

    def __post_init__(self) -> None:
        url = network.parse_url(self.settings.audit_http_url)
        _QUIET.endpoints.add((url.port, url.rest))

    @property
    def kind(self) -> str:
        return self.settings.audit_http_format

    @property
    def target(self) -> str:
        url = network.parse_url(self.settings.audit_http_url)
        return f"{url.scheme}://{url.netloc}{url.rest.split('?')[0]}"  # no query: no secret

    @functools.cached_property
    def verify(self) -> ssl.SSLContext:
        """The receiver's certificate checked against the CA file, else the system's CAs: made
        once (loading the CAs costs more than sending a batch)."""
        return tls_context(self.settings.audit_http_ca_file, None, None)

    def send(self, records: Sequence[AuditRead]) -> Outcome:
        s = self.settings
        token = ""
        try:
            if s.audit_http_token_file is not None:
                token = s.audit_http_token_file.read_text().strip()
        except OSError as exc:
            return Outcome.failed(f"the token file cannot be read ({type(exc).__name__})")
        masker = Masker([token] if len(token) > 1 else [])
        outcome = self._post(records, token)
        if outcome.error:
            return Outcome.failed(masker.text(outcome.error))
        return Outcome(
            sent=outcome.sent, refused={k: masker.text(v) for k, v in outcome.refused.items()}
        )

    def _post(self, records: Sequence[AuditRead], token: str) -> Outcome:
        import httpx2  # its exceptions: loaded with the first batch sent over HTTP

        s = self.settings
        fmt = s.audit_http_format
        headers = {"User-Agent": USER_AGENT, "Content-Type": "application/json"}
        if fmt == "elastic":
            body, scheme = elastic_body(records), "ApiKey"
            headers["Content-Type"] = "application/x-ndjson"
        elif fmt == "splunk":
            body, scheme = splunk_body(records, socket.gethostname()), "Splunk"
        else:
            body, scheme = _json([event(r) for r in records]), "Bearer"
        if token:
            headers["Authorization"] = f"{scheme} {token}"
        try:
            verify = self.verify
            response = web.post(
                s.audit_http_url,
                body,
                headers,
                timeout=s.audit_stream_timeout_seconds,
                guard=network.Guard.of(s),
                verify=verify,
            )
        except network.Refused as exc:
            return Outcome.failed(str(exc))
        except httpx2.HTTPError as exc:
            return Outcome.failed(web.reason(exc))
        except (OSError, ssl.SSLError) as exc:  # the CA file
            return Outcome.failed(f"{type(exc).__name__}: {exc}")
        line = web.status_line(response.status_code)
        if response.is_redirect:
            return Outcome.failed(f"{line}: redirects are not followed")
        if not response.is_success:
            return Outcome.failed(f"{line}: the receiver refused the batch")
        if fmt == "elastic":
            return elastic_outcome(records, response.content[:ANSWER_MAX])
        return Outcome(sent=[r.id for r in records])


def configured(settings: Settings) -> list[Sink]:
    """The sinks the settings name (``Settings.audit_stream_sinks``)."""
    found: list[Sink] = []
    if settings.audit_syslog_host:
        found.append(SyslogSink(settings))
    if settings.audit_http_url:
        found.append(HttpSink(settings))
    return found
