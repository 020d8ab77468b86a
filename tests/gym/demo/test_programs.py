"""The demo's training data: what it contains, that it links class types, and that a re-seed with the
same inputs writes exactly the same rows."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import text

from gym.assignments import AssignmentFilter, bulk_preview, comments_in_program
from gym.demo.programs import seed_training
from gym.demo.tenancy import demo_id
from gym.exercise_library import LIBRARY
from gym.exercises import resolve_batch
from gym.program_templates import list_templates
from gym.programs import list_programs
from gym.workouts import get_workout, parse_workout_text

TODAY = date(2026, 6, 15)  # Murph (last Monday of May) falls on 2026-05-25
SNAPSHOT = {
    "programs": "SELECT id, name, kind FROM programs",
    "enrollments": "SELECT id, program_id, member_id, status, enrolled_at FROM program_enrollments",
    "exercises": "SELECT id, name, aliases FROM exercises",
    "workouts": "SELECT id, title, scheduled_on, format, freeform_text, program_id FROM workouts",
    "sections": "SELECT id, workout_id, position, scheme, rounds FROM workout_sections",
    "movements": "SELECT id, section_id, position, name, exercise_id, prescription::text FROM workout_movements",
    "assignments": "SELECT id, workout_id, member_id, program_id, scheduled_on, published, coach_user_id "
                   "FROM assignments",
    "comments": "SELECT id, assignment_id, author_member_id, author_user_id, body, created_at FROM workout_comments",
    "markers": "SELECT comment_id, coach_user_id, read_at FROM comment_read_markers",
    "templates": "SELECT id, name, weeks, structure::text, source FROM program_templates",
}


async def _gym(db, factory, members: int = 60):
    org = await factory.org()
    coach, owner = await factory.user(org, "coach"), await factory.user(org, "owner")
    member_ids = [uuid.uuid4() for _ in range(members)]
    crossfit_type, oly_type = uuid.uuid4(), uuid.uuid4()
    starts = datetime(2026, 6, 16, 6, 30, tzinfo=UTC)
    async with db.owner() as session:
        await session.execute(text(
            "INSERT INTO members (id, org_id, first_name, last_name, full_name) VALUES (:i, :o, 'M', :n, :f)"),
            [{"i": m, "o": org.id, "n": str(n), "f": f"Member {n}"} for n, m in enumerate(member_ids)])
        await session.execute(text("INSERT INTO class_types (id, org_id, name) VALUES (:i, :o, :n)"),
                              [{"i": crossfit_type, "o": org.id, "n": "CrossFit"},
                               {"i": uuid.uuid4(), "o": org.id, "n": "Open Gym"},
                               {"i": oly_type, "o": org.id, "n": "Olympic Lifting"}])
        await session.execute(text(
            "INSERT INTO class_sessions (org_id, class_type_id, title, starts_at, ends_at, capacity) "
            "VALUES (:o, :t, 'CrossFit', :s, :e, 16)"),
            [{"o": org.id, "t": t, "s": starts, "e": starts + timedelta(hours=1)} for t in (crossfit_type, oly_type)])
    return org, coach, owner, member_ids


async def _seed(db, org, coach, owner, member_ids, seed: int = 11) -> None:
    async with db.owner() as session:
        await seed_training(session, org_id=org.id, member_ids=member_ids, coach_user_ids=[coach.id, owner.id],
                            rng=random.Random(seed), today=TODAY, scale=None)


async def _snapshot(db, org_id: uuid.UUID) -> dict[str, list[tuple]]:
    async with db.owner() as session:
        return {name: sorted(tuple(row) for row in await session.execute(text(f"{sql} WHERE org_id = :o"),
                                                                          {"o": org_id}))
                for name, sql in SNAPSHOT.items()}


async def test_seed_builds_programs_library_workouts_and_murph(db, factory) -> None:
    org, coach, owner, member_ids = await _gym(db, factory)
    await _seed(db, org, coach, owner, member_ids)
    murph_id = demo_id(str(org.id), "workout", "murph")
    async with db.scope(org_id=org.id) as session:
        programs = {p.name: p for p in await list_programs(session, org.id)}
        murph = await get_workout(session, org.id, murph_id)
        counts = dict((await session.execute(text(
            "SELECT format, count(*) FROM workouts WHERE org_id = :o AND program_id = :p GROUP BY format"),
            {"o": org.id, "p": programs["CrossFit"].id})).all())
        exercises = await session.scalar(text("SELECT count(*) FROM exercises WHERE org_id = :o"), {"o": org.id})
        linked = dict((await session.execute(text(
            "SELECT name, program_id FROM class_types WHERE org_id = :o"), {"o": org.id})).all())
        session_links = sorted((await session.execute(text(
            "SELECT program_id IS NOT NULL FROM class_sessions WHERE org_id = :o"), {"o": org.id})).scalars())
        templates = await list_templates(session, org.id)
    assert {n: (p.kind, p.member_count) for n, p in programs.items()} == {
        "Coaching": ("coaching", 30), "CrossFit": ("class", 0), "Open Gym": ("class", 0), "Daily Feed": ("feed", 60)}
    assert exercises == len(LIBRARY)
    assert murph.workout.title == "Murph" and murph.workout.scheduled_on == date(2026, 5, 25)
    assert murph.workout.format == "structured" and murph.workout.program_id == programs["CrossFit"].id
    assert [(m.name, m.prescription) for m in murph.sections[0].movements] == [
        ("1 mile run", {"distance_m": 1609}), ("pull-ups", {"reps": 100}), ("push-ups", {"reps": 200}),
        ("air squats", {"reps": 300}), ("1 mile run", {"distance_m": 1609})]
    assert all(m.exercise_id is not None for m in murph.sections[0].movements)
    assert sum(counts.values()) == 365 + 14 + 1 and counts["structured"] > 100 and counts["freeform"] > 100
    assert linked == {"CrossFit": programs["CrossFit"].id, "Open Gym": programs["Open Gym"].id,
                      "Olympic Lifting": None}
    assert session_links == [False, True]
    assert sorted((t.name, t.source) for t in templates) == [
        ("4-Week Strength Cycle", "manual"), ("Beginner On-Ramp", "manual"), ("CrossFit — last 4 weeks", "history")]


async def test_seed_leaves_unread_comments_and_next_weeks_drafts(db, factory) -> None:
    org, coach, owner, member_ids = await _gym(db, factory)
    await _seed(db, org, coach, owner, member_ids)
    coaching = demo_id(str(org.id), "program", "coaching")
    async with db.scope(org_id=org.id) as session:
        unread = await comments_in_program(session, org.id, coaching, coach_user_id=coach.id, unread_only=True)
        everything = await comments_in_program(session, org.id, coaching, coach_user_id=coach.id, limit=500)
        next_week = AssignmentFilter(date_from=TODAY + timedelta(days=7 - TODAY.weekday()),
                                     date_to=TODAY + timedelta(days=13 - TODAY.weekday()), published=False)
        drafts = await bulk_preview(session, org.id, next_week)
        published_past = await bulk_preview(session, org.id, AssignmentFilter(
            date_from=TODAY - timedelta(days=7), date_to=TODAY, published=False))
    assert 0 < len(unread) < len(everything)
    assert all(c.created_at.date() >= TODAY - timedelta(days=3) for c in unread)
    assert drafts.count > 0 and {r.program_id for r in drafts.sample} - {None}
    assert published_past.count == 0


async def test_reseeding_with_the_same_inputs_writes_the_same_rows(db, factory) -> None:
    org, coach, owner, member_ids = await _gym(db, factory)
    await _seed(db, org, coach, owner, member_ids)
    first = await _snapshot(db, org.id)
    await _seed(db, org, coach, owner, member_ids)
    second = await _snapshot(db, org.id)
    assert all(first[name] for name in SNAPSHOT)
    assert first == second
    await _seed(db, org, coach, owner, member_ids, seed=12)
    assert (await _snapshot(db, org.id))["assignments"] != first["assignments"]


async def test_freeform_wods_parse_back_into_movements_that_all_resolve(db, factory) -> None:
    """The demo's whiteboard text is what parse_workout_text and resolve_batch are built for."""
    org, coach, owner, member_ids = await _gym(db, factory, members=10)
    await _seed(db, org, coach, owner, member_ids)
    async with db.scope(org_id=org.id) as session:
        texts = (await session.execute(text(
            "SELECT freeform_text FROM workouts WHERE org_id = :o AND program_id = :p AND format = 'freeform'"),
            {"o": org.id, "p": demo_id(str(org.id), "program", "crossfit")})).scalars().all()
        parsed = [parse_workout_text(t) for t in texts]
        names = sorted({m.name for sections in parsed for s in sections for m in s.movements})
        results = await resolve_batch(session, org.id, names)
    assert len(texts) > 100 and all(sections and sections[-1].scheme for sections in parsed)
    assert [r["name"] for r in results if r["status"] != "resolved"] == []
