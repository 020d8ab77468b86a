"""`Idempotency-Key` on the writes that honour it: the header as a documented parameter, and `Once`, which
claims the key inside the work's own transaction and remembers the answer there (core/idempotency.py)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from litestar import Request, Response
from litestar.params import HeaderParameter
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from core import idempotency
from core.idempotency import KEY_PATTERN, Answer

IdempotencyKey = Annotated[str | None, HeaderParameter(
    name="Idempotency-Key", required=False, pattern=KEY_PATTERN, max_length=255,
    description="Optional. The same key with the same request within 24 h answers the first answer again and "
                "runs nothing; the same key with a different request answers 422 `idempotency_key_reused`.")]


def _canonical(value: object) -> str:
    """A path parameter as the service reads it: a UUID (any case, braces or none) in its one canonical form."""
    if isinstance(value, uuid.UUID):
        return str(value)
    text = str(value)
    try:
        return str(uuid.UUID(text))
    except ValueError:
        return text


def route_of(request: Request) -> str:
    """The request's route with its parameters in canonical form (`/organizations/{org_id}/…` filled with the
    canonical org id): the same request spelled with an upper-cased id fingerprints the same."""
    template = request.scope.get("path_template")
    if not template:
        return request.url.path
    try:
        return template.format_map({name: _canonical(value) for name, value in request.path_params.items()})
    except (KeyError, IndexError, ValueError):  # a template that is not a plain format string: the path as sent
        return request.url.path


@dataclass
class Once:
    """One request under an optional Idempotency-Key, inside the transaction that does its work."""

    session: AsyncSession
    org_id: uuid.UUID
    user_id: uuid.UUID
    key: str | None
    fingerprint: str

    @classmethod
    def of(cls, session: AsyncSession, request: Request, org_id: uuid.UUID, user_id: uuid.UUID, key: str | None,
           body: Any) -> Once:
        sent = body.model_dump(mode="json") if isinstance(body, BaseModel) else body
        return cls(session, org_id, user_id, key, idempotency.fingerprint(request.method, route_of(request), sent))

    async def replay(self) -> Response | None:
        """The first answer when this request ran before under its key (run nothing then); None: go ahead."""
        if self.key is None:
            return None
        answer = await idempotency.claim(self.session, self.org_id, self.user_id, self.key, self.fingerprint)
        return None if answer is None else Response(answer.body, status_code=answer.status)

    async def answer(self, status: int, body: msgspec.Struct) -> Response:
        """The response, remembered under the key in this transaction."""
        content = msgspec.to_builtins(body)
        if self.key is not None:
            await idempotency.remember(self.session, self.org_id, self.user_id, self.key, Answer(status, content))
        return Response(content, status_code=status)
