"""Typed tool failures: `{code, message, detail, hint, nextStep?}` with is_error on the tool_result.

Two audiences, two fields. `message` is for people: in the caller's language, in words, from
`agent.errors.<code>` of locales/ (the console shows it as it is). `hint` is for the model: what to try instead,
in English, never shown to staff; `detail` is the service's own technical sentence, also for the model. A
failure with an obvious next step carries `nextStep` {key, label, message}: the console offers it as a button
that sends `message` ("Schedule anyway").
"""

from __future__ import annotations

from typing import Any

from core.errors import ServiceError
from core.i18n import has_key, translate

DEFAULT_HINT = "Fix the request as the detail says, or ask the user."


class ToolFailed(ServiceError):
    """A tool could not do what was asked; `hint` tells the model what to try instead; `params` fill the
    people's message (`agent.errors.<code>`), `next_step` names an `agent.nextSteps.<key>`."""

    code = "tool_failed"
    status = 422

    def __init__(self, code: str, message: str, hint: str | None = None, **params: Any) -> None:
        super().__init__(code, detail=message, **params)
        self.message = message
        self.hint = hint


def tool_label(name: str | None, locale: str) -> str:
    """A tool's name for people ("Schedule a class"), from the console's labels in locales/."""
    if not name:
        return translate("console.tool.unnamed", locale)
    key = f"console.tools.{name}"
    if has_key(key):
        return translate(key, locale)
    words = name.split("__")[-1].replace("_", " ")
    return words[:1].upper() + words[1:]


def next_step(key: str, locale: str) -> dict[str, str]:
    return {"key": key, "label": translate(f"agent.nextSteps.{key}.label", locale),
            "message": translate(f"agent.nextSteps.{key}.message", locale)}


def people_message(code: str, locale: str, *, tool: str | None = None, **params: Any) -> str:
    """`agent.errors.<code>` in `locale`. A code with no words in locales/ keeps the service's own sentence
    (`detail`): every code a staff tool or gym service raises has its words (tests/core/test_locale_keys.py);
    the member's trainer and the nutrition pipeline word their own."""
    label = tool_label(tool, locale)
    if has_key(f"agent.errors.{code}"):
        return translate(f"agent.errors.{code}", locale, tool=label, **params)
    return str(params.get("detail") or translate("agent.errors.tool_refused", locale, tool=label))


def failure(code: str, locale: str, *, detail: str, hint: str | None, tool: str | None = None,
            step: str | None = None, plain: bool = False, **params: Any) -> dict[str, Any]:
    """The typed failure for the model and the console; `plain`: the service's sentence is the message (the
    member's trainer words its own refusals, TRAINER.md)."""
    message = detail if plain else people_message(code, locale, tool=tool, **{"detail": detail, **params})
    out: dict[str, Any] = {"code": code, "message": message,
                           "detail": detail, "hint": hint or DEFAULT_HINT}
    if step:
        out["nextStep"] = next_step(step, locale)
    return out


def tool_error(exc: ServiceError, locale: str = "en", tool: str | None = None, *,
               plain: bool = False) -> dict[str, Any]:
    """Any service error (a tool's own `ToolFailed`, a gym rule, a RAG failure) as the typed tool result."""
    params = dict(exc.params)
    step = params.pop("next_step", None)
    data = params.pop("data", None)  # structured facts of the refusal (the refused exercises, the nearest names)
    detail = exc.detail or exc.code.replace("_", " ")
    out = failure(exc.code, locale, detail=detail, hint=getattr(exc, "hint", None), tool=tool, step=step,
                  plain=plain, **params)
    return out | {"data": data} if isinstance(data, dict) and data else out


def not_found(entity: str, entity_id: object, hint: str | None = None) -> ToolFailed:
    return ToolFailed(f"{entity}_not_found", f"No {entity.replace('_', ' ')} with id {entity_id} in this gym.",
                      hint or f"Search for the {entity.replace('_', ' ')} first and use an id from the results.")
