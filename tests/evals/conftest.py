"""Eval fixtures: one seeded demo gym (a template database) for the module's runs, and the fake Anthropic server
answering both sides of an eval conversation (the agent from each task's reference moves, the simulated person by
simple rules)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from evals.runner import EvalConfig, Gym, RunOutcome, build_gym, run_suite
from evals.tasks import Task, load_tasks
from tests.evals.both_sides import BothSides
from tests.fakes.anthropic_server import FakeAnthropic

ALL_TASKS = {task.id: task for task in load_tasks()}


@pytest.fixture(scope="session")
async def eval_gym(app_settings) -> AsyncIterator[Gym]:
    """The demo gym seeded now, as a template every eval test copies (no search index: lexical search only)."""
    gym = await build_gym(app_settings.database_url, datetime.now(UTC), run_id="tests")
    yield gym
    await gym.copies.drop_all()


async def run_with_fake(app_settings, fake: FakeAnthropic, gym: Gym, tasks: Sequence[Task], out: Path, *,
                        user: str = "scripted") -> RunOutcome:
    """The tasks through the Anthropic provider at the fake server, each played by its reference moves."""
    sides = BothSides(tasks)
    fake.respond_with(sides)
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    try:
        config = EvalConfig(model=app_settings.agent_model, k=1, concurrency=1, user=user, out_root=out, index=False)
        return await run_suite(app_settings, config, redis=redis, tasks=tasks, model_factory=sides.factory, gym=gym,
                               log=lambda line: None)
    finally:
        await redis.aclose()
        fake.respond_with(None)
