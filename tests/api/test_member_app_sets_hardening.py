"""The member app's set logging never answers 500 (issue 39): a timed exercise with a distance, two clients logging
the same set at once, a set dated 0001-01-01, a distance that rounds to 0 km, a set logged while its exercise is
removed, an offline-queued set sent again under a new key, and a model's tool input `load: 1e309`. Over HTTP/SSE."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from tests.api.test_trainer_app_endpoints import _member, _url
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import reps
from tests.trainer.scripted import Trainer


def run_workout() -> dict:
    return {"title": "Run and press", "exercises": [
        {"type": "duration", "name": "Treadmill Run", "order": 1, "duration_min": 20, "distance": 3,
         "distance_unit": "km", "muscles": [{"name": "Quadriceps", "share": 1.0}],
         "goals": [{"name": "Conditioning", "share": 1.0}], "reasoning": "Base.", "equipment": []},
        reps(2, "Push-up", muscles={"Chest": 0.8, "Triceps": 0.2}, sets=3),
        reps(3, "Dumbbell Bench Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=14)]}


async def _scalar(db, sql: str, **params):
    async with db.owner() as session:
        return await session.scalar(text(sql), params)


async def _live_sets(db, member_id) -> int:
    return await _scalar(db, "SELECT count(*) FROM exercise_sets WHERE member_id = :m AND undone_at IS NULL",
                         m=member_id)


async def test_a_timed_exercise_with_a_distance_is_logged(client, db, factory) -> None:
    t = await _member(db, factory, run_workout())
    for body in ({"exerciseId": "ex_001", "durationSec": 600, "distance": 1.5}, {"exerciseId": "ex_001"}):
        response = await client.post(_url(t, "workout/sets"), json=body, headers=t.user.headers)
        assert response.status_code == 201, response.text
    logged = response.json()["exercise"]["logged"]
    assert [(s["durationSec"], s["distance"]) for s in logged] == [(600, 1.5), (1200, 3.0)]
    assert float(await _scalar(db, "SELECT distance_km FROM exercise_logs WHERE member_id = :m AND undone_at IS NULL "
                                   "AND workout_id IS NOT NULL", m=t.member_id)) == 4.5


async def test_two_clients_logging_the_same_set_get_one_201_and_one_409(client, db, factory) -> None:
    t = await _member(db, factory, run_workout())
    for number in (1, 2, 3):
        body = {"exerciseId": "ex_002", "setNumber": number, "reps": 10}
        answers = await asyncio.gather(*(client.post(_url(t, "workout/sets"), json=body, headers=t.user.headers)
                                         for _ in range(2)))
        assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
        assert [a.json()["code"] for a in answers if a.status_code == 409] == ["set_already_logged"]
    assert await _live_sets(db, t.member_id) == 3
    unnumbered = await asyncio.gather(*(client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_003"},
                                                    headers=t.user.headers) for _ in range(2)))
    assert [a.status_code for a in unnumbered] == [201, 201]
    assert sorted(a.json()["set"]["setNumber"] for a in unnumbered) == [1, 2]


async def test_out_of_range_dates_and_vanishing_distances_are_refused(client, db, factory) -> None:
    t = await _member(db, factory, run_workout())
    cases = [({"exerciseId": "ex_002", "reps": 5, "performedAt": "0001-01-01T00:00:00Z"}, "log_too_old"),
             ({"exerciseId": "ex_002", "reps": 5, "performedAt": "0001-01-01T00:00:00+14:00"}, "log_too_old"),
             ({"exerciseId": "ex_002", "reps": 5, "performedAt": (datetime.now(UTC) - timedelta(days=400)).isoformat()},
              "log_too_old"),
             ({"exerciseId": "ex_002", "reps": 5, "performedAt": "9999-12-31T23:59:59Z"}, "log_in_future"),
             ({"exerciseId": "ex_001", "distance": 0.0001}, "invalid_set")]
    for body, code in cases:
        response = await client.post(_url(t, "workout/sets"), json=body, headers=t.user.headers)
        assert (response.status_code, response.json()["code"]) == (422, code), body
    assert await _live_sets(db, t.member_id) == 0
    for _ in range(2):  # later sets of the same exercise are logged as before
        response = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_002", "reps": 5},
                                     headers=t.user.headers)
        assert response.status_code == 201, response.text
    assert await _scalar(db, "SELECT count(*) FROM exercise_sets WHERE member_id = :m AND "
                             "performed_at = '-infinity'", m=t.member_id) == 0


async def test_a_set_logged_while_its_exercise_is_removed_leaves_no_live_orphan(client, db, factory) -> None:
    for _ in range(6):
        t = await _member(db, factory, run_workout(), days_ago_bench=None)
        logged, removed = await asyncio.gather(
            client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_002", "reps": 8}, headers=t.user.headers),
            client.delete(_url(t, "workout/exercises/ex_002"), headers=t.user.headers))
        assert removed.status_code == 200, removed.text
        assert (logged.status_code, logged.status_code == 404 and logged.json()["code"]) in (
            (201, False), (404, "exercise_not_found")), logged.text
        orphans = await _scalar(db, """
            SELECT count(*) FROM exercise_sets s JOIN trainer_workouts w ON w.id = s.workout_id
            WHERE s.member_id = :m AND s.undone_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(w.exercises) e WHERE e->>'id' = s.exercise_key)""",
                                m=t.member_id)
        assert orphans == 0
        assert await _scalar(db, "SELECT count(*) FROM exercise_logs WHERE member_id = :m AND undone_at IS NULL "
                                 "AND exercise_key = 'ex_002'", m=t.member_id) == 0


async def test_an_offline_set_sent_again_under_a_new_key_is_logged_once(client, db, factory) -> None:
    """The rule (README, the member app): a set carrying the `clientSetId` of a set already logged is that set
    (200, nothing logged); without one, a set with no number whose `performedAt` and values equal a live set of the
    same exercise is that set too (two sets are never done at the same instant)."""
    t = await _member(db, factory, run_workout())
    at = (datetime.now(UTC) - timedelta(minutes=3)).isoformat()
    client_id = str(uuid.uuid4())
    body = {"exerciseId": "ex_002", "reps": 10, "performedAt": at, "clientSetId": client_id}
    first = await client.post(_url(t, "workout/sets"), json=body, headers={**t.user.headers, "Idempotency-Key": "k1"})
    assert first.status_code == 201, first.text
    again = await client.post(_url(t, "workout/sets"), json=body, headers={**t.user.headers, "Idempotency-Key": "k2"})
    assert again.status_code == 200 and again.json()["set"]["id"] == first.json()["set"]["id"], again.text
    moved = await client.post(_url(t, "workout/sets"), json={**body, "reps": 11, "performedAt": None},
                              headers={**t.user.headers, "Idempotency-Key": "k3"})
    assert moved.status_code == 200 and moved.json()["set"]["id"] == first.json()["set"]["id"]
    plain = {"exerciseId": "ex_002", "reps": 9, "performedAt": at}
    second = await client.post(_url(t, "workout/sets"), json=plain, headers={**t.user.headers, "Idempotency-Key": "k4"})
    assert second.status_code == 201 and second.json()["set"]["setNumber"] == 2
    resent = await client.post(_url(t, "workout/sets"), json=plain, headers={**t.user.headers, "Idempotency-Key": "k5"})
    assert resent.status_code == 200 and resent.json()["set"]["id"] == second.json()["set"]["id"]
    assert await _live_sets(db, t.member_id) == 2
    third = await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_002", "reps": 9},
                              headers=t.user.headers)
    assert third.status_code == 201 and third.json()["set"]["setNumber"] == 3  # a real next set is still a set


async def test_a_model_load_of_1e309_is_refused_and_the_turn_goes_on(client, db, factory, fake_model) -> None:
    fake_model.reset()
    t = await _member(db, factory, run_workout())
    Trainer(fake_model, [Reply(ToolUse("logbook__log_completed_exercise", {
        "exercise_name": "Bench Press", "exercise_type": "strength", "sets": 3, "reps": 8, "load": float("inf"),
        "muscles": ["Chest"], "goals": ["Strength"]}, id="big1")), Reply(ToolUse("coach__idle", {}, id="i1"))])
    result = await sse(client, f"/organizations/{t.org.id}/trainer/messages",
                       json_body={"message": "log bench 3x8"}, headers=t.user.headers)
    fake_model.reset()
    assert result.status == 200 and result.names[-1] == "done"
    assert [e["code"] for e in result.of("error")] == []
    refused = result.of("tool_completed")[0]
    assert refused["ok"] is False and refused["error"]["code"] == "validation_failed"
    stored = await _scalar(db, "SELECT input->>'load' FROM ai_tool_executions WHERE tool_use_id = 'big1' "
                               "AND org_id = :o", o=t.org.id)
    assert stored is not None and stored.lower().lstrip("+") in ("infinity", "1e309")
    assert await _scalar(db, "SELECT count(*) FROM exercise_logs WHERE member_id = :m AND name = 'Bench Press'",
                         m=t.member_id) == 0


async def test_finish_takes_true_or_false_and_nothing_that_coerces_to_one(client, db, factory) -> None:
    """Found by schemathesis once it reached the workout as every role: {"discard": 0} finished the workout."""
    t = await _member(db, factory, run_workout())
    await client.post(_url(t, "workout/sets"), json={"exerciseId": "ex_002", "reps": 8}, headers=t.user.headers)
    for discard in (0, 1, "false", None):
        response = await client.post(_url(t, "workout/finish"), json={"discard": discard}, headers=t.user.headers)
        assert (response.status_code, response.json()["code"]) == (400, "validation_failed"), discard
    assert (await client.get(_url(t, "workout"), headers=t.user.headers)).json()["workout"] is not None
    done = await client.post(_url(t, "workout/finish"), json={"discard": False}, headers=t.user.headers)
    assert done.status_code == 200 and done.json()["status"] == "completed"
