"""Deterministic COACH and PHYSICIAN for the offline provider.

COACH builds a full-body program from a packaged exercise list by equipment and experience; a stall
swaps the stalled lifts' rep range and adds a deload week. PHYSICIAN follows NUTRITION.md's demo
rules: amenorrhea or a BMI under 17.5 -> pause_pending_referral (soon); a disordered-eating history
or insulin -> abort (urgent); anything else -> continue; always with the disclaimer.
"""

from __future__ import annotations

from typing import Any

from gym.nutrition.red_flags import LABELS

GYM = (("Goblet Squat", "quads"), ("Hip Thrust", "glutes"), ("Lat Pulldown", "lats"),
       ("Dumbbell Bench Press", "chest"), ("Romanian Deadlift", "hamstrings"), ("Seated Cable Row", "upper back"))
HOME = (("Bodyweight Squat", "quads"), ("Glute Bridge", "glutes"), ("Band Row", "upper back"),
        ("Push-up", "chest"), ("Single-leg Romanian Deadlift", "hamstrings"), ("Dead Bug", "core"))
DAYS = ("monday", "wednesday", "friday", "saturday")
DISCLAIMER = ("This is general information, not a diagnosis or medical advice. Talk to a qualified health "
              "professional about your situation.")


def coach(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    client = inputs["training_input"]["client_data"]
    progress = inputs["training_input"]["progress_data"]
    library = GYM if client["equipment_access"] in ("commercial_gym", "both", "home_full") else HOME
    days = client["available_days"]
    stalled = progress["stall_detected"]
    reps = "6-8" if stalled else ("10-12" if client["training_experience"] != "intermediate" else "8-10")
    sessions = [{
        "day": DAYS[i], "focus": "full body",
        "warmup": ["5 min easy cardio", "Hip and shoulder mobility"],
        "exercises": [{"name": name, "sets": 3, "reps": reps, "rest_sec": 90,
                       "notes": "Machines first if the gym feels busy" if client["gym_anxiety_level"] == "high" else "",
                       "target_rpe": 7, "progression_rule": "Add a rep per set; at the top of the range add 2.5 kg"}
                      for name, _ in library[i % 2::2]],
    } for i in range(days)]
    volume: dict[str, int] = {}
    for session in sessions:
        for exercise in session["exercises"]:
            muscle = dict(library)[exercise["name"]]
            volume[muscle] = volume.get(muscle, 0) + exercise["sets"]
    week = client["weeks_on_program"] % 8 + 1
    return {
        "program": {"phase": "deload" if stalled else "foundation", "phase_week": 1 if stalled else week,
                    "frequency": days, "total_weeks_remaining_in_phase": 1 if stalled else 8 - week,
                    "sessions": sessions},
        "progression_rules": ["Double progression within the rep range", "Deload after two stalled weeks"],
        "recovery_protocol": ["7-9 hours of sleep", "At least one rest day between sessions"],
        "phase_transition_criteria": ["8 weeks completed", "All main lifts progressed in the last 3 weeks"],
        "weekly_volume_summary": volume,
    }


def physician(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    query = inputs["health_query"]
    symptoms = set(query["user_context"]["symptoms"])
    if symptoms & {LABELS["eating_disorder"], LABELS["insulin"]}:
        action, urgency, target = "abort", "urgent", "physician and a registered dietitian"
        response = ("A history of disordered eating or insulin treatment needs a clinician to set energy targets; "
                    "an automated plan could do harm.")
    elif symptoms & {LABELS["amenorrhea"], LABELS["low_bmi"]} or query["user_context"]["bmi"] < 17.5:
        action, urgency, target = "pause_pending_referral", "soon", "sports medicine physician or gynecologist"
        response = ("Missing periods or a very low BMI can signal low energy availability; a check-up is advised "
                    "before training hard.")
    else:
        action, urgency, target = "continue", "routine", None
        response = "Nothing here needs to stop the plan; keep listening to your body."
    return {
        "response": response,
        "sources": [{"author": "Mountjoy M et al.", "year": 2023, "publication": "Br J Sports Med",
                     "finding": "Low energy availability impairs health and performance (REDs consensus)."}],
        "mechanism_explained": "When intake does not cover training, the body saves energy on reproduction, bone "
                               "and metabolism.",
        "timeline": None if action == "continue" else "Book within 2 weeks",
        "referral_needed": action != "continue", "referral_target": target, "urgency": urgency,
        "pipeline_action": action, "disclaimer": DISCLAIMER,
    }
