"""The tool runner: role re-check, input re-validation, the org's tenancy scope, audit, typed failures.

Nothing a tool does aborts the turn: every exception becomes an outcome with `{code, message, hint}`
that the model reads as an `is_error` tool_result.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import structlog
from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError
from sqlalchemy.ext.asyncio import AsyncSession

from core.database import Database
from core.errors import ServiceError
from core.i18n import translate
from core.row_inserts import Row
from core.tenancy import Caller, OrgAccess
from rag.embeddings import Embedder
from tools.audit import audit_row, write_audit
from tools.context import ToolContext
from tools.errors import failure, tool_error
from tools.registry import Described, ToolSpec
from tools.storable import nul_path

log = structlog.get_logger("tools.runner")
MEMBER_ONLY = frozenset({"member"})
SuccessHook = Callable[[AsyncSession, "ToolOutcome"], Awaitable[None]]


@dataclass(frozen=True)
class ToolOutcome:
    ok: bool
    output: dict[str, Any] | None
    error: dict[str, Any] | None
    duration_ms: int
    audit_log_id: uuid.UUID | None = None
    input: dict[str, Any] | None = None  # the validated input, as the handler saw it
    audit_row: Row | None = None  # with `carry_audit`: not written yet, for on_success to send with its own write

    @property
    def error_code(self) -> str | None:
        return self.error["code"] if self.error else None


def to_jsonable(value: Any) -> dict[str, Any]:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, dict):
        return value
    return {"result": value}


def validation_error(exc: ValidationError, locale: str = "en", tool: str | None = None) -> dict[str, Any]:
    errors = exc.errors()[:5]
    problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in errors)
    return failure("tool_invalid_input", locale, detail=f"Invalid input: {problems}", tool=tool,
                   hint="Fix the listed fields and call the tool again.") | {"code": "validation_failed"}


class ToolRunner:
    def __init__(self, db: Database, *, embedder: Embedder | None = None) -> None:
        self.db = db
        self.embedder = embedder  # for the read tools' hybrid search; None → lexical only

    @asynccontextmanager
    async def _unit(self, session: AsyncSession | None, access: OrgAccess,
                    caller: Caller) -> AsyncIterator[AsyncSession]:
        if session is None:
            async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as own:
                yield own
        else:
            async with session.begin_nested():
                yield session

    def validate(self, spec: ToolSpec, raw_input: dict[str, Any], *, today: date | None = None) -> BaseModel:
        """The input as the tool's model (dates checked against the gym's `today`, default the UTC today);
        a NUL anywhere in it is a validation error like any other."""
        where = nul_path(raw_input)
        if where is not None:
            raise ValidationError.from_exception_data(spec.input_model.__name__, [InitErrorDetails(
                type=PydanticCustomError("nul_character", "must not contain NUL characters"), loc=where,
                input=None)])
        return spec.input_model.model_validate(raw_input, context={"today": today} if today else None)

    async def run(self, spec: ToolSpec, raw_input: dict[str, Any], *, access: OrgAccess, caller: Caller,
                  locale: str = "en", now: datetime | None = None, audit_metadata: dict[str, Any] | None = None,
                  on_success: SuccessHook | None = None, session: AsyncSession | None = None,
                  conversation_id: Any = None, carry_audit: bool = False) -> ToolOutcome:
        """Run `spec`; `on_success(session, outcome)` runs inside the tool's transaction (atomic bookkeeping).
        With `carry_audit` (and `on_success`), the audit row of a write is left in `outcome.audit_row` for
        on_success to send with its own statement, one round trip fewer.

        With `session` (already inside the org's scope) the tool runs in a SAVEPOINT of that transaction,
        so a failing tool rolls back only its own writes.
        """
        started = time.perf_counter()

        def done(ok: bool, output=None, error=None, audit_id=None, validated=None, audit=None) -> ToolOutcome:
            return ToolOutcome(ok, output, error, int((time.perf_counter() - started) * 1000), audit_id, validated,
                               audit)

        plain = spec.roles <= MEMBER_ONLY  # the member's trainer words its own refusals (TRAINER.md)
        refused = self.refusal(spec, access.role, locale)  # defence in depth: the registry already filtered
        if refused is not None:
            return done(False, error=refused)
        if spec.handler is None:
            return done(False, error=failure("not_executable", locale, detail=f"{spec.name} is not executable.",
                                             tool=spec.name, hint=None))
        try:
            now = now or datetime.now(UTC)
            today = now.astimezone(ZoneInfo(access.timezone)).date()
            validated = self.validate(spec, raw_input if isinstance(raw_input, dict) else {}, today=today)
        except ValidationError as exc:
            return done(False, error=validation_error(exc, locale, spec.name))
        try:
            async with self._unit(session, access, caller) as session:
                ctx = ToolContext(session=session, org=access, caller=caller, locale=locale, now=now,
                                  embedder=self.embedder, conversation_id=conversation_id)
                output = to_jsonable(await spec.handler(ctx, validated))
                audit = carried = None
                if spec.side_effects == "write" and spec.audit is not None:
                    audit = audit_row(org_id=access.org_id, caller=caller, action=spec.audit.action_label,
                                      resource=spec.audit.resource, resource_id=output.get("id"),
                                      metadata={"agent": True, "tool": spec.name, **(audit_metadata or {})})
                    if carry_audit and on_success is not None:
                        carried = audit
                    else:
                        await write_audit(session, audit)
                outcome = done(True, output=output, audit_id=audit.values["id"] if audit else None,
                               validated=validated.model_dump(mode="json"), audit=carried)
                if on_success is not None:
                    await on_success(session, outcome)
            return outcome
        except ServiceError as exc:  # ToolFailed, GymError, RagError...: the one translation to a tool result
            return done(False, error=tool_error(exc, locale, spec.name, plain=plain))
        except ValidationError as exc:
            return done(False, error=validation_error(exc, locale, spec.name))
        except Exception as exc:  # a bug in a tool must not abort the turn
            log.exception("tool.crashed", tool=spec.name, error_type=type(exc).__name__)
            return done(False, error=failure("tool_internal", locale, detail="The tool failed unexpectedly.",
                                             tool=spec.name,
                                             hint="Apologize and suggest trying again; do not retry blindly.")
                        | {"code": "internal"})

    @staticmethod
    def refusal(spec: ToolSpec, role: str, locale: str = "en") -> dict[str, Any] | None:
        """The typed failure for a role that may not use `spec` (None when it may): the one wording of a role
        refusal, for the runner's own check and for a dispatcher asked for a tool of another role."""
        if spec.allows(role):
            return None
        return failure("forbidden_for_role", locale, detail=f"Your role ({role}) may not use {spec.name}.",
                       tool=spec.name, plain=spec.roles <= MEMBER_ONLY,
                       role=translate(f"console.roles.{role}", locale),
                       hint="Tell the user in plain words that their role cannot do this; never name the tool.")

    async def describe(self, spec: ToolSpec, raw_input: dict[str, Any], *, access: OrgAccess, caller: Caller,
                       locale: str = "en", now: datetime | None = None,
                       session: AsyncSession | None = None) -> Described | None:
        """The confirm-gated action in words (`spec.describe`), or None when it has no describer or fails:
        a summary is a courtesy and never stops the confirmation itself."""
        if spec.describe is None:
            return None
        now = now or datetime.now(UTC)
        try:
            validated = self.validate(spec, raw_input, today=now.astimezone(ZoneInfo(access.timezone)).date())
            async with self._unit(session, access, caller) as unit:
                ctx = ToolContext(session=unit, org=access, caller=caller, locale=locale, now=now,
                                  embedder=self.embedder)
                said = await spec.describe(ctx, validated)
                return Described(said) if isinstance(said, str) else said
        except Exception as exc:  # a describer must never break the turn
            log.warning("tool.describe_failed", tool=spec.name, error_type=type(exc).__name__)
            return None
