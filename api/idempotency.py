"""`Idempotency-Key` on the writes that honour it: the header as a documented parameter of the `idempotent`
dependency, which claims the key inside the work's own transaction and remembers the answer there
(core/idempotency.py)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import msgspec
from litestar import Request, Response
from litestar.di import NamedDependency
from litestar.params import HeaderParameter
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from core import idempotency
from core.idempotency import KEY_PATTERN, Answer
from core.tenancy import Caller, OrgAccess

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


Answered = tuple[int, msgspec.Struct]
"""What a write answers: its status and body."""


class Idempotent:
    """The request's writes under its optional Idempotency-Key, inside the transaction that does their work: a
    handler names `idempotent` and hands it the request's body and the work, and gets the response. A plain
    class, not a dataclass: the framework checks a dataclass dependency field by field."""

    def __init__(self, session: AsyncSession, request: Request, org_id: uuid.UUID, user_id: uuid.UUID,
                 key: str | None) -> None:
        self.session, self.request, self.org_id, self.user_id, self.key = session, request, org_id, user_id, key

    async def run(self, body: Any, work: Callable[[], Awaitable[Answered]]) -> Response:
        """The first answer again when this request ran before under its key (`work` does not run); otherwise
        `work`'s answer, remembered under the key in this transaction. `body`: the request as parsed, which
        fingerprints it with its method and canonical route."""
        if self.key is None:
            status, answer = await work()
            return Response(msgspec.to_builtins(answer), status_code=status)
        sent = body.model_dump(mode="json") if isinstance(body, BaseModel) else body
        fingerprint = idempotency.fingerprint(self.request.method, route_of(self.request), sent)
        first = await idempotency.claim(self.session, self.org_id, self.user_id, self.key, fingerprint)
        if first is not None:
            return Response(first.body, status_code=first.status)
        status, answer = await work()
        content = msgspec.to_builtins(answer)
        await idempotency.remember(self.session, self.org_id, self.user_id, self.key, Answer(status, content))
        return Response(content, status_code=status)


async def provide_idempotent(request: Request, session: NamedDependency[AsyncSession],
                             access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                             idempotency_key: IdempotencyKey = None) -> Idempotent:
    """The `Idempotency-Key` header is this dependency's parameter: every handler that names `idempotent`
    documents it."""
    return Idempotent(session, request, access.org_id, caller.user_id, idempotency_key)
