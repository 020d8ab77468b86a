"""The member's training app (issue 26): the current workout as a logging screen, its timers, the exercise library,
and the numbers of the progress screens — typed REST over the same services the trainer's tools call, so the app
and the chat keep one record.

Every route needs the caller's own member record (403 member_profile_required). The writes that create take an
optional `Idempotency-Key` (api/idempotency.py): the app sends one per set, so a set sent again after a dropped
connection is answered, not logged twice. Handlers parse, call `MemberApp` (gym/training/member_app.py, injected),
and shape the answer.
"""

from __future__ import annotations

import re
import uuid
from datetime import date
from typing import Annotated
from zoneinfo import ZoneInfo

from litestar import Controller, Request, Response, delete, get, post, put
from litestar.di import NamedDependency, Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, JSONBody, PathParameter, QueryParameter
from sqlalchemy.ext.asyncio import AsyncSession

from api.controllers.trainer import member_profile_required, provide_member_id
from api.exercise_extras_bodies import NoteBody, NoteOut, PlatesOut
from api.idempotency import IdempotencyKey, Once
from api.responses import BEARER, error_responses, shape
from api.trainer_app_bodies import (
    AddExerciseBody,
    CalendarOut,
    ExerciseProgressOut,
    FinishBody,
    FinishedOut,
    HistoryDaysOut,
    LibraryOut,
    RecoveryOut,
    SetBody,
    SetLoggedOut,
    SwapExerciseBody,
    TimersOut,
    TodayOut,
    VolumeOut,
)
from core.errors import InvalidInput
from core.tenancy import Caller, OrgAccess
from gym.training.library_plan import Prescription
from gym.training.logs import MAX_HISTORY_DAYS
from gym.training.member_app import MemberApp
from gym.training.progress import MAX_WEEKS
from gym.training.workout_sets import EXERCISE_ID, SetInput

READ = error_responses(400, 401, 403, 404)
CHANGE = error_responses(400, 401, 403, 404, 409, 413, 415, 422)
EXERCISE_PATH = "{exercise_id:str}"
ExerciseInPath = Annotated[str, PathParameter(pattern=EXERCISE_ID, description="An exercise of the current workout "
                                                                               "(ex_001).")]


async def provide_member_app(session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                             member_id: NamedDependency[uuid.UUID], locale: NamedDependency[str]) -> MemberApp:
    return MemberApp(session, access.org_id, member_id, locale, ZoneInfo(access.timezone))


def _exercise(exercise_id: str) -> str:
    """A path's exercise id, checked like a body's (a malformed one is 400, an unknown one 404)."""
    if not re.fullmatch(EXERCISE_ID, exercise_id):
        raise InvalidInput(status=400, detail="exercise_id must look like ex_001")
    return exercise_id


class TrainerAppController(Controller):
    path = "/organizations/{org_id:str}/trainer"
    guards = [member_profile_required]
    dependencies = {"member_id": Provide(provide_member_id), "app": Provide(provide_member_app)}
    security = BEARER

    # --- Today -------------------------------------------------------------------------------------------------------

    @get("/workout", responses=READ)
    async def workout(self, app: NamedDependency[MemberApp]) -> TodayOut:
        """The current workout as a logging screen: each exercise's prescription, suggestion and why, recovering
        muscles, name and cues in the caller's language, and the sets logged so far with their records."""
        return shape(await app.workout(), TodayOut)

    @post("/workout/start", status_code=200, responses=error_responses(400, 401, 403, 404, 409))
    async def start(self, app: NamedDependency[MemberApp]) -> TodayOut:
        """Start the current workout's clock (once); 409 no_current_workout without one."""
        return shape(await app.start(), TodayOut)

    @post("/workout/sets", status_code=201, responses={
        **CHANGE, 200: ResponseSpec(SetLoggedOut, description="The set was logged before (its clientSetId, or no "
                                                              "setNumber and the same performedAt and values): "
                                                              "nothing new is logged")})
    async def log_set(self, request: Request, data: JSONBody[SetBody], app: NamedDependency[MemberApp],
                      session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                      caller: NamedDependency[Caller], idempotency_key: IdempotencyKey = None) -> Response[SetLoggedOut]:
        """Log one set of an exercise of the current workout. Send an Idempotency-Key per set: a retry answers the
        first answer and logs nothing; and a clientSetId: a set sent again under a new key (an offline queue) is
        answered 200 with the set already logged. 409 set_already_logged for a set number already logged."""
        once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
        if (replay := await once.replay()) is not None:
            return replay
        entry = SetInput(exercise_id=data.exerciseId, set_number=data.setNumber, reps=data.reps, load=data.load,
                         load_unit=data.loadUnit, duration_sec=data.durationSec, distance=data.distance,
                         distance_unit=data.distanceUnit, rpe=data.rpe, performed_at=data.performedAt,
                         client_set_id=data.clientSetId, warmup=data.warmup)
        answer = await app.log_set(entry)
        return await once.answer(201 if answer.pop("new") else 200, shape(answer, SetLoggedOut))

    @delete("/workout/sets/{set_id:uuid}", status_code=200, responses=error_responses(400, 401, 403, 404, 409))
    async def undo_set(self, set_id: FromPath[uuid.UUID], app: NamedDependency[MemberApp]) -> SetLoggedOut:
        """Undo a logged set: it stops counting everywhere; 409 set_already_undone the second time."""
        return shape(await app.undo_set(set_id), SetLoggedOut)

    @post("/workout/exercises", status_code=201, responses=CHANGE)
    async def add_exercise(self, request: Request, data: JSONBody[AddExerciseBody], app: NamedDependency[MemberApp],
                           session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                           caller: NamedDependency[Caller],
                           idempotency_key: IdempotencyKey = None) -> Response[TodayOut]:
        """Add a library exercise to the current workout (injuries, never-rules, equipment and order are checked as
        for the trainer's workouts)."""
        once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
        if (replay := await once.replay()) is not None:
            return replay
        chosen = Prescription(sets=data.sets, reps=data.reps, load=data.load, hold_sec=data.holdSec,
                              duration_min=data.durationMin, rest_sec=data.restSec)
        screen = await app.add_exercise(data.name, position=data.position, chosen=chosen)
        return await once.answer(201, shape(screen, TodayOut))

    @put(f"/workout/exercises/{EXERCISE_PATH}", status_code=200, responses=CHANGE)
    async def swap_exercise(self, exercise_id: ExerciseInPath, data: JSONBody[SwapExerciseBody],
                            app: NamedDependency[MemberApp]) -> TodayOut:
        """Swap an exercise for a library one (its prescription kept when it is the same kind); 409
        exercise_has_sets when sets of it are logged."""
        return shape(await app.swap_exercise(_exercise(exercise_id), data.name, data.load), TodayOut)

    @delete(f"/workout/exercises/{EXERCISE_PATH}", status_code=200, responses=CHANGE)
    async def remove_exercise(self, exercise_id: ExerciseInPath, app: NamedDependency[MemberApp]) -> TodayOut:
        """Remove an exercise (its logged sets are undone with it); 422 last_exercise for the only one."""
        return shape(await app.remove_exercise(_exercise(exercise_id)), TodayOut)

    @post("/workout/finish", status_code=200, responses=CHANGE)
    async def finish(self, request: Request, data: JSONBody[FinishBody], app: NamedDependency[MemberApp],
                     session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                     caller: NamedDependency[Caller], idempotency_key: IdempotencyKey = None) -> Response[FinishedOut]:
        """Finish the current workout (or discard it) and sum it up; 409 nothing_logged before any set."""
        once = Once.of(session, request, access.org_id, caller.user_id, idempotency_key, data)
        if (replay := await once.replay()) is not None:
            return replay
        return await once.answer(200, shape(await app.finish(discard=data.discard), FinishedOut))

    @get("/workout/timers", responses=error_responses(400, 401, 403, 404, 409))
    async def timers(self, app: NamedDependency[MemberApp]) -> TimersOut:
        """The current workout's timer phases in the order they run: supersets and circuits interleaved by round
        with the rest between rounds, a transition between blocks."""
        return shape(await app.timers(), TimersOut)

    @get("/exercises", responses=READ)
    async def library(self, app: NamedDependency[MemberApp],
                      q: Annotated[str | None, QueryParameter(max_length=60)] = None) -> LibraryOut:
        """The exercise library in the caller's language: for each, the equipment it would use at the current
        location (null: not there), the injury or never-rule that blocks it, the suggested load, its cues."""
        return shape(await app.library(q.strip() if q and q.strip() else None), LibraryOut)

    @put("/exercises/note", status_code=200, responses=error_responses(400, 401, 403, 404, 413, 415))
    async def save_note(self, data: JSONBody[NoteBody], app: NamedDependency[MemberApp]) -> NoteOut:
        """Keep the member's note on an exercise (by its library name; any of its names finds it), shown on Today
        the next time it is in a workout; an empty note forgets it."""
        return shape(await app.save_note(data.name, data.note), NoteOut)

    @get("/plates", responses=READ)
    async def plates(self, app: NamedDependency[MemberApp],
                     load: Annotated[float, QueryParameter(ge=0, le=1000, description="The load on the bar, in the "
                                                                                       "member's unit.")]) -> PlatesOut:
        """The bar and the plates per side for a barbell load, from the gym's own bar and plates (a standard set
        when the gym has not said), in the member's unit."""
        return shape(await app.plates(load), PlatesOut)

    # --- Progress ----------------------------------------------------------------------------------------------------

    @get("/progress/history", responses=READ)
    async def history(self, app: NamedDependency[MemberApp],
                      days: Annotated[int, QueryParameter(ge=1, le=MAX_HISTORY_DAYS)] = 30) -> HistoryDaysOut:
        """The days trained, newest first: workouts, exercises, their sets, and the records each set earned."""
        return shape(await app.history(days), HistoryDaysOut)

    @get("/progress/volume", responses=READ)
    async def volume(self, app: NamedDependency[MemberApp],
                     weeks: Annotated[int, QueryParameter(ge=1, le=MAX_WEEKS)] = 12) -> VolumeOut:
        """Σ reps × load per week (Monday first, the gym's weeks), in the caller's unit."""
        return shape(await app.volume(weeks), VolumeOut)

    @get("/progress/exercise", responses=READ)
    async def exercise(self, app: NamedDependency[MemberApp],
                       name: Annotated[str | None, QueryParameter(max_length=120)] = None,
                       days: Annotated[int, QueryParameter(ge=7, le=MAX_HISTORY_DAYS)] = 180) -> ExerciseProgressOut:
        """One exercise's load over time (heaviest set and estimated 1RM per session, Epley) and the loaded
        exercises to choose from; 404 exercise_not_logged for a name never logged."""
        return shape(await app.exercise(name.strip() if name and name.strip() else None, days), ExerciseProgressOut)

    @get("/recovery", responses=READ)
    async def recovery(self, app: NamedDependency[MemberApp]) -> RecoveryOut:
        return shape(await app.recovery(), RecoveryOut)

    @get("/calendar", responses=error_responses(400, 401, 403, 404, 422))
    async def calendar(self, app: NamedDependency[MemberApp],
                       start: Annotated[date | None, QueryParameter(description="First day (YYYY-MM-DD).")] = None,
                       end: Annotated[date | None, QueryParameter(description="Last day (YYYY-MM-DD).")] = None,
                       ) -> CalendarOut:
        """The days from start to end (default: this month) with what was done and scheduled, and the streak of
        weeks with a workout; only the last day given, that day's month; 422 invalid_range for the first
        day after the last or more than 62 days."""
        return shape(await app.calendar(start, end), CalendarOut)

