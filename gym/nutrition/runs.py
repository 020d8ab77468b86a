"""Runs as stored rows: start (with the 409 rules), read (members see only their own), state moves
through the transition table, envelopes and SSE events appended, clearances recorded.

Every function takes an AsyncSession already scoped to the org (`Database.scope`), so RLS backs the
explicit `org_id` filters. `member_scope` is the caller's own member id when the caller is a member:
anything else of the org is then `run_not_found`, exactly like a run of another org.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import Conflict, NotFound
from gym.members import Member
from gym.nutrition.envelope import Envelope, build_envelope
from gym.nutrition.models import (
    MedicalClearance,
    NutritionAdjustment,
    NutritionCheckin,
    NutritionEvent,
    NutritionMessage,
    NutritionRun,
)
from gym.nutrition.payloads.control import PipelineErrorPayload
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.states import ACTIVE, State, check_transition
from gym.nutrition.triggers import Point


def _now() -> datetime:
    return datetime.now(UTC)


async def member_of_user(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID) -> uuid.UUID | None:
    """The gym member row a signed-in member is (members.user_id), if any."""
    return await session.scalar(select(Member.id).where(Member.org_id == org_id, Member.user_id == user_id,
                                                        Member.deleted_at.is_(None)).limit(1))


async def clearance_required(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> bool:
    """True when the member's latest medically terminated run has no clearance recorded after it."""
    terminated = await session.scalar(
        select(func.max(NutritionRun.finished_at)).where(NutritionRun.org_id == org_id,
                                                        NutritionRun.member_id == member_id,
                                                        NutritionRun.terminated_medical.is_(True)))
    if terminated is None:
        return False
    cleared = await session.scalar(
        select(func.max(MedicalClearance.created_at)).where(MedicalClearance.org_id == org_id,
                                                            MedicalClearance.member_id == member_id))
    return cleared is None or cleared < terminated


async def start_run(session: AsyncSession, org_id: uuid.UUID, *, member_id: uuid.UUID, intake: IntakeData,
                    created_by: uuid.UUID | None, now: datetime | None = None) -> NutritionRun:
    """A new run in `intake_pending`; 409 while another is working or paused, or until medical clearance. The
    member's current plan stays current until this run reaches `output_ready` (`transition`)."""
    member = await session.scalar(select(Member.id).where(Member.org_id == org_id, Member.id == member_id,
                                                          Member.deleted_at.is_(None)))
    if member is None:
        raise NotFound("member_not_found", member_id=str(member_id))
    if await clearance_required(session, org_id, member_id):
        raise Conflict("medical_clearance_required")
    active = await session.scalar(select(NutritionRun.id).where(
        NutritionRun.org_id == org_id, NutritionRun.member_id == member_id,
        NutritionRun.state.in_([s.value for s in ACTIVE])))
    if active is not None:
        raise Conflict("run_in_progress", run_id=str(active))
    now = now or _now()
    run = NutritionRun(id=uuid.uuid4(), org_id=org_id, member_id=member_id, created_by=created_by,
                       state=State.INTAKE_PENDING.value, version=1, intake=intake.model_dump(mode="json"),
                       plan={}, started_on=now.date())
    try:
        async with session.begin_nested():
            session.add(run)
            await session.flush()
    except IntegrityError as exc:  # the partial unique index: a concurrent start won the race
        raise Conflict("run_in_progress") from exc
    await append_event(session, run, "state", {"from": None, "to": run.state, "at": now.isoformat()})
    return run


async def get_run(session: AsyncSession, org_id: uuid.UUID, run_id: uuid.UUID, *,
                  member_scope: uuid.UUID | None = None, for_update: bool = False) -> NutritionRun:
    query = select(NutritionRun).where(NutritionRun.org_id == org_id, NutritionRun.id == run_id)
    if member_scope is not None:
        query = query.where(NutritionRun.member_id == member_scope)
    if for_update:
        query = query.with_for_update()
    run = await session.scalar(query)
    if run is None:
        raise NotFound("run_not_found", run_id=str(run_id))
    return run


async def list_runs(session: AsyncSession, org_id: uuid.UUID, *, member_id: uuid.UUID | None = None,
                    member_scope: uuid.UUID | None = None) -> Sequence[NutritionRun]:
    query = select(NutritionRun).where(NutritionRun.org_id == org_id)
    for wanted in (member_id, member_scope):
        if wanted is not None:
            query = query.where(NutritionRun.member_id == wanted)
    return (await session.scalars(query.order_by(NutritionRun.created_at.desc(), NutritionRun.id))).all()


async def append_event(session: AsyncSession, run: NutritionRun, kind: str, data: dict[str, Any]) -> int:
    """Append one SSE frame to the run's log; returns its sequence number (the frame id)."""
    last = await session.scalar(select(func.max(NutritionEvent.seq)).where(NutritionEvent.run_id == run.id))
    seq = (last or 0) + 1
    session.add(NutritionEvent(org_id=run.org_id, run_id=run.id, seq=seq, kind=kind, data=data))
    await session.flush()
    return seq


async def transition(session: AsyncSession, run: NutritionRun, target: State | str, *,
                     now: datetime | None = None) -> State:
    """Move the run along the table of 004 §1 (raises IllegalTransition), recording a `state` event.

    Entering `paused_physician` remembers the state paused from in `previous_state`; staying paused
    keeps it; any other move records the state left.
    """
    current = State(run.state)
    paused_from = State(run.previous_state) if current is State.PAUSED_PHYSICIAN and run.previous_state else None
    new = check_transition(current, target, paused_from)
    if not (current is State.PAUSED_PHYSICIAN and new is State.PAUSED_PHYSICIAN):
        run.previous_state = current.value
    run.state = new.value
    now = now or _now()
    run.updated_at = now
    if new in (State.OUTPUT_READY, State.ERROR):
        run.finished_at = now
    if new is State.OUTPUT_READY:
        await _ready(session, run, now)
    await session.flush()
    await append_event(session, run, "state", {"from": current.value, "to": new.value, "at": now.isoformat()})
    return new


async def _ready(session: AsyncSession, run: NutritionRun, now: datetime) -> None:
    """The run's version is ready: it is the member's current plan, and the one it replaces is superseded now
    (not when this run started: a run that errors or is aborted leaves the previous plan current)."""
    first = run.ready_version is None
    run.ready_version = run.version
    if first:
        await session.execute(update(NutritionRun).where(
            NutritionRun.org_id == run.org_id, NutritionRun.member_id == run.member_id, NutritionRun.id != run.id,
            NutritionRun.ready_version.is_not(None), NutritionRun.superseded_at.is_(None)).values(superseded_at=now))


def is_current(run: NutritionRun) -> bool:
    """The member's current plan: a run that reached output_ready and no newer ready run replaced."""
    return run.ready_version is not None and run.superseded_at is None


async def current_plan(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> NutritionRun | None:
    return await session.scalar(select(NutritionRun).where(
        NutritionRun.org_id == org_id, NutritionRun.member_id == member_id, NutritionRun.ready_version.is_not(None),
        NutritionRun.superseded_at.is_(None)).order_by(NutritionRun.created_at.desc(), NutritionRun.id).limit(1))


async def active_run(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> NutritionRun | None:
    """The member's run that is working or paused, if any (at most one: uq_nutrition_runs_member_active)."""
    return await session.scalar(select(NutritionRun).where(
        NutritionRun.org_id == org_id, NutritionRun.member_id == member_id,
        NutritionRun.state.in_([s.value for s in ACTIVE])).limit(1))


async def fail(session: AsyncSession, run: NutritionRun, error: PipelineErrorPayload, *,
               terminated_medical: bool = False, now: datetime | None = None) -> None:
    """End the run in `error` (004 §6): the error payload stored (on the run and as the orchestrator's
    `pipeline_error` envelope to the user), an `error` frame and a `done` frame."""
    await transition(session, run, State.ERROR, now=now)
    run.error = error.model_dump(mode="json")
    run.terminated_medical = terminated_medical
    await session.flush()
    await store_envelope(session, run, build_envelope(
        run_id=run.id, from_agent="ORCHESTRATOR", to_agent="USER", data_type="pipeline_error", payload=run.error,
        run_version=run.version, now=now))
    await append_event(session, run, "error", {
        "errorType": error.error_type, "failingAgent": error.failing_agent, "details": error.details,
        "recoverable": error.recoverable, "retryCount": error.retry_count})
    await append_event(session, run, "done", {"state": run.state})


async def store_envelope(session: AsyncSession, run: NutritionRun, envelope: Envelope, *, attempt: int = 1) -> bool:
    """Store an accepted envelope once (a resumed worker re-storing the same output is a no-op)."""
    row = {"id": envelope.message_id, "org_id": run.org_id, "run_id": run.id, "run_version": envelope.run_version,
           "from_agent": envelope.from_agent, "to_agent": envelope.to_agent, "data_type": envelope.data_type,
           "payload": envelope.payload, "schema_version": envelope.version, "attempt": attempt,
           "created_at": envelope.timestamp}
    stored = await session.scalar(insert(NutritionMessage).values(**row).on_conflict_do_nothing()
                                  .returning(NutritionMessage.id))
    if stored is None:
        return False
    await append_event(session, run, "envelope", {
        "messageId": str(envelope.message_id), "fromAgent": envelope.from_agent, "toAgent": envelope.to_agent,
        "dataType": envelope.data_type, "runVersion": envelope.run_version})
    return True


async def messages(session: AsyncSession, run: NutritionRun, *, data_type: str | None = None,
                   ) -> Sequence[NutritionMessage]:
    query = select(NutritionMessage).where(NutritionMessage.org_id == run.org_id, NutritionMessage.run_id == run.id)
    if data_type is not None:
        query = query.where(NutritionMessage.data_type == data_type)
    return (await session.scalars(query.order_by(NutritionMessage.created_at, NutritionMessage.id))).all()


async def next_question_attempt(session: AsyncSession, run: NutritionRun) -> int:
    """The attempt number of the run's next user question (never colliding with the run's own queries)."""
    asked = await session.scalar(select(func.count()).select_from(NutritionMessage).where(
        NutritionMessage.run_id == run.id, NutritionMessage.from_agent == "USER",
        NutritionMessage.data_type == "health_query"))
    return 1_000 + (asked or 0) + 1


async def latest_outputs(session: AsyncSession, run: NutritionRun, data_types: Sequence[str], *,
                         upto_version: int | None = None) -> dict[str, Any]:
    """The newest accepted payload per data type (skipped agents keep their most recent output, 004 §10), of
    versions up to `upto_version` when given."""
    out: dict[str, Any] = {name: None for name in data_types}
    for message in await messages(session, run):
        if message.data_type in out and (upto_version is None or message.run_version <= upto_version):
            out[message.data_type] = message.payload
    return out


def shown_version(run: NutritionRun) -> int | None:
    """Which version's outputs are the run's plan: the ready one while a newer version is under way or failed
    (None: the newest outputs, for a run that is ready now or never was)."""
    if run.ready_version is None or run.state == State.OUTPUT_READY.value:
        return None
    return run.ready_version


async def events_after(session: AsyncSession, run: NutritionRun, after_seq: int = 0) -> Sequence[NutritionEvent]:
    return (await session.scalars(select(NutritionEvent).where(
        NutritionEvent.org_id == run.org_id, NutritionEvent.run_id == run.id, NutritionEvent.seq > after_seq
    ).order_by(NutritionEvent.seq))).all()


async def record_clearance(session: AsyncSession, org_id: uuid.UUID, *, member_id: uuid.UUID,
                           recorded_by: uuid.UUID | None, note: str = "") -> MedicalClearance:
    member = await session.scalar(select(Member.id).where(Member.org_id == org_id, Member.id == member_id))
    if member is None:
        raise NotFound("member_not_found", member_id=str(member_id))
    last = await session.scalar(select(NutritionRun.id).where(
        NutritionRun.org_id == org_id, NutritionRun.member_id == member_id,
        NutritionRun.terminated_medical.is_(True)).order_by(NutritionRun.finished_at.desc()).limit(1))
    clearance = MedicalClearance(id=uuid.uuid4(), org_id=org_id, member_id=member_id, run_id=last,
                                 recorded_by=recorded_by, note=note[:2_000], created_at=_now())
    session.add(clearance)
    await session.flush()
    return clearance


async def version_started(session: AsyncSession, run: NutritionRun) -> datetime:
    """When the run's current version began: its first stored envelope (the run's creation for version 1)."""
    if run.version == 1:
        return run.created_at
    first = await session.scalar(select(func.min(NutritionMessage.created_at)).where(
        NutritionMessage.org_id == run.org_id, NutritionMessage.run_id == run.id,
        NutritionMessage.run_version == run.version))
    return first or run.created_at


async def checkin_on(session: AsyncSession, run: NutritionRun,
                     on: date) -> tuple[NutritionCheckin, NutritionAdjustment | None] | None:
    """The run's check-in for date `on` with its adjustment, if one was stored."""
    row = (await session.execute(
        select(NutritionCheckin, NutritionAdjustment)
        .outerjoin(NutritionAdjustment, NutritionAdjustment.checkin_id == NutritionCheckin.id)
        .where(NutritionCheckin.org_id == run.org_id, NutritionCheckin.run_id == run.id,
               NutritionCheckin.checkin_date == on).limit(1))).first()
    return None if row is None else (row[0], row[1])


async def checkin_history(session: AsyncSession, run: NutritionRun) -> list[Point]:
    rows = (await session.scalars(select(NutritionCheckin).where(
        NutritionCheckin.org_id == run.org_id, NutritionCheckin.run_id == run.id
    ).order_by(NutritionCheckin.checkin_date, NutritionCheckin.created_at))).all()
    return [Point(WeeklyCheckin.model_validate(row.payload), row.checkin_date, row.weeks_on_program) for row in rows]
