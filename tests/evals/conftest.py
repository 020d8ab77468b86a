"""Eval fixtures: one seeded demo gym (a template database) for the module's runs, and the fake Anthropic server
answering both sides of an eval conversation (the agent from each task's reference moves, the simulated person by
simple rules)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from evals.reference import next_blocks
from evals.runner import EvalConfig, Gym, RunOutcome, build_gym, run_suite
from evals.tasks import Step, Task, load_tasks
from evals.users import STOP
from tests.fakes.anthropic_server import FakeAnthropic, Reply, Text, ToolUse

ALL_TASKS = {task.id: task for task in load_tasks()}


@pytest.fixture(scope="session")
async def eval_gym(app_settings) -> AsyncIterator[Gym]:
    """The demo gym seeded now, as a template every eval test copies (no search index: lexical search only)."""
    gym = await build_gym(app_settings.database_url, datetime.now(UTC), run_id="tests")
    yield gym
    await gym.copies.drop_all()


class BothSides:
    """A `respond_with` handler for the fake server during an eval run. Agent requests (the persona's tools) get
    the task's next reference move; the simulated person's (system "You play a person") approve confirmations,
    pick the task's `pick`, say the task's next scripted turn, then ###STOP###; the trainer's knowledge selector
    gets an empty selection."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self.tasks = list(tasks)
        self.steps: dict[str, tuple[list[Step], str]] = {}

    def factory(self, task: Task, steps: list[Step], shown: str) -> None:
        """The runner's model factory hook: keeps each try's resolved moves, and lets the real client run."""
        self.steps[task.id] = (steps, shown)
        return None

    def _task_of(self, text: str) -> Task:
        found = [t for t in self.tasks if t.turns[0] in text or t.instructions in text]
        assert len(found) == 1, f"no single task for this request: {[t.id for t in found]}"
        return found[0]

    def __call__(self, body: dict[str, Any]) -> Reply:
        system = " ".join(b.get("text", "") for b in body.get("system") or [] if isinstance(b, dict))
        tools = [t["name"] for t in body.get("tools") or [] if "name" in t]
        if system.startswith("You play a person"):
            return self._person(system, tools, body["messages"][-1]["content"])
        if not tools:  # the trainer's knowledge selector
            return Reply(Text('{"sources": {}}'))
        task = self._task_of(json.dumps(body["messages"], ensure_ascii=False))
        steps, shown = self.steps[task.id]
        blocks = next_blocks(steps, body["messages"], shown)
        return Reply(*[Text(b["text"]) if b["type"] == "text" else ToolUse(b["name"], b["input"], id=b["id"])
                       for b in blocks])

    def _person(self, system: str, tools: list[str], prompt: str) -> Reply:
        task = self._task_of(system)
        if "decide" in tools:
            return Reply(ToolUse("decide", {"approve": task.confirm == "approve"}))
        if "pick" in tools:
            found = re.search(rf"^- (\S+): {re.escape(task.pick or '?')}\b", prompt, re.MULTILINE)
            return Reply(ToolUse("pick", {"id": found.group(1) if found else "none"}))
        said = len(re.findall(r"^You: ", prompt, re.MULTILINE))
        return Reply(Text(task.turns[said] if said < len(task.turns) else STOP))


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
