"""The outbox (issue 42 item 2): messages sent with messages__send leave through a real SMTP server the test starts
(aiosmtpd on loopback), one by one, each with its status; a member who opted out is never sent to, quiet hours
(21:00-08:00 in the gym's timezone) defer and never drop, the org's daily limit holds the rest for the next
morning, a refused address bounces, and the worker's `member_messages` job drains the outbox."""

from __future__ import annotations

import asyncio
import email
import logging
import socket
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from email import policy

import pytest
import structlog
from aiosmtpd.controller import Controller
from sqlalchemy import text
from structlog.testing import capture_logs

from core.database import Database
from gym.messages import QUEUE_INFO
from pipeline.jobs import Worker
from pipeline.offline import OfflineAgents
from pipeline.outbox import Outbox, deliver_due
from pipeline.senders import LogSender, SmtpSender
from tests.tools.desk_gym import daytime_zone, desk_gym
from tests.tools.harness import ToolHarness
from tools.runner import ToolRunner

DAY = datetime(2026, 11, 23, 10, 0, tzinfo=UTC)  # 12:00 in Jerusalem
NIGHT = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)  # 22:00 in Jerusalem


class Mailbox:
    """What the local SMTP server received; a recipient starting with "bounce" is refused (550)."""

    def __init__(self) -> None:
        self.received: list[email.message.EmailMessage] = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("bounce"):
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.received.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 Message accepted"

    def to(self, suffix: str) -> dict[str, email.message.EmailMessage]:
        return {str(m["To"]): m for m in self.received if str(m["To"]).endswith(suffix)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# This module's own entrypoint: the in-process worker of an app another test module started (on the same database)
# serves `member_messages`, and would deliver these tests' messages before they do.
QUEUE = f"member_messages_test_{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
async def db(embedded_pg) -> AsyncIterator[Database]:
    database = Database(embedded_pg.url(), pool_size=2, session_info={QUEUE_INFO: QUEUE})
    yield database
    await database.dispose()


@pytest.fixture
def tools(db) -> ToolHarness:
    return ToolHarness(ToolRunner(db))


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, SmtpSender]]:
    box = Mailbox()
    port = _free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, SmtpSender(host="127.0.0.1", port=port, sender="desk@harbor.example", timeout=5)
    controller.stop()


async def _send_at_risk(tools, gym, now: datetime) -> dict:
    batch = await tools.ok("messages__draft", {"filter": "at_risk"}, org=gym.org, user=gym.desk, now=now)
    return await tools.ok("messages__send", {"batchId": batch["id"]}, org=gym.org, user=gym.desk, now=now)


async def _statuses(db, gym) -> dict[str, tuple]:
    async with db.owner() as session:
        rows = (await session.execute(text(
            "SELECT m.first_name, g.status, g.failure_code, g.not_before, g.sent_at FROM member_messages g "
            "JOIN members m ON m.id = g.member_id WHERE g.org_id = :o"), {"o": gym.org.id})).all()
    return {r.first_name: (r.status, r.failure_code, r.not_before, r.sent_at) for r in rows}


def _suffix(gym) -> str:
    return f".{gym.org.id.hex[:6]}@example.test"


async def test_sent_through_smtp_one_message_each_never_to_the_opted_out_and_a_refused_address_bounces(
        tools, db, factory, smtp) -> None:
    box, sender = smtp
    gym = await desk_gym(db, factory, now=DAY)
    async with db.owner() as session:
        await session.execute(text("UPDATE members SET email = 'bounce' || email WHERE id = :m"),
                              {"m": gym.members["noa"]})
    sent = await _send_at_risk(tools, gym, DAY)
    assert sent["count"] == 3 and {m["status"] for m in sent["messages"]} == {"queued"}
    # Saar opts out after the send: the worker checks again and never sends to him
    async with db.owner() as session:
        await session.execute(text("UPDATE members SET messages_opted_out_at = :t WHERE id = :m"),
                              {"t": DAY, "m": gym.members["saar"]})
    report = await deliver_due(db, gym.org.id, sender, now=DAY + timedelta(minutes=1), wake_later=False)
    assert report.counts == {"sent": 1, "failed": 1, "bounced": 1}
    got = box.to(_suffix(gym))
    assert set(got) == {f"dani{_suffix(gym)}"}  # not Olga (opted out at draft), not Saar (since), not Noa (refused)
    dani = got[f"dani{_suffix(gym)}"]
    assert dani["Subject"] == f"We miss you at {gym.org.name}" and "Hi Dani," in dani.get_content()
    assert "We haven't seen you" in dani.get_content() and gym.org.name in str(dani["From"])
    statuses = await _statuses(db, gym)
    assert statuses["Dani"][0] == "sent" and statuses["Dani"][3] == DAY + timedelta(minutes=1)
    assert statuses["Saar"][:2] == ("failed", "opted_out") and statuses["Noa"][:2] == ("bounced", "rejected")
    assert "Olga" not in statuses
    read = await tools.ok("messages__status", {"batchId": sent["id"]}, org=gym.org, user=gym.desk, now=DAY)
    assert {m["member"]: m["status"] for m in read["messages"]} == {
        "Dani Mizrahi": "sent", "Saar Levi": "failed", "Noa Peretz": "bounced"}
    assert next(m for m in read["messages"] if m["member"] == "Saar Levi")["failure"] == "opted_out"


async def test_quiet_hours_defer_to_eight_in_the_gyms_timezone_and_nothing_is_dropped(tools, db, factory,
                                                                                      smtp) -> None:
    box, sender = smtp
    gym = await desk_gym(db, factory, now=NIGHT)
    sent = await _send_at_risk(tools, gym, NIGHT)
    morning = datetime(2026, 11, 24, 6, 0, tzinfo=UTC)  # 08:00 in Jerusalem
    assert {m["status"] for m in sent["messages"]} == {"queued"}
    assert {m["deferredUntil"] for m in sent["messages"]} == {"2026-11-24T06:00:00Z"}
    report = await deliver_due(db, gym.org.id, sender, now=NIGHT + timedelta(minutes=30), wake_later=False)
    assert report.counts == {} and report.next_at == morning and box.to(_suffix(gym)) == {}
    report = await deliver_due(db, gym.org.id, sender, now=morning + timedelta(minutes=1), wake_later=False)
    assert report.counts == {"sent": 3} and len(box.to(_suffix(gym))) == 3


async def test_the_daily_limit_holds_the_rest_until_the_next_morning(tools, db, factory, smtp) -> None:
    box, sender = smtp
    gym = await desk_gym(db, factory, now=DAY)
    async with db.owner() as session:
        await session.execute(text("UPDATE organizations SET messages_daily_limit = 2 WHERE id = :o"),
                              {"o": gym.org.id})
    sent = await _send_at_risk(tools, gym, DAY)
    assert sorted(m.get("deferredUntil") or "" for m in sent["messages"]) == ["", "", "2026-11-24T06:00:00Z"]
    report = await deliver_due(db, gym.org.id, sender, now=DAY + timedelta(minutes=1), wake_later=False)
    assert report.counts == {"sent": 2} and len(box.to(_suffix(gym))) == 2
    assert report.next_at == datetime(2026, 11, 24, 6, 0, tzinfo=UTC)
    # a second batch the same day waits for tomorrow too
    async with db.owner() as session:
        await session.execute(text("UPDATE member_messages SET not_before = NULL WHERE org_id = :o AND status = "
                                   "'queued'"), {"o": gym.org.id})
    report = await deliver_due(db, gym.org.id, sender, now=DAY + timedelta(hours=1), wake_later=False)
    assert report.counts == {"deferred": 1} and len(box.to(_suffix(gym))) == 2
    report = await deliver_due(db, gym.org.id, sender, now=DAY + timedelta(days=1), wake_later=False)
    assert report.counts == {"sent": 1} and len(box.to(_suffix(gym))) == 3


async def test_an_unreachable_server_retries_then_fails(tools, db, factory) -> None:
    gym = await desk_gym(db, factory, now=DAY)
    await _send_at_risk(tools, gym, DAY)
    dead = SmtpSender(host="127.0.0.1", port=_free_port(), sender="desk@harbor.example", timeout=2)
    first = await deliver_due(db, gym.org.id, dead, now=DAY, wake_later=False)
    assert first.counts == {"retrying": 3} and first.next_at == DAY + timedelta(minutes=1)
    at = DAY
    for delay in (1, 5, 30):
        at += timedelta(minutes=delay)
        last = await deliver_due(db, gym.org.id, dead, now=at, wake_later=False)
    assert last.counts == {"failed": 3}
    assert {s[:2] for s in (await _statuses(db, gym)).values()} == {("failed", "unreachable")}


async def test_the_worker_drains_the_outbox_job_the_send_queued(tools, db, factory, smtp) -> None:
    box, sender = smtp
    now = datetime.now(UTC)
    gym = await desk_gym(db, factory, now=now, timezone=daytime_zone(now))
    await _send_at_risk(tools, gym, now)
    worker = Worker(db, OfflineAgents(), entrypoint=f"nutrition_unused_{gym.org.id.hex[:8]}",
                    also={QUEUE: Outbox(db, sender).handle})
    await asyncio.wait_for(worker.run(drain=True, dequeue_timeout=timedelta(seconds=1)), timeout=60)
    assert len(box.to(_suffix(gym))) == 3
    assert {s[0] for s in (await _statuses(db, gym)).values()} == {"sent"}


async def test_the_demos_log_sender_logs_ids_and_statuses_but_no_text(tools, db, factory) -> None:
    gym = await desk_gym(db, factory, now=DAY)
    sent = await _send_at_risk(tools, gym, DAY)
    before = structlog.get_config()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.INFO))  # the suite logs warnings
    try:
        with capture_logs() as logs:
            report = await deliver_due(db, gym.org.id, LogSender(), now=DAY, wake_later=False)
    finally:
        structlog.configure(**before)
    assert report.counts == {"sent": 3}
    delivered = [e for e in logs if e["event"] == "outbox.sent"]
    assert sorted(e["message_id"] for e in delivered) == sorted(m["id"] for m in sent["messages"])
    assert {e["status"] for e in delivered} == {"sent"}
    words = repr(logs)
    assert "Hi " not in words and "example.test" not in words and "We miss you" not in words
