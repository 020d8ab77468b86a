"""The staff copilot as configuration of the one engine: every staff role, the copilot's cached system prompt,
a conversation of messages as its history, the engine's own frames, tool search over the rest of its tools."""

from __future__ import annotations

from agent.conversation_thread import ConversationThread
from agent.conversations import STAFF_PERSONA
from agent.persona import Persona
from agent.request import copilot_system
from core.tenancy import STAFF_ROLES

STAFF_COPILOT = Persona(name=STAFF_PERSONA, roles=STAFF_ROLES, system=copilot_system, history=ConversationThread,
                        defers_tools=True)
