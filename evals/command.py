"""`spotter eval`: load the tasks, run them, print the tables (api/cli/ parses the arguments)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import redis.asyncio as aioredis

from core.settings import Settings
from evals.report import failure_lines, family_rows, family_table, task_table
from evals.runner import EvalConfig, run_suite
from evals.tasks import TaskError, load_tasks, select


@dataclass(frozen=True)
class EvalArgs:
    model: str | None
    k: int
    tasks: str | None
    concurrency: int
    user: str
    user_model: str | None
    compare: Path | None
    no_index: bool
    fail_under: float | None
    out: Path | None


def default_model(settings: Settings) -> str:
    """Claude (AGENT_MODEL) with a key, else the offline model."""
    if settings.agent_model_provider == "offline" or not settings.anthropic_api_key:
        return "offline"
    return settings.agent_model


async def eval_command(settings: Settings, args: EvalArgs) -> int:
    try:
        tasks = select(load_tasks(), args.tasks)
    except TaskError as exc:
        print(f"spotter eval: {exc}", file=sys.stderr)
        return 2
    model = args.model or default_model(settings)
    config = EvalConfig(model=model, k=args.k, tasks=args.tasks, concurrency=args.concurrency, user=args.user,
                        user_model=args.user_model, out_root=args.out or settings.data_dir / "evals",
                        compare=args.compare, index=not args.no_index)
    assert settings.redis_url
    redis = aioredis.from_url(settings.redis_url, decode_responses=True)
    try:
        outcome = await run_suite(settings, config, redis=redis, tasks=tasks,
                                  log=lambda line: print(line, file=sys.stderr, flush=True))
    except ValueError as exc:
        print(f"spotter eval: {exc}", file=sys.stderr)
        return 2
    finally:
        await redis.aclose()
    rows = family_rows(outcome.results, args.k)
    label = "offline demo model, not an LLM" if model == "offline" else model
    print(f"\nspotter eval --model {model} --k {args.k}  ({label}; demo gym seeded at "
          f"{outcome.header['seeded_at'][:16]} UTC, reference date {outcome.header['reference_date']}; "
          f"{outcome.header['seconds']:.0f}s)\n")
    print(task_table(outcome.results, outcome.regressions))
    print()
    print(family_table(rows, args.k))
    failures = failure_lines(outcome.results)
    if failures:
        print(f"\nfailures (conversations in {outcome.out_dir / 'transcripts'}):\n{failures}")
    if outcome.compared_with is not None:
        flagged = sorted(t for t, note in outcome.regressions.items() if note.startswith("REGRESSED"))
        fixed = sorted(t for t, note in outcome.regressions.items() if note.startswith("fixed"))
        print(f"\ncompared with {outcome.compared_with}: {len(flagged)} regressed"
              + (f" ({', '.join(flagged)})" if flagged else "") + f", {len(fixed)} fixed")
    everything = rows[-1]
    print(f"\npass^1 {everything.pass_1:.1%} over {everything.tasks} tasks; results: {outcome.out_dir / 'results.jsonl'}")
    if args.fail_under is not None and everything.pass_1 < args.fail_under:
        return 1
    return 0
