"""The offline NUTRITIONIST, DIETITIAN and CHEF over generated intakes: wall time, and the solver's programs by kind.

    python -m bench.planner --intakes 40 [--seed 25]

Each intake is planned as the property test plans it (tests/pipeline/test_offline_plans.py: the week, its recipes,
and every third woman's luteal week with its recipes), serially in this process. Printed: the wall time per intake
and, for the linear and the mixed-integer programs HiGHS solved, how many and their time.
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.scientist import macro_targets
from pipeline.offline import AGENTS, planner
from tests.pipeline.intakes import intakes


def _plan(raw: dict[str, Any], index: int) -> None:
    targets = macro_targets(IntakeData.model_validate(raw)).model_dump(mode="json")
    strategy = AGENTS["NUTRITIONIST"]({"macro_targets": targets, "current_tier": 2}, None)
    inputs = {"nutrition_strategy": strategy, "macro_targets": targets}
    plan = AGENTS["DIETITIAN"](inputs, None)
    AGENTS["CHEF"]({"weekly_meal_plan": plan, "macro_targets": targets}, None)
    if raw["sex"] == "female" and index % 3 == 0:
        luteal = AGENTS["DIETITIAN"]({**inputs, "cycle_phase": "luteal"}, None)
        AGENTS["CHEF"]({"weekly_meal_plan": luteal, "macro_targets": targets}, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--intakes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    kinds: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])
    solve = planner._Model.solve

    def timed(model: planner._Model) -> Any:
        started = time.perf_counter()
        found = solve(model)
        kind = kinds["mixed-integer" if model.integers else "linear"]
        kind[0] += 1
        kind[1] += time.perf_counter() - started
        return found

    planner._Model.solve = timed  # type: ignore[method-assign]
    cases = intakes(args.intakes, seed=args.seed)
    failed = 0
    started = time.perf_counter()
    for index, raw in enumerate(cases):
        try:
            _plan(raw, index)
        except ValueError:
            failed += 1
    wall = time.perf_counter() - started
    print(f"{len(cases)} intakes in {wall:.2f} s ({wall / len(cases) * 1000:.0f} ms each), {failed} raised")
    for kind, (count, seconds) in sorted(kinds.items()):
        print(f"  {kind:14} programs: {count:6d}, {seconds:6.2f} s, {seconds / max(count, 1) * 1000:5.2f} ms each")


if __name__ == "__main__":
    main()
