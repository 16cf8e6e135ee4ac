"""Email destinations: one message over SMTP, with STARTTLS or TLS and a login.

The connection goes to the address ``Guard.vet`` checked, while TLS still checks the
certificate against the configured host name (``_get_socket`` is smtplib's documented seam for
SMTP_SSL; here it only swaps the address connected to).
"""

from __future__ import annotations

import email.utils
import re
import smtplib
import socket
import ssl
from email.message import EmailMessage
from typing import Any

from steward.notifications.delivery import Result
from steward.notifications.schemas import SmtpSecurity
from steward.outbound import network


class _PinnedSMTP(smtplib.SMTP):
    """Connected to ``address`` on creation; ``host`` is what TLS checks the certificate of."""

    def __init__(self, address: str, host: str, port: int, *, timeout: float) -> None:
        self._address = address
        # EHLO names this machine without a DNS lookup (getfqdn can stall for seconds)
        super().__init__(host, port, local_hostname=socket.gethostname(), timeout=timeout)

    def _get_socket(self, host: str, port: int, timeout: float) -> socket.socket:
        return socket.create_connection((self._address, port), timeout, self.source_address)


class _PinnedSMTPSSL(smtplib.SMTP_SSL, _PinnedSMTP):
    """SMTP_SSL wraps what ``_PinnedSMTP._get_socket`` connected, checking ``self._host``."""

    def __init__(
        self, address: str, host: str, port: int, *, timeout: float, context: ssl.SSLContext
    ) -> None:
        self._address = address
        smtplib.SMTP_SSL.__init__(
            self, host, port, local_hostname=socket.gethostname(), timeout=timeout, context=context
        )


def tls_context(verify: bool) -> ssl.SSLContext:
    context = ssl.create_default_context()
    if not verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def compose(config: dict[str, Any], content: dict[str, Any], message_id: int) -> EmailMessage:
    """The email: subject the title, body the text (with the run's link)."""
    msg = EmailMessage()
    msg["Subject"] = content["title"]
    msg["From"] = config["from_address"]
    msg["To"] = ", ".join(config["to"])
    msg["Date"] = email.utils.formatdate(localtime=False)
    msg["Message-ID"] = email.utils.make_msgid(idstring=f"steward-{message_id}", domain="steward")
    msg["X-Steward-Event"] = content["event"]
    msg.set_content(content["text"])
    return msg


def send(
    config: dict[str, Any],
    username: str,
    password: str,
    content: dict[str, Any],
    *,
    message_id: int,
    timeout: float,
    guard: network.Guard,
) -> Result:
    """Send ``content`` to the configured recipients; the SMTP reply or the error."""
    host, port = config["host"], int(config["port"])
    security = SmtpSecurity(config.get("security", SmtpSecurity.STARTTLS))
    context = tls_context(bool(config.get("verify_tls", True)))
    target = guard.vet(host, port)
    smtp: smtplib.SMTP = (
        _PinnedSMTPSSL(target.address, host, port, timeout=timeout, context=context)
        if security is SmtpSecurity.TLS
        else _PinnedSMTP(target.address, host, port, timeout=timeout)
    )
    try:
        smtp.ehlo()
        if security is SmtpSecurity.STARTTLS:
            smtp.starttls(context=context)  # refuses to go on in clear when it is missing
            smtp.ehlo()
        if password:
            smtp.login(username, password)
        smtp.sendmail(
            config["from_address"],
            list(config["to"]),
            compose(config, content, message_id).as_bytes(),
        )
    finally:
        _close(smtp)
    return Result(True, "SMTP 250")


def _close(smtp: smtplib.SMTP) -> None:
    try:
        smtp.quit()
    except (smtplib.SMTPException, OSError):
        smtp.close()  # the session is over either way; the outcome is already known


def failure(exc: BaseException) -> Result:
    """An SMTP error as a result: the server's reply code (and enhanced status code, e.g.
    ``5.7.1``) as the status, when it gave one. The reply's text is never kept: the host may
    be a service that is no mail server, whose greeting would be shown to the project."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused) and exc.recipients:
        code, reply = next(iter(exc.recipients.values()))
        return Result(False, f"SMTP {code}", f"recipient refused: {_status(code, reply)}")
    if isinstance(exc, smtplib.SMTPResponseException):
        what = "login refused" if isinstance(exc, smtplib.SMTPAuthenticationError) else "refused"
        if isinstance(exc, smtplib.SMTPConnectError):
            what = "no SMTP greeting"
        status = _status(exc.smtp_code, exc.smtp_error)
        return Result(False, f"SMTP {exc.smtp_code}", f"{what}: {status}")
    if isinstance(exc, smtplib.SMTPException | OSError):
        # smtplib's and the system's own words (disconnected, timed out, refused, TLS)
        return Result(False, "", f"{type(exc).__name__}: {exc}")
    return Result(False, "", type(exc).__name__)


_ENHANCED = re.compile(rb"^[245]\.\d{1,3}\.\d{1,3}(?=\s|$)")


def _status(code: int, reply: bytes | str) -> str:
    """``550 5.7.1``: the reply code, and the enhanced status code when the reply starts
    with one (RFC 3463); nothing else of the reply."""
    raw = reply.encode(errors="replace") if isinstance(reply, str) else reply
    enhanced = _ENHANCED.match(raw.strip())
    return f"SMTP {code}" + (f" {enhanced.group().decode()}" if enhanced else "")
