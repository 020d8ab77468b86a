"""Both sides of an eval conversation at the fake Anthropic server: the agent plays each task's reference moves,
the simulated person answers by simple rules (tests/evals and bench/eval_cost.py use it)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from evals.reference import next_blocks
from evals.tasks import Step, Task
from evals.users import STOP
from tests.fakes.anthropic_server import Reply, Text, ToolUse


class BothSides:
    """A `respond_with` handler for the fake server during an eval run. Agent requests (the persona's tools) get
    the task's next reference move; the simulated person's (system "You play a person") approve confirmations,
    pick the task's `pick`, say the task's next scripted turn, then ###STOP###; the trainer's knowledge selector
    gets an empty selection. Tasks are told apart by their opening (or instructions); several with the same opening
    (a run of the whole suite) need `--concurrency 1`, where the try that started last is the one talking."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self.tasks = list(tasks)
        self.steps: dict[str, tuple[list[Step], str]] = {}
        self.current: str | None = None

    def factory(self, task: Task, steps: list[Step], shown: str) -> None:
        """The runner's model factory hook: keeps each try's resolved moves, and lets the real client run."""
        self.steps[task.id] = (steps, shown)
        self.current = task.id
        return None

    def _task_of(self, text: str) -> Task:
        found = [t for t in self.tasks if t.turns[0] in text or t.instructions in text]
        if len(found) > 1:
            found = [t for t in found if t.id == self.current]
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
