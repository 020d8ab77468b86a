"""Weekly-loop triggers (NUTRITION.md, 004 §7.3), as a pure function of the check-in history.

Rates are kg/week between a check-in and the one before it (the run's start weight and date before
the first). The two gain-rate triggers count only check-ins after the adaptation period (week 4 on)
and after the last calorie adjustment, so one slow fortnight moves calories once. A week-bound trigger (the
4-weekly protein recalculation, the ramp's tiers at weeks 2 and 4) fires once, at the first check-in on or
after its week: check-ins at weeks 3, 5, 7, 9 get the tier at 3, the last tier and protein at 5, protein at 9.
Waist and hips flag a full review when the waist grew at least 1.0 cm more than the hips between the last two
measurements; a check-in naming another `training_phase` re-runs COACH. A peri- or post-menopausal member has no
luteal logic (NUTRITION.md, "Clinical rules in code"): a cycle phase she gives triggers nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from gym.nutrition.payloads.feedback import WeeklyCheckin

SLOW_RATE = 0.25
FAST_RATE = 0.75
SLOW_KCAL = 200
FAST_KCAL = 150
ADAPTATION_WEEKS = 4
STALL_CHECKINS = 3
STALL_LIFTS = 2
TDEE_STEP_KG = 5
PROTEIN_EVERY_WEEKS = 4
TIER_WEEKS = {2: 1, 4: 2}
MAX_MINIMUM_VIABLE_DAYS = 2
WAIST_OVER_HIPS_CM = 1.0
NO_LUTEAL = ("perimenopausal", "postmenopausal")  # menstrual statuses with no cycle adjustment

# Trigger names, in the order they are reported (the first fired is the adjustment_type).
ORDER = ("calorie_increase", "calorie_decrease", "tdee_recalculation", "protein_recalculation",
         "tier_progression", "waist_hip_flag", "training_stall", "phase_transition", "compliance",
         "cycle_adjustment")


@dataclass(frozen=True)
class Point:
    """A stored check-in with the date it counts for and the run week it fell in."""

    checkin: WeeklyCheckin
    on: date
    week: int


@dataclass(frozen=True)
class LoopState:
    """What the triggers need to know about the run besides the check-ins."""

    goal: str  # gain | loss | maintain
    start_date: date
    start_weight_kg: float
    tdee_weight_kg: float
    tier: int
    ramps: bool
    calorie_reset: int = 0  # check-ins (oldest first) up to and including the last calorie adjustment
    stall_reset: int = 0  # likewise for the last training-stall adjustment
    protein_period: int = 0  # the last 4-week period whose protein recalculation fired (week // 4)
    luteal: bool = True  # the member's cycle phases count (not peri- or post-menopausal)
    training_phase: str | None = None  # the phase the program is built for now


def tier_reached(week: int) -> int:
    """The ramp tier a run is due by `week`: the last of TIER_WEEKS at or before it (0 before week 2)."""
    return max((tier for at, tier in TIER_WEEKS.items() if at <= week), default=0)


@dataclass
class Evaluation:
    triggers: list[str] = field(default_factory=list)
    kcal_change: int = 0
    rate_kg_per_week: float | None = None
    notes: list[str] = field(default_factory=list)
    tdee_kcal: int | None = None  # what a TDEE recalculation takes: the member's chosen estimate (None: the formula)


def weeks_between(start: date, on: date) -> int:
    return max(0, (on - start).days // 7)


def rates(state: LoopState, points: Sequence[Point]) -> list[float | None]:
    """kg/week for each point against the one before it (None when no time passed)."""
    out: list[float | None] = []
    previous_on, previous_kg = state.start_date, state.start_weight_kg
    for point in points:
        days = (point.on - previous_on).days
        out.append(None if days <= 0 else (point.checkin.weight_kg - previous_kg) / (days / 7))
        previous_on, previous_kg = point.on, point.checkin.weight_kg
    return out


def _logged(checkin: WeeklyCheckin) -> dict[str, bool]:
    if checkin.training_log is None:
        return {}
    return {e.name.strip().lower(): e.progressed for e in checkin.training_log.exercises}


def stall_streaks(checkins: Sequence[WeeklyCheckin]) -> dict[str, int]:
    """Per lift of the latest check-in, how many check-ins in a row (ending there) logged it unprogressed."""
    if not checkins:
        return {}
    streaks: dict[str, int] = {}
    for name in _logged(checkins[-1]):
        count = 0
        for checkin in reversed(checkins):
            if _logged(checkin).get(name) is not False:
                break
            count += 1
        streaks[name] = count
    return streaks


def _rate_trigger(state: LoopState, points: Sequence[Point], rate_list: list[float | None],
                  ev: Evaluation) -> None:
    if state.goal == "maintain":
        return
    sign = 1 if state.goal == "gain" else -1
    counted = [(p, r) for i, (p, r) in enumerate(zip(points, rate_list, strict=True))
               if i >= state.calorie_reset and p.week >= ADAPTATION_WEEKS and r is not None]
    last_point = points[-1]
    if not counted or counted[-1][0] is not last_point:
        return
    toward_goal = [sign * r for _, r in counted]
    verb = "gain" if sign > 0 else "loss"
    if toward_goal[-1] > FAST_RATE:
        ev.triggers.append("calorie_decrease" if sign > 0 else "calorie_increase")
        ev.kcal_change = -sign * FAST_KCAL
        ev.notes.append(f"Week {last_point.week}: {verb} rate {abs(counted[-1][1]):.2f} kg/week — above "
                        f"{FAST_RATE} kg/week")
    elif len(toward_goal) >= 2 and toward_goal[-1] < SLOW_RATE and toward_goal[-2] < SLOW_RATE:
        ev.triggers.append("calorie_increase" if sign > 0 else "calorie_decrease")
        ev.kcal_change = sign * SLOW_KCAL
        ev.notes.append(f"{verb.capitalize()} rate {counted[-2][1]:.2f} and {counted[-1][1]:.2f} kg/week for 2 "
                        f"consecutive weeks — below {SLOW_RATE} kg/week threshold")


def _girths(checkin: WeeklyCheckin) -> tuple[float, float] | None:
    """(waist, hips) in cm when the check-in measured both."""
    return None if checkin.waist_cm is None or checkin.hip_cm is None else (checkin.waist_cm, checkin.hip_cm)


def _waist_hip(points: Sequence[Point]) -> bool:
    measured = [(p.checkin, girths) for p in points if (girths := _girths(p.checkin)) is not None]
    if len(measured) < 2 or measured[-1][0] is not points[-1].checkin:
        return False
    (_, (waist_before, hips_before)), (_, (waist_now, hips_now)) = measured[-2], measured[-1]
    waist, hips = waist_now - waist_before, hips_now - hips_before
    return waist > 0 and waist - hips >= WAIST_OVER_HIPS_CM - 1e-9


def evaluate(state: LoopState, history: Sequence[Point], new: Point) -> Evaluation:
    """The triggers the new check-in fires, given the earlier ones (oldest first)."""
    points = [*history, new]
    rate_list = rates(state, points)
    ev = Evaluation(rate_kg_per_week=rate_list[-1])
    _rate_trigger(state, points, rate_list, ev)
    if abs(new.checkin.weight_kg - state.tdee_weight_kg) >= TDEE_STEP_KG:
        ev.triggers.append("tdee_recalculation")
        ev.notes.append(f"Weight moved {new.checkin.weight_kg - state.tdee_weight_kg:+.1f} kg since the last "
                        "TDEE calculation")
    if new.week // PROTEIN_EVERY_WEEKS > state.protein_period:
        ev.triggers.append("protein_recalculation")
        ev.notes.append(f"Week {new.week}: 4-weekly protein recalculation")
    if state.ramps and tier_reached(new.week) > state.tier:
        ev.triggers.append("tier_progression")
        ev.notes.append(f"Week {new.week}: calorie ramp moves to tier {tier_reached(new.week)}")
    if _waist_hip(points):
        ev.triggers.append("waist_hip_flag")
        ev.notes.append(f"Waist grew at least {WAIST_OVER_HIPS_CM:g} cm more than hips since the last measurement "
                        "— full review")
    recent = [p.checkin for p in points[state.stall_reset:]]
    stalled = [n for n, count in stall_streaks(recent).items() if count >= STALL_CHECKINS]
    if new.checkin.training_log is not None and len(stalled) >= STALL_LIFTS:
        ev.triggers.append("training_stall")
        ev.notes.append(f"{len(stalled)} lifts without progress for {STALL_CHECKINS}+ consecutive check-ins")
    phase = new.checkin.training_phase
    if phase is not None and state.training_phase is not None and phase != state.training_phase:
        ev.triggers.append("phase_transition")
        ev.notes.append(f"Training phase changed to {phase}")
    if (new.checkin.minimum_viable_days_count or 0) > MAX_MINIMUM_VIABLE_DAYS:
        ev.triggers.append("compliance")
        ev.notes.append(f"{new.checkin.minimum_viable_days_count} minimum-viable days this week")
    before = history[-1].checkin.cycle_phase if history else None
    if state.luteal and new.checkin.cycle_phase == "luteal" and before != "luteal":
        ev.triggers.append("cycle_adjustment")
        ev.notes.append("Luteal phase: cycle adjustment")
    ev.triggers.sort(key=ORDER.index)
    if not ev.triggers:
        rate = rate_list[-1]
        verb = {"gain": "gain rate", "loss": "loss rate"}.get(state.goal, "weight change")
        said = f"{verb} {abs(rate) if state.goal == 'loss' else rate:.2f} kg/week" if rate is not None else "no rate yet"
        ev.notes.append(f"Week {new.week}: {said} — within target range")
    return ev
