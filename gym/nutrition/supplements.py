"""Supplements the clinical rules exclude (`gym.nutrition.clinical`: no creatine or stimulants for a minor, in
pregnancy or while breastfeeding), as an agent's output names them in English, Hebrew or Russian: creatine; a
stimulant (pre-workouts, fat burners, caffeine pills, energy drinks, ephedrine, yohimbine, ...); caffeine itself
when it is a supplement-protocol entry. A mention that advises against it ("no creatine", "avoid pre-workouts",
"без креатина") names nothing.
"""

from __future__ import annotations

from gym.nutrition.safety_text import sentences

KINDS = {"CREATINE": "creatine", "STIMULANT": "stimulants"}


def supplements_named(text: str, *, entry: bool = False) -> set[str]:
    """The excluded kinds (`creatine`, `stimulants`) `text` recommends; `entry`: the text is a supplement-protocol
    entry, where plain caffeine is a stimulant too."""
    kinds = {**KINDS, **({"CAFFEINE": "stimulants"} if entry else {})}
    found: set[str] = set()
    for s in sentences(text):
        for hit in s.of(*kinds):
            against = [h for h in s.of("AVOID") if s.clause[h.start] == s.clause[hit.start]
                       and (h.end <= hit.start or h.start >= hit.end)]
            if not against:
                found.add(kinds[hit.concept])
    return found
