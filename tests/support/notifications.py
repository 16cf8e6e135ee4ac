"""Notification tests: real receivers on 127.0.0.1 and builders of destinations.

- ``HttpReceiver``: an HTTP server (``http.server`` in a thread) that records every request and
  answers with the statuses it is told, in order (then 200): Slack, Teams, generic webhooks.
- ``SmtpReceiver``: an ``aiosmtpd`` SMTP server with STARTTLS (a self-signed certificate made
  with ``cryptography``) or TLS from the first byte, requiring AUTH LOGIN/PLAIN with one user
  and password, recording every message.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import email
import email.message
import email.policy
import hashlib
import hmac
import ipaddress
import json
import ssl
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fastapi.testclient import TestClient

from support.processes import free_port
from support.served import Served
from support.waits import wait_until


@dataclasses.dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]  # names lower-cased
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def signed_by(self, secret: str) -> bool:
        expected = "sha256=" + hmac.new(secret.encode(), self.body, hashlib.sha256).hexdigest()
        return hmac.compare_digest(self.headers.get("x-steward-signature-256", ""), expected)


class HttpReceiver(Served):
    """``with HttpReceiver([500, 500]) as r:`` answers 500 twice, then 200; ``r.url``."""

    def __init__(
        self,
        statuses: Sequence[int] = (),
        *,
        always: int = 200,
        echo_path: bool = False,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.statuses = list(statuses)
        self.headers = headers or {}  # sent with every answer (a redirect's Location)
        self.always = always
        self.echo_path = echo_path  # a refusal quotes the URL's path, as some receivers do
        self.requests: list[Received] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver._lock:
                    receiver.requests.append(
                        Received(
                            "POST",
                            self.path,
                            {k.lower(): v for k, v in self.headers.items()},
                            body,
                        )
                    )
                    status = receiver.statuses.pop(0) if receiver.statuses else receiver.always
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                for name, value in receiver.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                refusal = f"refused with {status}"
                if receiver.echo_path:
                    refusal += f" for {self.path}"
                self.wfile.write(b"ok" if status < 300 else refusal.encode())

            def log_message(self, format: str, *args: Any) -> None:
                pass  # the test reads what was received, not a log

        super().__init__(ThreadingHTTPServer(("127.0.0.1", 0), Handler))

    def url(self, path: str = "/hook") -> str:
        return super().url(path)

    def wait_for(self, count: int, timeout: float = 30) -> list[Received]:
        wait_until(lambda: len(self.requests) >= count, timeout, what=f"{count} requests")
        with self._lock:
            return list(self.requests)


def self_signed(directory: Path, name: str = "localhost") -> tuple[Path, Path]:
    """A certificate for ``name`` and 127.0.0.1 and its key, as PEM files."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName(name), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "smtp-cert.pem", directory / "smtp-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


class _Mailbox:
    def __init__(self) -> None:
        self.messages: list[tuple[Envelope, email.message.EmailMessage]] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        parsed = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(parsed, email.message.EmailMessage)
        self.messages.append((envelope, parsed))
        return "250 Message accepted for delivery"


class SmtpReceiver:
    """An SMTP server on 127.0.0.1 that wants STARTTLS (``implicit_tls``: TLS from the first
    byte) and a login as ``user`` with ``password``; ``logins`` records every try."""

    def __init__(
        self, tmp_path: Path, user: str, password: str, *, implicit_tls: bool = False
    ) -> None:
        cert, key = self_signed(tmp_path)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        self.user, self.password = user, password
        self.logins: list[tuple[str, bool]] = []
        self.mailbox = _Mailbox()
        self.port = free_port()
        # aiosmtpd only knows of TLS it set up itself (STARTTLS): with TLS from the first byte
        # it would not offer AUTH, so there AUTH is offered but not required; the test checks
        # ``logins``
        tls: dict[str, Any] = (
            {"ssl_context": context, "auth_required": False, "auth_require_tls": False}
            if implicit_tls
            else {"tls_context": context, "require_starttls": True, "auth_required": True}
        )
        self._controller = Controller(
            self.mailbox,
            hostname="127.0.0.1",
            port=self.port,
            server_hostname="localhost",
            authenticator=self._authenticate,
            **tls,
        )

    def _authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        if not isinstance(data, LoginPassword):
            return AuthResult(success=False, handled=False)
        user, password = data.login.decode(), data.password.decode()
        ok = hmac.compare_digest(user, self.user) and hmac.compare_digest(password, self.password)
        self.logins.append((user, ok))
        return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd answers 535

    @property
    def messages(self) -> list[tuple[Envelope, email.message.EmailMessage]]:
        return list(self.mailbox.messages)

    @contextmanager
    def running(self) -> Iterator[SmtpReceiver]:
        self._controller.start()
        try:
            yield self
        finally:
            self._controller.stop()


# --- builders --------------------------------------------------------------------------------


def destinations_url(project_id: int, path: str = "") -> str:
    return f"/api/v1/projects/{project_id}/notification-destinations{path}"


def subscriptions_url(project_id: int, path: str = "") -> str:
    return f"/api/v1/projects/{project_id}/notification-subscriptions{path}"


def secret_key(client: TestClient, project_id: int, name: str, value: str) -> int:
    created = client.post(
        f"/api/v1/projects/{project_id}/keys",
        json={"name": name, "kind": "secret", "value": value},
    )
    assert created.status_code == 201, created.text
    key_id: int = created.json()["id"]
    return key_id


def make_destination(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    created = client.post(destinations_url(project_id), json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def webhook_destination(
    client: TestClient, project_id: int, url: str, secret: str, name: str = "hook", **body: Any
) -> dict[str, Any]:
    key_id = secret_key(client, project_id, f"{name}-secret", secret)
    return make_destination(
        client,
        project_id,
        name=name,
        kind="webhook",
        config={"url": url, **body.pop("config", {})},
        secret_key_id=key_id,
        **body,
    )


def subscribe(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    created = client.post(subscriptions_url(project_id), json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def messages(client: TestClient, project_id: int, destination_id: int) -> list[dict[str, Any]]:
    """Every message of the destination, newest first (one page of up to 200)."""
    page = client.get(
        destinations_url(project_id, f"/{destination_id}/messages"), params={"limit": 200}
    )
    assert page.status_code == 200, page.text
    items: list[dict[str, Any]] = page.json()["items"]
    return items


def wait_messages(
    client: TestClient,
    project_id: int,
    destination_id: int,
    done: int,
    timeout: float = 30,
) -> list[dict[str, Any]]:
    """The destination's messages once ``done`` of them are sent or failed (newest first)."""

    def finished() -> list[dict[str, Any]]:
        items = messages(client, project_id, destination_id)
        ended = [m for m in items if m["status"] in ("sent", "failed")]
        return items if len(ended) >= done else []

    return wait_until(finished, timeout, 0.1, f"{done} messages sent or failed")


def settle(seconds: float) -> None:
    """Let background ticks pass (to show that nothing more happens)."""
    time.sleep(seconds)
