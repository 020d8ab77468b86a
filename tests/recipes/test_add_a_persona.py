"""docs/recipes/add-a-persona.md, followed at runtime: the kiosk persona's module (the recipe's own code), laid out
as the repository in a temporary folder, is all a new persona takes; the engine runs it with no change (no engine
module names a persona), offers exactly its three tools, keeps its thread under its name and stops at its
round-trip cap."""

from __future__ import annotations

import ast
import importlib
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from sqlalchemy import text

import agent
from agent.composition import build_agent
from agent.threads import Opening
from tests.factories import owner_of_new_org
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.recipes.recipe import code, named_files, touched

RECIPE = "add-a-persona.md"
ROOT = Path(__file__).resolve().parents[2]
ENGINE = ("orchestrator", "dispatch", "resume", "turns", "threads", "round_trip", "turn_runner", "metering",
          "request", "replay", "policy", "mcp_calls", "conversation_thread")
PERSONAS = ("agent.copilot", "agent.mcp_persona", "agent.trainer")


@pytest.fixture
def kiosk_module(tmp_path: Path) -> Iterator[Path]:
    """The recipe's file in a folder laid out as the repository, imported as the repository's `agent.kiosk`."""
    module = tmp_path / "agent" / "kiosk.py"
    module.parent.mkdir(parents=True)
    module.write_text(code(RECIPE), encoding="utf-8")
    agent.__path__.append(str(module.parent))
    try:
        yield tmp_path
    finally:
        agent.__path__.remove(str(module.parent))
        sys.modules.pop("agent.kiosk", None)


def test_a_new_persona_is_one_module(kiosk_module: Path) -> None:
    assert touched(kiosk_module) == named_files(RECIPE, persona="kiosk") == {"agent/kiosk.py"}


def test_no_engine_module_names_a_persona() -> None:
    """Why a persona needs no engine change: the engine's modules import none (the composition root names them)."""
    named = {}
    for name in ENGINE:
        tree = ast.parse((ROOT / "agent" / f"{name}.py").read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        named[name] = sorted(m for m in imported if m.startswith(PERSONAS))
    assert named == {name: [] for name in ENGINE}


async def test_the_engine_runs_the_new_persona(kiosk_module: Path, app_settings, db, factory, clean_model) -> None:
    kiosk = importlib.import_module("agent.kiosk").KIOSK
    clean_model.queue(Reply(ToolUse("tasks__list", {}, id="toolu_list")),
                      Reply(ToolUse("tasks__create", {"title": "not a kiosk tool"}, id="toolu_create")),
                      Reply(ToolUse("tasks__list", {}, id="toolu_again")), Reply(Text("never asked for")))
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    caller, access = await owner_of_new_org(db, factory)
    try:
        turn = await services.orchestrator.open_send(persona=kiosk, access=access, caller=caller, locale="en",
                                                     trace_id=uuid.uuid4().hex, opening=Opening("what's on today?"),
                                                     thread_id=None)
        frames = [(event.type, event.data) async for event in turn.events()]
    finally:
        await services.close()
        await redis.aclose()

    assert len(clean_model.requests) == 3  # max_round_trips=3
    for request in clean_model.requests:
        assert {t["name"] for t in request.body["tools"]} == {
            "read__get_current_context", "class_sessions__list_for_date", "tasks__list"}
        assert request.body["system"][0]["text"].startswith("You are the front-desk kiosk of Test Gym")
    completed = [(c["action"], c["ok"]) for kind, c in frames if kind == "tool_completed"]
    assert completed == [("list", True), ("create", False), ("list", True)]  # a tool it does not offer is refused
    started = next(data for kind, data in frames if kind == "conversation_started")
    async with db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
        persona = await session.scalar(text("SELECT persona FROM conversations WHERE id = :id"),
                                       {"id": uuid.UUID(started["conversationId"])})
    assert persona == "kiosk"
    assert frames[-1][0] == "done" and "error" not in [kind for kind, _ in frames]
