"""Request bodies of the agent endpoints, validated before any stream opens.

Text the database cannot store (a NUL byte) and JSON nested deeper than any real page context or tool input
never get this far: every JSON body passes `api.requests.JsonRequest` first (400 `validation_failed`). What
is left here are the rules of each field.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

MAX_PAGE_CONTEXT_BYTES = 16_000


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
        return value

    @field_validator("pageContext")
    @classmethod
    def _small(cls, value: dict | None) -> dict | None:
        if value is None:
            return value
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


class PickBody(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, max_length=200)


class RenameBody(BaseModel):
    """PATCH .../conversations/{id}: the conversation's new title."""

    model_config = ConfigDict(extra="ignore")

    title: str = Field(min_length=1, max_length=200)

    @field_validator("title")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("title must not be blank")
        return value
