"""Exercise order (001 §4.9 generation rule 4), checked in code: warm-up first, compound lifts before isolation
work, cool-down last.

A warm-up is an exercise in a `warmup` group, a cool-down one in a `cooldown` group. Compound and isolation are
the library's (gym.training.movements.movement_kind) and only set-and-rep work (`reps` exercises) is ranked: a
conditioning finisher or a plank after the curls is fine. A superset, circuit or giant set is done as one block,
so it ranks as compound when any member is compound.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gym.training.movements import movement_kind
from gym.training.workout import Exercise, RepsExercise

BLOCK_GROUPS = frozenset({"circuit", "superset", "giant_set"})


@dataclass(frozen=True)
class OrderProblem:
    message: str
    hint: str


def _group_type(exercise: Exercise) -> str | None:
    return None if exercise.group is None else str(exercise.group.type)


def _group_id(exercise: Exercise) -> str | None:
    return None if exercise.group is None else exercise.group.id


def _label(exercise: Exercise) -> str:
    return f"{exercise.name} (exercise {exercise.order})"


def _blocks(main: list[Exercise]) -> list[tuple[str | None, list[Exercise]]]:
    """Consecutive members of one block group together; every other exercise is a block of its own. Each block's
    kind: compound if any ranked member is, isolation if all ranked members are, else None."""
    blocks: list[list[Exercise]] = []
    for ex in main:
        gid = _group_id(ex) if _group_type(ex) in BLOCK_GROUPS else None
        if gid is not None and blocks and _group_id(blocks[-1][0]) == gid:
            blocks[-1].append(ex)
        else:
            blocks.append([ex])
    out = []
    for block in blocks:
        kinds = {movement_kind(ex.name) for ex in block if isinstance(ex, RepsExercise)} - {None}
        out.append(("compound" if "compound" in kinds else "isolation" if kinds else None, block))
    return out


def order_problems(exercises: Iterable[Exercise]) -> list[OrderProblem]:
    """What breaks rule 4 in this workout (empty when its order is fine)."""
    ordered = sorted(exercises, key=lambda e: e.order)
    problems: list[OrderProblem] = []
    warmups = [i for i, ex in enumerate(ordered) if _group_type(ex) == "warmup"]
    cooldowns = [i for i, ex in enumerate(ordered) if _group_type(ex) == "cooldown"]
    others = [i for i, ex in enumerate(ordered) if _group_type(ex) not in ("warmup", "cooldown")]
    if warmups and others and max(warmups) > min(others):
        problems.append(OrderProblem(
            f"the warm-up {_label(ordered[max(warmups)])} comes after {_label(ordered[min(others)])}",
            "Put every warm-up exercise first."))
    if cooldowns and others and min(cooldowns) < max(others):
        problems.append(OrderProblem(
            f"the cool-down {_label(ordered[min(cooldowns)])} comes before {_label(ordered[max(others)])}",
            "Put every cool-down exercise last."))
    isolation: Exercise | None = None
    for kind, block in _blocks([ordered[i] for i in others]):
        if kind == "isolation" and isolation is None:
            isolation = block[0]
        elif kind == "compound" and isolation is not None:
            problems.append(OrderProblem(
                f"the compound lift {_label(block[0])} comes after the isolation exercise {_label(isolation)}",
                f"Put compound lifts before isolation work: move {block[0].name} before "
                f"{isolation.name} (position {isolation.order})."))
            break
    return problems


def fitting_position(exercises: Iterable[Exercise], name: str, type_: str) -> int:
    """Where an exercise added to this workout keeps rule 4 (1 = first): a compound lift goes before the first
    isolation block (after any warm-up), anything else after the main work (before any cool-down)."""
    ordered = sorted(exercises, key=lambda e: e.order)
    cooldown = next((i for i, ex in enumerate(ordered) if _group_type(ex) == "cooldown"), len(ordered))
    if type_ == "reps" and movement_kind(name) == "compound":
        main = [ex for ex in ordered if _group_type(ex) not in ("warmup", "cooldown")]
        first = next((block[0] for kind, block in _blocks(main) if kind == "isolation"), None)
        if first is not None:
            return ordered.index(first) + 1
    return cooldown + 1
