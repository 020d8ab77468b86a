"""Issue 38 item 8 over HTTP and SSE: bodyweight exercises get double progression (push-ups 3×10 → 3×11, then a
harder variant); the app's "Add an exercise" places a compound lift before the isolation work (the library gives
the position, the service defaults to it) instead of having it refused; a deleted session takes no more turns
(409 session_closed); a log stored without muscles counts with its library exercise's muscles."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from gym.training import logs
from gym.training.logs import LoggedExercise
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import hold, reps, trainee
from tests.trainer.scripted import Trainer


async def _with_workout(db, factory, *exercises: dict):
    t = await trainee(db, factory)
    async with db.scope(org_id=t.org.id) as session:
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate({"title": "Today", "exercises": [
            *exercises]}), now=datetime.now(UTC) - timedelta(minutes=10))
    return t


def _url(t, path: str) -> str:
    return f"/organizations/{t.org.id}/trainer/{path}"


async def test_push_ups_progress_a_rep_per_set_then_to_a_harder_variant(client, db, factory) -> None:
    """3×10 push-ups logged set by set from the app → next time 3×11; 3×12 (the top of the range) → diamond
    push-ups, named in the member's language (before: no suggestion for an exercise without a load)."""
    push_ups = reps(1, "Push-up", muscles={"Chest": 0.7, "Triceps": 0.3})
    t = await _with_workout(db, factory, push_ups, hold(2))
    for n in (1, 2, 3):
        logged = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 10, "rpe": 8},
                                   headers={**t.user.headers, "Idempotency-Key": f"p-{n}"})
        assert logged.status_code == 201, logged.text
    async with db.scope(org_id=t.org.id) as session:
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(
            {"title": "Next", "exercises": [push_ups, hold(2)]}), now=datetime.now(UTC))
    suggestion = (await client.get(_url(t, "workout"), headers=t.user.headers)).json()["workout"]["exercises"][0][
        "suggestion"]
    assert suggestion["suggestedReps"] == [11, 11, 11] and suggestion["suggestedLoad"] is None
    assert suggestion["why"] == {"code": "bodyweight_add_reps", "top": 12}

    top = await trainee(db, factory, "Noa Top")
    now = datetime.now(UTC)
    async with db.scope(org_id=top.org.id) as session:
        await logs.log_exercise(session, top.org.id, top.member_id, LoggedExercise(
            exercise_name="Push-ups", exercise_type="bodyweight", reps_per_set=[12, 12, 12], target_reps=[12, 12, 12],
            performed_at=now - timedelta(days=2)), now=now)
        await save_workout(session, top.org.id, top.member_id, Workout.model_validate(
            {"title": "Next", "exercises": [reps(1, "Push-up", muscles={"Chest": 1.0}, rep=12), hold(2)]}), now=now)
    screen = (await client.get(_url(top, "workout"), headers={**top.user.headers, "x-locale": "he"})).json()
    why = screen["workout"]["exercises"][0]["suggestion"]["why"]
    assert (why["code"], why["variant"], why["top"]) == ("bodyweight_harder", "Diamond Push-up", 12)
    assert why["variantName"] != "Diamond Push-up"  # the library's Hebrew name
    assert screen["workout"]["exercises"][0]["suggestion"]["suggestedReps"] == [8, 8, 8]


async def test_add_from_the_app_puts_a_compound_lift_before_the_isolation_work(client, db, factory) -> None:
    """Bench press, then curls: the library says a goblet squat goes second and the app sends that position; a
    deadlift added without one lands there too. Before: no position, and the service refused it (exercise_order)."""
    t = await _with_workout(db, factory,
                            reps(1, "Dumbbell Bench Press", muscles={"Chest": 0.7, "Triceps": 0.3},
                                 equipment=["Dumbbells"], load=14),
                            reps(2, "Dumbbell Curl", muscles={"Biceps": 1.0}, equipment=["Dumbbells"], load=8))
    library = (await client.get(_url(t, "exercises?q=goblet"), headers=t.user.headers)).json()["items"]
    goblet = next(i for i in library if i["name"] == "Goblet Squat")
    assert goblet["position"] == 2
    added = await client.post(_url(t, "workout/exercises"), json={"name": goblet["name"],
                                                                   "position": goblet["position"]},
                              headers={**t.user.headers, "Idempotency-Key": "add-1"})
    assert added.status_code == 201, added.text
    assert [e["name"] for e in added.json()["workout"]["exercises"]] == ["Dumbbell Bench Press", "Goblet Squat",
                                                                         "Dumbbell Curl"]
    curl = next(i for i in (await client.get(_url(t, "exercises?q=curl"), headers=t.user.headers)).json()["items"]
                if i["name"] == "Hammer Curl")
    assert curl["position"] == 4  # isolation work goes after the main lifts
    row = await client.post(_url(t, "workout/exercises"), json={"name": "Dumbbell Deadlift"},
                            headers={**t.user.headers, "Idempotency-Key": "add-2"})
    assert row.status_code == 201, row.text
    assert [e["name"] for e in row.json()["workout"]["exercises"]] == ["Dumbbell Bench Press", "Goblet Squat",
                                                                       "Dumbbell Deadlift", "Dumbbell Curl"]


async def test_a_deleted_session_takes_no_more_turns(client, db, factory, fake_model) -> None:
    """DELETE marks the session completed; a send to it (SSE or JSON) is 409 session_closed and appends nothing."""
    fake_model.reset()
    Trainer(fake_model, [Reply(ToolUse("coach__idle", {}, id="i1"))] * 2, selection={"sources": {}})
    t = await trainee(db, factory)
    created = await client.post(_url(t, "sessions"), headers=t.user.headers)
    sid = created.json()["id"] if "id" in created.json() else created.json()["sessionId"]
    first = await sse(client, _url(t, "messages"), json_body={"message": "hi", "sessionId": sid},
                      headers=t.user.headers)
    assert first.names[-1] == "done" and not first.of("error"), first.events
    assert (await client.delete(_url(t, f"sessions/{sid}"), headers=t.user.headers)).status_code == 200
    async with db.owner() as session:
        before = await session.scalar(text("SELECT count(*) FROM trainer_events WHERE session_id = :s"), {"s": sid})
    for path in ("messages", "chat"):
        refused = await client.post(_url(t, path), json={"message": "one more thing", "sessionId": sid},
                                    headers={**t.user.headers, "x-locale": "ru"})
        assert refused.status_code == 409, refused.text
        assert refused.json()["code"] == "session_closed" and "сессия" in refused.json()["message"]
    async with db.owner() as session:
        after = await session.scalar(text("SELECT count(*) FROM trainer_events WHERE session_id = :s"), {"s": sid})
    assert after == before
    fake_model.reset()


async def test_a_log_without_muscles_counts_with_its_library_muscles(client, db, factory, fake_model) -> None:
    """Goblet squats logged from the app for an exercise saved with no muscles, and a trainer log that left them
    out: both count in the distribution, the recovery and the statistics by muscle (before: nowhere)."""
    t = await _with_workout(db, factory, reps(1, "Goblet Squat", muscles={}, equipment=["Dumbbells"], load=16,
                                              sets=1), hold(2))
    logged = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_001", "reps": 10},
                               headers={**t.user.headers, "Idempotency-Key": "g-1"})
    assert logged.status_code == 201, logged.text
    distribution = (await client.get(_url(t, "distribution"), headers=t.user.headers)).json()
    assert {m["name"] for m in distribution["untrackedMuscles"]} >= {"quadriceps", "glutes"}
    recovery = (await client.get(_url(t, "recovery"), headers=t.user.headers)).json()["muscles"]
    assert next(m for m in recovery if m["muscle"] == "Quadriceps")["recovering"] is True

    fake_model.reset()
    script = Trainer(fake_model, [
        Reply(ToolUse("logbook__log_completed_exercise", {"exercise_name": "Bulgarian Split Squat",
                                                          "exercise_type": "strength", "sets": 3, "reps": 8,
                                                          "load": 10}, id="l1")),
        Reply(ToolUse("stats__get_exercise_breakdown", {"period": "week", "by": "muscle"}, id="b1")),
        Reply(ToolUse("coach__idle", {}, id="i1"))], selection={"sources": {}})
    result = await sse(client, _url(t, "messages"), json_body={"message": "log my split squats, then break it down"},
                       headers=t.user.headers)
    assert result.names[-1] == "done" and not result.of("error"), result.events
    last = script.turn_requests()[-1]["messages"]
    breakdown = next(b["content"] for m in last for b in m["content"] if isinstance(b, dict)
                     and b.get("type") == "tool_result" and b.get("tool_use_id") == "b1")
    items = json.loads(breakdown if isinstance(breakdown, str) else breakdown[0]["text"])["items"]
    assert {i["name"] for i in items} >= {"Quadriceps", "Glutes"}, items
    fake_model.reset()
