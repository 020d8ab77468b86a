"""Where the outbox's messages go: an SMTP server (stdlib smtplib in a thread, one connection per batch), or a log
sender for the demo that records each message's id and status and never its text or address.

A sender reports per message: `sent` (the server took it), `bounced` (the server refused the recipient: a 5xx
answer, permanent), or `failed` with `retry` (a connection problem or a 4xx answer: worth another attempt).
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from typing import Literal, Protocol

import structlog

from core.settings import Settings

log = structlog.get_logger("pipeline.senders")


@dataclass(frozen=True)
class Email:
    message_id: str  # ours (member_messages.id), for logs
    to: str
    subject: str
    body: str
    from_name: str  # the gym's name


@dataclass(frozen=True)
class Delivery:
    status: Literal["sent", "bounced", "failed"]
    code: str | None = None  # why it bounced or failed (rejected, smtp_error, unreachable)
    provider_id: str | None = None  # the Message-ID header it left with
    retry: bool = False


class Sender(Protocol):
    async def send(self, emails: list[Email]) -> list[Delivery]: ...


class LogSender:
    """The demo's sender: every message counts as sent; the log holds ids and statuses, nothing a person wrote."""

    async def send(self, emails: list[Email]) -> list[Delivery]:
        for email in emails:
            log.info("outbox.sent", message_id=email.message_id, sender="log", status="sent")
        return [Delivery("sent", provider_id=f"log:{email.message_id}") for email in emails]


class SmtpSender:
    def __init__(self, *, host: str, port: int, sender: str, username: str | None = None,
                 password: str | None = None, starttls: bool = False, use_ssl: bool = False,
                 timeout: float = 20.0) -> None:
        self.host, self.port, self.sender = host, port, sender
        self.username, self.password = username, password
        self.starttls, self.use_ssl, self.timeout = starttls, use_ssl, timeout

    async def send(self, emails: list[Email]) -> list[Delivery]:
        return await asyncio.to_thread(self._send_all, emails)

    def _connect(self) -> smtplib.SMTP:
        context = ssl.create_default_context()
        if self.use_ssl:
            server: smtplib.SMTP = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
        else:
            server = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
            if self.starttls:
                server.starttls(context=context)
        if self.username:
            server.login(self.username, self.password or "")
        return server

    def _message(self, email: Email) -> EmailMessage:
        message = EmailMessage()
        message["From"] = formataddr((email.from_name, self.sender))
        message["To"] = str(Address(addr_spec=email.to))
        message["Subject"] = email.subject
        message["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        message.set_content(email.body)
        return message

    def _send_all(self, emails: list[Email]) -> list[Delivery]:
        try:
            server = self._connect()
        except (OSError, smtplib.SMTPException) as exc:
            log.warning("outbox.smtp_unreachable", error_type=type(exc).__name__, count=len(emails))
            return [Delivery("failed", "unreachable", retry=True) for _ in emails]
        out = []
        try:
            for email in emails:
                out.append(self._send_one(server, email))
        finally:
            try:
                server.quit()
            except (OSError, smtplib.SMTPException):
                pass
        return out

    def _send_one(self, server: smtplib.SMTP, email: Email) -> Delivery:
        message = self._message(email)
        try:
            server.send_message(message)
        except smtplib.SMTPRecipientsRefused as exc:
            code = next(iter(exc.recipients.values()))[0] if exc.recipients else 550
            result = Delivery("failed", "smtp_error", retry=True) if 400 <= code < 500 else Delivery("bounced",
                                                                                                      "rejected")
        except smtplib.SMTPResponseException as exc:
            result = Delivery("failed", "smtp_error", retry=400 <= exc.smtp_code < 500)
        except (OSError, smtplib.SMTPException):
            result = Delivery("failed", "unreachable", retry=True)
        else:
            result = Delivery("sent", provider_id=str(message["Message-ID"]))
        log.info("outbox.delivered", message_id=email.message_id, sender="smtp", status=result.status,
                 code=result.code)
        return result


def sender_for(settings: Settings) -> Sender:
    """SMTP when configured (MESSAGE_SENDER=smtp, or auto with SMTP_HOST), else the log sender."""
    use_smtp = settings.message_sender == "smtp" or (settings.message_sender == "auto" and settings.smtp_host)
    if not use_smtp:
        return LogSender()
    if not settings.smtp_host:
        raise ValueError("MESSAGE_SENDER=smtp needs SMTP_HOST")
    return SmtpSender(host=settings.smtp_host, port=settings.smtp_port, sender=settings.smtp_from,
                      username=settings.smtp_username, password=settings.smtp_password,
                      starttls=settings.smtp_starttls, use_ssl=settings.smtp_ssl, timeout=settings.smtp_timeout)
