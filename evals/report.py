"""Results: one JSON line per try, pass^1 and pass^k per family (τ-bench's estimator), cost and round trips per
task, and what changed since a previous run's file (regressions flagged)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from math import comb
from pathlib import Path
from typing import Any


@dataclass
class TryResult:
    task: str
    family: str
    attempt: int
    status: str  # pass | fail | error
    failures: list[str]
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_creation_tokens: int = 0
    cost_usd_micros: int = 0
    user_cost_usd_micros: int = 0
    round_trips: int = 0
    model_calls: int = 0
    seconds: float = 0.0
    transcript: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.status == "pass"


def pass_hat_k(successes: int, trials: int, k: int) -> float:
    """τ-bench's pass^k for one task: the chance that k tries drawn from its `trials` all succeed."""
    if trials < k or k < 1:
        raise ValueError("pass^k needs at least k trials")
    return comb(successes, k) / comb(trials, k)


def _by_task(results: Iterable[TryResult]) -> dict[str, list[TryResult]]:
    grouped: dict[str, list[TryResult]] = defaultdict(list)
    for r in results:
        grouped[r.task].append(r)
    return grouped


@dataclass(frozen=True)
class FamilyRow:
    family: str
    tasks: int
    tries: int
    pass_1: float
    pass_k: float
    errors: int
    cost_per_task_usd: float
    round_trips_per_task: float
    tokens_per_task: float


def family_rows(results: Sequence[TryResult], k: int) -> list[FamilyRow]:
    """Per family (and "all"): pass^1 and pass^k averaged over tasks; cost, round trips, tokens per task try."""
    tasks = _by_task(results)
    families: dict[str, list[list[TryResult]]] = defaultdict(list)
    for tries in tasks.values():
        families[tries[0].family].append(tries)
    rows = []
    for family, groups in [*sorted(families.items()), ("all", list(tasks.values()))]:
        flat = [t for g in groups for t in g]
        if not flat:
            continue
        rows.append(FamilyRow(
            family=family, tasks=len(groups), tries=len(flat),
            pass_1=sum(pass_hat_k(sum(t.passed for t in g), len(g), 1) for g in groups) / len(groups),
            pass_k=sum(pass_hat_k(sum(t.passed for t in g), len(g), min(k, len(g))) for g in groups) / len(groups),
            errors=sum(t.status == "error" for t in flat),
            cost_per_task_usd=sum(t.cost_usd_micros for t in flat) / len(flat) / 1e6,
            round_trips_per_task=sum(t.round_trips for t in flat) / len(flat),
            tokens_per_task=sum(t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_creation_tokens
                                for t in flat) / len(flat)))
    return rows


def family_table(rows: Sequence[FamilyRow], k: int) -> str:
    head = f"{'family':<20} {'tasks':>5} {'tries':>5} {'pass^1':>7} {f'pass^{k}':>7} {'errors':>6} " \
           f"{'$/task':>8} {'trips':>6} {'tokens':>8}"
    lines = [head, "-" * len(head)]
    for r in rows:
        if r.family == "all":
            lines.append("-" * len(head))
        lines.append(f"{r.family:<20} {r.tasks:>5} {r.tries:>5} {r.pass_1:>7.1%} {r.pass_k:>7.1%} {r.errors:>6} "
                     f"{r.cost_per_task_usd:>8.4f} {r.round_trips_per_task:>6.1f} {r.tokens_per_task:>8.0f}")
    return "\n".join(lines)


def task_table(results: Sequence[TryResult], regressions: dict[str, str]) -> str:
    head = f"{'task':<34} {'family':<18} {'passed':>6} {'$/try':>8} {'trips':>5} {'in+cache':>9} {'out':>6}  note"
    lines = [head, "-" * len(head)]
    for task, tries in _by_task(results).items():
        n = len(tries)
        tokens_in = sum(t.input_tokens + t.cache_read_tokens + t.cache_creation_tokens for t in tries) / n
        note = regressions.get(task, "")
        if tries[0].extra.get("known") and not all(t.passed for t in tries):
            note = f"{note} known gap".strip()
        lines.append(f"{task[:34]:<34} {tries[0].family[:18]:<18} {sum(t.passed for t in tries):>3}/{n:<2} "
                     f"{sum(t.cost_usd_micros for t in tries) / n / 1e6:>8.4f} "
                     f"{sum(t.round_trips for t in tries) / n:>5.1f} {tokens_in:>9.0f} "
                     f"{sum(t.output_tokens for t in tries) / n:>6.0f}  {note}")
    return "\n".join(lines)


def failure_lines(results: Sequence[TryResult], limit: int = 3) -> str:
    lines = []
    for r in results:
        if r.passed:
            continue
        lines.append(f"✗ {r.task} #{r.attempt} ({r.status}) → {r.transcript}")
        lines += [f"    {f}" for f in r.failures[:limit]]
        if len(r.failures) > limit:
            lines.append(f"    … and {len(r.failures) - limit} more")
    return "\n".join(lines)


# ---- the results file and a previous run's ---------------------------------------------------------------

def write_results(path: Path, header: dict[str, Any], results: Sequence[TryResult], rows: Sequence[FamilyRow]) -> None:
    with path.open("w") as out:
        out.write(json.dumps({"kind": "run", **header}, default=str) + "\n")
        for r in results:
            out.write(json.dumps({"kind": "try", **asdict(r)}, default=str) + "\n")
        for row in rows:
            out.write(json.dumps({"kind": "family", **asdict(row)}) + "\n")


def read_results(path: Path) -> tuple[dict[str, Any], list[TryResult]]:
    header: dict[str, Any] = {}
    found = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        kind = data.pop("kind", None)
        if kind == "run":
            header = data
        elif kind == "try":
            found.append(TryResult(**data))
    return header, found


def compare(previous: Sequence[TryResult], current: Sequence[TryResult]) -> dict[str, str]:
    """Per task present in both: REGRESSED when its pass rate fell, fixed when it rose; new otherwise."""
    before = {task: sum(t.passed for t in tries) / len(tries) for task, tries in _by_task(previous).items()}
    notes = {}
    for task, tries in _by_task(current).items():
        rate = sum(t.passed for t in tries) / len(tries)
        if task not in before:
            notes[task] = "new"
        elif rate < before[task]:
            notes[task] = f"REGRESSED (was {before[task]:.0%})"
        elif rate > before[task]:
            notes[task] = f"fixed (was {before[task]:.0%})"
    return notes


def latest_results(root: Path, model: str, exclude: Path | None = None) -> Path | None:
    """The newest results file under `root` from a run of `model` (the default to compare with)."""
    candidates = []
    for path in root.glob("*/results.jsonl"):
        if exclude is not None and path.resolve() == exclude.resolve():
            continue
        try:
            header, _ = read_results(path)
        except (ValueError, TypeError, OSError):
            continue
        if header.get("model") == model:
            candidates.append((str(header.get("started", "")), path))
    return max(candidates)[1] if candidates else None
