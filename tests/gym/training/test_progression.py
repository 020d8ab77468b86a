"""TRAINER.md's progressive-overload rule as a table: success = every prescribed set reached its reps at RPE ≤ 9;
next load = the smallest multiple of the step (2.5 kg / 5 lb; 1 kg / 2 lb for dumbbells under 10 kg / 20 lb) inside
[load × 1.05, load × 1.10]; no step inside → same load, +1 rep per set up to the top of the range; a miss keeps the
load; two misses in a row drop 10 % rounded down to the step; a new exercise gets none; never mixes units."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gym.training.entries import LogEntry
from gym.training.progression import suggest, suggested_kg
from gym.training.units import to_kg

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)

# One past session: (load in the row's unit, reps reached per set, reps prescribed per set or None = as reached, RPE)
Past = tuple[float, list[int], list[int] | None, float | None]

TABLE: list[tuple[str, str, str, list[str], list[Past], tuple[float | None, list[int] | None, str]]] = [
    # label, exercise, unit, equipment, history newest first → (load, reps, reason code)
    ("+6.3 %: 42.5 is the only step in [42, 44]", "Back Squat", "kg", ["barbell"],
     [(40, [8, 8, 8], None, 8)], (42.5, [8, 8, 8], "load_up")),
    ("exactly +5 % is inside", "Back Squat", "kg", ["barbell"], [(100, [5] * 5, None, 8)], (105, [5] * 5, "load_up")),
    ("63 → 65, not 62.5", "Back Squat", "kg", ["barbell"], [(60, [5, 5, 5], None, 8)], (65, [5, 5, 5], "load_up")),
    ("10 kg: 12.5 would be +25 % → double progression", "Back Squat", "kg", ["barbell"],
     [(10, [5, 5, 5], None, 7)], (10, [6, 6, 6], "add_reps")),
    ("22 kg: 25 would be +13.6 % → double progression", "Bench Press", "kg", ["barbell"],
     [(22, [8, 8, 8], None, 8)], (22, [9, 9, 9], "add_reps")),
    ("at the top of the 12-rep range the reps stay too", "Bench Press", "kg", ["barbell"],
     [(22, [12, 12, 12], None, 8)], (22, [12, 12, 12], "top_of_range")),
    ("reps rise per set, capped at the top", "Bench Press", "kg", ["barbell"],
     [(22, [12, 11, 10], None, 8)], (22, [12, 12, 11], "add_reps")),
    ("uneven prescription: each set +1", "Bench Press", "kg", ["barbell"],
     [(22, [10, 8, 8, 6], None, 8)], (22, [11, 9, 9, 7], "add_reps")),
    ("uneven prescription met: load up, same reps", "Bench Press", "kg", ["barbell"],
     [(50, [10, 8, 8, 6], [10, 8, 8, 6], 9)], (52.5, [10, 8, 8, 6], "load_up")),
    ("endurance range tops at 20", "Leg Press", "kg", ["machine"], [(10, [15, 15], None, 7)],
     (10, [16, 16], "add_reps")),
    ("above 20 reps the prescription is its own top", "Leg Press", "kg", ["machine"], [(10, [25, 25], None, 7)],
     (10, [25, 25], "top_of_range")),
    ("dumbbell under 10 kg: 1 kg steps, none in [8.4, 8.8]", "Dumbbell Curl", "kg", ["dumbbell"],
     [(8, [10, 10, 10], None, 8)], (8, [11, 11, 11], "add_reps")),
    ("dumbbell 9.5 kg: 10 is a 1 kg step in [9.975, 10.45]", "Dumbbell Curl", "kg", ["dumbbell"],
     [(9.5, [10, 10], None, 8)], (10, [10, 10], "load_up")),
    ("dumbbell 12 kg: 2.5 kg steps again, none in [12.6, 13.2]", "Goblet Squat", "kg", ["dumbbell"],
     [(12, [10, 10, 10], None, 8)], (12, [11, 11, 11], "add_reps")),
    ("a library dumbbell movement without equipment listed", "Lateral Raise", "kg", [],
     [(6.5, [12, 12], None, 8)], (7, [12, 12], "load_up")),
    ("lb: 135 → 145 (141.75..148.5)", "Back Squat", "lbs", ["barbell"], [(135, [5, 5, 5], None, 8)],
     (145, [5, 5, 5], "load_up")),
    ("lb: 100 → 105", "Back Squat", "lbs", ["barbell"], [(100, [5, 5, 5], None, 8)], (105, [5, 5, 5], "load_up")),
    ("lb dumbbell under 20: 2 lb steps, 16 in [15.75, 16.5]", "Dumbbell Curl", "lbs", ["dumbbell"],
     [(15, [10, 10], None, 8)], (16, [10, 10], "load_up")),
    ("lb dumbbell 25: 5 lb steps, none in [26.25, 27.5]", "Dumbbell Curl", "lbs", ["dumbbell"],
     [(25, [10, 10], None, 8)], (25, [11, 11], "add_reps")),
    ("RPE exactly 9 is a success", "Back Squat", "kg", ["barbell"], [(40, [8, 8, 8], None, 9)],
     (42.5, [8, 8, 8], "load_up")),
    ("no RPE recorded counts as ≤ 9", "Back Squat", "kg", ["barbell"], [(40, [8, 8, 8], None, None)],
     (42.5, [8, 8, 8], "load_up")),
    ("a missed rep is a miss: the load stays", "Back Squat", "kg", ["barbell"],
     [(40, [8, 8, 7], [8, 8, 8], 8)], (40, [8, 8, 8], "repeat_after_miss")),
    ("a set left out is a miss", "Back Squat", "kg", ["barbell"], [(40, [8, 8], [8, 8, 8], 8)],
     (40, [8, 8, 8], "repeat_after_miss")),
    ("every rep at RPE 9.5 is a miss", "Back Squat", "kg", ["barbell"], [(40, [8, 8, 8], None, 9.5)],
     (40, [8, 8, 8], "repeat_after_miss")),
    ("RPE 10 is a miss", "Back Squat", "kg", ["barbell"], [(40, [8, 8, 8], None, 10)],
     (40, [8, 8, 8], "repeat_after_miss")),
    ("two misses in a row: 40 × 0.9 = 36 → 35", "Back Squat", "kg", ["barbell"],
     [(40, [8, 8, 6], [8, 8, 8], 9), (40, [8, 7, 7], [8, 8, 8], 9)], (35, [8, 8, 8], "deload_after_two_misses")),
    ("two misses in a row: 100 → 90", "Deadlift", "kg", ["barbell"],
     [(100, [5, 5, 4], [5, 5, 5], 9), (100, [5, 4, 4], [5, 5, 5], 9.5)], (90, [5, 5, 5], "deload_after_two_misses")),
    ("two misses of a 10 kg dumbbell: 9 (1 kg steps below 10)", "Dumbbell Curl", "kg", ["dumbbell"],
     [(10, [10, 9], [10, 10], 9), (10, [9, 9], [10, 10], 9)], (9, [10, 10], "deload_after_two_misses")),
    ("lb: two misses at 135 → 121.5 → 120", "Back Squat", "lbs", ["barbell"],
     [(135, [5, 5, 4], [5, 5, 5], 9), (135, [5, 4, 4], [5, 5, 5], 9)], (120, [5, 5, 5], "deload_after_two_misses")),
    ("a miss after a success only repeats", "Back Squat", "kg", ["barbell"],
     [(42.5, [8, 8, 7], [8, 8, 8], 9), (40, [8, 8, 8], None, 8)], (42.5, [8, 8, 8], "repeat_after_miss")),
    ("a miss at a new load after a miss at another only repeats", "Back Squat", "kg", ["barbell"],
     [(40, [8, 7, 7], [8, 8, 8], 9), (42.5, [8, 7, 6], [8, 8, 8], 9)], (40, [8, 8, 8], "repeat_after_miss")),
    ("a success after a miss moves on", "Back Squat", "kg", ["barbell"],
     [(40, [8, 8, 8], None, 8), (40, [8, 8, 7], [8, 8, 8], 9)], (42.5, [8, 8, 8], "load_up")),
    ("a new exercise gets none", "Front Squat", "kg", ["barbell"], [], (None, None, "new_exercise")),
]


def _history(exercise: str, unit: str, equipment: list[str], past: list[Past]) -> list[LogEntry]:
    return [LogEntry(exercise, NOW - timedelta(days=3 * (n + 1)), sets=len(done), reps=None,
                     load_kg=round(to_kg(load, unit), 2), rpe=rpe, reps_per_set=tuple(done),
                     target_reps=tuple(target) if target else None, equipment=tuple(equipment))
            for n, (load, done, target, rpe) in enumerate(past)]


@pytest.mark.parametrize(("label", "exercise", "unit", "equipment", "past", "expected"), TABLE,
                         ids=[row[0] for row in TABLE])
def test_the_progression_table(label, exercise, unit, equipment, past, expected) -> None:
    s = suggest(exercise, _history(exercise, unit, equipment, past), unit)
    assert (s.load, s.reps, s.code) == expected, s.why
    assert s.unit == unit and (s.why.get("unit", unit) == unit)


def test_why_carries_the_numbers_its_words_need() -> None:
    up = suggest("Back Squat", _history("Back Squat", "kg", [], [(40, [8, 8, 8], None, 8)]), "kg")
    assert up.why == {"code": "load_up", "from": 40.0, "to": 42.5, "unit": "kg", "pct": 6.3}
    stay = suggest("Bench Press", _history("Bench Press", "kg", [], [(22, [12, 12, 12], None, 8)]), "kg")
    assert stay.why == {"code": "top_of_range", "load": 22.0, "unit": "kg", "top": 12, "next": 25.0, "pct": 13.6}
    miss = suggest("Back Squat", _history("Back Squat", "kg", [], [(40, [8, 8, 6], [8, 8, 8], 8)]), "kg")
    assert miss.why == {"code": "repeat_after_miss", "load": 40.0, "unit": "kg", "missedSets": 1, "rpe": 8}
    assert up.as_dict()["last"]["outcome"] == "success" and miss.as_dict()["last"]["outcome"] == "miss"


def test_kg_history_is_suggested_in_lbs_only() -> None:
    """60 kg = 132.3 lb; [138.9, 145.5] → 140 lb (63.5 kg): the suggestion never mixes units."""
    s = suggest("Back Squat", _history("Back Squat", "kg", [], [(60, [5, 5], None, 8)]), "lbs")
    assert (s.load, s.unit, float(s.last.load) if s.last else None) == (140.0, "lbs", 132.3)
    assert s.why["unit"] == "lbs" and suggested_kg(s) == 63.5


def test_undone_logs_and_other_exercises_do_not_count() -> None:
    history = [LogEntry("Back Squat", NOW - timedelta(days=1), sets=3, reps=5, load_kg=90, undone=True),
               LogEntry("Front Squat", NOW - timedelta(days=2), sets=3, reps=5, load_kg=70),
               LogEntry("back  squats", NOW - timedelta(days=3), sets=3, reps=5, load_kg=60, rpe=8)]
    s = suggest("Back Squat", history, "kg")
    assert (s.load, s.code) == (65.0, "load_up")


def test_one_exercise_under_library_aliases_shares_its_history() -> None:
    """"Barbell Row" and "Bent-Over Row" are the same library exercise; a dumbbell curl is not a barbell curl."""
    rows = [LogEntry("Barbell Row", NOW - timedelta(days=2), sets=4, reps=8, load_kg=40, rpe=8)]
    assert suggest("Bent-Over Row", rows, "kg").load == 42.5
    curls = [LogEntry("Biceps Curl", NOW - timedelta(days=2), sets=3, reps=10, load_kg=20, rpe=8)]
    assert suggest("Dumbbell Curl", curls, "kg").code == "new_exercise"


def test_unknown_unit_is_refused() -> None:
    with pytest.raises(ValueError):
        suggest("Back Squat", [], "stone")


@pytest.mark.parametrize("locale", ["en", "he", "ru"])
def test_every_reason_has_words_in_every_locale_filled_by_its_numbers(locale: str) -> None:
    """The card's words come from locales/ (console.member.progression.<code>); `why` carries every number they use."""
    from core.i18n import catalog

    words = catalog(locale)["console"]["member"]["progression"]
    seen = set()
    for _label, exercise, unit, equipment, past, _expected in TABLE:
        why = suggest(exercise, _history(exercise, unit, equipment, past), unit).why
        seen.add(why["code"])
        assert "{" not in words[why["code"]].format(**why), (locale, why)
    assert seen == {"load_up", "add_reps", "top_of_range", "repeat_after_miss", "deload_after_two_misses",
                    "new_exercise"}
