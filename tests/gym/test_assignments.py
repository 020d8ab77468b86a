"""Assignments: personal assignments, bulk preview/publish/delete touching exactly the previewed set,
comments with per-coach unread state, and marking them read."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import text

from gym import assignments
from gym.assignments import AssignmentFilter
from gym.errors import GymError
from gym.programs import create_program
from gym.workouts import create_workout

MONDAY = date(2026, 6, 1)


async def _member(db, org_id: uuid.UUID, name: str) -> uuid.UUID:
    member_id = uuid.uuid4()
    first, last = name.split(" ", 1)
    async with db.owner() as session:
        await session.execute(text(
            "INSERT INTO members (id, org_id, first_name, last_name, full_name) VALUES (:i, :o, :f, :l, :n)"),
            {"i": member_id, "o": org_id, "f": first, "l": last, "n": name})
    return member_id


async def _gym(db, factory):
    org = await factory.org()
    coach = await factory.user(org, "coach")
    other_coach = await factory.user(org, "coach")
    members = [await _member(db, org.id, n) for n in ("Saar Cohen", "Saar Levi", "Dani Mizrahi")]
    async with db.scope(org_id=org.id) as session:
        coaching = await create_program(session, org.id, name="Coaching", kind="coaching")
        crossfit = await create_program(session, org.id, name="CrossFit", kind="class")
        workout = await create_workout(session, org.id, title="Strength A", program_id=coaching.id,
                                       freeform_text="5x5 back squat")
    return org, coach, other_coach, members, coaching, crossfit, workout.workout


async def test_assign_personal_defaults_program_and_validates_refs(db, factory) -> None:
    org, coach, _, members, coaching, _, workout = await _gym(db, factory)
    stranger = await _member(db, (await factory.org()).id, "Out Sider")
    async with db.scope(org_id=org.id) as session:
        a = await assignments.assign_personal(session, org.id, workout_id=workout.id, member_id=members[0],
                                              scheduled_on=MONDAY, coach_user_id=coach.id)
        created = (a.program_id, a.published, a.coach_user_id)
        with pytest.raises(GymError) as foreign_member:
            await assignments.assign_personal(session, org.id, workout_id=workout.id, member_id=stranger,
                                              scheduled_on=MONDAY)
        with pytest.raises(GymError) as no_workout:
            await assignments.assign_personal(session, org.id, workout_id=uuid.uuid4(), member_id=members[0],
                                              scheduled_on=MONDAY)
        moved = await assignments.update_assignment(session, org.id, a.id, {"scheduled_on": MONDAY + timedelta(1)})
        published = await assignments.set_published(session, org.id, a.id, True)
        await assignments.soft_delete_assignment(session, org.id, a.id, datetime.now(UTC))
        assert await assignments.get_assignment(session, org.id, a.id) is None
    assert created == (coaching.id, False, coach.id)
    assert moved.scheduled_on == MONDAY + timedelta(1) and published.published is True
    assert (foreign_member.value.code, no_workout.value.code) == ("member_not_found", "workout_not_found")


async def test_bulk_preview_publish_and_delete_touch_the_same_set(db, factory) -> None:
    org, coach, _, members, coaching, crossfit, workout = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        week = [MONDAY + timedelta(days=i) for i in range(7)]
        targets = set()
        for day in week:
            targets.add((await assignments.assign_to_program(session, org.id, workout_id=workout.id,
                                                             program_id=crossfit.id, scheduled_on=day)).id)
        # Not hit: already published, outside the week, another program, deleted.
        await assignments.assign_to_program(session, org.id, workout_id=workout.id, program_id=crossfit.id,
                                            scheduled_on=MONDAY, published=True)
        await assignments.assign_to_program(session, org.id, workout_id=workout.id, program_id=crossfit.id,
                                            scheduled_on=MONDAY + timedelta(days=7))
        await assignments.assign_personal(session, org.id, workout_id=workout.id, member_id=members[0],
                                          scheduled_on=MONDAY)
        gone = await assignments.assign_to_program(session, org.id, workout_id=workout.id, program_id=crossfit.id,
                                                   scheduled_on=MONDAY)
        await assignments.soft_delete_assignment(session, org.id, gone.id, datetime.now(UTC))

        unpublished = AssignmentFilter(date_from=week[0], date_to=week[-1], program_id=crossfit.id, published=False)
        preview = await assignments.bulk_preview(session, org.id, unpublished, sample_size=3)
        published = await assignments.bulk_publish(session, org.id, unpublished,
                                                   expected_fingerprint=preview.fingerprint)
        after = await assignments.bulk_preview(session, org.id, unpublished)

        week_filter = AssignmentFilter(date_from=week[1], date_to=week[-1], program_id=crossfit.id)
        to_delete = await assignments.bulk_preview(session, org.id, week_filter)
        deleted = await assignments.bulk_delete(session, org.id, week_filter, datetime.now(UTC),
                                                expected_ids=to_delete.ids)
        remaining = await assignments.bulk_preview(session, org.id, week_filter)
    assert set(preview.ids) == targets == set(published.ids) and preview.count == 7
    assert len(preview.sample) == 3 and preview.sample[0].workout_title == "Strength A"
    assert after.count == 0
    assert set(to_delete.ids) == set(deleted.ids) and deleted.count == 6  # Tuesday..Sunday
    assert remaining.count == 0


async def test_bulk_refuses_a_stale_preview_and_a_filter_without_scope(db, factory) -> None:
    org, _, _, _, _, crossfit, workout = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        await assignments.assign_to_program(session, org.id, workout_id=workout.id, program_id=crossfit.id,
                                            scheduled_on=MONDAY)
        flt = AssignmentFilter(date_from=MONDAY, date_to=MONDAY)
        preview = await assignments.bulk_preview(session, org.id, flt)
        late = await assignments.assign_to_program(session, org.id, workout_id=workout.id, program_id=crossfit.id,
                                                   scheduled_on=MONDAY)
        with pytest.raises(GymError) as stale:
            await assignments.bulk_publish(session, org.id, flt, expected_ids=preview.ids)
        with pytest.raises(GymError) as stale_fp:
            await assignments.bulk_delete(session, org.id, flt, datetime.now(UTC),
                                          expected_fingerprint=preview.fingerprint)
        with pytest.raises(GymError) as broad:
            await assignments.bulk_preview(session, org.id, AssignmentFilter(published=False))
        untouched = await assignments.get_assignment(session, org.id, late.id)
    assert stale.value.code == stale_fp.value.code == "stale_preview"
    assert broad.value.code == "filter_too_broad"
    assert untouched is not None and untouched.published is False


async def test_unread_comments_are_per_coach_and_marking_read_clears_them(db, factory) -> None:
    org, coach, other_coach, members, coaching, crossfit, workout = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        saar = await assignments.assign_personal(session, org.id, workout_id=workout.id, member_id=members[0],
                                                 scheduled_on=MONDAY, coach_user_id=coach.id)
        dani = await assignments.assign_personal(session, org.id, workout_id=workout.id, member_id=members[2],
                                                 scheduled_on=MONDAY, coach_user_id=coach.id)
        c1 = await assignments.add_comment(session, org.id, saar.id, body="Squats felt heavy",
                                           author_member_id=members[0])
        reply = await assignments.add_comment(session, org.id, saar.id, body="Drop to 70% next time",
                                              author_user_id=coach.id)
        c2 = await assignments.add_comment(session, org.id, dani.id, body="Done!", author_member_id=members[2])
        unread = await assignments.comments_in_program(session, org.id, coaching.id, coach_user_id=coach.id,
                                                       unread_only=True)
        marked = await assignments.mark_comments_read(session, org.id, coach.id, assignment_id=saar.id)
        unread_after = await assignments.comments_in_program(session, org.id, coaching.id,
                                                             coach_user_id=coach.id, unread_only=True)
        other_unread = await assignments.comments_in_program(session, org.id, coaching.id,
                                                             coach_user_id=other_coach.id, unread_only=True)
        everything = await assignments.comments_in_program(session, org.id, coaching.id)
        thread = await assignments.comment_thread(session, org.id, saar.id, coach_user_id=coach.id)
        nothing_in_class = await assignments.comments_in_program(session, org.id, crossfit.id)
        again = await assignments.mark_comments_read(session, org.id, coach.id, program_id=coaching.id)
        with pytest.raises(GymError):
            await assignments.mark_comments_read(session, org.id, coach.id)
    assert {c.id for c in unread} == {c1.id, c2.id}  # the coach's own reply is never unread for them
    assert marked == 2  # both comments on Saar's assignment, including the reply
    assert [c.id for c in unread_after] == [c2.id]
    assert {c.id for c in other_unread} == {c1.id, reply.id, c2.id}
    assert len(everything) == 3 and all(c.unread is None for c in everything)
    assert [(c.body, c.author_name, c.unread) for c in thread] == [
        ("Squats felt heavy", "Saar Cohen", False), ("Drop to 70% next time", "Test Person", False)]
    assert nothing_in_class == [] and again == 1


async def test_comments_of_a_missing_program_or_assignment_are_none(db, factory) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        assert await assignments.comments_in_program(session, org.id, uuid.uuid4()) is None
        assert await assignments.comment_thread(session, org.id, uuid.uuid4()) is None
        assert await assignments.add_comment(session, org.id, uuid.uuid4(), body="x") is None
