"""Request bodies of the agent endpoints, validated before any stream opens.

Text the database cannot store (a NUL byte) and JSON nested deeper than any real page context or tool
input are refused here with 400 `validation_failed`, never discovered mid-stream.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

MAX_PAGE_CONTEXT_BYTES = 16_000
MAX_JSON_DEPTH = 32


def check_storable(value: Any, name: str) -> None:
    """Raise ValueError when `value` holds a NUL in any string (key or value) or nests too deep."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError(f"{name} must not contain NUL characters")
        elif isinstance(item, dict | list):
            if depth > MAX_JSON_DEPTH:
                raise ValueError(f"{name} must not nest deeper than {MAX_JSON_DEPTH} levels")
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)


class SendBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    message: str = Field(min_length=1, max_length=8000)
    conversationId: uuid.UUID | None = None
    pageContext: dict[str, Any] | None = None

    @field_validator("message")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("message must not be blank")
        check_storable(value, "message")
        return value

    @field_validator("pageContext")
    @classmethod
    def _small(cls, value: dict | None) -> dict | None:
        if value is None:
            return value
        check_storable(value, "pageContext")
        if len(json.dumps(value, default=str)) > MAX_PAGE_CONTEXT_BYTES:
            raise ValueError(f"pageContext must be under {MAX_PAGE_CONTEXT_BYTES} bytes")
        return value


class ConfirmBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    approved: StrictBool
    input: dict[str, Any] | None = None

    @field_validator("approved", mode="before")
    @classmethod
    def _real_bool(cls, value: Any) -> Any:
        if not isinstance(value, bool):  # the framework may validate non-strictly; "yes" is not a decision
            raise ValueError("approved must be true or false")
        return value

    @field_validator("input")
    @classmethod
    def _storable(cls, value: dict | None) -> dict | None:
        if value is not None:
            check_storable(value, "input")
        return value


class PickBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, max_length=200)

    @field_validator("id")
    @classmethod
    def _storable(cls, value: str) -> str:
        check_storable(value, "id")
        return value


class RenameBody(BaseModel):
    """PATCH .../conversations/{id}: the conversation's new title."""

    model_config = ConfigDict(extra="ignore")

    title: str = Field(min_length=1, max_length=200)

    @field_validator("title")
    @classmethod
    def _storable(cls, value: str) -> str:
        check_storable(value, "title")
        if not value.strip():
            raise ValueError("title must not be blank")
        return value
