"""The offline agents' last answers, kept: they are pure functions of their inputs, and some are asked the same
thing twice in a row (the DIETITIAN cooks its plan with the CHEF to name only what it cooks; the CHEF step then
cooks that same plan; a run re-planned with unchanged targets plans the same week). Each planning call solves
dozens of programs, so an answer given once is handed out again, as a copy, instead of being solved again."""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

Agent = Callable[[dict[str, Any], str | None], dict[str, Any]]
KEPT = 32  # answers per agent; a week's plan and recipes are some tens of kilobytes


def remembered(agent: Agent, kept: int = KEPT) -> Agent:
    """`agent`, answering inputs it answered lately from memory (a deep copy, so no caller shares a dict)."""
    answers: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def answer(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
        key = json.dumps([inputs, constraint], sort_keys=True, default=str)
        if key in answers:
            answers.move_to_end(key)
            return copy.deepcopy(answers[key])
        found = agent(inputs, constraint)
        answers[key] = copy.deepcopy(found)
        if len(answers) > kept:
            answers.popitem(last=False)
        return found

    return answer
