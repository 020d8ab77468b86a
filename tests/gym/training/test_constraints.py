"""Injuries and never-rules as constraints in code: exclusions by exercise (name, alias, contained name), movement
pattern (the library's tags), muscle (share ≥ 0.3 or the library's prime mover) and equipment (listed, else the
library's); hard ones refuse with a typed error naming the exercise and the rule, soft ones only note. The same
preference said twice updates the first. Patterns stored under their earlier names still hold."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gym.errors import GymError
from gym.training import constraints, preferences
from gym.training.constraints import Exclusions, conflicts, facts
from gym.training.preference_rules import Pref

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
SHOULDER = Pref("inj", "injury", "left shoulder: no overhead pressing", "no overhead pressing", NOW,
                NOW + timedelta(days=10), exclusions={"patterns": ["overhead_press", "shoulder_flexion_loaded_above_90"],
                                                      "region": "shoulder", "side": "left"})
BURPEES = Pref("bur", "exercise", "Dislikes burpees", "Never include burpees.", NOW,
               exclusions={"exercises": ["Burpee"]}, hard=True)
KNEE = Pref("knee", "injury", "left knee: no jumping", "no jumping", NOW, exclusions={"patterns": ["jumping"]})
NO_BARBELL = Pref("bb", "equipment", "no barbell work", "no barbells", NOW, exclusions={"equipment": ["Barbells"]},
                  hard=True)
REST_CHEST = Pref("chest", "muscle_group", "rest chest", "no chest", NOW, exclusions={"muscles": ["Chest"]},
                  hard=True)
NO_LUNGES_SOFT = Pref("soft", "exercise", "would rather not lunge", "fewer lunges", NOW,
                      exclusions={"exercises": ["Lunge"]}, hard=False)


def ex(name: str, muscles: dict[str, float] | None = None, equipment: list[str] | None = None, order: int = 1):
    return {"name": name, "order": order, "muscles": [{"name": m, "share": s} for m, s in (muscles or {}).items()],
            "equipment": equipment or []}


@pytest.mark.parametrize(("exercise", "pref", "rule", "values"), [
    (ex("Dumbbell Push Press", {"Shoulders": 0.8, "Triceps": 0.2}), SHOULDER, "pattern",
     ("overhead_press", "shoulder_flexion_loaded_above_90")),
    (ex("Seated Dumbbell Shoulder Press"), SHOULDER, "pattern", ("overhead_press", "shoulder_flexion_loaded_above_90")),
    (ex("Landmine Press"), SHOULDER, "pattern", ("overhead_press", "shoulder_flexion_loaded_above_90")),
    (ex("Snatch"), SHOULDER, "pattern", ("shoulder_flexion_loaded_above_90",)),   # caught overhead
    (ex("Burpees"), BURPEES, "exercise", ("Burpee",)),
    (ex("Burpee Box Jump Over"), BURPEES, "exercise", ("Burpee",)),  # contains the excluded name
    (ex("бёрпи"), BURPEES, "exercise", ("Burpee",)),                  # the library's Russian alias
    (ex("Jump Squat"), KNEE, "pattern", ("jump",)),                  # stored as "jumping": today's "jump"
    (ex("Double-Unders"), KNEE, "pattern", ("jump",)),
    (ex("Back Squat", equipment=["barbell", "rack"]), NO_BARBELL, "equipment", ("barbell",)),
    (ex("Barbell Row"), NO_BARBELL, "equipment", ("barbell",)),      # not listed: the library's
    (ex("Push-up", {"Chest": 0.7, "Triceps": 0.3}), REST_CHEST, "muscle", ("Chest",)),
    (ex("Dumbbell Fly", {"Shoulders": 1.0}), REST_CHEST, "muscle", ("Chest",)),  # the library's prime mover
])
def test_an_exercise_breaking_an_exclusion_is_a_conflict(exercise, pref, rule, values) -> None:
    found = conflicts(facts(exercise), [pref])
    assert [(c.rule, c.values) for c in found] == [(rule, values)]


@pytest.mark.parametrize(("exercise", "pref"), [
    (ex("Dumbbell Bench Press", {"Chest": 0.7, "Shoulders": 0.1, "Triceps": 0.2}), SHOULDER),
    (ex("Face Pull", {"Shoulders": 0.6, "Trapezius": 0.4}), SHOULDER),
    (ex("Mountain Climber"), BURPEES),
    (ex("Goblet Squat", {"Quadriceps": 0.7, "Glutes": 0.3}), KNEE),
    (ex("Dumbbell Row", {"Back": 0.8, "Biceps": 0.2}, ["dumbbell"]), NO_BARBELL),
    (ex("Bench Press", {"Triceps": 0.8, "Shoulders": 0.2}), SHOULDER),
])
def test_what_the_rule_allows_passes(exercise, pref) -> None:
    assert conflicts(facts(exercise), [pref]) == []


def test_hard_conflicts_raise_one_typed_error_injury_first_and_soft_ones_only_note() -> None:
    with pytest.raises(GymError) as info:
        constraints.check([ex("Burpee", order=1), ex("Jump Squat", order=2), ex("Goblet Squat", order=3)],
                          [BURPEES, KNEE, SHOULDER])
    assert info.value.code == "injury_conflict"
    message = info.value.message
    assert 'Jump Squat (exercise 2) breaks the injury "left knee: no jumping": pattern jump' in message
    assert 'Burpee (exercise 1) breaks the preference "Dislikes burpees": exercise Burpee' in message
    assert "Goblet Squat" not in message and "Replace" in (info.value.hint or "")
    with pytest.raises(GymError) as info:
        constraints.check([ex("Burpee")], [BURPEES])
    assert info.value.code == "preference_conflict"
    notes = constraints.check([ex("Walking Lunges")], [NO_LUNGES_SOFT, SHOULDER])
    assert [(n.code, n.hard, n.exercise) for n in notes] == [("preference_conflict", False, "Walking Lunges")]
    assert constraints.check([ex("Walking Lunges")], [Pref("x", "time", "mornings", "mornings", NOW)]) == []


def test_exclusions_compare_canonically() -> None:
    said = Exclusions(exercises=["burpees", "BURPEE"], patterns=["jumping", "burpee"], equipment=["Kettlebells"])
    assert said.canonical() == Exclusions(exercises=["Burpee"], patterns=["jump", "burpee_family"],
                                          equipment=["kettlebell"])
    with pytest.raises(ValueError):
        Exclusions.model_validate({"patterns": ["cartwheels"]})


async def test_the_same_preference_said_twice_updates_the_first(db, factory, members) -> None:
    org = await factory.org()
    member = await members.add(org.id)
    async with db.scope(org_id=org.id) as session:
        def save(**kw):
            base = {"type": "exercise", "description": "never burpees", "guidance": "no burpees", "now": NOW}
            return preferences.save_preference(session, org.id, member, **{**base, **kw})

        first = await save(exclusions={"exercises": ["Burpee"], "patterns": ["burpee"]})
        again = await save(description="avoid burpees", exclusions={"exercises": ["Burpees"]})
        assert again.row.id == first.row.id and again.previous["description"] == "never burpees"
        assert again.row.exclusions == {"exercises": ["Burpee"], "patterns": ["burpee_family"]}  # never narrowed
        today = await save(description="no burpees today", delete_after_use=True,
                           exclusions={"exercises": ["Burpee"]})
        assert today.row.id != first.row.id  # "never" and "today" are two preferences
        words = [await save(type="time", description="Mornings please", guidance="before 9"),
                 await save(type="time", description="mornings  please", guidance="before 8"),
                 await save(type="time", description="short sessions", guidance="30 min")]
        assert words[0].row.id == words[1].row.id != words[2].row.id
        live = await preferences.active_preferences(session, org.id, member, NOW)
        assert sorted(p.description for p in live) == ["avoid burpees", "mornings  please", "no burpees today",
                                                       "short sessions"]
        injury = await preferences.set_preference(session, org.id, member, type="injury", description="knee",
                                                  guidance="no jumping", now=NOW, hard=False,
                                                  exclusions={"patterns": ["jumping"]})
        assert injury.hard  # an injury is always enforced
        back = await preferences.restore_preference(session, org.id, member, first.row.id, again.previous, now=NOW)
        assert back.description == "never burpees"


def test_stored_exclusions_outlive_a_vocabulary_change() -> None:
    """A pattern the vocabulary no longer has is dropped, not a crash of every workout tool."""
    old = constraints.exclusions_of({"patterns": ["jumping", "cartwheels"], "muscles": ["Lats", "Chest"]})
    assert (old.patterns, old.muscles) == (["jump"], ["Chest"])
