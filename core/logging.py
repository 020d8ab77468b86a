"""structlog set-up: JSON lines to stdout with context variables (request id, trace id) merged in.

Exception text never reaches a log line: messages of database and validation errors quote the values
they refused (a user's message, a member's name), so every traceback is rendered with its frames and
exception types but each exception's message replaced (`safe_traceback`), in structlog's pipeline and
in stdlib logging (uvicorn, asyncio, SQLAlchemy's pool) alike. SQLSTATE codes stay: they name the
failure without quoting anything.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import MutableMapping
from typing import Any, TextIO

import structlog

REDACTED = "[redacted]"


def _describe(exc: BaseException) -> str:
    kind = type(exc)
    name = kind.__qualname__ if kind.__module__ in ("builtins", "__main__") else f"{kind.__module__}.{kind.__qualname__}"
    sqlstate = getattr(exc, "sqlstate", None) or getattr(getattr(exc, "orig", None), "sqlstate", None)
    return f"{name}: {REDACTED}" + (f" (sqlstate {sqlstate})" if isinstance(sqlstate, str) else "")


def safe_traceback(exc: BaseException) -> str:
    """`exc`'s traceback (cause and context chain included) with every exception message redacted."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not seen for seen in chain):
        chain.append(current)
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
    parts: list[str] = []
    for position, item in enumerate(reversed(chain)):
        if position:
            parts.append("\nDuring handling of the above exception, another exception occurred:\n\n")
        if item.__traceback__ is not None:
            parts.append("Traceback (most recent call last):\n")
            parts.extend(traceback.format_list(traceback.extract_tb(item.__traceback__)))
        parts.append(_describe(item) + "\n")
        for inner in getattr(item, "exceptions", None) or ():  # exception groups: their members' types only
            if isinstance(inner, BaseException):
                parts.append(f"  + {_describe(inner)}\n")
    return "".join(parts).rstrip("\n")


def _exception_of(exc_info: Any) -> BaseException | None:
    if isinstance(exc_info, BaseException):
        return exc_info
    if isinstance(exc_info, tuple) and len(exc_info) == 3 and isinstance(exc_info[1], BaseException):
        return exc_info[1]
    if exc_info is True:
        return sys.exc_info()[1]
    return None


def scrub_exception(logger: Any, method_name: str, event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: `exc_info` becomes `exception`, a traceback without exception messages."""
    exc = _exception_of(event_dict.pop("exc_info", None))
    if exc is not None:
        event_dict["exception"] = safe_traceback(exc)
    for key, value in list(event_dict.items()):
        if isinstance(value, BaseException):  # log.info("x", error=exc): the type, never the text
            event_dict[key] = _describe(value)
    return event_dict


class SafeFormatter(logging.Formatter):
    """stdlib logging's formatter with `safe_traceback` for exceptions."""

    def formatException(self, ei) -> str:
        exc = _exception_of(ei)
        return safe_traceback(exc) if exc is not None else ""


def configure_logging(level: str = "info", *, json: bool = True, stream: TextIO | None = None) -> None:
    """Logs to `stream` (stdout by default): structlog's JSON lines and stdlib records alike."""
    stream = stream if stream is not None else sys.stdout
    numeric = getattr(logging, level.upper(), logging.INFO)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(SafeFormatter("%(message)s"))
    logging.basicConfig(handlers=[handler], level=numeric, force=True)
    renderer = structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer()
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            scrub_exception,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=stream),
        cache_logger_on_first_use=False,
    )
