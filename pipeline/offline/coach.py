"""Deterministic COACH for the offline provider (the offline PHYSICIAN is `pipeline.offline.physician`).

COACH builds a full-body program from a packaged exercise list by equipment and experience; a stall
swaps the stalled lifts' rep range and adds a deload week.
"""

from __future__ import annotations

from typing import Any

GYM = (("Goblet Squat", "quads"), ("Hip Thrust", "glutes"), ("Lat Pulldown", "lats"),
       ("Dumbbell Bench Press", "chest"), ("Romanian Deadlift", "hamstrings"), ("Seated Cable Row", "upper back"))
HOME = (("Bodyweight Squat", "quads"), ("Glute Bridge", "glutes"), ("Band Row", "upper back"),
        ("Push-up", "chest"), ("Single-leg Romanian Deadlift", "hamstrings"), ("Dead Bug", "core"))
DAYS = ("monday", "wednesday", "friday", "saturday")


def coach(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    client = inputs["training_input"]["client_data"]
    progress = inputs["training_input"]["progress_data"]
    library = GYM if client["equipment_access"] in ("commercial_gym", "both", "home_full") else HOME
    days = client["available_days"]
    stalled = progress["stall_detected"]
    reps = "6-8" if stalled else ("10-12" if client["training_experience"] != "intermediate" else "8-10")
    sessions: list[dict[str, Any]] = [{
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
