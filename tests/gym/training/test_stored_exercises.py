"""A workout row's exercises are read as the §4.9 models and written back as the same JSON
(gym.training.stored_exercises): parse once at load, dump once at store, no migration."""

from __future__ import annotations

import json
import uuid

from gym.training.models import TrainerWorkout
from gym.training.stored_exercises import dumped, exercises_of, key_of, prescribed_sets
from gym.training.workout import DurationExercise, HoldExercise, IntervalsExercise, RepsExercise

BASE = {"muscles": [{"name": "Chest", "share": 1.0}], "goals": [{"name": "strength", "share": 1.0}],
        "reasoning": "Main lift.", "equipment": ["Barbell"], "group": None}
STORED = [  # as save_workout wrote them: every field of the type, ids ex_NNN
    {**BASE, "id": "ex_001", "name": "Bench Press", "order": 1, "type": "reps", "sets": 3, "reps": [8, 8, 6],
     "load": 60.0, "load_unit": "kg", "rest_sec": 120},
    {**BASE, "id": "ex_002", "name": "Plank", "order": 2, "type": "hold", "sets": 2, "hold_sec": [30, 45], "rest_sec": 30,
     "group": {"id": "c-1", "type": "circuit", "position": 1, "name": "Core", "rounds": 3,
               "rest_between_rounds_sec": 60}},
    {**BASE, "id": "ex_003", "name": "Rowing", "order": 3, "type": "duration", "duration_min": 10.0,
     "distance": 2.0, "distance_unit": "km", "target_pace": None},
    {**BASE, "id": "ex_004", "name": "Burpee", "order": 4, "type": "intervals", "rounds": 4, "work_sec": 20,
     "rest_sec": 10, "group": {"id": "c-1", "type": "circuit", "position": 2, "name": None, "rounds": None,
                               "rest_between_rounds_sec": None}},
]


def _row() -> TrainerWorkout:
    return TrainerWorkout(id=uuid.uuid4(), exercises=json.loads(json.dumps(STORED)))


def test_a_stored_workout_reads_typed_and_writes_back_the_same_json() -> None:
    exercises = exercises_of(_row())
    assert [type(e) for e in exercises] == [RepsExercise, HoldExercise, DurationExercise, IntervalsExercise]
    assert json.dumps(dumped(exercises), sort_keys=True) == json.dumps(STORED, sort_keys=True)


def test_each_type_says_its_sets_seconds_and_log_type() -> None:
    reps, hold, duration, intervals = exercises_of(_row())
    assert [key_of(e) for e in (reps, hold, duration, intervals)] == ["ex_001", "ex_002", "ex_003", "ex_004"]
    assert [reps.log_type(), reps.log_type(loaded=False), hold.log_type(), duration.log_type(), intervals.log_type()] \
        == ["strength", "bodyweight", "isometric", "cardio_distance", "hiit"]
    assert [reps.target(0), reps.target(2), reps.target(5)] == [8, 6, 6]
    assert [hold.planned_seconds(1), hold.planned_seconds(7), duration.planned_seconds(0),
            intervals.planned_seconds(0)] == [45, 45, 600, 20]
    all_of = [reps, hold, duration, intervals]
    # a circuit's members do one set each round of the group (its first member says 3 rounds)
    assert [prescribed_sets(e, all_of) for e in all_of] == [3, 3, 1, 4]
