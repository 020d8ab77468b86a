"""Portions by mixed-integer programming (HiGHS through highspy), for the offline NUTRITIONIST, DIETITIAN and CHEF.

`plan_week` chooses, day by day, one dish variant per meal slot among those the member may eat and the grams of
each of its ingredients within the template's portion ranges, so the day's calories and protein land within
3 % of the targets, fat and carbohydrate within 8 % (inside NUTRITION.md's 5 % and 10 %, leaving room for
rounding), fibre reaches the target, each slot holds a sensible share of the day's energy, and each slot's
protein sits near the NUTRITIONIST's distribution. A dish is served at most `MAX_REPEATS` times a week (and a
dish served yesterday costs extra), so the week varies; when a member's constraints leave too few dishes for a
slot, the cap rises only as far as the week needs. `portion` solves one dish's grams to a slot spec (the CHEF),
`protein_distribution` the per-meal protein (the NUTRITIONIST). A day no dish combination can meet raises
`Unplannable`: that is a bug in the library or the templates, never a state of the run.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import highspy
import numpy as np

from gym.nutrition.payloads.common import DAYS, MEALS
from pipeline.offline.recipes import Variant, min_use

SLOT_BAND = 0.08  # CHEF: a slot's calories and protein within 8 % of its spec, so whole grams keep the check's 10 %
LAST_SLOT_BAND = 0.095  # where 8 % cannot be had (whole grams are checked against the 10 % before they are served)
MAX_REPEATS = 2  # a dish at most twice a week: one batch cooked, eaten twice; never the same menu alternating
TIME_LIMIT_S = 60.0  # per solve, a safety net only: solves take under a second, and a plan must not depend on speed
LEAVE_OUT_ROUNDS = 3  # linear programs leaving pinched ingredients out before the mixed-integer one decides
CANDIDATES = 12  # dishes offered to the solver per slot and day (the least used first)
PORTIONS_WRITTEN_FOR_KCAL = 2600
FIBER_MARGIN_G = 0.5  # over the target, so the CHEF's whole grams still serve the minimum
NUTRIENTS = ("calories", "protein_g", "fat_g", "carbs_g", "fiber_g")
PER_100 = {"calories": "kcal", "protein_g": "protein_g", "fat_g": "fat_g", "carbs_g": "carbs_g", "fiber_g": "fiber_g"}
BANDS = ({"calories": 0.03, "protein_g": 0.03, "fat_g": 0.08, "carbs_g": 0.08},
         {"calories": 0.045, "protein_g": 0.045, "fat_g": 0.095, "carbs_g": 0.095})
# The CHEF's day as served, rounded to whole grams afterwards: a margin under the checks' 5 % and 10 % for it.
CHEF_BANDS = (BANDS[0], {"calories": 0.04, "protein_g": 0.04, "fat_g": 0.085, "carbs_g": 0.085})
WEIGHTS = {"calories": 10.0, "protein_g": 10.0, "fat_g": 3.0, "carbs_g": 3.0}
# Dinner at most 30 %: the luteal phase moves a tenth of the day's carbohydrate (about 5 % of its energy) to dinner
# (pipeline.offline.meal_plan), and the dish the plan chose must still hold it.
ENERGY_SHARE = {"breakfast": (0.15, 0.35), "lunch": (0.20, 0.40), "snack": (0.05, 0.20), "dinner": (0.20, 0.30),
                "presleep": (0.05, 0.20)}
INF = highspy.kHighsInf
# HiGHS's improvement heuristics and its restart after presolve: these programs (a day's dishes, at most some hundred
# columns, solved at the root) are done before they pay off, and they took half of a solve's time.
QUIET_HEURISTICS = ("mip_heuristic_run_feasibility_jump", "mip_heuristic_run_rins", "mip_heuristic_run_rens",
                    "mip_heuristic_run_root_reduced_cost")



class Unplannable(RuntimeError):
    """No combination of the member's dishes meets a day's targets: a gap in the library, not a run state."""


@dataclass(frozen=True)
class DayTargets:
    calories: float
    protein_g: float
    fat_g: float
    carbs_g: float
    fiber_g: float  # at least
    protein_by_meal: dict[str, float]

    @property
    def scale(self) -> float:
        return portion_scale(self.calories)


def portion_scale(day_kcal: float) -> float:
    """How much larger than a template's portion range a big eater's may be: the ranges are written for about
    2,600 kcal a day; a 5,000 kcal day needs twice the rice, not a sixth meal."""
    return max(1.0, day_kcal / PORTIONS_WRITTEN_FOR_KCAL)


@dataclass
class Portion:
    variant: Variant
    grams: dict[str, float]  # food key -> grams (0 for an optional ingredient left out)
    macros: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.macros:
            self.macros = totals(self.variant, self.grams)


def totals(variant: Variant, grams: dict[str, float]) -> dict[str, float]:
    out = dict.fromkeys(NUTRIENTS, 0.0)
    for food, _ in variant.parts:
        for name, per in PER_100.items():
            out[name] += getattr(food, per) * grams.get(food.key, 0.0) / 100
    return out


class _Model:
    """A thin builder over highspy: columns and rows gathered in lists and handed over at once when solved (one
    call per column and per row cost more than the solve itself on these small programs)."""

    def __init__(self) -> None:
        self.h = highspy.Highs()
        self.h.setOptionValue("output_flag", False)
        self.h.setOptionValue("random_seed", 0)
        self.h.setOptionValue("threads", 1)
        self.h.setOptionValue("time_limit", TIME_LIMIT_S)
        for heuristic in QUIET_HEURISTICS:
            self.h.setOptionValue(heuristic, False)
        self.h.setOptionValue("mip_allow_restart", False)
        self.costs: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.integers: list[int] = []
        self.row_lower: list[float] = []
        self.row_upper: list[float] = []
        self.starts: list[int] = []
        self.indices: list[int] = []
        self.values: list[float] = []

    @property
    def columns(self) -> int:
        return len(self.costs)

    def var(self, lo: float, hi: float, cost: float = 0.0, integer: bool = False) -> int:
        self.costs.append(cost)
        self.lower.append(lo)
        self.upper.append(hi)
        if integer:
            self.integers.append(len(self.costs) - 1)
        return len(self.costs) - 1

    def amount(self, food: str, lo: float, hi: float, pick: int | None = None, *, semi: bool = True) -> int:
        """Grams of one ingredient in [lo, hi] when `pick` is 1 (0 otherwise); an optional one (lo 0) is, with
        `semi`, either left out or at least `min_use` grams."""
        x = self.var(0, hi)
        on = pick
        if lo == 0 and semi:
            on = self.var(0, 1, integer=True)
            lo = min(min_use(food), hi)
            if pick is not None:
                self.row(-INF, 0, {on: 1.0, pick: -1.0})
        if on is not None:
            self.row(-INF, 0, {x: 1.0, on: -hi})
            self.row(0, INF, {x: 1.0, on: -lo})
        elif lo > 0:
            self.row(lo, INF, {x: 1.0})
        return x

    def row(self, lo: float, hi: float, terms: dict[int, float]) -> None:
        self.row_lower.append(lo)
        self.row_upper.append(hi)
        self.starts.append(len(self.indices))
        self.indices.extend(terms)
        self.values.extend(terms.values())

    def _pass(self) -> None:
        n = len(self.costs)
        self.h.addCols(n, np.array(self.costs), np.array(self.lower), np.array(self.upper), 0,
                       np.zeros(n, dtype=np.int32), np.array([], dtype=np.int32), np.array([], dtype=np.float64))
        if self.integers:
            self.h.changeColsIntegrality(len(self.integers), np.array(self.integers, dtype=np.int32),
                                         np.full(len(self.integers), highspy.HighsVarType.kInteger))
        self.h.addRows(len(self.row_lower), np.array(self.row_lower), np.array(self.row_upper), len(self.indices),
                       np.array(self.starts, dtype=np.int32), np.array(self.indices, dtype=np.int32),
                       np.array(self.values, dtype=np.float64))

    def solve(self) -> np.ndarray | None:
        self._pass()
        if not self.integers:  # a linear program this small solves faster than HiGHS's presolve reduces it
            self.h.setOptionValue("presolve", "off")
        self.h.run()
        status = self.h.getModelStatus()
        if status != highspy.HighsModelStatus.kOptimal and not (
                status == highspy.HighsModelStatus.kTimeLimit and self.h.getInfo().primal_solution_status == 2):
            return None
        return np.array(self.h.getSolution().col_value)


def _deviation(model: _Model, terms: dict[int, float], target: float, band: float, weight: float) -> None:
    """sum(terms) = target + over - under, |over - under| within band * target, each costing weight / target."""
    over = model.var(0, band * target, weight / max(target, 1e-6))
    under = model.var(0, band * target, weight / max(target, 1e-6))
    model.row(target, target, {**terms, over: -1.0, under: 1.0})


def _nutrient_terms(columns: dict[tuple[str, str], int], variant: Variant, name: str) -> dict[int, float]:
    return {columns[(variant.key, food.key)]: getattr(food, PER_100[name]) / 100 for food, _ in variant.parts}


def _solve_day(targets: DayTargets, options: dict[str, list[Variant]], costs: dict[str, float],
               bands: dict[str, float], *, exact: bool = True,
               specs: dict[str, dict[str, float]] | None = None, slot_band: float = 0.0,
               protein_band: float = 10.0) -> dict[str, Portion] | None:
    """`_solve_mix`, by linear programs first where they decide it; the mixed-integer program only where they do
    not. Every answer meets the same constraints (the bands, the shares, one dish a slot, a dish once a day); the
    linear programs are a tenth of the mixed-integer one's time and most of the CHEF's and DIETITIAN's solves.

    - Dishes chosen (one per slot), grams open (`exact`): the program without the rule that an optional ingredient
      is left out or weighed at least `min_use` has the same constraints otherwise, so an optimum of it that keeps
      the rule is an optimum of the mixed-integer one, and where it has none neither has the other. Where it weighs
      a pinch, those ingredients are left out and the grams solved again (up to `LEAVE_OUT_ROUNDS` times, as long
      as new pinches appear): an answer that keeps the rule, near the optimum (a pinch is a few grams of a minor
      ingredient); the mixed-integer program decides only when that has none.
    - Dishes open, the first that meet the bands wanted (not `exact`): the program with the picks relaxed to
      fractions, then each slot's largest pick fixed and the grams solved (a dive); the relaxation leans to the
      dishes that cost least (used least this week), as the mixed-integer search would. The mixed-integer search
      when the dive's dishes cannot meet the bands."""
    solve = functools.partial(_solve_mix, targets, specs=specs, slot_band=slot_band, protein_band=protein_band)
    fixed = all(len(found) == 1 for found in options.values())
    if fixed and exact:
        day = solve(options, costs, bands, semi=False)
        if day is None:
            return None
        left_out: frozenset[tuple[str, str]] = frozenset()
        for solved in range(LEAVE_OUT_ROUNDS + 1):
            pinched = {(meal, food) for meal, p in day.items() for food in _pinches(p)}
            if not pinched:
                return day
            if solved == LEAVE_OUT_ROUNDS:
                break
            left_out |= pinched
            found = solve(options, costs, bands, semi=False, left_out=left_out)
            if found is None:
                break
            day = found
    elif not fixed and not exact:
        relaxed = solve(options, costs, bands, exact=False, semi=False, relax=True)
        if relaxed is None:  # not even fractions of the dishes meet the bands: neither do whole ones
            return None
        day = solve({meal: [p.variant] for meal, p in relaxed.items()}, costs, bands, exact=False, semi=False)
        if day is not None:
            return day
    return solve(options, costs, bands, exact=exact, semi=exact)


def _pinches(p: Portion, *, least: float = 1e-6) -> list[str]:
    """The optional ingredients weighed above `least` but below the least worth weighing."""
    return [food.key for food, c in p.variant.parts
            if c.lo == 0 and least < p.grams[food.key] < min_use(food.key) - 1e-6]


def _solve_mix(targets: DayTargets, options: dict[str, list[Variant]], costs: dict[str, float],
               bands: dict[str, float], *, exact: bool = True,
               specs: dict[str, dict[str, float]] | None = None, slot_band: float = 0.0,
               protein_band: float = 10.0, semi: bool, relax: bool = False,
               left_out: frozenset[tuple[str, str]] = frozenset()) -> dict[str, Portion] | None:
    """One day: the dishes (binary picks) and their grams within the bands. `exact` weighs every deviation from
    the targets; without it only the dishes' costs count (a quick search for dishes that can meet the bands).
    With `specs` (the CHEF cooking a meal plan) each slot's calories and protein stay within `slot_band` of its
    spec and its fat and carbohydrate near it, in place of the energy shares and the protein distribution (the
    grams are rounded to whole ones afterwards: integer grams made the CHEF's solves minutes long, and its bands
    leave room to round). With `semi`, an optional ingredient is left out or weighed at least `min_use` grams. With
    `relax` the picks are fractions (a relaxation: each slot's largest is the dish returned); the ingredients
    `left_out` ((slot, food) pairs) weigh nothing."""
    weight = 1.0 if exact else 0.0
    model = _Model()
    if not exact:
        model.h.setOptionValue("mip_rel_gap", 1.0)  # the first dishes that meet the bands will do
    picks: dict[tuple[str, str], int] = {}
    grams: dict[tuple[str, str, str], int] = {}
    day_terms: dict[str, dict[int, float]] = {name: {} for name in NUTRIENTS}
    for meal in MEALS:
        meal_terms: dict[str, dict[int, float]] = {name: {} for name in NUTRIENTS}
        for variant in options[meal]:
            pick = picks[(meal, variant.key)] = model.var(0, 1, costs.get(variant.dish, 0.0),
                                                          integer=len(options[meal]) > 1 and not relax)
            columns: dict[tuple[str, str], int] = {}
            for food, component in variant.parts:
                hi = 0.0 if (meal, food.key) in left_out else component.hi * targets.scale
                x = model.amount(food.key, component.lo, hi, pick, semi=semi)
                grams[(meal, variant.key, food.key)] = columns[(variant.key, food.key)] = x
            for name in NUTRIENTS:
                for column, coef in _nutrient_terms(columns, variant, name).items():
                    meal_terms[name][column] = coef
        model.row(1, 1, {picks[(meal, v.key)]: 1.0 for v in options[meal]})
        if specs is None:
            lo, hi = ENERGY_SHARE[meal]
            model.row(lo * targets.calories, hi * targets.calories, meal_terms["calories"])
            _deviation(model, meal_terms["protein_g"], targets.protein_by_meal[meal], protein_band, weight)
        else:
            for name, band, importance in (("calories", slot_band, 10.0), ("protein_g", slot_band, 10.0),
                                           ("fat_g", 10.0, 2.0), ("carbs_g", 10.0, 2.0)):
                _deviation(model, meal_terms[name], max(specs[meal][name], 0.1), band, importance * weight)
        for name in NUTRIENTS:
            day_terms[name].update(meal_terms[name])
    by_dish: dict[str, dict[int, float]] = {}
    for (slot, key), pick in picks.items():
        dish = next(v.dish for v in options[slot] if v.key == key)
        by_dish.setdefault(dish, {})[pick] = 1.0
    for terms in by_dish.values():
        if len(terms) > 1:
            model.row(0, 1, terms)  # a dish once a day
    for name in ("calories", "protein_g", "fat_g", "carbs_g"):
        _deviation(model, day_terms[name], getattr(targets, name), bands[name], WEIGHTS[name] * weight)
    ceiling = fiber_ceiling(targets.fiber_g) if specs is None else INF  # the CHEF cooks the fibre the plan chose
    model.row(targets.fiber_g + FIBER_MARGIN_G, ceiling, day_terms["fiber_g"])
    values = model.solve()
    if values is None:
        return None
    day: dict[str, Portion] = {}
    for meal in MEALS:
        chosen = max(options[meal], key=lambda v: values[picks[(meal, v.key)]])
        day[meal] = Portion(chosen, {food.key: float(values[grams[(meal, chosen.key, food.key)]])
                                     for food, _ in chosen.parts})
    return day


def fiber_ceiling(target: float) -> float:
    """At most this much fibre a day: past it, bulk crowds out energy (a low-appetite gainer's problem) and the gut
    objects; 25 g over the target, or 60 % over it for big eaters."""
    return max(target + 25, 1.6 * target)


def _offer(menu: dict[str, list[Variant]], uses: dict[str, int], cap: int, yesterday: set[str],
           day_index: int, width: int) -> dict[str, list[Variant]]:
    """Per slot, the `width` dishes under the cap used least so far (yesterday's last), rotating with the day."""
    offer: dict[str, list[Variant]] = {}
    for meal in MEALS:
        count = len(menu[meal])
        open_ = [(i, v) for i, v in enumerate(menu[meal]) if uses.get(v.dish, 0) < cap]
        rotated = sorted(open_, key=lambda iv: (uses.get(iv[1].dish, 0), iv[1].dish in yesterday,
                                                (iv[0] - 3 * day_index) % count))
        offer[meal] = [v for _, v in rotated[:width]]
    return offer


def plan_week(targets: DayTargets, menu: dict[str, list[Variant]]) -> dict[str, dict[str, Portion]]:
    """A week of portions: every day within the bands, no dish past its cap, dishes rotating across days."""
    if any(not menu[meal] for meal in MEALS):
        raise Unplannable(f"no dish the member may eat for {[m for m in MEALS if not menu[m]]}")
    week: dict[str, dict[str, Portion]] = {}
    uses: dict[str, int] = {}
    yesterday: set[str] = set()
    for index, day in enumerate(DAYS):
        plan = None
        for cap, protein_band in ((MAX_REPEATS, 10.0), (MAX_REPEATS + 1, 10.0), (len(DAYS) * 2, 10.0)):
            costs = {d: 0.2 * n + (0.5 if d in yesterday else 0.0) for d, n in uses.items()}
            for width, bands in ((CANDIDATES, BANDS[0]), (10_000, BANDS[0]), (10_000, BANDS[1])):
                plan = _solve_day(targets, _offer(menu, uses, cap, yesterday, index, width), costs, bands,
                                  exact=False, protein_band=protein_band)
                if plan is not None:  # the dishes are chosen; now their grams, as close to the targets as they go
                    plan = _solve_day(targets, {m: [p.variant] for m, p in plan.items()}, {}, bands,
                                      protein_band=protein_band) or plan
                    break
            if plan is not None:
                break
        if plan is None:
            raise Unplannable(f"{day}: no dishes meet {targets}")
        week[day] = plan
        yesterday = {p.variant.dish for p in plan.values()}
        for p in plan.values():
            uses[p.variant.dish] = uses.get(p.variant.dish, 0) + 1
    return week


def cook_day(targets: DayTargets, specs: dict[str, dict[str, float]], first: dict[str, Variant | None],
             menu: dict[str, list[Variant]]) -> dict[str, Portion] | None:
    """The CHEF's day: grams for every slot at once, so each slot's calories and protein stay within `SLOT_BAND` of
    its spec and the day, as served, within the bands of the member's daily targets with fibre at least their
    minimum (slots solved one by one drift apart on fat and carbohydrate, as after a luteal shift). Each slot's
    first alternative when they can; else any of the member's dishes, the first alternatives preferred. None when
    no combination can."""
    options: dict[str, list[Variant]] = {meal: [chosen] if (chosen := first.get(meal)) else menu[meal] for meal in MEALS}
    preferred = {v.dish for v in first.values() if v is not None}
    costs = {v.dish: 0.0 if v.dish in preferred else 1.0 for meal in MEALS for v in menu[meal]}
    wide: dict[str, list[Variant]] = {meal: list(dict.fromkeys([*options[meal], *menu[meal]])) for meal in MEALS}
    for slot_band in (SLOT_BAND, LAST_SLOT_BAND):
        for bands in CHEF_BANDS:
            day = _solve_day(targets, options, {}, bands, specs=specs, slot_band=slot_band)
            if day is not None:
                return day
        for bands in CHEF_BANDS:
            day = _solve_day(targets, wide, costs, bands, exact=False, specs=specs, slot_band=slot_band)
            if day is not None:
                fixed = {meal: [p.variant] for meal, p in day.items()}
                return _solve_day(targets, fixed, {}, bands, specs=specs, slot_band=slot_band) or day
    return None


def portion(variant: Variant, spec: dict[str, float], scale: float = 1.0, band: float = 0.1) -> Portion | None:
    """The grams of `variant` closest to a slot spec (calories and protein first, then fat and carbohydrate),
    with at least the spec's fibre, an optional ingredient either left out or weighed; None when the dish
    cannot come within `band` (10 %) of its calories and protein. A linear program first; only when it weighs a pinch
    of an optional ingredient does the mixed-integer one decide."""
    found = _portion(variant, spec, scale, band, semi=False)
    if found is not None and not _pinches(found, least=0.5):  # served in whole grams: under half of one is none
        return found
    return _portion(variant, spec, scale, band, semi=True) or found


def _portion(variant: Variant, spec: dict[str, float], scale: float, band_: float, *, semi: bool) -> Portion | None:
    model = _Model()
    columns = {(variant.key, food.key): model.amount(food.key, component.lo, component.hi * scale, semi=semi)
               for food, component in variant.parts}
    for name, band in (("calories", band_), ("protein_g", band_), ("fat_g", 10.0), ("carbs_g", 10.0)):
        _deviation(model, _nutrient_terms(columns, variant, name), max(spec[name], 0.1), band, WEIGHTS[name])
    if spec.get("fiber_g"):
        model.row(spec["fiber_g"] - 0.05, INF, _nutrient_terms(columns, variant, "fiber_g"))
    values = model.solve()
    if values is None:
        return None
    return Portion(variant, {food.key: float(values[columns[(variant.key, food.key)]]) for food, _ in variant.parts})


def protein_distribution(protein_g: float) -> dict[str, float]:
    """Protein per meal: as even as possible over the four main feedings (Schoenfeld & Aragon 2018: about
    0.4 g/kg at each of four or more meals, which 1.8-2.0 g/kg a day spread this way gives), the bedtime feeding
    three quarters of a main one, the snack 10-15 %."""
    model = _Model()
    p = {meal: model.var(0, protein_g) for meal in MEALS}
    floor = model.var(0, protein_g, -1.0)  # maximize the smallest main feeding
    for meal in ("breakfast", "lunch", "dinner"):
        model.row(0, INF, {p[meal]: 1.0, floor: -1.0})
    model.row(0, INF, {p["presleep"]: 1.0, floor: -0.75})
    model.row(0.10 * protein_g, 0.15 * protein_g, {p["snack"]: 1.0})
    model.row(protein_g, protein_g, {column: 1.0 for column in p.values()})
    values = model.solve()
    if values is None:
        raise Unplannable(f"no protein distribution for {protein_g} g")
    split: dict[str, float] = {meal: math.floor(values[p[meal]] * 10) / 10 for meal in MEALS}
    split["dinner"] = round(protein_g - sum(v for m, v in split.items() if m != "dinner"), 1)
    return split
