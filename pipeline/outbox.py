"""The outbox's drain: the worker's `member_messages` job delivers one org's due messages to the sender.

Each message is claimed in its own transaction (`FOR UPDATE SKIP LOCKED`, so two workers never send one twice:
`gym.messages.claim_due`),
checked again against the rules of gym/outbox.py (opted out since it was queued, quiet hours, the org's daily
limit), handed to the sender and its status written (`sent`, `bounced`, or `failed` once its retries are spent; a
transient failure waits in `queued` with `not_before`). What must wait is deferred, never dropped: the job queues
itself again for the earliest `not_before`. A crash between the server's acceptance and the commit sends that
one message again on the next run: delivery is at least once.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import structlog
from pgqueuer import Job

from core.database import Database
from core.tenancy import org_name_and_timezone
from gym.job_queue import enqueue
from gym.messages import (
    MemberMessage,
    claim_due,
    daily_limit,
    defer_due,
    entrypoint_of,
    next_due_at,
    org_of,
    payload_of,
    sent_today,
)
from gym.outbox import blocked, may_send_at, retry_at
from pipeline.senders import Delivery, Email, Sender

log = structlog.get_logger("pipeline.outbox")


@dataclass
class DrainReport:
    counts: dict[str, int] = field(default_factory=dict)
    next_at: datetime | None = None  # the earliest a message still queued may leave

    def add(self, status: str) -> None:
        self.counts[status] = self.counts.get(status, 0) + 1


def _record(message: MemberMessage, delivery: Delivery, now: datetime) -> str:
    """Write what the sender said; returns the status as counted."""
    message.attempts += 1
    message.updated_at = now
    if delivery.status == "sent":
        message.status, message.sent_at, message.provider_id = "sent", now, delivery.provider_id
        message.failure_code = message.not_before = None
        return "sent"
    if delivery.status == "bounced":
        message.status, message.sent_at, message.failure_code = "bounced", now, delivery.code
        return "bounced"
    again = retry_at(now, message.attempts) if delivery.retry else None
    message.failure_code = delivery.code
    if again is None:
        message.status = "failed"
        return "failed"
    message.not_before = again
    return "retrying"


async def deliver_due(db: Database, org_id: uuid.UUID, sender: Sender, *, now: datetime | None = None,
                      wake_later: bool = True, max_messages: int = 500) -> DrainReport:
    """Deliver the org's messages that are due at `now`; with `wake_later`, queue the job again for the earliest
    message still waiting."""
    now = now or datetime.now(UTC)
    report = DrainReport()
    for _ in range(max_messages):
        async with db.scope(org_id=org_id) as session:
            org = await org_name_and_timezone(session, org_id)
            claimed = await claim_due(session, org_id, now)
            if claimed is None:
                break
            message, member = claimed
            why = blocked(opted_out=member.messages_opted_out_at is not None or member.deleted_at is not None,
                          email=member.email)
            if why is not None:
                message.status, message.failure_code, message.updated_at = "failed", why, now
                report.add("failed")
                continue
            wait = may_send_at(now, org.timezone, sent_today=await sent_today(session, org_id, org.timezone, now),
                               limit=await daily_limit(session, org_id))
            if wait is not None:  # quiet hours or the day's limit: everything due now waits for the same instant
                report.counts["deferred"] = await defer_due(session, org_id, now, wait)
                break
            (delivery,) = await sender.send([Email(str(message.id), member.email or "", message.subject, message.body,
                                                   org.name)])
            report.add(_record(message, delivery, now))
    async with db.scope(org_id=org_id) as session:
        report.next_at = await next_due_at(session, org_id)
        if wake_later and report.next_at is not None:
            await enqueue(session, entrypoint_of(session), payload_of(org_id), org_id=org_id,
                          execute_after=max(report.next_at - datetime.now(UTC), timedelta(0)))
    log.info("outbox.drained", org_id=str(org_id), **report.counts)
    return report


class Outbox:
    """The worker's handler of `member_messages` jobs (pipeline/jobs.py registers it beside the nutrition runs)."""

    def __init__(self, db: Database, sender: Sender) -> None:
        self.db, self.sender = db, sender

    async def handle(self, job: Job) -> None:
        await deliver_due(self.db, org_of(job.payload), self.sender)
