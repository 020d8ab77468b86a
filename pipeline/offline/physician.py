"""The offline PHYSICIAN (NUTRITION.md, Demo): it answers exactly the safety floor of the health query
(`gym.nutrition.safety_floor`), in the floor's own words (`gym.nutrition.floor_words`), `continue` where no floor
applies, always with the disclaimer."""

from __future__ import annotations

from typing import Any

from gym.nutrition.floor_words import floor_answer
from gym.nutrition.safety_floor import query_floor


def physician(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    return floor_answer(query_floor(inputs["health_query"]))
