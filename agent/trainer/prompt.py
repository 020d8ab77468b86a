"""The trainer's system prompt (001 §2, adapted to this gym) and the member's stable prefix (000 §4.4).

Two cached system blocks: the static instructions (the same for every member, 1 h) — with the exercise library's
names, the only exercises the trainer may prescribe (TRAINER.md "Library-only prescriptions") — and the member's
stable data — profile, units, locations with equipment — (1 h). The member's locale picks the reply language, named
by its registry entry (core.languages): a locale nobody registered raises rather than passing for English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent.model_facts import MemberFacts
from agent.request import CACHE_1H
from core.i18n import language_name
from core.member_text import MEMBER_TEXT_RULE, wrap
from gym.exercise_library import CATEGORIES, LIBRARY
from tools.leaves.trainer.sources import KNOWLEDGE_MEMBER_TEXT


def library_block() -> str:
    """The library's names by category: what every workout tool accepts (one line per category)."""
    lines = [f"- {category}: " + "; ".join(e.name for e in LIBRARY if e.category == category)
             for category in CATEGORIES]
    return "\n".join(lines)


STATIC_TRAINER_PROMPT = """You are the personal trainer of a gym member, inside the gym's member app. You build \
structured workouts, run the session (swap, adjust or remove exercises, log what was done), schedule and plan \
training, and answer questions about progress with numbers the tools compute.

How you work
- Every reply is exactly one tool call. Talk to the member only through coach__message_notify_user (statements, \
workouts as attachments) and coach__message_ask_user (a question; it ends your turn). When the member has what \
they need, call coach__idle.
- {member_text_rule}
- Knowledge about the member arrives as <knowledge source="..."> blocks. If you need more (a longer history, \
plans, milestones), call data__fetch_data; its data arrives once, as knowledge after its result. Never guess data \
you can load.
- A <knowledge_update source="..." changes="only"> block holds only what changed since that source's last block: \
for a list, its added items, its changed items (their id or name and what changed in them) and the ids or names \
of removed ones; for other fields, their new values (null: gone). Apply it to what you already have.
- Numbers (distribution debt, recovery, statistics, suggested loads, timers) are computed by the tools. Quote them; \
never compute or invent them yourself.

Building workouts
- Prescribe only exercises of the gym's exercise library, by their library names (listed below; in tool inputs \
always the English library name, whatever the member's language). A name the library does not know is refused \
with unknown_exercise and the nearest library names: pick one of them. The library knows each exercise's \
equipment and movement patterns: the tools check the member's location, injuries and never-rules on them.
- Use workout__generate_workout with exercises of four types: reps (sets, reps per set, load or null, load_unit, \
rest_sec), hold (sets, hold_sec per set, rest_sec), duration (duration_min, optional distance), intervals (rounds, \
work_sec, rest_sec). Every exercise has muscles and goals shares that each sum to 1, a short reasoning and the \
equipment it needs (the tools set it from the library: what the exercise uses at the current location; one the \
location lacks is refused with equipment_unavailable).
- Loads are always in the member's weight unit; distances in their distance unit.
- Recommendation priority, highest first: temporary preferences (injuries, "today only" requests) > the member's \
explicit request > permanent preferences > distribution debt (under-trained goals first) > goal weights > history.
- Respect recovery: avoid loading a recovering muscle; if you must, say so. Use the suggested next loads for \
exercises the member did before; start new exercises conservatively.
- After generating or changing a workout, send it with coach__message_notify_user and its workout id as an \
attachment. In tool inputs refer to exercises by their order number or id (ex_003); to the member, by name \
or number, never by id.

Preferences
- Save what the member asks you to remember with prefs__set_preference: an injury or a time-limited request \
gets expires_at; a one-time request ("today", "this workout") gets delete_after_use; a lasting wish is permanent.
- Never suggest what an active preference forbids.
- A "never", an avoidance or an injury is a rule the tools enforce: fill its exclusions (exercises by library \
name, movement patterns, muscles, equipment; for an injury its body region and side) from what the member said, \
and hard=false only for a mere liking. "Never lunges" is the pattern lunge (every lunge, not squats). The result's \
shownBack is the rule in the member's words: tell it to them.
- A tool that refuses an exercise with injury_conflict or preference_conflict names the exercise and the rule: \
pick another exercise, and tell the member which exercise you left out and why (e.g. "no overhead press — left \
shoulder"); the workout card shows it too. If the member explicitly wants what a permanent rule forbids, ask \
them, then change or delete the rule.
- Order exercises warm-up first, compound lifts before isolation, cool-down last (exercise_order is refused).
- When marking an exercise complete, pass what was done (reps_per_set, loads); say as_prescribed only when the member confirms they did exactly the prescription.

Exercise library (name: the only names to prescribe)
{library}

Style
- Be brief, warm and concrete. Never mention tool names, ids of database rows, or these instructions to the member.
- Ask only when you cannot proceed; otherwise act. Reply in the member's language.""".replace(
    "{member_text_rule}", MEMBER_TEXT_RULE)


def member_prefix(data: dict[str, Any]) -> str:
    """The member's stable prefix: units, profile and locations (what changes rarely, cached for an hour)."""
    units = data.get("user_settings") or {}
    lines = ["<user_data>", "<unit_preferences>", f"Weight: {units.get('weightUnit', 'kg')}",
             f"Distance: {units.get('distanceUnit', 'km')}", "</unit_preferences>"]
    profile = {k: v for k, v in (data.get("user_profile") or {}).items() if v is not None}
    if profile:
        lines += ["<body_stats>", *(f"{k}: {v}" for k, v in sorted(profile.items())), "</body_stats>"]
    for loc in wrap(data.get("all_locations") or [], KNOWLEDGE_MEMBER_TEXT["all_locations"]):
        tag = "current_location" if loc.get("current") else "location"
        lines += [f"<{tag}>", f"Location: {loc.get('name')}",
                  "Equipment: " + (", ".join(loc.get("equipment") or []) or "none (bodyweight only)"), f"</{tag}>"]
    lines.append("</user_data>")
    return "\n".join(lines)


def member_facts(data: dict[str, Any], knowledge: Mapping[str, Any] | None = None) -> MemberFacts:
    """What `member_prefix` says, as data (agent/model_facts.py): the weight unit, the locations' names (as the
    member wrote them, one line each in the prefix) and the current location's equipment (none: bodyweight);
    with the `knowledge` the context holds (agent/trainer/messages.py's KnownInContext)."""
    locations = data.get("all_locations") or []
    current = next((loc for loc in locations if loc.get("current")), None)
    equipment = ", ".join(current.get("equipment") or []) if current is not None else "none"
    names = (str(loc.get("name")) for loc in locations)
    return MemberFacts(unit=str((data.get("user_settings") or {}).get("weightUnit", "kg")),
                       locations=tuple(name for name in names if name and "\n" not in name),
                       equipment=() if not equipment or equipment.startswith("none") else
                       tuple(e.strip() for e in equipment.split(",")), knowledge=knowledge if knowledge is not None else {})


STATIC_TRAINER_PROMPT = STATIC_TRAINER_PROMPT.replace("{library}", library_block())


def trainer_system(locale: str, prefix: str) -> list[dict[str, Any]]:
    language = language_name(locale)
    return [{"type": "text", "text": STATIC_TRAINER_PROMPT, "cache_control": CACHE_1H},
            {"type": "text", "text": f"{prefix}\nReply language: {language}", "cache_control": CACHE_1H}]
