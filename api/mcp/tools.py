"""The registry's tools as MCP tools, and a call's outcome as an MCP tool result.

A tool's annotations come from its declaration: `readOnlyHint` from `side_effects`; `destructiveHint` for a
write whose confirm policy says destructive or that nothing can undo (no inverse: from where the assistant
stands its effect is not merely additive); `idempotentHint` for reads alone (a write declares no idempotency).
Its `title` is the label people read in the console, in the caller's language. Two tools of the channel itself
sit beside the registry's: `spotter__undo` and `spotter__approval_status`; each delegates to the engine's undo
and to the stored execution.

Results: a success carries the output and its `executionId` (what `spotter__undo` takes); a call that waits for
approval is not an error: it says so in the people's words, with its `approvalId` and the console link where a
person approves it; every failure is an `isError` result whose first text is the people's message (the code and
the model's hint follow, as in `structuredContent`).
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

from agent.mcp_calls import CallResult
from agent.policy import can_undo, needs_person
from core.i18n import error_message, translate
from tools.errors import tool_label
from tools.registry import ToolRegistry, ToolSpec

UNDO_TOOL = "spotter__undo"
STATUS_TOOL = "spotter__approval_status"
_ID_SCHEMA = {"type": "string", "format": "uuid"}

APPROVAL_NOTE = ("Needs a person's approval before it runs: the result says it awaits approval (approvalId, "
                 "approvalUrl) unless the person approves it when asked.")
UNDO_NOTE = "Undo: call spotter__undo with the executionId of its result, within 24 hours."


def listed(specs: list[ToolSpec], registry: ToolRegistry, role: str, locale: str) -> list[types.Tool]:
    """The caller's tools, then the channel's own."""
    tools = [_tool(spec, registry, role, locale) for spec in specs]
    return [*tools, *_channel_tools(locale)]


def _tool(spec: ToolSpec, registry: ToolRegistry, role: str, locale: str) -> types.Tool:
    write = spec.side_effects == "write"
    notes = [spec.summary]
    if needs_person(spec):
        notes.append(APPROVAL_NOTE)
    if can_undo(registry, spec, role, succeeded=True):
        notes.append(UNDO_NOTE)
    label = tool_label(spec.name, locale)
    return types.Tool(name=spec.name, title=label, description=" ".join(notes), input_schema=spec.input_schema(),
                      annotations=types.ToolAnnotations(
                          title=label, read_only_hint=not write,
                          destructive_hint=write and (spec.confirm == "destructive" or spec.inverse is None),
                          idempotent_hint=not write, open_world_hint=False))


def _channel_tools(locale: str) -> list[types.Tool]:
    return [
        types.Tool(name=UNDO_TOOL, title=translate("agent.mcp.undoTitle", locale),
                   description="Undo one of your own earlier actions (its executionId from the action's result), "
                               "where the action can be undone and your role may undo it; within 24 hours.",
                   input_schema={"type": "object", "properties": {"executionId": _ID_SCHEMA},
                                 "required": ["executionId"], "additionalProperties": False},
                   annotations=types.ToolAnnotations(title=translate("agent.mcp.undoTitle", locale),
                                                     read_only_hint=False, destructive_hint=True,
                                                     idempotent_hint=True, open_world_hint=False)),
        types.Tool(name=STATUS_TOOL, title=translate("agent.mcp.statusTitle", locale),
                   description="What became of an action that awaited approval (its approvalId) or of any earlier "
                               "action of yours (its executionId): pending, succeeded with its output, failed, "
                               "rejected_by_user or expired.",
                   input_schema={"type": "object", "properties": {"approvalId": _ID_SCHEMA},
                                 "required": ["approvalId"], "additionalProperties": False},
                   annotations=types.ToolAnnotations(title=translate("agent.mcp.statusTitle", locale),
                                                     read_only_hint=True, destructive_hint=False,
                                                     idempotent_hint=True, open_world_hint=False)),
    ]


def result_of(result: CallResult, locale: str, approval_url: str | None) -> types.CallToolResult:
    """The call's outcome for the client's model, with the people's words where a person reads them."""
    ids: dict[str, Any] = {"executionId": str(result.execution_id)} if result.execution_id else {}
    if result.status == "succeeded":
        return _result({"status": "succeeded", **ids, "output": result.output or {},
                        "undoAvailable": result.undoable})
    if result.status == "pending":
        action = action_words(result, locale)
        said = result.summary
        body = {"status": "awaiting_approval", "approvalId": ids.get("executionId"), "approvalUrl": approval_url,
                "summary": said.summary if said is not None and said.summary else tool_label(result.tool, locale),
                **({"details": list(said.details)} if said is not None and said.details else {})}
        return _result(body, text=translate("agent.mcp.awaitingApproval", locale, action=action, url=approval_url))
    if result.status == "running":
        return _result({"status": "running", **ids}, text=translate("agent.mcp.running", locale))
    return failed(result.error or {"code": result.status}, locale, status=result.status, **ids)


def action_words(result: CallResult, locale: str) -> str:
    """The action a person approves, in words: the describer's sentence and its lines (each booked member, each
    message), or the tool's label when it has no describer."""
    said = result.summary
    if said is None or not said.summary:
        return tool_label(result.tool, locale)
    return "\n".join([said.summary, *(f"- {line}" for line in said.details)])


def failed(error: dict[str, Any], locale: str, *, status: str = "failed", **extra: Any) -> types.CallToolResult:
    """An `isError` result: the people's message as the text; code, message and the model's hint structured."""
    error = {key: error[key] for key in ("code", "message", "hint", "nextStep") if key in error}
    error.setdefault("message", error_message(str(error.get("code")), locale))
    return _result({"status": status, **extra, "error": error}, text=str(error["message"]), is_error=True)


def undone(outcome: dict[str, Any], locale: str) -> types.CallToolResult:
    inverse = outcome.get("inverse") or {}
    label = tool_label(f"{inverse.get('router')}__{inverse.get('action')}", locale)
    return _result({"status": "undone", **outcome}, text=translate("agent.mcp.undone", locale, action=label))


def _result(body: dict[str, Any], *, text: str | None = None, is_error: bool = False) -> types.CallToolResult:
    """Structured content, serialized as text too (MCP: for clients that read only text); the people's words,
    when given, come first."""
    blocks = [types.TextContent(text=json.dumps(body, ensure_ascii=False, default=str))]
    if text is not None:
        blocks.insert(0, types.TextContent(text=text))
    return types.CallToolResult(content=blocks, structured_content=body, is_error=is_error)
