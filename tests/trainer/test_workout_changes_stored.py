"""Changes to the current workout during the session (gym.training.workout_changes) through both front doors — the
trainer's workout tools and the member app's service — store the same JSON, answer the same results and refuse with
the same codes, messages and hints as before the changes were typed (issue 45 item 4): the expectations below were
recorded from the dict-merging code and must not move.

JSON is compared as PostgreSQL compares JSONB (a number is a number: 16 and 16.0 are one value)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from sqlalchemy import text

from gym.errors import GymError
from gym.training import today
from gym.training.library_plan import Prescription
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.trainer.fixtures import NOW, chest_workout, hold, reps, trainee

EXPECTED = Path(__file__).with_name("workout_changes_stored.json")

TOOL_STEPS: list[tuple[str, dict[str, Any]]] = [
    ("workout__adjust_exercise", {"exercise_id": "ex_001", "changes": {"sets": 4, "reps": [8, 8, 8, 8], "load": 16}}),
    ("workout__adjust_exercise", {"exercise_id": 3, "changes": {"order": 1}}),
    ("workout__adjust_exercise", {"exercise_id": "ex_003", "changes": {"order": 9, "rest_sec": 45}}),
    ("workout__adjust_exercise", {"exercise_id": "2", "changes": {"group": {"id": "s-1", "type": "superset",
                                                                           "position": 1, "rounds": 3}}}),
    ("workout__adjust_exercise", {"exercise_id": "ex_003", "changes": {"order": 0}}),
    ("workout__swap_exercise", {"exercise_id": "ex_002", "new_exercise": reps(
        7, "Dumbbell Fly", muscles={"Chest": 1.0}, equipment=["Dumbbells"], load=8)}),
    ("workout__add_exercise_to_workout", {"exercise": hold(5, "Side Plank"), "position": 2}),
    ("workout__add_exercise_to_workout", {"exercise": reps(1, "Push-up", muscles={"Chest": 0.8, "Triceps": 0.2})}),
    ("workout__remove_exercise", {"exercise_id": "ex_001"}),
    # refusals: each leaves the stored workout as it was
    ("workout__adjust_exercise", {"exercise_id": 1, "changes": {"id": "ex_100", "type": "hold"}}),
    ("workout__adjust_exercise", {"exercise_id": "ex_042", "changes": {"sets": 2}}),
    ("workout__adjust_exercise", {"exercise_id": 1, "changes": {"sets": 5}}),
    ("workout__adjust_exercise", {"exercise_id": 1, "changes": {"sets": 0, "foo": 1}}),
    ("workout__adjust_exercise", {"exercise_id": 1, "changes": {"duration_min": 5}}),
    ("workout__adjust_exercise", {"exercise_id": 1, "changes": {"load": 20}}),
    ("workout__adjust_exercise", {"exercise_id": 1, "changes": {"name": "Zorblax Curl"}}),
    ("workout__adjust_exercise", {"exercise_id": 2, "changes": {"group": {"id": "s-1", "type": "circuit",
                                                                         "position": 2, "name": "Late"}}}),
    ("workout__swap_exercise", {"exercise_id": "ex_009", "new_exercise": hold(1)}),
    ("workout__swap_exercise", {"exercise_id": 1, "new_exercise": reps(
        1, "Barbell Bench Press", muscles={"Chest": 1.0}, equipment=["Barbell"], load=40)}),
    ("workout__add_exercise_to_workout", {"exercise": hold(1), "position": 9}),
    ("workout__add_exercise_to_workout", {"exercise": {**hold(1), "load": 3}}),
]


async def _stored(db, t) -> dict[str, Any]:
    async with db.owner() as session:
        row = (await session.execute(text(
            "SELECT workout_key, exercises, last_exercise_number FROM trainer_workouts WHERE member_id = :m "
            "AND status = 'current'"), {"m": t.member_id})).one()
    return {"workout": row.workout_key, "exercises": row.exercises, "last": row.last_exercise_number}


async def _tool_outcomes(tools, db, t) -> list[dict[str, Any]]:
    await tools.ok("workout__generate_workout", chest_workout(), org=t.org, user=t.user, role="member", now=NOW)
    outcomes = []
    for name, input in TOOL_STEPS:
        outcome = await tools.run(name, input, org=t.org, user=t.user, role="member", now=NOW)
        said = outcome.output if outcome.ok else {k: outcome.error[k] for k in ("code", "message", "hint")}
        outcomes.append({"tool": name, "ok": outcome.ok, "said": said, "stored": await _stored(db, t)})
    return outcomes


async def _app_outcomes(db, t) -> list[dict[str, Any]]:
    async with db.scope(org_id=t.org.id) as session:
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(chest_workout()), now=NOW)
    steps: list[tuple[str, dict[str, Any]]] = [
        ("add_from_library", {"name": "Dumbbell Fly", "chosen": Prescription(sets=2, reps=12, load=6)}),
        ("add_from_library", {"name": "Side Plank", "position": 1, "chosen": Prescription(hold_sec=20)}),
        ("swap_from_library", {"exercise_id": "ex_002", "name": "Dumbbell Bench Press", "load": None}),
        ("swap_from_library", {"exercise_id": "ex_003", "name": "Dead Bug", "load": None}),
        ("remove", {"exercise_id": "ex_004"}),
        ("swap_from_library", {"exercise_id": "ex_077", "name": "Plank", "load": None}),
        ("swap_from_library", {"exercise_id": "ex_001", "name": "Barbell Bench Press", "load": 40}),
        ("add_from_library", {"name": "Zorblax Curl"}),
        ("remove", {"exercise_id": "ex_999"}),
        # a swap for one of the same kind keeps its prescription (sets, reps or hold, rest) and goals
        ("swap_from_library", {"exercise_id": "ex_001", "name": "Goblet Squat", "load": None}),
        ("swap_from_library", {"exercise_id": "ex_005", "name": "Plank", "load": None}),
    ]
    outcomes = []
    for method, kwargs in steps:
        async with db.scope(org_id=t.org.id) as session:
            try:
                screen = await getattr(today, method)(session, t.org.id, t.member_id, NOW, "en", **kwargs)
                said: dict[str, Any] = {"exercises": [
                    {k: e[k] for k in ("id", "order", "name", "type", "sets", "displayName")}
                    for e in screen["workout"]["exercises"]]}
                ok = True
            except GymError as exc:
                said, ok = {"code": exc.code, "message": exc.message, "hint": exc.hint, "status": exc.status}, False
        outcomes.append({"app": method, "ok": ok, "said": said, "stored": await _stored(db, t)})
    return outcomes


def _same_json(value: Any) -> Any:
    """JSON as JSONB compares it (numbers by value: 16 and 16.0 are one value), with a null key the same as a missing
    one (every nullable §4.9 field defaults to null: the model reads both alike)."""
    if isinstance(value, dict):
        return {k: _same_json(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_same_json(v) for v in value]
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


async def test_changes_store_answer_and_refuse_as_before(tools, db, factory) -> None:
    t = await trainee(db, factory)
    got = {"tools": await _tool_outcomes(tools, db, t)}
    other = await trainee(db, factory, "Noa Levi")
    got["app"] = await _app_outcomes(db, other)
    got = json.loads(json.dumps(got, default=str).replace(str(t.member_id), "M").replace(str(other.member_id), "M"))
    expected = json.loads(EXPECTED.read_text())
    for kind in ("tools", "app"):
        assert len(got[kind]) == len(expected[kind])
        for step, (mine, before) in enumerate(zip(got[kind], expected[kind], strict=True)):
            assert _same_json(mine) == _same_json(before), (kind, step)
    for kind in ("tools", "app"):  # changes went through and refusals kept the workout as it was, at both doors
        steps = got[kind]
        assert {s["ok"] for s in steps} == {True, False}
        assert all(s["stored"] == before["stored"] for before, s in itertools.pairwise(steps)
                   if not s["ok"])
