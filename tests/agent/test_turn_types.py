"""A turn is typed to its persona, and the persona's hooks to the turn (agent/persona.py): read from the
annotations as the type checker reads them, so `Turn.persona` cannot go back to `Any` (or anything looser than
`Persona`) without this failing, and a hook cannot take an untyped turn."""

from __future__ import annotations

import inspect
from typing import Any, get_type_hints

from agent.persona import Frames, History, Persona, Turn

HOOKS = {Frames: ("reply_without_tools", "tool_started", "tool_finished", "after_tool"),
         History: ("locate", "begin", "model_input", "store_repairs", "assistant", "results", "after_tool",
                   "after_call", "resumed")}


def test_a_turn_names_its_persona_by_type() -> None:
    hints = get_type_hints(Turn)
    assert hints["persona"] is Persona
    assert [name for name, hint in hints.items() if hint is Any or hint is object] == []


def test_every_hook_takes_a_typed_turn() -> None:
    untyped = [f"{hooks.__name__}.{name}" for hooks, names in HOOKS.items() for name in names
               if get_type_hints(getattr(hooks, name)).get("turn") is not Turn]
    assert untyped == []
    # every method of the hooks that takes a turn is in HOOKS: a new one is checked too
    taking_a_turn = {f"{hooks.__name__}.{name}" for hooks in HOOKS for name, method in vars(hooks).items()
                     if inspect.isfunction(method) and "turn" in inspect.signature(method).parameters
                     and name != "done"}  # `done` takes the totals of a turn, or of one whose process was lost
    assert taking_a_turn == {f"{hooks.__name__}.{name}" for hooks, names in HOOKS.items() for name in names}
