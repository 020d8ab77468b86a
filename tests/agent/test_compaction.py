"""Compaction and titles: the summarizer model, its budget, where the cut falls, and what the model sees next."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import text
from structlog.testing import capture_logs

from agent import conversations
from agent.compaction import Compactor, choose_cut
from agent.conversations import Message
from agent.costs import PriceBook
from agent.model import AnthropicModel
from agent.model_stream import usage_from_json
from agent.observability import Observability
from agent.titles import TitleGenerator, clean_title
from api.app import create_app
from tests.fakes.anthropic_server import ApiError, Held, Reply, Text
from tests.servers import ThreadedServer
from tests.sse import sse

SUMMARIZER = "claude-haiku-4-5"
SUMMARY = "Maya reviewed renewals; Saar Levi's task exists (toolu_s1); Noa asked about class times."


def _user(text_: str) -> list[dict]:
    return [{"type": "text", "text": "<turn_context>\nnow: Monday\n</turn_context>"}, {"type": "text", "text": text_}]


def _tool_use(tool_id: str, name: str = "tasks__list") -> list[dict]:
    return [{"type": "text", "text": "Let me check."}, {"type": "tool_use", "id": tool_id, "name": name, "input": {}}]


def _tool_result(tool_id: str, body: dict | None = None) -> list[dict]:
    return [{"type": "tool_result", "tool_use_id": tool_id, "content": json.dumps(body or {"items": []})}]


def chat_pairs(count: int) -> list[tuple[str, list[dict]]]:
    rows: list[tuple[str, list[dict]]] = []
    for i in range(count):
        rows += [("user", _user(f"question {i}")), ("assistant", [{"type": "text", "text": f"answer {i}"}])]
    return rows


async def seed(db, gym, rows: list[tuple[str, list[dict]]]) -> tuple[str, list[uuid.UUID]]:
    """A conversation of gym.owner holding `rows` (role, content), written through the conversation store."""
    async with db.scope(org_id=gym.org.id, user_id=gym.owner.id) as session:
        conversation = await conversations.create(session, gym.org.id, gym.owner.id)
        await conversations.set_title(session, conversation.id, "seeded")
        ids = [await conversations.append(session, conversation, role, content) for role, content in rows]
    return str(conversation.id), ids


async def stored(db, conversation_id: str) -> list:
    async with db.owner() as session:
        return (await session.execute(text(
            "SELECT id, seq, role, content, page_context FROM conversation_messages WHERE conversation_id = :c "
            "ORDER BY seq"), {"c": conversation_id})).all()


async def send(client, gym, conversation_id: str, message: str):
    return await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                     json_body={"message": message, "conversationId": conversation_id})


def summarizer_requests(fake_model) -> list:
    return [r for r in fake_model.requests if r.body["model"] == SUMMARIZER]


def main_requests(fake_model) -> list:
    return [r for r in fake_model.requests if r.body["model"] != SUMMARIZER]


# ---- the cut -------------------------------------------------------------------------------------------------


def _rows(*roles_and_content: tuple[str, list[dict]]) -> list[Message]:
    return [Message(role=role, content=content, seq=i + 1) for i, (role, content) in enumerate(roles_and_content)]


def test_cut_moves_earlier_past_tool_pairs_to_a_persons_message() -> None:
    rows = _rows(*chat_pairs(7), ("user", _user("find Saar and add a task")),          # 14
                 ("assistant", _tool_use("a")), ("user", _tool_result("a")),           # 15, 16
                 ("assistant", _tool_use("b")), ("user", _tool_result("b")),           # 17, 18 ← len - 6
                 ("assistant", _tool_use("c")), ("user", _tool_result("c")),           # 19, 20
                 ("assistant", [{"type": "text", "text": "done"}]),                     # 21
                 ("user", _user("thanks")), ("user", _user("and one more thing")))      # 22, 23
    assert choose_cut(rows, keep_last=6) == 14


def test_cut_keeps_about_the_last_six_on_a_plain_chat() -> None:
    rows = _rows(*chat_pairs(12))
    assert choose_cut(rows, keep_last=6) == 18


def test_cut_moves_later_when_nothing_earlier_is_clean_and_none_when_nothing_is() -> None:
    run = [("assistant", _tool_use(f"t{i}")) if i % 2 else ("user", _tool_result(f"t{i - 1}")) for i in range(1, 20)]
    rows = _rows(("user", _user("go")), *run, ("user", _user("next")), ("assistant", _tool_use("z")),
                 ("user", _tool_result("z")))
    assert choose_cut(rows, keep_last=6) == 20  # the nearest clean boundary is later: keep fewer, never split
    only_results = _rows(("user", _user("go")), *run)
    assert choose_cut(only_results, keep_last=6) is None


# ---- through the real app ------------------------------------------------------------------------------------


async def test_23_messages_do_not_compact(client, gym, fake_model, db) -> None:
    conversation_id, _ = await seed(db, gym, chat_pairs(11))  # 22 + the new user turn = 23
    fake_model.queue(Reply(Text("Sure.")))
    result = await send(client, gym, conversation_id, "question 11")

    assert result.names[-1] == "done" and "error" not in result.names
    assert summarizer_requests(fake_model) == []
    assert len(fake_model.requests[0].body["messages"]) == 23
    assert [r.role for r in await stored(db, conversation_id)].count("system_note") == 0


async def test_24_messages_compact_keeping_the_last_six_and_the_next_request_is_shorter(
        client, gym, fake_model, db) -> None:
    # 22 chat messages, then a turn that failed before the assistant answered: 23 stored, 24 with the new turn
    conversation_id, ids = await seed(db, gym, [*chat_pairs(11), ("user", _user("question 11 (failed turn)"))])
    before = await stored(db, conversation_id)
    fake_model.queue(Reply(Text(SUMMARY)), Reply(Text("Here you go.")))
    result = await send(client, gym, conversation_id, "question 12")

    assert result.names[-1] == "done" and "error" not in result.names
    [summary_call] = summarizer_requests(fake_model)
    assert summary_call.body["max_tokens"] == 600 and "tools" not in summary_call.body
    transcript = summary_call.body["messages"][0]["content"][0]["text"]
    assert "question 0" in transcript and "answer 8" in transcript
    assert "question 9" not in transcript  # kept verbatim, not summarized
    assert "<turn_context>" not in transcript

    rows = await stored(db, conversation_id)
    note = next(r for r in rows if r.role == "system_note")
    assert note.content == [{"type": "text", "text": SUMMARY}]
    assert note.page_context == {"summarizedThroughMessageId": str(ids[17]), "summarizedCount": 18}
    async with db.scope(org_id=gym.org.id, user_id=gym.owner.id) as session:
        replay = await conversations.messages_since_anchor(session, uuid.UUID(conversation_id))
    assert replay[0].id == note.id
    assert [r.id for r in replay[1:7]] == [r.id for r in before[18:]] + [rows[-2].id]  # the last six, in order
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))

    [main] = main_requests(fake_model)
    assert main.rejected is None
    sent = main.body["messages"]
    assert len(sent) < 24 and "<conversation_summary>" in sent[0]["content"][0]["text"]
    assert SUMMARY in sent[0]["content"][0]["text"]

    fake_model.queue(Reply(Text("Anything else?")))
    again = await send(client, gym, conversation_id, "question 13")
    assert again.names[-1] == "done" and len(summarizer_requests(fake_model)) == 1  # 8 past the note: no summary
    assert fake_model.requests[-1].rejected is None and len(fake_model.requests[-1].body["messages"]) < 10


async def test_compaction_never_splits_a_tool_use_from_its_result(client, gym, fake_model, db) -> None:
    history = [*chat_pairs(5),
               ("user", _user("what is open?")), ("assistant", _tool_use("toolu_s0")),               # 10, 11
               ("user", _tool_result("toolu_s0", {"items": [{"title": "Mop"}]})),                    # 12
               ("assistant", [{"type": "text", "text": "Just mopping."}]),                           # 13
               ("user", _user("find Saar and add a task")),                                          # 14
               ("assistant", _tool_use("toolu_s1", "tasks__create")), ("user", _tool_result("toolu_s1")),
               ("assistant", _tool_use("toolu_s2")), ("user", _tool_result("toolu_s2")),             # 17, 18
               ("assistant", _tool_use("toolu_s3")), ("user", _tool_result("toolu_s3")),             # 19, 20
               ("assistant", [{"type": "text", "text": "Done."}]),                                   # 21
               ("user", _user("that failed turn"))]                                                  # 22
    conversation_id, ids = await seed(db, gym, history)
    fake_model.queue(Reply(Text(SUMMARY)), Reply(Text("Okay.")))
    result = await send(client, gym, conversation_id, "and now?")

    assert result.names[-1] == "done"
    transcript = summarizer_requests(fake_model)[0].body["messages"][0]["content"][0]["text"]
    assert "[Assistant called tasks__list]" in transcript and '[tasks__list result: {"items": [{"title": "Mop"}]}]' \
        in transcript
    note = next(r for r in await stored(db, conversation_id) if r.role == "system_note")
    assert note.page_context == {"summarizedThroughMessageId": str(ids[13]), "summarizedCount": 14}
    [main] = main_requests(fake_model)
    assert main.rejected is None
    sent = main.body["messages"]
    used = [b["id"] for m in sent for b in m["content"] if b.get("type") == "tool_use"]
    answered = [b["tool_use_id"] for m in sent for b in m["content"] if b.get("type") == "tool_result"]
    assert used == answered == ["toolu_s1", "toolu_s2", "toolu_s3"]
    assert "find Saar and add a task" in json.dumps(sent[0])


async def test_a_failing_summarizer_leaves_history_untouched_and_the_turn_goes_on(client, gym, fake_model, db) -> None:
    conversation_id, _ = await seed(db, gym, [*chat_pairs(11), ("user", _user("failed turn"))])
    fake_model.queue(ApiError(500), Reply(Text("Still here.")))
    result = await send(client, gym, conversation_id, "question 12")

    assert result.names[-1] == "done" and "error" not in result.names and result.text == "Still here."
    assert [r.role for r in await stored(db, conversation_id)].count("system_note") == 0
    main = fake_model.requests[-1]
    assert main.rejected is None and main.body["model"] != SUMMARIZER
    assert len(main.body["messages"]) == 23  # everything, the two user turns merged


async def test_summaries_are_costed_into_daily_usage_with_no_extra_turn(client, gym, fake_model, db) -> None:
    conversation_id, _ = await seed(db, gym, [*chat_pairs(11), ("user", _user("failed turn"))])
    fake_model.queue(Reply(Text(SUMMARY)), Reply(Text("Here.")))
    result = await send(client, gym, conversation_id, "question 12")

    summary_usage = summarizer_requests(fake_model)[0].usage
    summary_cost = PriceBook().cost_usd_micros(SUMMARIZER, usage_from_json(summary_usage))
    async with db.owner() as session:
        row = (await session.execute(text("SELECT cost_usd_micros, turns, input_tokens FROM ai_usage_daily "
                                          "WHERE org_id = :o"), {"o": gym.org.id})).one()
    turn_usage = result.one("done")["usage"]
    assert summary_cost > 0
    assert row.cost_usd_micros == turn_usage["costUsdMicros"] + summary_cost
    assert row.turns == 1
    assert row.input_tokens == turn_usage["inputTokens"] + summary_usage["input_tokens"]


# ---- the budget, against the real SDK ------------------------------------------------------------------------


@pytest.fixture
async def summarizer_model(fake_model):
    model = AnthropicModel(api_key="sk-test-fake", base_url=fake_model.url, max_retries=0)
    yield model
    await model.close()


async def test_a_summarizer_slower_than_the_budget_is_abandoned_and_changes_nothing(gym, fake_model, db,
                                                                                    summarizer_model) -> None:
    """The summarizer holds its answer until after the compactor returned: compaction gave up (timeout), wrote
    no note and billed nothing. Without the budget the compactor would wait for the held answer and store it."""
    conversation_id, _ = await seed(db, gym, [*chat_pairs(12)])
    async with db.scope(org_id=gym.org.id, user_id=gym.owner.id) as session:
        conversation = await conversations.get_owned(session, conversations.Owner(gym.org.id, gym.owner.id, conversations.STAFF_PERSONA),
                                                      uuid.UUID(conversation_id))
    held = Held(Reply(Text(SUMMARY)), limit=20)
    fake_model.respond_with(held)
    events: list[tuple[str, dict]] = []
    compactor = Compactor(db, summarizer_model, SUMMARIZER, budget_seconds=1.0,
                          observability=Observability([lambda name, fields: events.append((name, fields))]))
    try:
        await compactor(conversation)
        assert fake_model.requests == []  # nothing answered while it compacted
    finally:
        held.release()
        if held.arrived.is_set():  # the late answer is given (and recorded) before the next test
            await asyncio.to_thread(fake_model.wait_for_requests, 1)

    assert held.arrived.is_set()  # the summarizer was asked
    assert [(name, fields["reason"]) for name, fields in events] == [("agent.compaction.failed", "timeout")]
    assert [r.role for r in await stored(db, conversation_id)].count("system_note") == 0
    async with db.owner() as session:
        spent = await session.scalar(text("SELECT count(*) FROM ai_usage_daily WHERE org_id = :o"), {"o": gym.org.id})
    assert spent == 0


async def test_a_second_compaction_folds_the_earlier_summary_in(gym, fake_model, db, summarizer_model) -> None:
    conversation_id, _ = await seed(db, gym, chat_pairs(12))
    async with db.scope(org_id=gym.org.id, user_id=gym.owner.id) as session:
        conversation = await conversations.get_owned(session, conversations.Owner(gym.org.id, gym.owner.id, conversations.STAFF_PERSONA),
                                                      uuid.UUID(conversation_id))
    compactor = Compactor(db, summarizer_model, SUMMARIZER)
    fake_model.queue(Reply(Text("first summary")), Reply(Text("second summary")))
    await compactor(conversation)
    async with db.scope(org_id=gym.org.id, user_id=gym.owner.id) as session:
        for role, content in chat_pairs(10):  # 6 kept + 20 new = 26 past the note
            await conversations.append(session, conversation, role, content)
    await compactor(conversation)

    second = fake_model.requests[1].body["messages"][0]["content"][0]["text"]
    assert second.startswith("[Summary of the conversation before this point]\nfirst summary")
    async with db.scope(org_id=gym.org.id, user_id=gym.owner.id) as session:
        replay = await conversations.messages_since_anchor(session, conversation.id)
    assert replay[0].role == "system_note" and replay[0].content[0]["text"] == "second summary"
    assert replay[0].page_context["summarizedCount"] == 20 and len(replay) == 7
    assert all(r.role != "system_note" for r in replay[1:])


# ---- titles --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "title"), [
    ('"Morning Class Schedule Review."', "Morning Class Schedule Review"),
    ("Title: Renewals for Saar Levi this week and next month too", "Renewals for Saar Levi this week"),
    ("«תוכנית אימונים לבוקר»\n", "תוכנית אימונים לבוקר"),
    ("   \n ", None),
])
def test_clean_title_keeps_six_words_without_quotes_or_punctuation(raw, title) -> None:
    assert clean_title(raw) == title


@pytest.fixture(scope="module")
def titled(app_settings) -> Iterator[ThreadedServer]:
    """The real app with summarizer titles switched on (AGENT_TITLES=true), as production runs by default."""
    server = ThreadedServer(create_app(app_settings.model_copy(update={"agent_titles": True}))).start()
    yield server
    server.stop()


async def _title(db, conversation_id: str) -> str | None:
    async with db.owner() as session:
        return await session.scalar(text("SELECT title FROM conversations WHERE id = :c"), {"c": conversation_id})


async def _wait_for_title(db, conversation_id: str, provisional: str, seconds: float = 30.0) -> str | None:
    """The title once it is no longer `provisional` (the app writes it in the background after answering)."""
    deadline = time.monotonic() + seconds
    title = await _title(db, conversation_id)
    while title == provisional and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        title = await _title(db, conversation_id)
    return title


async def test_first_turn_gets_a_generated_title_without_delaying_done(titled, gym, fake_model, db) -> None:
    message = "מה לוח הזמנים של שיעורי הבוקר השבוע?"
    fake_model.queue(Reply(Text("הנה הלוח.")))
    held = Held(Reply(Text("«לוח שיעורי בוקר»")))  # the title is answered only after done was read
    fake_model.respond_with(held)
    try:
        async with httpx.AsyncClient(base_url=titled.url, timeout=30) as client:
            result = await sse(client, f"{gym.base}/messages", json_body={"message": message},
                               headers=gym.owner.headers)
        conversation_id = result.one("conversation_started")["conversationId"]
        assert result.names[-1] == "done"
        assert await _title(db, conversation_id) == message  # done came first: still the provisional title
    finally:
        held.release()

    await asyncio.to_thread(fake_model.wait_for_requests, 2)
    assert await _wait_for_title(db, conversation_id, message) == "לוח שיעורי בוקר"
    title_call = fake_model.requests[-1].body
    assert title_call["model"] == SUMMARIZER and title_call["max_tokens"] == 30 and "tools" not in title_call
    assert message in title_call["messages"][0]["content"][0]["text"]


async def test_later_turns_do_not_retitle(titled, gym, fake_model, db) -> None:
    fake_model.queue(Reply(Text("Hi.")), Reply(Text("Front Desk Greeting")), Reply(Text("Again.")))
    async with httpx.AsyncClient(base_url=titled.url, timeout=30) as client:
        first = await sse(client, f"{gym.base}/messages", json_body={"message": "hello there"},
                          headers=gym.owner.headers)
        conversation_id = first.one("conversation_started")["conversationId"]
        assert await _wait_for_title(db, conversation_id, "hello there") == "Front Desk Greeting"
        await send(client, gym, conversation_id, "and again")
    assert len(fake_model.requests) == 3 and await _title(db, conversation_id) == "Front Desk Greeting"


async def test_a_failed_or_slow_title_keeps_the_provisional_one(gym, fake_model, db, summarizer_model) -> None:
    conversation_id, _ = await seed(db, gym, chat_pairs(1))
    async with db.scope(org_id=gym.org.id, user_id=gym.owner.id) as session:
        conversation = await conversations.get_owned(session, conversations.Owner(gym.org.id, gym.owner.id, conversations.STAFF_PERSONA),
                                                      uuid.UUID(conversation_id))
    titles = TitleGenerator(db, summarizer_model, SUMMARIZER, budget_seconds=1.0)

    fake_model.queue(ApiError(529))
    with capture_logs() as logs:
        assert await titles.generate(conversation) is None
        held = Held(Reply(Text("Too Late Title")), limit=20)  # answers only after the generator gave up
        fake_model.respond_with(held)
        try:
            titles.schedule(conversation)
            await titles.drain()
        finally:
            held.release()
            if held.arrived.is_set():  # the late answer is given (and recorded) before the next test
                await asyncio.to_thread(fake_model.wait_for_requests, 2)
    assert held.arrived.is_set()
    reasons = [e["reason"] for e in logs if e["event"] == "agent.title.failed"]
    assert len(reasons) == 2 and reasons[0] != "timeout" and reasons[1] == "timeout"  # the 529, then the budget
    assert await _title(db, conversation_id) == "seeded"
