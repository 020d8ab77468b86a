"""The table test of issue 38: every library exercise tagged `overhead_press`, `burpee_family` or `lunge` — under its
library name and each of its Hebrew and Russian names (the library's aliases and the names the app shows) — goes
through generate, swap, add and schedule for a member whose left shoulder hurts, who never does burpees and who
never does lunges (each said in words, without exclusions), over SSE with a scripted model. Every one is refused,
as the exercise the rule names; nothing is stored.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text

from core.i18n import part
from gym.exercise_library import LIBRARY
from gym.training.movements import name_key, resolve
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import hold, reps, trainee
from tests.trainer.scripted import Trainer

PATTERNS = ("overhead_press", "burpee_family", "lunge")
RULES = [{"type": "injury", "description": "my left shoulder hurts", "guidance": "protect it"},
         {"type": "exercise", "description": "never burpees", "guidance": "leave them out"},
         {"type": "exercise", "description": "never do lunges", "guidance": "leave them out"}]
CALLS_PER_TURN = 9  # and the idle: the trainer's ten iterations
BATCH = 25


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


def table() -> list[tuple[str, str, str]]:
    """(name as said, library name, the pattern that rules it out) for every tagged exercise and its names."""
    rows = []
    for exercise in LIBRARY:
        pattern = next((p for p in PATTERNS if p in exercise.patterns), None)
        if pattern is None:
            continue
        aliases = [alias for locale in ("he", "ru") for alias in part("exercises", locale)["aliases"][exercise.name]]
        shown = [part("exercises", locale)["exercises"][exercise.name]["name"] for locale in ("he", "ru")]
        said = {name_key(n): n for n in (exercise.name, *aliases, *shown)}
        rows += [(name, exercise.name, pattern) for name in said.values()]
    return rows


def _exercise(order: int, name: str) -> dict[str, Any]:
    return reps(order, name, muscles={"Shoulders": 0.5, "Quadriceps": 0.5})


def test_the_table_covers_every_tagged_exercise_in_three_languages() -> None:
    rows = table()
    tagged = {e.name for e in LIBRARY if set(PATTERNS) & set(e.patterns)}
    assert {library for _, library, _ in rows} == tagged and len(tagged) >= 45
    assert {"Behind the Neck Press", "Viking Press", "Bradford Press", "Landmine Press", "Bottoms-up Kettlebell Press",
            "Sprawl", "Squat Thrust", "Walking Lunge"} <= tagged
    said = {name_key(name) for name, _, _ in rows}
    assert {name_key(n) for n in ("לחיצת כתפיים במשקולות", "жим гантелей над головой", "ספראול",
                                  "выпады в ходьбе")} <= said
    assert all(resolve(name).name == library for name, library, _ in rows)


async def test_every_tagged_exercise_and_its_names_is_refused_by_every_tool(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    url = f"/organizations/{t.org.id}/trainer"

    async def run(calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
        """The calls in turns of nine (each turn a new session: its context stays small); their results in order."""
        out = []
        for start in range(0, len(calls), CALLS_PER_TURN):
            chunk = calls[start:start + CALLS_PER_TURN]
            Trainer(fake_model, [*(Reply(ToolUse(name, args, id=f"c{n}")) for n, (name, args) in enumerate(chunk)),
                                 Reply(ToolUse("coach__idle", {}, id="idle"))])
            session = (await client.post(f"{url}/sessions", headers=t.user.headers)).json()["id"]
            result = await sse(client, f"{url}/messages", json_body={"message": "go", "sessionId": session},
                               headers=t.user.headers)
            done = {c["toolUseId"]: c for c in result.of("tool_completed")}
            out += [done[f"c{n}"] for n in range(len(chunk))]
        return out

    rules = await run([("prefs__set_preference", rule) for rule in RULES])
    assert all(r["ok"] and r["output"]["enforced"] for r in rules), rules
    base = {"title": "Base", "exercises": [reps(1, "Glute Bridge", muscles={"Glutes": 1.0}), hold(2)]}
    assert (await run([("workout__generate_workout", base)]))[0]["ok"]

    rows = table()
    later = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    batches = [rows[i:i + BATCH] for i in range(0, len(rows), BATCH)]
    calls: list[tuple[str, dict[str, Any]]] = []
    for batch in batches:
        exercises = [_exercise(n, name) for n, (name, _, _) in enumerate(batch, start=1)]
        calls += [("workout__generate_workout", {"title": "Refused", "exercises": exercises}),
                  ("calendar__schedule_workout", {"scheduled_at": later, "workout_type": "Refused",
                                                  "exercises": exercises})]
    for name, _, _ in rows:
        calls += [("workout__swap_exercise", {"exercise_id": 1, "new_exercise": _exercise(1, name)}),
                  ("workout__add_exercise_to_workout", {"exercise": _exercise(3, name)})]
    results = iter(await run(calls))

    missed: list[tuple[str, str]] = []

    def check(tool: str, result: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
        """Refused by an injury or a never rule, as the exercise it is (each of a batch by its order)."""
        error = result.get("error") or {}
        refused = [r for r in (error.get("data") or {}).get("refused") or []]
        by_order = {r["order"]: r for r in refused}
        for order, (name, library, _) in enumerate(expected, start=1):
            hit = by_order.get(order) if len(expected) > 1 else (refused[0] if refused else None)
            if error.get("code") not in ("injury_conflict", "preference_conflict") or hit is None or \
                    hit["exercise"] != library:
                missed.append((tool, name))

    for batch in batches:
        check("generate", next(results), batch)
        check("schedule", next(results), batch)
    for row in rows:
        check("swap", next(results), [row])
        check("add", next(results), [row])
    assert missed == [], f"{len(missed)} of {4 * len(rows)} let through: {missed[:20]}"
    print(f"\nrule table: {len(rows)} names of {len({r[1] for r in rows})} exercises × generate, schedule, swap, add "
          f"= {4 * len(rows)} refusals, 0 let through")

    async with db.owner() as session:
        stored = (await session.execute(text("SELECT exercises FROM trainer_workouts WHERE member_id = :m AND "
                                             "status = 'current'"), {"m": t.member_id})).scalar_one()
        planned = await session.scalar(text("SELECT count(*) FROM scheduled_workouts WHERE member_id = :m"),
                                       {"m": t.member_id})
    assert [e["name"] for e in stored] == ["Glute Bridge", "Plank"] and planned == 0
