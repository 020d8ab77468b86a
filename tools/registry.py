"""The tool registry: typed tool metadata, per-router declaration, and a per-role view for the model.

A leaf module declares `tasks = ToolRouter("tasks")` and decorates handlers with
`@tasks.agent_tool(action=..., summary=..., input=..., roles=..., ...)`; the decorator only records a
`ToolSpec` (a duplicate action raises at import). `build_registry()` in `tools/catalog/` combines the
routers into a `ToolRegistry` (a duplicate model-visible name raises there).
"""

from __future__ import annotations

import functools
import re
import typing
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from core.health_data import HEALTH_DATA_STAFF
from core.member_text import Marks, marks_of
from core.tenancy import STAFF_ROLES
from tools.dates import describe_windows
from tools.observations import Observer

Confirm = Literal["never", "destructive", "always"]
SideEffects = Literal["read", "write"]
ToolKind = Literal["normal", "user_picker"]
Speaks = Literal["message", "question"]  # a tool whose output is words for the person, not a status line
Artifact = Literal["workout", "knowledge"]  # what a thread keeps of the output besides its result

STAFF: frozenset[str] = STAFF_ROLES
OWNER_ADMIN: frozenset[str] = frozenset({"owner", "admin"})
OWNER_ADMIN_COACH: frozenset[str] = frozenset({"owner", "admin", "coach"})
HEALTH_DATA: frozenset[str] = HEALTH_DATA_STAFF  # who may read a member's health data (core/health_data.py)
_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@dataclass(frozen=True)
class Audit:
    resource: str
    action_label: str


@dataclass(frozen=True)
class Inverse:
    """The tool that undoes this one, and how to build its input from this tool's output."""

    router: str
    action: str
    build_input: Callable[[Mapping[str, Any]], dict[str, Any]]

    @property
    def name(self) -> str:
        return f"{self.router}__{self.action}"


def by_id(output: Mapping[str, Any]) -> dict[str, Any]:
    """The common inverse input: the id of what the original tool created or changed."""
    return {"id": output["id"]}


@dataclass(frozen=True)
class Described:
    """A confirmation card's words: the action in one sentence, and the lines it is about (one per member, per
    message...), each already in the approver's language."""

    summary: str
    details: tuple[str, ...] = ()


Handler = Callable[[Any, Any], Awaitable[Any]]
# (ToolContext, validated input) -> the action in words (a sentence, or a sentence and its lines)
Describer = Callable[[Any, Any], Awaitable["str | Described | None"]]


@dataclass(frozen=True)
class ToolSpec:
    router: str
    action: str
    summary: str
    input_model: type[BaseModel]
    roles: frozenset[str]
    side_effects: SideEffects
    confirm: Confirm
    handler: Handler | None
    audit: Audit | None = None
    inverse: Inverse | None = None
    kind: ToolKind = "normal"
    describe: Describer | None = None  # confirm-gated tools: the sentence on the confirmation card
    member_text: Marks | None = None  # where its output carries text members wrote (core/member_text.py)
    loaded: bool = False  # kept in the prompt by a persona that defers the rest behind tool search
    ends_turn: bool = False  # its run ends the turn (a persona's `final_tools` are the ones it offers)
    observe: Observer | None = None  # what a model reads back of its output (tools/observations.py); None: all
    speaks: Speaks | None = None  # its output is a message or a question to the person, not a status line
    artifact: Artifact | None = None  # its output makes the thread's current workout, or is knowledge to deliver

    @property
    def name(self) -> str:
        return f"{self.router}__{self.action}"

    def allows(self, role: str) -> bool:
        return role in self.roles

    def input_schema(self) -> dict[str, Any]:
        """The input's JSON schema (as the model sees it; the console builds its "Edit input" form from it).
        Built once per input model and shared: read it, never change it."""
        return _input_schema(self.input_model)

    def to_anthropic(self) -> dict[str, Any]:
        """The tool definition the Messages API expects."""
        return {"name": self.name, "description": self.summary, "input_schema": self.input_schema()}


@functools.cache
def _input_schema(model: type[BaseModel]) -> dict[str, Any]:
    # pydantic builds it afresh each call (~0.2 ms); its generated titles ("Exerciseid") tell the model nothing
    # the property name does not, and were ~9 % of every request's tool definitions
    return _untitled(describe_windows(model.model_json_schema()))


_NAMED = ("properties", "$defs", "patternProperties")  # mappings whose keys are names, not schema keywords


def _untitled(schema: Any) -> Any:
    """`schema` without the `title` keyword anywhere (a property named "title" stays)."""
    if isinstance(schema, list):
        return [_untitled(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title":
            continue
        if key in _NAMED and isinstance(value, dict):
            out[key] = {name: _untitled(sub) for name, sub in value.items()}
        else:
            out[key] = _untitled(value)
    return out


class ToolRouter:
    """The tools of one router (one leaf module)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.specs: dict[str, ToolSpec] = {}

    def add(self, spec: ToolSpec) -> ToolSpec:
        if spec.router != self.name:
            raise ValueError(f"{spec.name} does not belong to router {self.name}")
        if spec.action in self.specs:
            raise ValueError(f"duplicate tool {spec.name}")
        if not _NAME.match(spec.name):
            raise ValueError(f"invalid tool name {spec.name}")
        if spec.kind == "user_picker" and spec.side_effects != "read":
            raise ValueError(f"{spec.name}: a user_picker tool cannot write")
        self.specs[spec.action] = spec
        return spec

    def agent_tool(self, *, action: str, summary: str, input: type[BaseModel], roles: Iterable[str],
                   side_effects: SideEffects = "read", confirm: Confirm = "never", audit: Audit | None = None,
                   inverse: Inverse | None = None, kind: ToolKind = "normal", describe: Describer | None = None,
                   member_text: Marks | None = None, loaded: bool = False, ends_turn: bool = False,
                   observe: Observer | None = None, speaks: Speaks | None = None,
                   artifact: Artifact | None = None) -> Callable[[Handler], Handler]:
        """Declare a tool: a shortcut for `self.add(ToolSpec(...))`; every fact about the tool is an argument here.
        Where its output carries member-written text comes from its output model's annotations (the handler's
        return type), or `member_text` for a dict."""

        def register(handler: Handler) -> Handler:
            self.add(ToolSpec(router=self.name, action=action, summary=summary, input_model=input,
                              roles=frozenset(roles), side_effects=side_effects, confirm=confirm,
                              handler=None if kind == "user_picker" else handler, audit=audit,
                              inverse=inverse, kind=kind, describe=describe,
                              member_text=member_text or _output_marks(handler), loaded=loaded, ends_turn=ends_turn,
                              observe=observe, speaks=speaks, artifact=artifact))
            return handler

        return register


def _output_marks(handler: Handler) -> Marks | None:
    """The member-text marks of a handler's output model (its return annotation), if it returns one."""
    try:
        returned = typing.get_type_hints(handler).get("return")
    except (NameError, TypeError):  # an annotation that does not resolve here: declare `member_text` instead
        return None
    if isinstance(returned, type) and issubclass(returned, BaseModel):
        return marks_of(returned) or None
    return None


@dataclass
class ToolRegistry:
    """Every tool by model-visible name."""

    specs: dict[str, ToolSpec] = field(default_factory=dict)

    def add(self, spec: ToolSpec) -> None:
        if spec.name in self.specs:
            raise ValueError(f"duplicate tool {spec.name}")
        self.specs[spec.name] = spec

    def include(self, router: ToolRouter) -> None:
        for spec in router.specs.values():
            self.add(spec)

    def get(self, name: str) -> ToolSpec | None:
        return self.specs.get(name)

    def lookup(self, router: str, action: str) -> ToolSpec | None:
        return self.specs.get(f"{router}__{action}")

    def member_text(self, name: str) -> Marks | None:
        """Where the named tool's output carries member-written text (none for an unknown tool)."""
        spec = self.specs.get(name)
        return spec.member_text if spec is not None else None

    def for_role(self, role: str) -> list[ToolSpec]:
        """The tools a role may see, in a stable order (the tool list is the first cached prefix)."""
        return [spec for name, spec in sorted(self.specs.items()) if spec.allows(role)]

    def validate_inverses(self) -> None:
        for spec in self.specs.values():
            if spec.inverse and spec.inverse.name not in self.specs:
                raise ValueError(f"{spec.name}: inverse {spec.inverse.name} is not registered")
