"""A turn's frames in Redis, so any API process can replay and follow them (ARCHITECTURE.md "Turns that outlive
the connection").

Every turn has four keys, hash-tagged on the turn id (one Redis Cluster slot, so the seal script may touch them
together): `frames`, a Redis Stream whose entry ids are `<seq>-0` (seq from 1, the frame id's number: an append
that is retried after a lost reply cannot land twice, and "after seq N" is simply the entry id `N-0`); `meta`, a
hash naming whose turn it is; `alive`, a lease the running process renews; `stop`, set by an explicit stop.
Frames and meta are kept `KEEP_SECONDS` after the last write (so an hour after `done`), the stream capped at
`MAX_FRAMES` entries.

A reader that sees no frame for a while and no live lease seals the stream: `error{turn_interrupted}` and the
persona's `done`, appended atomically unless `done` is already there or the lease came back. The entry ids make
the race with a late writer harmless: whichever appends seq N first wins, the other's append is refused.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import structlog

from core.outages import down_dependency

log = structlog.get_logger("agent.turn_log")

KEEP_SECONDS = 3600  # frames and their owner are kept an hour after the last frame (so after `done`)
MAX_FRAMES = 20_000  # a turn's stream is capped (6 round trips of 4,096 output tokens stream ~10,000 deltas)
LEASE_MS = 15_000  # a turn whose process stopped renewing for this long is lost
BLOCK_MS = 1_000  # a reader's wait for the next frame, below any Redis client's socket timeout
STALE_CHECK_SECONDS = 5.0  # a silent stream's lease is looked at this often
OUTAGE_WAIT_SECONDS = 60.0  # a reader waits out Redis out of reach this long (the frame writer's own give-up)
OUTAGE_RETRY_SECONDS = 0.5
READ_COUNT = 500

_SEAL = """
if redis.call('exists', KEYS[2]) == 1 then return 0 end
local last = redis.call('xrevrange', KEYS[1], '+', '-', 'COUNT', 1)
local seq = 0
if #last > 0 then
  local fields = last[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'e' and fields[i + 1] == 'done' then return 0 end
  end
  seq = tonumber(string.match(last[1][1], '^(%d+)'))
end
local first = ARGV[1]
if seq > 0 then first = ARGV[2] end
redis.call('xadd', KEYS[1], (seq + 1) .. '-0', 'e', 'error', 'd', first)
redis.call('xadd', KEYS[1], (seq + 2) .. '-0', 'e', 'done', 'd', ARGV[3])
redis.call('expire', KEYS[1], ARGV[4])
return 1
"""


class TurnKeys:
    """The Redis keys of one turn."""

    def __init__(self, turn_id: uuid.UUID | str) -> None:
        tag = f"spotter:turns:{{{turn_id}}}"
        self.frames, self.meta, self.alive, self.stop = (f"{tag}:frames", f"{tag}:meta", f"{tag}:alive",
                                                         f"{tag}:stop")


@dataclass(frozen=True)
class TurnRecord:
    """Whose turn it is and where it runs: written when the turn starts, read by every stream and stop."""

    turn_id: uuid.UUID
    org_id: uuid.UUID
    user_id: uuid.UUID
    persona: str
    thread_id: uuid.UUID
    kind: str  # send | confirm | pick
    baseline: int  # the thread's last seq before the turn wrote anything (a reopened thread shows up to it)
    trace_id: str = ""
    opened: bool = False  # the thread exists (a new one's first message was written)

    def fields(self) -> dict[str, str]:
        return {"org": str(self.org_id), "user": str(self.user_id), "persona": self.persona,
                "thread": str(self.thread_id), "kind": self.kind, "baseline": str(self.baseline),
                "trace": self.trace_id, "opened": "1" if self.opened else "0"}

    @classmethod
    def from_fields(cls, turn_id: uuid.UUID, fields: dict[str, str]) -> TurnRecord:
        return cls(turn_id=turn_id, org_id=uuid.UUID(fields["org"]), user_id=uuid.UUID(fields["user"]),
                   persona=fields["persona"], thread_id=uuid.UUID(fields["thread"]), kind=fields["kind"],
                   baseline=int(fields["baseline"]), trace_id=fields.get("trace", ""),
                   opened=fields.get("opened") == "1")

    def belongs_to(self, org_id: uuid.UUID, user_id: uuid.UUID, persona: str) -> bool:
        """Only the turn's caller, in its org, through its persona's endpoints, may read or stop it."""
        return (self.org_id, self.user_id, self.persona) == (org_id, user_id, persona)


class _Numbered(Protocol):
    @property
    def seq(self) -> int: ...


Item = TypeVar("Item", bound=_Numbered)


def before_turn(items: Sequence[Item], running: TurnRecord | None, opens: Callable[[Item], bool]) -> list[Item]:
    """What a thread shows while `running` runs on it: what it held before the turn, and a send's own message
    (the first item after the baseline that `opens`); the turn's stream, read from seq 0, brings the rest."""
    if running is None:
        return list(items)
    shown = [item for item in items if item.seq <= running.baseline]
    if running.kind == "send":
        opening = next((item for item in items if item.seq > running.baseline and opens(item)), None)
        if opening is not None:
            shown.append(opening)
    return shown


@dataclass(frozen=True)
class Frame:
    """One stored frame: its number in the turn, its event type and its JSON data."""

    seq: int
    type: str
    data: str


async def register(redis: Any, record: TurnRecord) -> None:
    """The turn exists (its owner, its live lease) before its first frame or any reader."""
    keys = TurnKeys(record.turn_id)
    async with redis.pipeline(transaction=False) as pipe:
        pipe.hset(keys.meta, mapping=record.fields())
        pipe.expire(keys.meta, KEEP_SECONDS)
        pipe.set(keys.alive, "1", px=LEASE_MS)
        await pipe.execute()


async def record_of(redis: Any, turn_id: uuid.UUID) -> TurnRecord | None:
    fields = await redis.hgetall(TurnKeys(turn_id).meta)
    if not fields:
        return None
    try:
        return TurnRecord.from_fields(turn_id, fields)
    except (KeyError, ValueError):
        log.warning("agent.turn_log.bad_record")
        return None


async def request_stop(redis: Any, turn_id: uuid.UUID) -> None:
    await redis.set(TurnKeys(turn_id).stop, "1", ex=KEEP_SECONDS)


async def last_frame(redis: Any, turn_id: uuid.UUID) -> Frame | None:
    found = await redis.xrevrange(TurnKeys(turn_id).frames, "+", "-", count=1)
    return _frame(found[0]) if found else None


def _frame(entry: tuple[str, dict[str, str]]) -> Frame:
    entry_id, fields = entry
    return Frame(seq=int(str(entry_id).split("-", 1)[0]), type=fields.get("e", ""), data=fields.get("d", "{}"))


@dataclass(frozen=True)
class Sealing:
    """What a reader appends to a turn whose process is gone: the error frame (with the turn id when it is the
    stream's first frame, without it otherwise) and the persona's `done`."""

    first_error: bytes
    error: bytes
    done: bytes


async def follow(redis: Any, turn_id: uuid.UUID, after: int, sealing: Sealing) -> AsyncIterator[Frame | None]:
    """The frames after `after`, then the live ones until `done`. Yields None after each silent wait (a reader
    may send a keep-alive); seals the stream when its process stopped renewing its lease. Redis out of reach
    (core.outages) is waited out for up to OUTAGE_WAIT_SECONDS with keep-alives: the turn runs on meanwhile, its
    writer keeps its frames, and this reader goes on from its cursor, losing none."""
    keys = TurnKeys(turn_id)
    last = await last_frame(redis, turn_id)
    if last is not None and last.type == "done" and last.seq <= after:
        return  # the client has everything already
    cursor = f"{after}-0"
    checked = time.monotonic()
    unreachable_since: float | None = None
    while True:
        try:
            found = await redis.xread({keys.frames: cursor}, count=READ_COUNT, block=BLOCK_MS)
            if not found and time.monotonic() - checked >= STALE_CHECK_SECONDS:
                checked = time.monotonic()
                if await redis.eval(_SEAL, 2, keys.frames, keys.alive, sealing.first_error, sealing.error,
                                    sealing.done, KEEP_SECONDS):
                    log.warning("agent.turn.lost", turn_id=str(turn_id))
                    continue  # the sealed frames are read next
        except Exception as exc:
            if down_dependency(exc) != "redis":
                raise
            unreachable_since = unreachable_since or time.monotonic()
            if time.monotonic() - unreachable_since > OUTAGE_WAIT_SECONDS:
                raise
            yield None
            await asyncio.sleep(OUTAGE_RETRY_SECONDS)
            continue
        if unreachable_since is not None:  # back: the running process renews its lease within a third of it
            unreachable_since, checked = None, time.monotonic()
        entries = found[0][1] if found else []
        for entry in entries:
            frame = _frame(entry)
            yield frame
            if frame.type == "done":
                return
            cursor = entry[0]
        if entries:
            checked = time.monotonic()
            continue
        yield None
