"""How long infeasible food constraints take to end a run (NUTRITION.md: within 10 s, never spinning to the 180 s
timeout), measured on the two decisions the driver makes, serially, in one process:

- the up-front check after SCIENTIST (`gym.nutrition.feasibility.infeasible`: a linear program over the foods the
  member may eat, then one more per constraint to name the ones that conflict);
- where that check finds a day but the offline cookbook has no week (vegan with soy and gluten allergies), the offline
  NUTRITIONIST and DIETITIAN until the DIETITIAN answers CannotPlan.

The database steps around them (a state move, an error envelope, two events) are not included.

    python -m bench.infeasible [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from gym.nutrition.feasibility import day_possible, infeasible
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.scientist import macro_targets
from pipeline.offline import AGENTS
from pipeline.offline.meal_plan import Uncookable
from pipeline.offline.planner import Unplannable

BASE = {"sex": "female", "age": 31, "height_cm": 170, "current_weight_kg": 64, "target_weight_kg": 62,
        "training_phase": "active_training", "estimated_daily_intake_kcal": 2000, "avg_daily_steps": 8000,
        "menstrual_status": "regular", "training_experience": "beginner", "food_aversions": [],
        "appetite_level": "normal", "cooking_skill": "basic", "partner_cooks": False,
        "equipment_access": "commercial_gym", "gym_anxiety_level": "low"}
CASES = {
    "vegan + soy + gluten, 64 kg woman": {**BASE, "allergies": ["soy allergy", "gluten-free"], "diet_pattern": "vegan"},
    "vegan + soy + gluten, 150 kg woman cutting": {**BASE, "age": 40, "current_weight_kg": 150, "target_weight_kg": 110,
                                                   "allergies": ["soy", "coeliac"], "diet_pattern": "vegan"},
}


def _once(raw: dict) -> tuple[str, float]:
    started = time.perf_counter()
    targets = macro_targets(IntakeData.model_validate(raw)).model_dump(mode="json")
    conflict = infeasible(targets)
    if conflict is not None:
        return f"constraints_infeasible up front: {', '.join(conflict)}", time.perf_counter() - started
    try:
        strategy = AGENTS["NUTRITIONIST"]({"macro_targets": targets, "current_tier": 2}, None)
        AGENTS["DIETITIAN"]({"nutrition_strategy": strategy, "macro_targets": targets}, None)
    except (Unplannable, Uncookable):
        return "constraints_infeasible from the DIETITIAN (CannotPlan)", time.perf_counter() - started
    return "planned", time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for name, raw in CASES.items():
        times, outcome = [], ""
        for _ in range(args.repeat):
            day_possible.cache_clear()  # each repeat decides afresh, not from the linear programs' cache
            outcome, took = _once(raw)
            times.append(took)
        print(f"{name}: {outcome}; {statistics.median(times) * 1000:.0f} ms median, {max(times) * 1000:.0f} ms max "
              f"of {args.repeat}")


if __name__ == "__main__":
    main()
