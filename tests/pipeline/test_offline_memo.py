"""The offline agents' kept answers (pipeline.offline.memo): the same answer for the same inputs, never a shared
dict, the oldest forgotten first, and the agent asked again for anything else."""

from __future__ import annotations

from typing import Any

from pipeline.offline.memo import remembered


def test_an_answer_is_kept_per_inputs_and_constraint_handed_out_as_copies_and_the_oldest_forgotten() -> None:
    asked: list[Any] = []

    def agent(inputs: dict[str, Any], constraint: str | None) -> dict[str, Any]:
        asked.append((inputs["n"], constraint))
        return {"n": inputs["n"], "items": [inputs["n"]]}

    kept = remembered(agent, kept=2)
    first = kept({"n": 1}, None)
    first["items"].append("changed by a caller")
    assert kept({"n": 1}, None) == {"n": 1, "items": [1]}  # from memory, not the caller's changed copy
    assert kept({"n": 1}, "re-run") == {"n": 1, "items": [1]}  # another constraint is another question
    assert asked == [(1, None), (1, "re-run")]
    kept({"n": 2}, None)  # three answers; the least recently used, (1, None), is forgotten
    kept({"n": 1}, None)
    assert asked == [(1, None), (1, "re-run"), (2, None), (1, None)]


def test_the_dietitian_and_chef_answer_from_memory_exactly_what_they_solved() -> None:
    from gym.nutrition.payloads.intake import IntakeData
    from gym.nutrition.scientist import macro_targets
    from pipeline.offline import AGENTS
    from tests.pipeline.test_offline_plans import DIRECT

    targets = macro_targets(IntakeData.model_validate(DIRECT[0])).model_dump(mode="json")
    strategy = AGENTS["NUTRITIONIST"]({"macro_targets": targets, "current_tier": 2}, None)
    inputs = {"nutrition_strategy": strategy, "macro_targets": targets}
    plan = AGENTS["DIETITIAN"](inputs, None)
    assert AGENTS["DIETITIAN"](inputs, None) == plan
    cooked = AGENTS["CHEF"]({"weekly_meal_plan": plan, "macro_targets": targets}, None)
    assert cooked["recipes"] and AGENTS["CHEF"]({"weekly_meal_plan": plan, "macro_targets": targets}, None) == cooked
