"""The safety floor's own answer (NUTRITION.md, "Clinical rules in code"): the `medical_context` the floor gives in
its own words. The offline PHYSICIAN answers with it; a model PHYSICIAN's answer below the floor is replaced by it,
so the model's text that argued for less ("probably muscular; continue") is never shown to anyone.

The stored words are English (they are also the next agent's advice); `floor_reasons` (an extension of 004 §4.9)
names the codes they are about, so a page shows the same answer in the reader's language (locales:
`console.nutrition.floor.*`). A model's answer carries `floor_reasons` only when the floor replaced it.
"""

from __future__ import annotations

from typing import Any

from gym.nutrition.safety_floor import (
    ABORT,
    ACTION_RANK,
    CONTINUE,
    LABELS,
    PAUSE_SOON,
    PAUSE_URGENT,
    URGENCY_RANK,
    Floor,
    level_of,
    referral_for,
)

DISCLAIMER = ("This is general information, not a diagnosis or medical advice. Talk to a qualified health "
              "professional about your situation.")
RESPONSES = {
    CONTINUE: "Nothing here needs to stop the plan; keep listening to your body.",
    PAUSE_SOON: "{reasons}: a clinician should review the plan before you go on; the plan waits until you have "
                "seen the referral.",
    PAUSE_URGENT: "{reasons}: stop training and see a doctor today (call emergency services if it is severe or does "
                  "not pass). The plan waits until you have seen a doctor.",
    ABORT: "{reasons}: a clinician needs to set energy targets; an automated plan could do harm, so it stops here.",
}
MECHANISMS = {
    CONTINUE: "No warning sign that needs a clinician was found.",
    PAUSE_SOON: "These conditions change what is safe to eat and how hard to train; a clinician sets the limits.",
    PAUSE_URGENT: "These can be signs of a heart, lung or bleeding problem that needs a doctor before more exercise.",
    ABORT: "Energy targets for this condition need a clinician; an automated plan could make it worse.",
}
TIMELINES = {PAUSE_SOON: "Book within 2 weeks", PAUSE_URGENT: "Today", ABORT: "Before any new plan"}


def floor_answer(floor: Floor, *, action: str | None = None, urgency: str | None = None) -> dict[str, Any]:
    """The floor's `medical_context`: its words for the level of `action` and `urgency` (the floor's by default),
    the referral of its reasons, the disclaimer and the reasons' codes."""
    action, urgency = action or floor.action, urgency or floor.urgency
    level = level_of(action, urgency)
    reasons = "; ".join(LABELS[code] for code in floor.codes).capitalize() or "A warning sign"
    return {
        "response": RESPONSES[level].format(reasons=reasons), "sources": [],
        "mechanism_explained": MECHANISMS[level], "timeline": TIMELINES.get(level),
        "referral_needed": level > CONTINUE, "referral_target": referral_for(floor) if level > CONTINUE else None,
        "urgency": urgency, "pipeline_action": action, "disclaimer": DISCLAIMER, "floor_reasons": list(floor.codes),
    }


def raise_to_floor(answer: dict[str, Any], floor: Floor) -> tuple[dict[str, Any], bool]:
    """The PHYSICIAN's `medical_context` at least at the floor (action and urgency each), and whether it was
    raised. A raised answer is the floor's own (its words, referral and disclaimer): nothing of the lower answer
    is kept. An answer at or above the floor stands as given."""
    if not floor.above_continue:
        return answer, False
    action = max(answer["pipeline_action"], floor.action, key=ACTION_RANK.__getitem__)
    urgency = max(answer["urgency"], floor.urgency, key=URGENCY_RANK.__getitem__)
    if (action, urgency) == (answer["pipeline_action"], answer["urgency"]) and answer["referral_needed"]:
        return answer, False
    return floor_answer(floor, action=action, urgency=urgency), True

