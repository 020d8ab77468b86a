"""Replay guard over random histories: every repair is valid under the API's rules and idempotent."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from agent.replay import (
    RESUMED_TEXT,
    repair,
    validate_replay,
)
from tests.agent.replay_histories import (
    assert_valid,
    assistant,
    text,
    tool_result,
    tool_use,
    user,
)

# --- property-style check over random histories -------------------------------------------------


def _random_block(rng: random.Random, role: str, issued: list[str], counter: list[int]) -> Any:
    roll = rng.random()
    if roll < 0.30:
        return text(rng.choice(["hi", "", "  ", "book it", "\n"]))
    if roll < 0.35 or (roll < 0.55 and role == "assistant"):  # a few land in user messages
        counter[0] += 1
        return tool_use(f"t{counter[0]}")
    if roll < 0.85:
        target = rng.choice(issued) if issued and rng.random() < 0.8 else f"ghost{rng.randrange(5)}"
        extra = {"is_error": True} if rng.random() < 0.2 else {}
        return tool_result(target, rng.choice(["ok", [text("list result")]]), **extra)
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}}
    return rng.choice([image, {"type": "thinking", "thinking": "hm", "signature": "s"}])


def _random_history(rng: random.Random) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = []
    issued: list[str] = []
    counter = [0]
    for _ in range(rng.randrange(0, 9)):
        role = rng.choice(["user", "assistant"])
        if rng.random() < 0.2:
            content: Any = rng.choice(["hello", "", " ", "what's on today"])
        else:
            content = [_random_block(rng, role, issued, counter) for _ in range(rng.randrange(0, 5))]
            issued.extend(b["id"] for b in content if b.get("type") == "tool_use")
        history.append({"role": role, "content": content})
    return history


def _conversation(rng: random.Random) -> list[dict[str, Any]]:
    """A well-formed conversation: user turns, assistant turns with tool calls, their results."""
    history: list[dict[str, Any]] = []
    counter = 0
    for _ in range(rng.randrange(1, 5)):
        history.append(user(rng.choice(["hi", "book Ana", "cancel it"])))
        while True:
            ids = [f"t{counter + k}" for k in range(rng.randrange(0, 3))]
            counter += len(ids)
            history.append(assistant([text("on it")] + [tool_use(i) for i in ids]))
            if not ids:
                break
            history.append(
                user([tool_result(i) for i in ids] + ([text("also")] if rng.random() < 0.3 else []))
            )
    return history


def _perturbed_conversation(rng: random.Random) -> list[dict[str, Any]]:
    """A well-formed conversation with zero to three realistic corruptions."""
    history = _conversation(rng)
    for _ in range(rng.randrange(0, 4)):
        i = rng.randrange(len(history))
        action = rng.choice(["drop", "duplicate", "reverse", "blank", "typed_instead", "cut"])
        if action == "drop":
            del history[i]
        elif action == "duplicate":
            history.insert(i, copy.deepcopy(history[i]))
        elif action == "reverse" and isinstance(history[i]["content"], list):
            history[i]["content"].reverse()
        elif action == "blank":
            history.insert(i, user(rng.choice(["", [], [text("")]])))
        elif action == "typed_instead":
            history.append(user("never mind"))
        elif action == "cut":
            del history[i + 1 :]
        if not history:
            break
    return history


def _texts(messages: list[dict[str, Any]]) -> list[str]:
    out = []
    for m in messages:
        content = m["content"]
        blocks = [text(content)] if isinstance(content, str) else content
        out.extend(b["text"] for b in blocks if b.get("type") == "text" and b["text"].strip())
    return out


def _assistant_tool_uses(messages: list[dict[str, Any]]) -> list[str]:
    return [
        b["id"]
        for m in messages
        if m["role"] == "assistant" and isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "tool_use"
    ]


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("make", [_random_history, _perturbed_conversation], ids=["noise", "perturbed"])
def test_repair_always_yields_a_valid_idempotent_history(make, seed):
    rng = random.Random(seed)
    for _ in range(100):
        history = make(rng)
        before = copy.deepcopy(history)
        repaired = repair(history)

        assert_valid(repaired)
        assert repair(repaired) == repaired
        assert history == before
        if validate_replay(history)[0]:
            assert repaired == history
        # nothing the user or model said is lost, and every model tool call survives
        assert sorted(t for t in _texts(repaired) if t != RESUMED_TEXT) == sorted(_texts(history))
        assert _assistant_tool_uses(repaired) == _assistant_tool_uses(history)
