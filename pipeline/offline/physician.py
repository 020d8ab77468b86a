"""The offline PHYSICIAN (NUTRITION.md, Demo): it answers exactly the safety floor of the health query
(`gym.nutrition.safety_floor`), `continue` where no floor applies, always with the disclaimer."""

from __future__ import annotations

from typing import Any

from gym.nutrition.safety_floor import ABORT, CONTINUE, LABELS, PAUSE_SOON, query_floor, referral_for

DISCLAIMER = ("This is general information, not a diagnosis or medical advice. Talk to a qualified health "
              "professional about your situation.")
RESPONSES = {
    CONTINUE: "Nothing here needs to stop the plan; keep listening to your body.",
    PAUSE_SOON: "{reasons}: a clinician should review the plan before you go on; the plan waits until you have "
                "seen the referral.",
    ABORT: "{reasons}: a clinician needs to set energy targets; an automated plan could do harm, so it stops here.",
}
URGENT = ("{reasons}: stop training and see a doctor today (call emergency services if it is severe or does not "
          "pass). The plan waits until you have seen a doctor.")
TIMELINES = {PAUSE_SOON: "Book within 2 weeks", ABORT: "Before any new plan"}


def physician(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    floor = query_floor(inputs["health_query"])
    reasons = "; ".join(LABELS[code] for code in floor.codes if code in LABELS).capitalize()
    template = RESPONSES.get(floor.level, URGENT)
    return {
        "response": template.format(reasons=reasons or "A warning sign"),
        "sources": [{"author": "Mountjoy M et al.", "year": 2023, "publication": "Br J Sports Med",
                     "finding": "Low energy availability impairs health and performance (REDs consensus)."}],
        "mechanism_explained": "When intake does not cover training, the body saves energy on reproduction, bone "
                               "and metabolism.",
        "timeline": None if floor.level == CONTINUE else TIMELINES.get(floor.level, "Today"),
        "referral_needed": floor.above_continue, "referral_target": referral_for(floor) if floor.above_continue
        else None, "urgency": floor.urgency, "pipeline_action": floor.action, "disclaimer": DISCLAIMER,
    }
