"""Turns that outlive the connection (ARCHITECTURE.md), over real HTTP: every frame has `id: <turnId>:<seq>`, a
turn runs to its end when its client leaves, GET .../turns/{turnId}/stream replays after Last-Event-ID exactly
once and follows live, an explicit stop cancels the model stream and ends with `done`, only the caller may read
or stop a turn, a turn whose process is gone ends with `error{turn_interrupted}` + `done`, and a reopened
conversation names its running turn."""

from __future__ import annotations

import asyncio
import json
import uuid

from sqlalchemy import text

from agent import turn_log
from agent.turn_log import TurnKeys, TurnRecord
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import open_sse, read_sse, sse
from tests.trainer.fixtures import trainee
from tests.trainer.scripted import Trainer

ANSWER = "Every member of the gym, counted one by one, slowly and carefully. "


def turn_url(gym, turn_id: str, suffix: str = "stream") -> str:
    return f"{gym.base}/turns/{turn_id}/{suffix}"


async def _assistant_rows(db, org_id) -> list:
    async with db.owner() as session:
        return list((await session.execute(text(
            "SELECT m.stop_reason, m.content->0->>'text' AS text FROM conversation_messages m JOIN conversations c "
            "ON c.id = m.conversation_id WHERE c.org_id = :o AND m.role = 'assistant' ORDER BY m.seq"),
            {"o": org_id})).all())


async def test_every_frame_has_a_turn_id_and_seq_and_the_first_names_the_turn(client, gym, clean_model) -> None:
    clean_model.queue(Reply(Text("Three classes today.", chunks=3)))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "what's on today?"},
                       headers=gym.owner.headers)
    turn_id = result.headers["x-turn-id"]
    assert uuid.UUID(turn_id) and result.names[0] == "conversation_started" and result.names[-1] == "done"
    assert {i.rsplit(":", 1)[0] for i in result.ids} == {turn_id}
    assert result.seqs == list(range(1, len(result.events) + 1))
    assert result.events[0][1]["turnId"] == turn_id
    assert all("turnId" not in data for _, data in result.events[1:])

    replay = await read_sse(client, turn_url(gym, turn_id), headers=gym.owner.headers)  # the whole turn again
    assert replay.events == result.events and replay.ids == result.ids
    tail = await read_sse(client, f"{turn_url(gym, turn_id)}?after=3", headers=gym.owner.headers)
    assert tail.events == result.events[3:]


async def test_a_turn_whose_client_left_runs_to_its_end_and_its_frames_replay_exactly_once(client, gym, clean_model,
                                                                                         db) -> None:
    clean_model.chunk_delay = 0.1
    clean_model.queue(Reply(Text(ANSWER * 2, chunks=24)))
    async with open_sse(client, f"{gym.base}/messages", json_body={"message": "count the members"},
                        headers=gym.owner.headers) as stream:
        await stream.until("text_delta")
        await stream.until("text_delta")  # then the connection drops mid-answer
        first = stream.result
    assert "done" not in first.names
    last_id = first.ids[-1]
    turn_id = last_id.rsplit(":", 1)[0]
    conversation_id = first.one("conversation_started")["conversationId"]
    busy = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                     json_body={"message": "and another thing", "conversationId": conversation_id})
    assert busy.status == 409 and busy.body["code"] == "conversation_busy"  # the turn without a client holds its lock

    rest = await read_sse(client, turn_url(gym, turn_id), headers={**gym.owner.headers, "last-event-id": last_id})
    assert rest.seqs[0] == first.seqs[-1] + 1 and rest.names[-1] == "done" and rest.names.count("done") == 1
    assert "error" not in rest.names and "turnId" not in rest.events[0][1]
    assert first.seqs + rest.seqs == list(range(1, len(first.events) + len(rest.events) + 1))
    assert first.text + rest.text == ANSWER * 2  # every delta once: none lost, none twice
    assert clean_model.disconnects == 0  # the model stream was never cut
    assert [(r.stop_reason, r.text) for r in await _assistant_rows(db, gym.org.id)] == [("end_turn", ANSWER * 2)]


async def test_stop_cancels_the_model_stream_keeps_what_streamed_and_ends_with_done(client, gym, clean_model,
                                                                                   db) -> None:
    clean_model.chunk_delay = 0.15
    clean_model.queue(Reply(Text(ANSWER * 3, chunks=40)))
    async with open_sse(client, f"{gym.base}/messages", json_body={"message": "count the members slowly"},
                        headers=gym.owner.headers) as stream:
        await stream.until("text_delta")
        await stream.until("text_delta")
        turn_id = stream.result.headers["x-turn-id"]
        stopped = await client.post(turn_url(gym, turn_id, "stop"), headers=gym.owner.headers)
        assert stopped.status_code == 200 and stopped.json() == {"turnId": turn_id, "state": "stopping"}
        result = await stream.finish()
    assert result.names[-1] == "done" and result.names.count("done") == 1 and "error" not in result.names
    assert result.text and (ANSWER * 3).startswith(result.text) and result.text != ANSWER * 3
    await asyncio.to_thread(clean_model.wait_for_disconnects, 1)
    assert [(r.stop_reason, r.text) for r in await _assistant_rows(db, gym.org.id)] == [("interrupted", result.text)]
    assert result.one("done")["usage"]["costUsdMicros"] > 0  # the call's billed input is counted

    again = await client.post(turn_url(gym, turn_id, "stop"), headers=gym.owner.headers)
    assert again.status_code == 200 and again.json()["state"] == "finished"
    clean_model.chunk_delay = 0
    clean_model.queue(Reply(Text("Still here.")))
    conversation_id = result.one("conversation_started")["conversationId"]
    after = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "and now?", "conversationId": conversation_id})
    assert after.text == "Still here." and "error" not in after.names  # the lock was released


async def test_only_the_turns_caller_may_read_or_stop_it(client, gym, clean_model, factory) -> None:
    clean_model.queue(Reply(Text("Hello.")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "hi there"}, headers=gym.owner.headers)
    turn_id = result.headers["x-turn-id"]
    coach = await factory.user(gym.org, "coach")
    other_org = await factory.org()
    stranger = await factory.user(other_org, "owner")
    for url, headers in ((turn_url(gym, turn_id), coach.headers),
                         (f"/organizations/{other_org.id}/agent/turns/{turn_id}/stream", stranger.headers),
                         (turn_url(gym, str(uuid.uuid4())), gym.owner.headers)):
        read = await client.get(url, headers=headers)
        assert read.status_code == 404 and read.json()["code"] == "turn_not_found"
        stop = await client.post(url.replace("/stream", "/stop"), headers=headers)
        assert stop.status_code == 404 and stop.json()["code"] == "turn_not_found"
    # the trainer's endpoints never reach a staff turn (the owner has no member record: 403 before any lookup)
    trainer = await client.get(f"/organizations/{gym.org.id}/trainer/turns/{turn_id}/stream",
                               headers=gym.owner.headers)
    assert trainer.status_code == 403
    bad = await client.get(f"{turn_url(gym, turn_id)}?after=-1", headers=gym.owner.headers)
    assert bad.status_code == 400


async def test_a_turn_whose_process_is_gone_ends_with_turn_interrupted_then_done(client, gym, redis_client) -> None:
    """What a process killed mid-turn leaves in Redis: its record and frames, and a lease nobody renews. A reader
    does not hang: it appends error{turn_interrupted} + done once, and every later reader sees the same."""
    turn_id, conversation_id = uuid.uuid4(), uuid.uuid4()
    record = TurnRecord(turn_id=turn_id, org_id=gym.org.id, user_id=gym.owner.id, persona="staff_copilot",
                        thread_id=conversation_id, kind="send", baseline=0, trace_id="t-lost", opened=True)
    await turn_log.register(redis_client, record)
    keys = TurnKeys(turn_id)
    first = {"type": "conversation_started", "conversationId": str(conversation_id), "turnId": str(turn_id)}
    await redis_client.xadd(keys.frames, {"e": "conversation_started", "d": json.dumps(first)}, id="1-0")
    await redis_client.delete(keys.alive)  # the lease lapsed: nobody renews it

    result = await read_sse(client, turn_url(gym, str(turn_id)), headers={**gym.owner.headers, "x-locale": "he"})
    assert result.names == ["conversation_started", "error", "done"] and result.seqs == [1, 2, 3]
    error = result.one("error")
    assert error["code"] == "turn_interrupted" and error["message"] and error["traceId"] == "t-lost"
    assert result.one("done")["conversationId"] == str(conversation_id)
    again = await read_sse(client, turn_url(gym, str(turn_id)), headers=gym.owner.headers)
    assert again.names == result.names  # sealed once


async def test_a_reopened_conversation_names_its_running_turn_and_the_stream_brings_the_rest(client, gym,
                                                                                            clean_model) -> None:
    clean_model.queue(Reply(Text("First answer.")))
    first = await sse(client, f"{gym.base}/messages", json_body={"message": "first question"},
                      headers=gym.owner.headers)
    conversation_id = first.one("conversation_started")["conversationId"]
    clean_model.chunk_delay = 0.1
    clean_model.queue(Reply(Text(ANSWER, chunks=20)))
    async with open_sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                        json_body={"message": "second question", "conversationId": conversation_id}) as stream:
        await stream.until("text_delta")
        turn_id = stream.result.headers["x-turn-id"]
    detail = (await client.get(f"{gym.base}/conversations/{conversation_id}", headers=gym.owner.headers)).json()
    assert detail["runningTurn"] == {"turnId": turn_id, "kind": "send"}
    assert [(m["role"], m["text"]) for m in detail["messages"]] == [
        ("user", "first question"), ("assistant", "First answer."), ("user", "second question")]
    joined = await read_sse(client, turn_url(gym, turn_id), headers=gym.owner.headers)
    assert joined.text == ANSWER and joined.names[-1] == "done"
    finished = (await client.get(f"{gym.base}/conversations/{conversation_id}", headers=gym.owner.headers)).json()
    assert finished["runningTurn"] is None and finished["messages"][-1]["text"] == ANSWER


async def test_a_trainer_turn_whose_member_left_runs_on_and_is_read_again_and_stopped(client, db, factory,
                                                                                     clean_model) -> None:
    """The same for the member's trainer (one engine): its frames carry ids, a dropped turn runs to its end and its
    stream replays after Last-Event-ID; a staff endpoint never reaches it; a stop ends the next one with done."""
    t = await trainee(db, factory)
    trainer = f"/organizations/{t.org.id}/trainer"
    Trainer(clean_model, [Reply(ToolUse("data__fetch_data", {"sources": {"progression": {}}}, id="toolu_1")),
                          Reply(Text("Here."), ToolUse("coach__message_notify_user", {"text": "Rest today."},
                                                       id="toolu_2")),
                          Reply(ToolUse("coach__idle", {}, id="toolu_3"))])
    clean_model.chunk_delay = 0.05
    async with open_sse(client, f"{trainer}/messages", json_body={"message": "what should I do today?"},
                        headers=t.user.headers) as stream:
        await stream.until("session_started")
        first = stream.result
    turn_id = first.headers["x-turn-id"]
    assert first.events[0][1]["turnId"] == turn_id
    rest = await read_sse(client, f"{trainer}/turns/{turn_id}/stream",
                          headers={**t.user.headers, "last-event-id": first.ids[-1]})
    assert first.seqs + rest.seqs == list(range(1, len(first.ids) + len(rest.ids) + 1))
    assert rest.names[-1] == "done" and rest.names.count("done") == 1 and rest.one("message")["content"]
    staff_side = await client.get(f"/organizations/{t.org.id}/agent/turns/{turn_id}/stream", headers=t.user.headers)
    assert staff_side.status_code == 403  # a member is never on the staff endpoints

    Trainer(clean_model, [Reply(Text("Thinking it through slowly. " * 20, chunks=40)),
                          Reply(ToolUse("coach__idle", {}, id="toolu_4"))],
            selection={"sources": {"workout_history": {}}})  # a source new to the session: a knowledge frame
    clean_model.chunk_delay = 0.2
    session_id = rest.one("done")["sessionId"]
    async with open_sse(client, f"{trainer}/messages", json_body={"message": "and tomorrow?", "sessionId": session_id},
                        headers=t.user.headers) as stream:
        await stream.until("knowledge")
        second = stream.result.headers["x-turn-id"]
        reopened = (await client.get(f"{trainer}/sessions/{session_id}", headers=t.user.headers)).json()
        assert reopened["runningTurn"] == {"turnId": second, "kind": "send"}  # the member app joins it live
        assert reopened["events"][-1]["type"] == "user_message"  # the turn's stream brings the rest
        await asyncio.sleep(1)  # into the slow model call
        stopped = await client.post(f"{trainer}/turns/{second}/stop", headers=t.user.headers)
        assert stopped.status_code == 200
        result = await stream.finish()
    assert result.names[-1] == "done" and result.names.count("done") == 1 and "error" not in result.names
    assert result.one("done")["sessionId"] == session_id
    await asyncio.to_thread(clean_model.wait_for_disconnects, 1)  # its model stream was cancelled
