"""A turn's SSE response: its frames read from its Redis Stream, each with `id: <turnId>:<seq>`.

One code path serves every read: the POST that opened the turn (send, confirm, pick) launches it detached and
answers as a reader from seq 0; `GET .../turns/{turnId}/stream` reads the same stream after `Last-Event-ID`
(or `?after=`), on whichever API process the reconnect reaches. A silent stream carries an SSE comment every
`KEEPALIVE_SECONDS`, so proxies and phones keep an idle connection open while a tool or the model works.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator

from litestar.response import Stream

from agent.persona import Persona
from agent.turn_log import TurnRecord, record_of
from agent.turn_runner import TurnRunner
from agent.turns import TurnStream
from api.sse import SSE_HEADERS, SSE_MEDIA_TYPE
from core.errors import NotFound
from core.tenancy import Caller, OrgAccess

KEEPALIVE_SECONDS = 15.0
MAX_SEQ = 2**31 - 1


def after_of(turn_id: uuid.UUID, last_event_id: str | None, after: int) -> int:
    """Where a reader resumes: `Last-Event-ID` (`<turnId>:<seq>` of this turn) wins over `?after=`; anything
    else this service could not have sent replays the whole stream."""
    value = (last_event_id or "").strip()
    if value:
        named, _, seq = value.rpartition(":")
        if named == str(turn_id) and seq.isascii() and seq.isdigit() and len(seq) <= 10 and int(seq) <= MAX_SEQ:
            return int(seq)
        return 0
    return after


async def owned_turn(turns: TurnRunner, turn_id: uuid.UUID, access: OrgAccess, caller: Caller,
                     persona: Persona) -> TurnRecord:
    """The turn if it is the caller's, in this org, of this persona's endpoints; anyone else: 404 turn_not_found."""
    record = await record_of(turns.redis, turn_id)
    if record is None or not record.belongs_to(access.org_id, caller.user_id, persona.name):
        raise NotFound("turn_not_found")
    return record


async def running_turn(turns: TurnRunner, thread_id: uuid.UUID, access: OrgAccess, caller: Caller,
                       persona: Persona) -> TurnRecord | None:
    """The caller's turn running on one of their threads now, if any (a reopened thread joins it)."""
    record = await turns.running_on(thread_id)
    return record if record is not None and record.belongs_to(access.org_id, caller.user_id, persona.name) else None


async def launched(turns: TurnRunner, stream: TurnStream, kind: str, persona: Persona, locale: str,
                   trace_id: str) -> Stream:
    """Start the turn detached and answer as its first reader."""
    record = await turns.launch(stream, kind)
    return turn_response(turns, record, persona, locale, trace_id)


def turn_response(turns: TurnRunner, record: TurnRecord, persona: Persona, locale: str, trace_id: str,
                  after: int = 0) -> Stream:
    prefix = f"id: {record.turn_id}:".encode()

    async def body() -> AsyncIterator[bytes]:
        quiet_since = time.monotonic()
        async for frame in turns.follow(record, persona, locale, after):
            if frame is None:
                if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                    quiet_since = time.monotonic()
                    yield b": keepalive\n\n"
                continue
            quiet_since = time.monotonic()
            yield (prefix + str(frame.seq).encode() + b"\nevent: " + frame.type.encode() + b"\ndata: "
                   + frame.data.encode() + b"\n\n")

    return Stream(body(), media_type=SSE_MEDIA_TYPE,
                  headers={**SSE_HEADERS, "x-trace-id": trace_id, "x-turn-id": str(record.turn_id)})
