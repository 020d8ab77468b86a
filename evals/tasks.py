"""Tasks as data: one TOML file per family in evals/tasks/, read with the standard library's tomllib.

A task says who talks (a demo login, and so a role and a persona), what the simulated user is told
(`instructions`) and says when scripted (`turns`, how they answer a confirmation or a pick), the expected end
state (`expect`: the rows a try must create, change or delete, and nothing else; `unchanged`: rows that must
stay as they were; `check`: SQL over the final state), the tool assertions (`confirmed`, `called`, `rejected`,
`picked`, `not_called`), the expected answer where a number is asked (`answer`: computed by evals/answers.py from the
database with the domain's own code), and a `reference`: the moves a right agent makes, which
`spotter eval --model reference` plays to prove the task can be passed. Unknown keys are errors, so a typo in
a task file fails loudly instead of grading nothing.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
PERSONAS = ("staff", "trainer")
CHANGES = ("insert", "update", "delete")


class TaskError(ValueError):
    """A task file that cannot be read as tasks; the message names the file and the task."""


@dataclass(frozen=True)
class Step:
    """One move of the reference agent: a tool call, or (`say`) a final text; `{answer}` in it is the expected
    answer as the grader will look for it."""

    call: str | None = None
    input: Mapping[str, Any] = field(default_factory=dict)
    say: str | None = None


@dataclass(frozen=True)
class Expectation:
    """Rows a try must change: `count` rows of `table` (an int, "*" any number, "+" at least one) whose row
    (before the change for update/delete, after it for insert) matches `where`, and whose new values match
    `set`. An update may change only the columns in `set` and `may_change` (and `updated_at`)."""

    table: str
    change: str
    where: Mapping[str, Any] = field(default_factory=dict)
    set: Mapping[str, Any] = field(default_factory=dict)
    count: int | str = 1
    may_change: tuple[str, ...] = ()
    shown: str = ""  # `where` as the task wrote it (before its names were resolved), for failure messages


@dataclass(frozen=True)
class Unchanged:
    table: str
    where: Mapping[str, Any]


@dataclass(frozen=True)
class Check:
    """A statement over the final state (owner session, every org visible) whose one value must equal `equals`
    (`"{answer}"`: the expected answer's first number). Bound parameters: :harbor, :northside, :dani, :today,
    :tomorrow, :now."""

    sql: str
    equals: Any
    about: str = ""


@dataclass(frozen=True)
class Answer:
    """The reply must hold the numbers `fn` computes (each within `tolerance`) and every `text`; with
    `absent`, none of them (a leak the role must not see)."""

    fn: str | None = None
    args: Mapping[str, Any] = field(default_factory=dict)
    text: tuple[str, ...] = ()
    absent: bool = False
    tolerance: float = 0.0


@dataclass(frozen=True)
class Task:
    id: str
    family: str
    login: str
    instructions: str
    turns: tuple[str, ...]
    persona: str = "staff"
    about: str = ""
    known: str = ""  # a known gap in the product this task measures (shown beside its failures)
    locale: str = "en"
    confirm: str = "approve"
    pick: str | None = None
    max_turns: int = 6
    setup: tuple[Mapping[str, Any], ...] = ()
    reference: tuple[Step, ...] = ()
    expect: tuple[Expectation, ...] = ()
    unchanged: tuple[Unchanged, ...] = ()
    checks: tuple[Check, ...] = ()
    answer: Answer | None = None
    confirmed: tuple[str, ...] = ()
    called: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()
    picked: bool | None = None
    not_called: tuple[str, ...] = ()


def _only(where: str, table: Mapping[str, Any], allowed: Iterable[str], required: Iterable[str] = ()) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise TaskError(f"{where}: unknown key(s) {', '.join(unknown)}")
    missing = [key for key in required if key not in table]
    if missing:
        raise TaskError(f"{where}: missing {', '.join(missing)}")


def _step(where: str, raw: Mapping[str, Any]) -> Step:
    _only(where, raw, ("call", "input", "say"))
    if ("call" in raw) == ("say" in raw):
        raise TaskError(f"{where}: a reference step is either `call` (with `input`) or `say`")
    return Step(call=raw.get("call"), input=dict(raw.get("input", {})), say=raw.get("say"))


def _expectation(where: str, raw: Mapping[str, Any]) -> Expectation:
    _only(where, raw, ("table", "change", "where", "set", "count", "may_change"), ("table", "change"))
    if raw["change"] not in CHANGES:
        raise TaskError(f"{where}: change must be one of {', '.join(CHANGES)}")
    count = raw.get("count", 1)
    if not (isinstance(count, int) or count in ("*", "+")):
        raise TaskError(f"{where}: count is an integer, \"*\" or \"+\"")
    rows = dict(raw.get("where", {}))
    return Expectation(table=raw["table"], change=raw["change"], where=rows, set=dict(raw.get("set", {})),
                       count=count, may_change=tuple(raw.get("may_change", ())),
                       shown=", ".join(f"{k}={v}" for k, v in rows.items()) or "any row")


def _answer(where: str, raw: Mapping[str, Any]) -> Answer:
    _only(where, raw, ("fn", "args", "text", "absent", "tolerance"))
    if "fn" not in raw and "text" not in raw:
        raise TaskError(f"{where}: an answer has `fn` and/or `text`")
    return Answer(fn=raw.get("fn"), args=dict(raw.get("args", {})), text=tuple(raw.get("text", ())),
                  absent=bool(raw.get("absent", False)), tolerance=float(raw.get("tolerance", 0.0)))


TASK_KEYS = ("id", "login", "instructions", "turns", "persona", "about", "known", "locale", "confirm", "pick",
             "max_turns", "setup", "reference", "expect", "unchanged", "check", "answer", "confirmed", "called", "rejected",
             "picked", "not_called")


def parse_task(family: str, raw: Mapping[str, Any], source: str = "<task>") -> Task:
    where = f"{source}: task {raw.get('id', '?')}"
    _only(where, raw, TASK_KEYS, ("id", "login", "instructions", "turns"))
    if raw.get("persona", "staff") not in PERSONAS:
        raise TaskError(f"{where}: persona must be one of {', '.join(PERSONAS)}")
    if raw.get("confirm", "approve") not in ("approve", "reject"):
        raise TaskError(f"{where}: confirm is approve or reject")
    turns = tuple(raw["turns"])
    if not turns or not all(isinstance(t, str) and t.strip() for t in turns):
        raise TaskError(f"{where}: turns is a non-empty list of messages")
    checks = []
    for n, check in enumerate(raw.get("check", ())):
        _only(f"{where} check {n}", check, ("sql", "equals", "about"), ("sql", "equals"))
        checks.append(Check(sql=check["sql"], equals=check["equals"], about=check.get("about", "")))
    unchanged = []
    for n, row in enumerate(raw.get("unchanged", ())):
        _only(f"{where} unchanged {n}", row, ("table", "where"), ("table", "where"))
        unchanged.append(Unchanged(table=row["table"], where=dict(row["where"])))
    return Task(
        id=raw["id"], family=family, login=raw["login"], instructions=raw["instructions"].strip(), turns=turns,
        persona=raw.get("persona", "staff"), about=raw.get("about", ""), known=raw.get("known", ""),
        locale=raw.get("locale", "en"),
        confirm=raw.get("confirm", "approve"), pick=raw.get("pick"),
        max_turns=int(raw.get("max_turns", 6)), setup=tuple(dict(s) for s in raw.get("setup", ())),
        reference=tuple(_step(f"{where} reference {n}", s) for n, s in enumerate(raw.get("reference", ()))),
        expect=tuple(_expectation(f"{where} expect {n}", e) for n, e in enumerate(raw.get("expect", ()))),
        unchanged=tuple(unchanged), checks=tuple(checks),
        answer=_answer(f"{where} answer", raw["answer"]) if "answer" in raw else None,
        confirmed=tuple(raw.get("confirmed", ())), called=tuple(raw.get("called", ())), rejected=tuple(raw.get("rejected", ())),
        picked=raw.get("picked"), not_called=tuple(raw.get("not_called", ())))


def with_fragments(value: Any, fragments: Mapping[str, Any], where: str = "") -> Any:
    """A file's `[fragments]` spliced in: `"#name"` is a copy of fragment `name`, `"#name@3"` one with `order = 3`;
    in a list, a fragment without an order gets its place (1-based) as its order. (TOML inline tables fit on one
    line, so a workout's exercises are written once as fragments and named where they are used.)"""
    if isinstance(value, str) and value.startswith("#") and len(value) > 1:
        name, _, order = value[1:].partition("@")
        if name not in fragments:
            raise TaskError(f"{where}: no fragment {name!r} in this file")
        copy = dict(with_fragments(fragments[name], fragments, where))
        if order:
            copy["order"] = int(order)
        return copy
    if isinstance(value, list):
        out = []
        for n, item in enumerate(value, 1):
            expanded = with_fragments(item, fragments, where)
            if isinstance(item, str) and item.startswith("#") and isinstance(expanded, dict) and "order" not in expanded:
                expanded["order"] = n
            out.append(expanded)
        return out
    if isinstance(value, Mapping):
        return {k: with_fragments(v, fragments, where) for k, v in value.items()}
    return value


def load_file(path: Path) -> list[Task]:
    with path.open("rb") as handle:
        try:
            data = tomllib.load(handle)
        except tomllib.TOMLDecodeError as exc:
            raise TaskError(f"{path.name}: {exc}") from None
    _only(path.name, data, ("family", "about", "fragments", "task"), ("family", "task"))
    fragments = data.get("fragments", {})
    tasks = [with_fragments(raw, fragments, f"{path.name}: task {raw.get('id', '?')}") for raw in data["task"]]
    return [parse_task(data["family"], raw, path.name) for raw in tasks]


def load_tasks(directory: Path = TASKS_DIR) -> list[Task]:
    """Every task of every family file, in file then task order; task ids are unique across files."""
    tasks: list[Task] = []
    for path in sorted(directory.glob("*.toml")):
        tasks += load_file(path)
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise TaskError(f"task id {task.id} is used twice")
        seen.add(task.id)
    return tasks


def select(tasks: list[Task], wanted: str | None) -> list[Task]:
    """The tasks `--tasks` names: comma-separated families, family prefixes (`staff` is every staff_* family)
    or task ids; None is all of them."""
    if not wanted:
        return tasks
    names = [w.strip() for w in wanted.split(",") if w.strip()]
    chosen = [t for t in tasks if any(t.id == n or t.family == n or t.family.startswith(n + "_") for n in names)]
    if not chosen:
        families = sorted({t.family for t in tasks})
        raise TaskError(f"--tasks {wanted}: no such family or task (families: {', '.join(families)})")
    return chosen
