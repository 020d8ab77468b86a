"""The README's front desk requests are true for the demo gym (issue 42 item 5): the app with the offline model over
real HTTP, Harbor Strength as `seed_demo` writes it, signed in as desk@harbor.test (and the owner for cancelling a
class). Each request reaches its real tool and the tool does it, or asks a person first."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import httpx
import pytest
from sqlalchemy import text

from api.app import create_app
from gym.demo.seed import seed_demo
from gym.demo.tenancy import HARBOR, clerk_id_for
from tests.factories import TestUser
from tests.servers import ThreadedServer
from tests.sse import sse

BASE = f"/organizations/{HARBOR.id}/agent"


@pytest.fixture(scope="module")
def offline_server(app_settings) -> Iterator[ThreadedServer]:
    server = ThreadedServer(create_app(app_settings.model_copy(update={"agent_model_provider": "offline"}))).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
async def demo(db) -> AsyncIterator[None]:
    await seed_demo(db)
    yield
    await seed_demo(db)  # what these requests changed, written back as seeded


@pytest.fixture
async def offline(offline_server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=offline_server.url, timeout=60) as http:
        yield http


async def _login(db, dev_keys, email: str, role: str) -> TestUser:
    clerk_id = clerk_id_for(email)
    async with db.owner() as session:
        user_id = await session.scalar(text("SELECT id FROM users WHERE clerk_id = :c"), {"c": clerk_id})
    return TestUser(user_id, email, clerk_id, dev_keys.sign(sub=clerk_id, email=email), role)


def _crossfit_day() -> str:
    """The README's "tomorrow's 17:30 CrossFit": CrossFit runs at 17:30 Sunday to Thursday; on a Friday or Saturday
    the next Sunday's."""
    tomorrow = datetime.now(ZoneInfo(HARBOR.timezone)).date() + timedelta(days=1)
    return "tomorrow's" if tomorrow.weekday() in (6, 0, 1, 2, 3) else "sunday's"


async def _say(offline, user, words: str, conversation: str | None = None):
    body = {"message": words, **({"conversationId": conversation} if conversation else {})}
    result = await sse(offline, f"{BASE}/messages", json_body=body, headers=user.headers)
    assert result.status == 200 and result.names[-1] == "done" and not result.of("error"), result.events
    return result


async def test_the_desk_day_on_the_demo_gym(offline, demo, db, dev_keys) -> None:
    desk = await _login(db, dev_keys, "desk@harbor.test", "front_desk")

    booked = await _say(offline, desk, f"book Dani into {_crossfit_day()} 17:30 CrossFit")
    done = [e for e in booked.of("tool_completed") if e["action"] == "book_member"]
    assert len(done) == 1, (booked.text, [e.get("output") or e.get("error") for e in booked.of("tool_completed")])
    if done[0]["ok"]:
        assert (done[0]["output"]["member"], done[0]["output"]["start"]) == ("Dani Mizrahi", "17:30")
    else:  # the seeded gym may already hold that seat for Dani, or the class may be full: said in words
        assert done[0]["error"]["code"] in ("already_booked", "session_full", "booking_overlap"), done[0]
        assert done[0]["error"]["message"] in booked.text

    checked = await _say(offline, desk, "check in Saar Levi")
    visit = next(e for e in checked.of("tool_completed") if e["action"] == "check_in")
    assert visit["ok"] is True and visit["output"]["member"] == "Saar Levi", visit

    freeze = await _say(offline, desk, "freeze Dani's membership for two weeks")
    card = freeze.one("confirmation_pending")
    assert card["action"] == "freeze" and card["input"]["days"] == 14
    assert card["summary"].startswith("Freeze Dani Mizrahi's membership")

    messages = await _say(offline, desk, "message the at-risk members")
    drafted = next(e for e in messages.of("tool_completed") if e["action"] == "draft")
    assert drafted["ok"] is True and drafted["output"]["count"] >= 5
    card = messages.one("confirmation_pending")
    assert card["action"] == "send" and len(card["details"]) == drafted["output"]["count"]
    assert card["summary"].endswith("Once sent, a message cannot be unsent.")
    assert any(" (last visit " in line and " days ago " in line for line in card["details"]), card["details"]
    assert not any(line.startswith("Saar Levi") for line in card["details"])  # just checked in: no longer at risk

    owner = await _login(db, dev_keys, "owner@harbor.test", "owner")
    tomorrow = "tomorrow" if _crossfit_day() == "tomorrow's" else "sunday"
    cancel = await _say(offline, owner, f"cancel the 18:30 CrossFit {tomorrow}")
    card = cancel.one("confirmation_pending")
    assert card["action"] == "cancel" and "won't be told unless you message them" in card["summary"]
    assert card["details"] and all(" " in name for name in card["details"])
    # nothing above was approved: no freeze, no send, no cancellation ran
    async with db.owner() as session:
        assert await session.scalar(text("SELECT count(*) FROM membership_freezes WHERE org_id = :o"),
                                    {"o": HARBOR.id}) == 0
        assert await session.scalar(text("SELECT count(*) FROM member_messages WHERE org_id = :o AND status <> "
                                         "'draft'"), {"o": HARBOR.id}) == 0
