"""TRAINER.md's context budget, over HTTP with the fake model (tokens counted from the requests it receives, as
it bills them; nothing timed): a turn that logs one set adds at most 1,500 tokens; fetch_data's data reaches the
context once; a changed source is sent as what changed."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from agent.trainer import delta
from gym.demo.training_record import seed_dani
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.members import link_member
from tests.trainer.scripted import Trainer
from tests.trainer.session_script import ScriptedModel, narrowing_session, prompt_tokens, session

BUDGET_PER_LOGGED_SET = 1_500


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


async def dani(db, factory):
    """A member with Dani's demo record: six weeks of logs, the injury, home and Harbor Strength."""
    org = await factory.org(timezone="UTC")
    user = await factory.user(org, "member")
    member_id = await link_member(db, org.id, user.id)
    async with db.owner() as session:
        await seed_dani(session, org.id, member_id, datetime.now(UTC))
    return org, user, member_id


async def _play(client, fake_model, org, user, script) -> tuple[str, list[tuple[str, int]]]:
    """The scripted turns over HTTP; the session id and, per turn, its kind and the context its last request read."""
    model = ScriptedModel(fake_model)
    sid, contexts = None, []
    for scripted in script:
        model.play(scripted)
        seen = len(fake_model.requests)
        result = await sse(client, f"/organizations/{org.id}/trainer/messages",
                           json_body={"message": scripted.message, "sessionId": sid}, headers=user.headers)
        assert result.names[-1] == "done" and not result.of("error"), result.events
        sid = result.one("done")["sessionId"]
        turns = [r for r in fake_model.requests[seen:] if r.body.get("tools")]
        contexts.append((scripted.kind, prompt_tokens(turns[-1].usage)))
    return sid, contexts


async def test_each_logged_set_adds_at_most_1500_tokens_of_context(client, db, factory, fake_model) -> None:
    """A workout, then eight turns that fetch the history and log one set (the issue-24 case: ~5,900 each)."""
    org, user, _ = await dani(db, factory)
    sid, contexts = await _play(client, fake_model, org, user, session(9))
    growth = [after - before for (_, before), (kind, after) in zip(contexts, contexts[1:], strict=False)
              if kind == "log_set"]
    assert len(growth) == 8
    assert max(growth) <= BUDGET_PER_LOGGED_SET, growth
    async with db.owner() as session_:
        updates = (await session_.execute(text(
            "SELECT payload FROM trainer_events WHERE session_id = :s AND type = 'knowledge_update'"),
            {"s": sid})).scalars().all()
    history = [u for u in updates if u["source"] == "workout_history"]
    assert history and all("changes" in u and "data" not in u for u in history)  # the new log, not the history
    assert all(len(u["changes"]["items"]["added"]) == 1 for u in history[1:])


async def test_a_narrower_pick_than_the_context_holds_adds_at_most_1500_tokens_per_logged_set(
        client, db, factory, fake_model) -> None:
    """Issue 38 item 6: every turn the selector picks 14 days of history and the model fetches 30 days; knowledge
    never narrows, so a turn that logs one set adds the new log, not the removal and resending of days 15-30
    (about 6,000 tokens a turn before)."""
    org, user, _ = await dani(db, factory)
    sid, contexts = await _play(client, fake_model, org, user, narrowing_session(9))
    growth = [after - before for (_, before), (kind, after) in zip(contexts, contexts[1:], strict=False)
              if kind == "log_set"]
    assert len(growth) == 8
    assert max(growth) <= BUDGET_PER_LOGGED_SET, growth
    async with db.owner() as session_:
        history = (await session_.execute(text(
            "SELECT payload FROM trainer_events WHERE session_id = :s AND type = 'knowledge_update' "
            "AND payload->>'source' = 'workout_history' ORDER BY seq"), {"s": sid})).scalars().all()
        in_context = await session_.scalar(text("SELECT knowledge_in_context FROM trainer_sessions WHERE id = :s"),
                                           {"s": sid})
    assert history and not [u for u in history if "removed" in json.dumps(u.get("changes", {}))]
    assert in_context["workout_history"]["params"] == {"days_back": 30}  # the union of 14 and 30


async def test_fetch_data_puts_its_data_in_the_context_once(client, db, factory, fake_model) -> None:
    """The selector loaded 14 days of history; fetch_data asks for 30, then again: every log reaches the model
    once, and fetch_data's own result is a one-line acknowledgement."""
    org, user, member_id = await dani(db, factory)
    fetch = {"sources": {"workout_history": {"days_back": 30}}}
    script = Trainer(fake_model, [Reply(ToolUse("data__fetch_data", fetch, id="f1")),
                                  Reply(ToolUse("data__fetch_data", fetch, id="f2")),
                                  Reply(ToolUse("coach__idle", {}, id="i1"))],
                     selection={"sources": {"workout_history": {"days_back": 14}}})
    result = await sse(client, f"/organizations/{org.id}/trainer/messages",
                       json_body={"message": "what did I do this month?"}, headers=user.headers)
    assert result.names[-1] == "done" and not result.of("error"), result.events
    async with db.owner() as session_:
        ids = [str(i) for i in (await session_.execute(text(
            "SELECT id FROM exercise_logs WHERE member_id = :m AND performed_at > now() - interval '30 days'"),
            {"m": member_id})).scalars()]
    assert len(ids) > 40
    last = json.dumps(script.turn_requests()[-1]["messages"], ensure_ascii=False)
    assert {i: last.count(i) for i in ids if last.count(i) != 1} == {}
    results = [b for m in script.turn_requests()[-1]["messages"] for b in m["content"]
               if isinstance(b, dict) and b.get("type") == "tool_result"]
    assert [r["content"] for r in results] == ["<result>ok: workout_history in context</result>"] * 2


async def test_fetch_data_of_what_the_member_prefix_holds_adds_nothing_to_the_events(client, db, factory,
                                                                                     fake_model) -> None:
    """The profile, settings and locations are in the member's stable prefix: fetching them again must not send
    them a second time as knowledge (TRAINER.md: the data arrives once, never twice); what is not there does."""
    org, user, member_id = await dani(db, factory)
    fetch = {"sources": {"user_profile": {}, "user_settings": {}, "all_locations": {}, "recovery_status": {}}}
    Trainer(fake_model, [Reply(ToolUse("data__fetch_data", fetch, id="f1")), Reply(ToolUse("coach__idle", {}, id="i1"))],
            selection={"sources": {}})
    result = await sse(client, f"/organizations/{org.id}/trainer/messages",
                       json_body={"message": "how recovered am I?"}, headers=user.headers)
    assert result.names[-1] == "done" and not result.of("error"), result.events
    async with db.owner() as session_:
        sources = (await session_.execute(text(
            "SELECT e.payload->>'source' FROM trainer_events e JOIN trainer_sessions s ON s.id = e.session_id "
            "WHERE s.member_id = :m AND e.type IN ('knowledge', 'knowledge_update')"), {"m": member_id})).scalars()
        got = set(sources)
    assert "recovery_status" in got and not got & {"user_profile", "user_settings", "all_locations"}, got


@pytest.mark.parametrize(("old", "new"), [
    ({"days": 14, "items": [{"id": "a", "reps": 8}, {"id": "b", "reps": 5}]},
     {"days": 30, "items": [{"id": "b", "reps": 6}, {"id": "c", "reps": 3}]}),
    ([{"muscle": "Chest", "hoursRemaining": 20}], [{"muscle": "Chest", "hoursRemaining": 19.5},
                                                    {"muscle": "Back", "hoursRemaining": 3}]),
    ({"id": "workout_1", "exercises": [{"id": "ex_001", "name": "Row", "muscles": ["Back"]}], "summary": {"a": 1}},
     {"id": "workout_1", "exercises": [{"id": "ex_001", "name": "Curl", "muscles": ["Biceps"]}]}),
    ({"title": "x", "tags": ["a", "b"]}, {"title": "x", "tags": ["b"], "new": {"k": [1]}}),
])
def test_changes_rebuild_the_source(old, new) -> None:
    changes = delta.diff(old, new)
    rebuilt = delta.apply(old, changes)
    if isinstance(new, dict) and "items" in new:
        rebuilt["items"] = sorted(rebuilt["items"], key=lambda i: i["id"])
    if isinstance(new, list):
        rebuilt, new = sorted(rebuilt, key=lambda i: i["muscle"]), sorted(new, key=lambda i: i["muscle"])
    assert rebuilt == new


def test_a_change_of_shape_is_sent_whole() -> None:
    with pytest.raises(delta.Whole):
        delta.diff({"a": [1]}, {"a": {"b": 1}})
    with pytest.raises(delta.Whole):
        delta.diff([1, 2], [2, 3])
    assert delta.compact({"a": None, "b": [{"c": None, "d": 1}]}) == {"b": [{"d": 1}]}
