"""Payload schemas of 004 §4 forbid unknown fields; 004 §3's replaced names are refused naming the
canonical field; envelopes of 004 §2 validate their payload and their edge."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from gym.nutrition.envelope import Envelope, build_envelope, input_hash, parse_envelope, validate_payload
from gym.nutrition.errors import PayloadInvalid, PipelineError
from gym.nutrition.names import CANONICAL
from gym.nutrition.payloads import EDGES, SCHEMAS
from tests.gym.nutrition import samples

RUN = uuid.uuid4()


def valid() -> dict[str, dict]:
    t = samples.targets()
    return {
        "intake_data": dict(samples.INTAKE), "macro_targets": t, "nutrition_strategy": samples.strategy(t),
        "weekly_meal_plan": samples.meal_plan(), "recipes": samples.recipes(), "training_program": samples.program(),
        "training_input": {
            "client_data": {"training_experience": "beginner", "equipment_access": "commercial_gym",
                            "gym_anxiety_level": "high", "weeks_on_program": 0, "current_phase": "active_training",
                            "injuries": [], "available_days": 3, "menstrual_cycle_day": None, "cycle_phase": None},
            "progress_data": {"training_log": [], "stall_detected": False, "consecutive_stall_sessions": 0,
                              "sleep_hours_avg": None, "step_count_avg": 6500},
            "scientist_triggers": {"phase_transition_due": False, "deload_recommended": False,
                                   "adjustment_note": None}},
        "health_query": {"query_type": "red_flag", "query": "Amenorrhea reported.", "requesting_agent": "SCIENTIST",
                         "user_context": {"current_weight_kg": 56.2, "bmi": 20.6, "symptoms": [],
                                          "menstrual_status": "amenorrhea", "training_weeks": 0,
                                          "supplements_current": []}},
        "medical_context": samples.medical_context(),
        "weekly_checkin": {"weight_kg": 56.2, "waist_cm": 68.5, "hip_cm": 92.5, "cycle_phase": "follicular",
                           "cycle_day": 10, "training_log": {"sessions_completed": 3, "exercises": [
                               {"name": "Hip Thrust", "best_set": {"weight_kg": 45, "reps": 12}, "progressed": True}]},
                           "subjective_markers": {"energy": 7, "sleep_quality": 8, "mood": 7, "appetite": 5},
                           "minimum_viable_days_count": 1, "notes": "Felt bloated on Wednesday"},
        "adjustment_result": {"triggers_fired": [], "adjustment_type": None, "agents_re_run": [],
                              "agents_unchanged": ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"], "notes": []},
        "pipeline_error": {"error_type": "timeout", "failing_agent": "DIETITIAN", "details": "no answer",
                           "pipeline_run_id": str(RUN), "recoverable": True, "retry_count": 1,
                           "timeout_duration_ms": 30000, "input_hash": "a" * 64},
        "upstream_data_request": {"missing_fields": ["protein_g"], "from_agent": "SCIENTIST", "reason": "absent"},
    }


def test_every_data_type_has_a_valid_sample_and_an_edge() -> None:
    samples_by_type = valid()
    assert set(samples_by_type) == set(SCHEMAS) == set(EDGES)
    for data_type, payload in samples_by_type.items():
        validate_payload(data_type, payload)


@pytest.mark.parametrize("data_type", sorted(SCHEMAS))
def test_an_unknown_top_level_field_is_refused(data_type: str) -> None:
    payload = {**valid()[data_type], "surprise": 1}
    with pytest.raises(PayloadInvalid) as caught:
        validate_payload(data_type, payload)
    assert any(e["loc"] == ("surprise",) and e["type"] == "extra_forbidden" for e in caught.value.errors)


def test_unknown_nested_fields_are_refused_too() -> None:
    plan = samples.meal_plan()
    plan["weekly_template"]["monday"]["lunch"]["slot_spec"]["sodium_mg"] = 500
    with pytest.raises(PayloadInvalid) as caught:
        validate_payload("weekly_meal_plan", plan)
    assert caught.value.errors[0]["loc"][-1] == "sodium_mg"


@pytest.mark.parametrize(("old", "canonical"), [(old, new) for new, olds in CANONICAL.items() for old in olds])
def test_every_replaced_name_is_refused_naming_the_canonical_one(old: str, canonical: str) -> None:
    payload = dict(valid()["macro_targets"])
    payload[old] = payload.get(canonical, 1)
    with pytest.raises(PayloadInvalid) as caught:
        validate_payload("macro_targets", payload)
    [error] = caught.value.errors
    assert error["loc"] == (old,) and error["canonical"] == canonical
    assert f"use '{canonical}'" in error["msg"]


def test_daily_calories_instead_of_target_intake_kcal_is_refused_even_when_nested() -> None:
    strategy = samples.strategy()
    strategy["daily_calories"] = strategy.pop("target_intake_kcal")
    recipes = samples.recipes()
    recipes["recipes"][0]["macros_per_serving"]["gain_rate"] = 0.5
    with pytest.raises(PayloadInvalid) as first:
        validate_payload("nutrition_strategy", strategy)
    with pytest.raises(PayloadInvalid) as nested:
        validate_payload("recipes", recipes)
    assert "use 'target_intake_kcal'" in first.value.errors[0]["msg"]
    assert nested.value.errors[0]["loc"] == ("recipes", 0, "macros_per_serving", "gain_rate")
    assert nested.value.errors[0]["canonical"] == "weekly_weight_target_kg"


@pytest.mark.parametrize(("data_type", "path", "bad"), [
    ("macro_targets", ("target_intake_kcal",), "2180"),  # a string is not a number
    ("macro_targets", ("adaptation_period_complete",), "false"),
    ("intake_data", ("sex",), "other"),
    ("intake_data", ("training_phase",), "bulking"),
    ("intake_data", ("age",), 9),
    ("nutrition_strategy", ("current_tier",), 3),
    ("weekly_checkin", ("subjective_markers", "energy"), 11),
    ("weekly_checkin", ("minimum_viable_days_count",), 8),
    ("medical_context", ("urgency",), "whenever"),
    ("medical_context", ("pipeline_action",), "stop"),
])
def test_type_and_enum_mismatches_are_refused(data_type: str, path: tuple[str, ...], bad) -> None:
    payload = valid()[data_type]
    node = payload
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = bad
    with pytest.raises(PayloadInvalid) as caught:
        validate_payload(data_type, payload)
    assert caught.value.errors[0]["loc"] == path


def test_missing_required_fields_are_listed() -> None:
    payload = valid()["weekly_checkin"]
    del payload["weight_kg"]
    with pytest.raises(PayloadInvalid) as caught:
        validate_payload("weekly_checkin", payload)
    assert caught.value.errors[0]["loc"] == ("weight_kg",) and caught.value.errors[0]["type"] == "missing"


def test_a_medical_context_without_a_disclaimer_fails() -> None:
    for broken in ({"disclaimer": ""}, {}):
        payload = samples.medical_context()
        payload.pop("disclaimer")
        payload.update(broken)
        with pytest.raises(PayloadInvalid):
            validate_payload("medical_context", payload)


def test_a_woman_must_give_menstrual_status_a_man_need_not() -> None:
    with pytest.raises(PayloadInvalid):
        validate_payload("intake_data", {**samples.INTAKE, "menstrual_status": None})
    man = validate_payload("intake_data", {**samples.INTAKE, "sex": "male", "menstrual_status": None})
    assert man.menstrual_status is None


def test_a_meal_plan_needs_all_seven_days_and_known_slots() -> None:
    plan = samples.meal_plan()
    del plan["weekly_template"]["sunday"]
    with pytest.raises(PayloadInvalid):
        validate_payload("weekly_meal_plan", plan)
    plan = samples.meal_plan()
    plan["weekly_template"]["monday"] = {"brunch": plan["weekly_template"]["monday"]["lunch"]}
    with pytest.raises(PayloadInvalid):
        validate_payload("weekly_meal_plan", plan)


def test_build_envelope_wraps_a_validated_payload_in_the_004_shape() -> None:
    now = datetime(2026, 2, 9, 14, 30, tzinfo=UTC)
    envelope = build_envelope(run_id=RUN, from_agent="SCIENTIST", to_agent="NUTRITIONIST",
                              data_type="macro_targets", payload=samples.targets(), run_version=2, now=now)
    wire = envelope.wire()
    assert set(wire) == {"message_id", "from_agent", "to_agent", "data_type", "payload", "pipeline_run_id",
                         "timestamp", "version", "run_version"}
    assert uuid.UUID(wire["message_id"]).version == 4
    assert wire["pipeline_run_id"] == str(RUN) and wire["version"] == "1.0" and wire["run_version"] == 2
    assert wire["timestamp"] == "2026-02-09T14:30:00.000000Z"
    assert parse_envelope(wire) == envelope


def test_an_envelope_on_the_wrong_edge_or_with_a_bad_header_is_refused() -> None:
    with pytest.raises(PipelineError) as edge:
        build_envelope(run_id=RUN, from_agent="CHEF", to_agent="NUTRITIONIST", data_type="macro_targets",
                       payload=samples.targets())
    assert edge.value.code == "illegal_edge"
    good = build_envelope(run_id=RUN, from_agent="SCIENTIST", to_agent="NUTRITIONIST", data_type="macro_targets",
                          payload=samples.targets()).wire()
    for change in ({"message_id": str(uuid.uuid1())}, {"from_agent": "WIZARD"}, {"version": "2.0"},
                   {"timestamp": "2026-02-09T14:30:00"}, {"data_type": "mystery"}, {"extra": True}):
        with pytest.raises(PayloadInvalid):
            parse_envelope({**good, **change})
    with pytest.raises(PayloadInvalid):
        parse_envelope({**good, "payload": {**good["payload"], "daily_calories": 2000}})


def test_input_hash_is_the_sha256_of_canonical_json_independent_of_key_order() -> None:
    assert input_hash({"b": 1, "a": [1, 2]}) == input_hash({"a": [1, 2], "b": 1})
    assert input_hash({"a": 1}) == "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"
    assert Envelope.model_fields["run_version"].default == 1


def test_the_intake_takes_allergies_and_a_diet_pattern_and_hands_them_on() -> None:
    intake = samples.intake()
    assert (intake.allergies, intake.diet_pattern) == ([], "omnivore")  # defaults
    t = samples.targets(allergies=["sesame"], diet_pattern="pescatarian")
    assert t["client_constraints"]["allergies"] == ["sesame"]
    assert t["client_constraints"]["diet_pattern"] == "pescatarian"
    with pytest.raises(PayloadInvalid) as caught:
        validate_payload("intake_data", {**samples.INTAKE, "diet_pattern": "keto"})
    assert [e["loc"] for e in caught.value.errors] == [("diet_pattern",)]
