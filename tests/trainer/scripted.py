"""A scripted trainer on the fake Anthropic server: the selector (a request with no tools) gets its JSON
answer, every turn request gets the next scripted reply."""

from __future__ import annotations

import json
from typing import Any

from tests.fakes.anthropic_server import Reply, Text

SELECTOR = {"sources": {"category_goals": {}, "recovery_status": {}, "active_preferences": {}}}


class Trainer:
    def __init__(self, fake, replies: list[Reply], selection: dict | None = None) -> None:
        self.fake, self.replies, self.selection = fake, list(replies), selection or SELECTOR
        fake.respond_with(self)

    def __call__(self, body: dict[str, Any]) -> Reply:
        if not body.get("tools"):
            return Reply(Text(json.dumps(self.selection)))
        assert self.replies, "the trainer asked for more replies than scripted"
        return self.replies.pop(0)

    def turn_requests(self) -> list[dict[str, Any]]:
        return [r.body for r in self.fake.requests if r.body.get("tools")]
