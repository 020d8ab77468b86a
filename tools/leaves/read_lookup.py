"""read (exercises, search across everything, lookup by id, workout comments): the second half of the read
router. Same conventions as `tools.leaves.read`: local readable times, plain JSON, never writes."""

from __future__ import annotations

import uuid
from dataclasses import asdict
from datetime import date
from typing import Annotated, Literal, get_args

from pydantic import AliasChoices, BaseModel, Field

from core.member_text import EACH, MemberWritten, marks_of
from gym import assignments, classes, exercises, member_search, members, programs, tasks, workouts
from gym.exercise_library import CATEGORIES
from gym.periods import local_midnight
from rag.lexical import CANDIDATES
from rag.lookup import search_entities
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.errors import not_found
from tools.leaves.read import clip, local_when, member_detail, member_hit_out, plain_json
from tools.output import ToolOut
from tools.registry import STAFF, ToolRouter

read_lookup = ToolRouter("read")
EntityType = Literal["program", "workout", "exercise", "member"]
ENTITY_TYPES: tuple[str, ...] = get_args(EntityType)
HYBRID_RESOLVE_MAX = 10  # names per batch that get a hybrid search when name matching leaves them unresolved
RESOLVE_CANDIDATES = 5
LookupType = Literal["member", "program", "workout", "exercise", "class_session", "assignment", "task"]


# --- exercises ----------------------------------------------------------------------------------------------

class ExercisesSearchInput(BaseModel):
    query: str = Field(min_length=1, max_length=200, description="Exercise name, alias or abbreviation in any "
                                                                 "language (e.g. 'squat variation', 'DB snatch').")
    category: Literal[CATEGORIES] | None = Field(None, description="Only exercises of this category.")  # type: ignore[valid-type]
    limit: int = Field(10, ge=1, le=25)


class ExerciseOut(BaseModel):
    id: uuid.UUID
    name: str
    category: str
    aliases: list[str]
    equipment: list[str]
    muscles: list[str]
    score: float | None = Field(None, description="How closely the name or an alias matches the query (1 = exactly); "
                                                  "lower for related hits found by meaning or by other fields.")


class ExerciseList(BaseModel):
    count: int
    exercises: list[ExerciseOut]


async def _search_exercises(ctx: ToolContext, query: str, limit: int,
                            category: str | None = None) -> list[exercises.ExerciseHit]:
    """Hybrid search (rag.lookup) over the exercise library, hydrated from the live rows."""
    wanted = limit if category is None else CANDIDATES  # the category filter applies after ranking
    ranked = await search_entities(ctx.session, ctx.org_id, query, embedder=ctx.embedder, scopes=["exercise"],
                                   per_scope=wanted)
    return (await _exercise_hits(ctx, ranked["exercise"], query, category))[:limit]


async def _exercise_hits(ctx: ToolContext, ranked: list[uuid.UUID], query: str,
                         category: str | None = None) -> list[exercises.ExerciseHit]:
    """Ranked exercise ids as hits: an exact name or alias leads, the ranking stays otherwise."""
    hits = await exercises.exercise_hits(ctx.session, ctx.org_id, ranked, query=query, category=category)
    return sorted(hits, key=lambda h: h.score < 1.0)


@read_lookup.agent_tool(action="exercises_search",
                 summary="Search the gym's exercise library by name, alias, abbreviation, muscle or equipment "
                         "(English, Hebrew, Russian; typos tolerated; related movements by meaning), exact "
                         "names first, optionally within one category.",
                 input=ExercisesSearchInput, roles=STAFF,
                        loaded=True)
async def exercises_search(ctx: ToolContext, input: ExercisesSearchInput) -> ExerciseList:
    hits = await _search_exercises(ctx, input.query, input.limit, input.category)
    return ExerciseList(count=len(hits), exercises=[
        ExerciseOut(id=h.id, name=h.name, category=h.category, aliases=h.aliases[:5], equipment=h.equipment,
                    muscles=h.muscles, score=h.score) for h in hits])


class ResolveBatchInput(BaseModel):
    names: list[str] = Field(min_length=1, max_length=50, description="Movement names as written, e.g. "
                                                                       "['200m run', 'double-unders', 'T2B'].")


@read_lookup.agent_tool(action="exercises_resolve_batch",
                 summary="Resolve many movement names to exercise ids in one call. Each name comes back resolved "
                         "(exerciseId), ambiguous (up to 3 candidates: ask the user or pick by context) or "
                         "unknown (keep the name as written).",
                 input=ResolveBatchInput, roles=STAFF)
async def exercises_resolve_batch(ctx: ToolContext, input: ResolveBatchInput) -> dict:
    names = [n[:200] for n in input.names]
    results = await exercises.resolve_batch(ctx.session, ctx.org_id, names)
    # Names the library's name/alias match could not settle get the hybrid search's candidates too
    # (other languages, inflections, words from aliases, muscles or equipment, meaning).
    unsettled = [i for i, r in enumerate(results) if r["status"] != "resolved"][:HYBRID_RESOLVE_MAX]
    for i in unsettled:
        ranked = await search_entities(ctx.session, ctx.org_id, names[i], embedder=ctx.embedder, scopes=["exercise"],
                                       per_scope=RESOLVE_CANDIDATES)
        hits = await exercises.exercise_hits(ctx.session, ctx.org_id, ranked["exercise"], query=names[i])
        results[i] = exercises.reconsider(results[i], hits)
    counts = {status: sum(r["status"] == status for r in results) for status in ("resolved", "ambiguous", "unknown")}
    return plain_json({**counts, "results": [{k: v for k, v in r.items() if k != "candidates" or v} for r in results]})


# --- search_anything ------------------------------------------------------------------------------------------

class SearchAnythingInput(BaseModel):
    query: str = Field(min_length=1, max_length=200, description="A name or words from it, e.g. 'Murph'.")
    types: list[EntityType] | None = Field(None, description="Limit to these entity types; default all four.")
    limitPerType: int = Field(5, ge=1, le=10)


class Hit(BaseModel):
    type: EntityType
    id: uuid.UUID
    label: str
    sublabel: str | None = None
    detail: str | None = None


@read_lookup.agent_tool(action="search_anything",
                 summary="Search programs, workouts, exercises and members at once when you do not know what "
                         "kind of thing a name refers to (e.g. 'find Murph'). Hits come grouped by type with ids; "
                         "fetch details with read__lookup_by_id.",
                 input=SearchAnythingInput, roles=STAFF,
                        loaded=True)
async def search_anything(ctx: ToolContext, input: SearchAnythingInput) -> dict:
    q = input.query
    scopes = [t for t in ENTITY_TYPES if t in set(input.types or ENTITY_TYPES)]
    ranked = await search_entities(ctx.session, ctx.org_id, q, embedder=ctx.embedder, scopes=scopes,
                                   per_scope=input.limitPerType)
    groups: dict[str, list[Hit]] = {}
    known = {p.id: p for p in await programs.list_programs(ctx.session, ctx.org_id, include_inactive=True)} \
        if ranked.get("program") or ranked.get("workout") else {}
    if "program" in ranked:
        groups["program"] = [Hit(type="program", id=p.id, label=p.name,
                                 sublabel=p.kind if p.active else f"{p.kind} · inactive")
                             for p in (known[i] for i in ranked["program"] if i in known)]
    if "workout" in ranked:
        groups["workout"] = [Hit(type="workout", id=w.id, label=w.title, sublabel=" · ".join(
            part for part in (w.scheduled_on and w.scheduled_on.isoformat(),
                              known[w.program_id].name if w.program_id in known else None) if part) or None)
            for w in await workouts.workouts_by_ids(ctx.session, ctx.org_id, ranked["workout"])]
    if "exercise" in ranked:
        groups["exercise"] = [Hit(type="exercise", id=e.id, label=e.name,
                                  sublabel=clip(" · ".join([e.category, *e.aliases[:3]])))
                              for e in await _exercise_hits(ctx, ranked["exercise"], q)]
    if "member" in ranked:
        groups["member"] = [Hit(type="member", **member_hit_out(ctx, h).model_dump(include={"id", "label", "sublabel",
                                                                                           "detail"}))
                            for h in await member_search.member_hits(ctx.session, ctx.org_id, ranked["member"])]
    return {"query": q, "total": sum(len(hits) for hits in groups.values()),
            "groups": {kind: [h.model_dump(mode="json", exclude_none=True) for h in hits]
                       for kind, hits in groups.items()}}


# --- lookup_by_id ---------------------------------------------------------------------------------------------

class LookupInput(BaseModel):
    type: LookupType = Field(description="What the id is.")
    id: uuid.UUID = Field(description="The id, e.g. from a search result.")


async def _program(ctx: ToolContext, program_id: uuid.UUID) -> dict:
    program = next((p for p in await programs.list_programs(ctx.session, ctx.org_id, include_inactive=True)
                    if p.id == program_id), None)
    if program is None:
        raise not_found("program", program_id)
    types = await classes.list_class_types(ctx.session, ctx.org_id, program_id=program_id)
    return {"id": program.id, "name": program.name, "kind": program.kind, "description": program.description,
            "active": program.active, "memberCount": program.member_count,
            "classTypes": [{"id": t.id, "name": t.name} for t in types]}


async def _workout(ctx: ToolContext, workout_id: uuid.UUID) -> dict:
    found = await workouts.get_workout(ctx.session, ctx.org_id, workout_id)
    if found is None:
        raise not_found("workout", workout_id)
    w = found.workout
    program = await programs.get_program(ctx.session, ctx.org_id, w.program_id) if w.program_id else None
    return {"id": w.id, "title": w.title, "description": w.description, "scheduledOn": w.scheduled_on,
            "program": {"id": program.id, "name": program.name} if program else None, "format": w.format,
            "text": w.freeform_text, "sections": [
                {"title": s.section.title, "scheme": s.section.scheme, "rounds": s.section.rounds,
                 "notes": s.section.notes, "movements": [
                     {"name": m.name, "exerciseId": m.exercise_id, **m.prescription} for m in s.movements]}
                for s in found.sections]}


async def _exercise(ctx: ToolContext, exercise_id: uuid.UUID) -> dict:
    e = await exercises.get_exercise(ctx.session, ctx.org_id, exercise_id)
    if e is None:
        raise not_found("exercise", exercise_id)
    return {"id": e.id, "name": e.name, "category": e.category, "aliases": e.aliases[:10],
            "equipment": e.equipment, "muscles": e.muscles}


async def _class_session(ctx: ToolContext, session_id: uuid.UUID) -> dict:
    rows = await classes.session_rows(ctx.session, ctx.org_id, [session_id])
    if not rows:
        raise not_found("class_session", session_id)
    s = rows[0]
    starts, ends = s.starts_at.astimezone(ctx.tz), s.ends_at.astimezone(ctx.tz)
    return {"id": s.id, "title": s.title, "classType": {"id": s.class_type_id, "name": s.class_type_name},
            "programId": s.program_id, "date": starts.date(), "start": f"{starts:%H:%M}", "end": f"{ends:%H:%M}",
            "when": local_when(ctx, s.starts_at), "capacity": s.capacity, "booked": s.booked,
            "spotsLeft": max(s.capacity - s.booked, 0),
            "coach": {"id": s.coach_user_id, "name": s.coach_name} if s.coach_user_id else None,
            "published": s.published, "cancelled": s.cancelled_at is not None}


async def _assignment(ctx: ToolContext, assignment_id: uuid.UUID) -> dict:
    a = await assignments.get_assignment(ctx.session, ctx.org_id, assignment_id)
    if a is None:
        raise not_found("assignment", assignment_id)
    workout = await workouts.get_workout(ctx.session, ctx.org_id, a.workout_id)
    member = await members.get_member(ctx.session, ctx.org_id, a.member_id) if a.member_id else None
    program = await programs.get_program(ctx.session, ctx.org_id, a.program_id) if a.program_id else None
    thread = await assignments.comment_thread(ctx.session, ctx.org_id, a.id, coach_user_id=ctx.caller.user_id) or []
    return {"id": a.id, "scheduledOn": a.scheduled_on, "published": a.published,
            "workout": {"id": a.workout_id, "title": workout.workout.title if workout else None},
            "member": {"id": member.id, "name": member.full_name} if member else None,
            "program": {"id": program.id, "name": program.name} if program else None,
            "coachUserId": a.coach_user_id, "comments": len(thread), "unreadComments": sum(bool(c.unread)
                                                                                        for c in thread)}


async def _task(ctx: ToolContext, task_id: uuid.UUID) -> dict:
    t = await tasks.get_task(ctx.session, ctx.org_id, task_id)
    if t is None:
        raise not_found("task", task_id)
    return {"id": t.id, "title": t.title, "status": t.status, "priority": t.priority, "dueOn": t.due_on,
            "notes": t.notes}


async def _member(ctx: ToolContext, member_id: uuid.UUID) -> dict:
    return (await member_detail(ctx, member_id)).model_dump(mode="json", by_alias=True, exclude_none=True)


LOOKUPS = {"member": _member, "program": _program, "workout": _workout, "exercise": _exercise,
           "class_session": _class_session, "assignment": _assignment, "task": _task}


@read_lookup.agent_tool(action="lookup_by_id",
                 summary="Details of one thing by {type, id}: member, program, workout (with sections and "
                         "movements), exercise, class_session, assignment (with comment counts) or task. Use after "
                         "a search when you have an id.",
                 input=LookupInput, roles=STAFF,
                        loaded=True)
async def lookup_by_id(ctx: ToolContext, input: LookupInput) -> dict:
    detail = await LOOKUPS[input.type](ctx, input.id)
    return {"type": input.type, "id": str(input.id), "detail": plain_json(detail)}


# --- workout comments -----------------------------------------------------------------------------------------

class CommentOut(ToolOut):
    id: uuid.UUID
    assignment_id: uuid.UUID
    workout_title: str
    scheduled_on: date
    author: Annotated[str | None, MemberWritten("comment_author")] = Field(
        None, validation_alias=AliasChoices("author_name", "author"))
    by_member: bool = Field(description="True when a member wrote it, false for staff.")
    body: Annotated[str, MemberWritten("workout_comment")]
    at: str
    unread: bool = Field(description="Not yet read by you (the calling coach).")


def _comment(ctx: ToolContext, c: assignments.CommentView) -> CommentOut:
    return CommentOut.model_validate({**asdict(c), "by_member": c.author_member_id is not None,
                                      "body": clip(c.body, 1000) or "", "at": local_when(ctx, c.created_at) or "",
                                      "unread": bool(c.unread)})


COMMENTS = {"comments": {EACH: marks_of(CommentOut)}}  # the comment tools' dicts: where members' words are


class ProgramCommentsInput(BaseModel):
    programId: uuid.UUID = Field(description="Program id from read__programs_list.")
    unreadOnly: bool = Field(False, description="Only comments you (the caller) have not read yet.")
    since: ToolDate | None = Field(None, description="Only comments from this local date (YYYY-MM-DD) on.")
    limit: int = Field(20, ge=1, le=100)


@read_lookup.agent_tool(action="workout_comments_in_program",
                 summary="Recent member comments on workouts in a program, newest first, each flagged unread or "
                         "not for you; `unreadOnly` keeps what you have not read. Mark them read with "
                         "assignments__mark_comments_read.",
                 input=ProgramCommentsInput, roles=STAFF, member_text=COMMENTS)
async def workout_comments_in_program(ctx: ToolContext, input: ProgramCommentsInput) -> dict:
    program = await programs.get_program(ctx.session, ctx.org_id, input.programId)
    if program is None:
        raise not_found("program", input.programId)
    rows = await assignments.comments_in_program(
        ctx.session, ctx.org_id, input.programId, coach_user_id=ctx.caller.user_id, unread_only=input.unreadOnly,
        since=local_midnight(input.since, ctx.tz) if input.since else None, limit=input.limit)
    comments = [_comment(ctx, c) for c in rows or []]
    return {"program": {"id": str(program.id), "name": program.name}, "count": len(comments),
            "unread": sum(c.unread for c in comments),
            "comments": [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in comments]}


class AssignmentCommentsInput(BaseModel):
    assignmentId: uuid.UUID = Field(description="Assignment id (from lookups or comment listings).")


@read_lookup.agent_tool(action="workout_comments_for_assignment",
                 summary="The full comment thread of one assignment (a workout for a member on a date), oldest "
                         "first, each flagged unread or not for you.",
                 input=AssignmentCommentsInput, roles=STAFF, member_text=COMMENTS)
async def workout_comments_for_assignment(ctx: ToolContext, input: AssignmentCommentsInput) -> dict:
    thread = await assignments.comment_thread(ctx.session, ctx.org_id, input.assignmentId,
                                              coach_user_id=ctx.caller.user_id)
    if thread is None:
        raise not_found("assignment", input.assignmentId)
    comments = [_comment(ctx, c) for c in thread[-200:]]
    return {"assignmentId": str(input.assignmentId), "count": len(thread), "unread": sum(c.unread for c in comments),
            "comments": [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in comments]}
