"""The MCP channel as configuration of the one engine: the model is the MCP client's, not ours.

An assistant connected over MCP (api/mcp/) calls the registry's tools itself; each call is one assistant answer
with one tool use, stored in a conversation of its own channel (`conversations.channel = 'mcp'`), dispatched
by the engine's dispatcher (RBAC, validation, audit, the confirm policy) and resumed by the engine's resumer
(confirm, undo). No model round trip follows a resolution (`max_round_trips=0`): the client's model reads the
result of its call, not a reply of ours. Which tools: the caller's staff tools, picks excluded (the client's
model asks its person itself).
"""

from __future__ import annotations

from agent.conversation_thread import ConversationThread
from agent.conversations import STAFF_PERSONA
from agent.persona import Persona
from agent.request import copilot_system
from core.tenancy import STAFF_ROLES
from tools.registry import ToolSpec


def _offered(spec: ToolSpec) -> bool:
    return spec.kind == "normal" and bool(spec.roles & STAFF_ROLES)


MCP = Persona(name="mcp", roles=STAFF_ROLES, system=copilot_system, history=ConversationThread, max_round_trips=0,
              offers=_offered, endpoint_prefix="mcp_", threads_of=STAFF_PERSONA)

