"""Request bodies of the agent endpoints, validated before any stream opens.

Text the database cannot store (a NUL byte) and JSON nested deeper than any real page context or tool input
never get this far: every JSON body passes `api.requests.JsonRequest` first (400 `validation_failed`). What
is left here are the rules of each field; /schema carries each one (`pattern`, api/openapi.py).
"""

from __future__ import annotations

import json
import uuid
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    field_validator,
    model_validator,
)

MAX_PAGE_CONTEXT_BYTES = 16_000

SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Every character `str.isspace()` calls whitespace (what `str.strip()` removes), as a character-class body."""


def _escaped(characters: str) -> str:
    return "".join(c if c == "-" else f"\\u{ord(c):04x}" for c in characters)


NO_NUL = r"^[^\u0000]*$"
"""A string the database can store: no NUL. The same in ECMA-262 (JSON Schema), Python and Rust regexes."""
NOT_BLANK = rf"^[^\u0000]*[^\u0000{_escaped(SPACES)}][^\u0000]*$"
"""A storable string with at least one character that is not whitespace (`value.strip()` is not empty)."""


def is_blank(value: str) -> bool:
    return not value.strip()


class SendBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    message: str = Field(min_length=1, max_length=8000, json_schema_extra={"pattern": NOT_BLANK})
    conversationId: uuid.UUID | None = None
    replaces: uuid.UUID | None = Field(
        None, description="Regenerate / Edit (beyond the spec): the id of one of the conversation's user messages; "
                          "this message takes its place, and it and what followed it are kept as an alternative "
                          "(POST .../alternatives/{messageId} shows it again).")
    pageContext: dict[str, Any] | None = Field(
        None, description=f"What the caller's page shows; its JSON under {MAX_PAGE_CONTEXT_BYTES:,} bytes.")

    @field_validator("message")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if is_blank(value):
            raise ValueError("message must not be blank")
        return value

    @field_validator("pageContext")
    @classmethod
    def _small(cls, value: dict | None) -> dict | None:
        if value is not None and len(json.dumps(value, default=str)) > MAX_PAGE_CONTEXT_BYTES:
            raise ValueError(f"pageContext must be under {MAX_PAGE_CONTEXT_BYTES} bytes")
        return value


def _real_bool(value: Any) -> Any:
    if not isinstance(value, bool):  # the framework may validate non-strictly; "yes" or 0 is not a decision
        raise ValueError("must be true or false")
    return value


RealBool = Annotated[StrictBool, BeforeValidator(_real_bool)]  # JSON true or false, nothing that coerces to one


def _numbers_only(annotation: Any, value: Any) -> bool:
    """Whether `value` is what a JSON number field (float or int, optional, or a list of them) may hold."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _numbers_only(args[0], value)
    if annotation in (int, float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    if origin in (Union, UnionType):
        return value is None or any(_numbers_only(kind, value) for kind in args if kind is not type(None))
    if origin is list and args and isinstance(value, list):
        return all(_numbers_only(args[0], item) for item in value)
    return True


class NumbersBody(BaseModel):
    """A request body whose numbers are JSON numbers. Litestar validates bodies with strict=False, which also overrides
    a field's own strictness, so `true` would be read as 1 and "5" as 5 where the schema says a number (schemathesis'
    negative_data_rejection found a quick entry of `fatG: true` answered 201). The check runs before coercion and
    leaves the fields' types, and so /schema's bounds, as declared."""

    @model_validator(mode="before")
    @classmethod
    def _json_numbers(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name, field in cls.model_fields.items():
                key = field.alias or name
                if key in data and not _numbers_only(field.annotation, data[key]):
                    raise ValueError(f"{key} must be a number")
        return data


class ConfirmBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    approved: RealBool
    input: dict[str, Any] | None = None


class PickBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(description="One of the pick card's candidate ids; any other string is 422 invalid_pick.")


class RenameBody(BaseModel):
    """PATCH .../conversations/{id}: the conversation's new title."""

    model_config = ConfigDict(extra="ignore")

    title: str = Field(min_length=1, max_length=200, json_schema_extra={"pattern": NOT_BLANK})

    @field_validator("title")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if is_blank(value):
            raise ValueError("title must not be blank")
        return value
