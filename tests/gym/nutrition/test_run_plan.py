"""The run's plan state is typed (`gym.nutrition.plan.RunPlan`) and keeps the stored JSON shape: an old row reads
and writes back the same keys and values, a fresh run's `{}` stays `{}`, a key appears only once it is set."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from gym.nutrition.plan import PendingQuery, RunPlan
from gym.nutrition.red_flags import RedFlag
from gym.nutrition.scientist import ScientistState
from gym.nutrition.states import DOWNSTREAM

SCIENTIST = {"tdee_weight_kg": 70.0, "protein_weight_kg": 70.0, "current_weight_kg": 71.5, "tier": 0,
             "kcal_offset": 200, "weeks_on_program": 3, "protein_period": 0, "training_phase": None,
             "tdee_training_phase": None, "clinical": ["pregnancy"], "tdee_kcal": None}
QUERY = {"query_type": "red_flag", "requesting_agent": "SCIENTIST"}
ANSWER = {"pipeline_action": "pause_pending_referral", "urgency": "soon"}
OLD_ROWS = [
    {},
    {"hold": {"query": QUERY, "requesting_agent": "USER", "answer": ANSWER}},
    {"v": 1, "scientist": SCIENTIST, "rerun": list(DOWNSTREAM), "flags": "intake", "counters": {},
     "constraint": {}, "physician": None, "advice": None, "resets": {"calorie": 0, "stall": 0},
     "cycle_phase": None, "deadline": "2026-11-29T13:39:21.123456+00:00"},
    {"v": 1, "scientist": SCIENTIST, "rerun": ["COACH"], "flags": None, "checkin_flags": [],
     "counters": {"calls:NUTRITIONIST": 2, "invalid:CHEF": 1}, "constraint": {"CHEF": "Rule x", "COACH": None},
     "physician": {"query": QUERY, "requesting_agent": "SCIENTIST", "awaiting_user": True, "answer": ANSWER},
     "advice": ANSWER, "resets": {"calorie": 2, "stall": 0}, "cycle_phase": "luteal", "stall": True,
     "asked": ["pregnancy"], "deferred_flags": [], "traced_version": 2, "deadline": "2026-11-29T13:42:21+00:00",
     "someone_elses": {"kept": [1, 2]}},
]


def test_old_rows_write_back_the_same_json() -> None:
    for row in OLD_ROWS:
        assert json.dumps(RunPlan.load(row).dump(), sort_keys=True) == json.dumps(row, sort_keys=True)


def test_rows_parse_to_types() -> None:
    plan = RunPlan.load(OLD_ROWS[3])
    assert isinstance(plan.scientist, ScientistState) and plan.state.clinical == ("pregnancy",)
    assert isinstance(plan.physician, PendingQuery) and plan.physician.awaiting_user
    assert plan.deadline == datetime(2026, 11, 29, 13, 42, 21, tzinfo=UTC)
    assert plan.resets.calorie == 2 and plan.count("calls", "NUTRITIONIST") == 2


def test_a_key_appears_once_set_and_a_hold_is_there_or_not() -> None:
    plan = RunPlan.load({})
    assert plan.dump() == {}
    plan.bump("calls", "PHYSICIAN")
    plan.hold = PendingQuery(query=QUERY, requesting_agent="USER", answer=ANSWER)
    assert plan.dump() == {"counters": {"calls:PHYSICIAN": 1}, "hold": {"query": QUERY, "requesting_agent": "USER",
                                                                       "answer": ANSWER}}
    plan.hold = None
    plan.physician = PendingQuery(query=QUERY, requesting_agent="SCIENTIST")
    assert plan.dump() == {"counters": {"calls:PHYSICIAN": 1},
                           "physician": {"query": QUERY, "requesting_agent": "SCIENTIST"}}


def test_loading_copies_the_row() -> None:
    row = json.loads(json.dumps(OLD_ROWS[3]))
    plan = RunPlan.load(row)
    plan.constraint.pop("CHEF")
    plan.learn(["breastfeeding"])
    plan.checkin_flags = [RedFlag("insulin", "checkin")]
    assert row == OLD_ROWS[3]
    assert plan.dump()["checkin_flags"] == [{"code": "insulin", "source": "checkin"}]
    assert plan.dump()["scientist"]["clinical"] == ["breastfeeding", "pregnancy"]
