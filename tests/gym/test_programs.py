"""Programs: listing with member counts, patching, soft delete, and the enrollment rules."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from gym import programs
from gym.errors import GymError


async def _member(db, org_id: uuid.UUID, name: str = "Saar Cohen") -> uuid.UUID:
    member_id = uuid.uuid4()
    first, last = name.split(" ", 1)
    async with db.owner() as session:
        await session.execute(text(
            "INSERT INTO members (id, org_id, first_name, last_name, full_name) VALUES (:i, :o, :f, :l, :n)"),
            {"i": member_id, "o": org_id, "f": first, "l": last, "n": name})
    return member_id


async def test_list_counts_active_enrollments_and_hides_deleted_programs(db, factory) -> None:
    org = await factory.org()
    a, b = await _member(db, org.id), await _member(db, org.id, "Dani Mizrahi")
    async with db.scope(org_id=org.id) as session:
        coaching = await programs.create_program(session, org.id, name="Coaching", kind="coaching")
        crossfit = await programs.create_program(session, org.id, name="CrossFit", kind="class")
        gone = await programs.create_program(session, org.id, name="Old Feed", kind="feed")
        await programs.enroll_member(session, org.id, coaching.id, a)
        await programs.enroll_member(session, org.id, coaching.id, b)
        await programs.end_enrollment(session, org.id, coaching.id, b, datetime.now(UTC))
        await programs.soft_delete_program(session, org.id, gone.id, datetime.now(UTC))
        listed = await programs.list_programs(session, org.id)
        assert await programs.get_program(session, org.id, gone.id) is None
    assert [(p.name, p.kind, p.member_count) for p in listed] == [("Coaching", "coaching", 1),
                                                                 ("CrossFit", "class", 0)]
    assert crossfit.id in {p.id for p in listed}


async def test_class_programs_refuse_enrollment(db, factory) -> None:
    org = await factory.org()
    member = await _member(db, org.id)
    async with db.scope(org_id=org.id) as session:
        crossfit = await programs.create_program(session, org.id, name="CrossFit", kind="class")
        with pytest.raises(GymError) as refused:
            await programs.enroll_member(session, org.id, crossfit.id, member)
    assert refused.value.code == "program_not_enrollable" and refused.value.hint


async def test_double_enrollment_is_refused_but_an_ended_one_reactivates(db, factory) -> None:
    org = await factory.org()
    member = await _member(db, org.id)
    async with db.scope(org_id=org.id) as session:
        feed = await programs.create_program(session, org.id, name="Daily Feed", kind="feed")
        first = await programs.enroll_member(session, org.id, feed.id, member)
        with pytest.raises(GymError) as again:
            await programs.enroll_member(session, org.id, feed.id, member)
        await programs.end_enrollment(session, org.id, feed.id, member, datetime.now(UTC))
        back = await programs.enroll_member(session, org.id, feed.id, member)
        assert await programs.member_program_ids(session, org.id, member) == [feed.id]
    assert again.value.code == "already_enrolled"
    assert back.id == first.id and back.status == "active" and back.ended_at is None


async def test_enrolling_another_orgs_member_or_into_a_missing_program_fails(db, factory) -> None:
    org, other = await factory.org(), await factory.org()
    stranger = await _member(db, other.id)
    async with db.scope(org_id=org.id) as session:
        coaching = await programs.create_program(session, org.id, name="Coaching", kind="coaching")
        with pytest.raises(GymError) as unknown:
            await programs.enroll_member(session, org.id, coaching.id, stranger)
        assert await programs.enroll_member(session, org.id, uuid.uuid4(), stranger) is None
    assert unknown.value.code == "member_not_found"


async def test_update_patches_fields_and_guards_kind_changes(db, factory) -> None:
    org = await factory.org()
    member = await _member(db, org.id)
    async with db.scope(org_id=org.id) as session:
        coaching = await programs.create_program(session, org.id, name="Coaching", kind="coaching")
        await programs.enroll_member(session, org.id, coaching.id, member)
        renamed = await programs.update_program(session, org.id, coaching.id,
                                                {"name": "Personal Coaching", "description": "1-on-1"})
        with pytest.raises(GymError) as to_class:
            await programs.update_program(session, org.id, coaching.id, {"kind": "class"})
        with pytest.raises(GymError) as bad_field:
            await programs.update_program(session, org.id, coaching.id, {"org_id": uuid.uuid4()})
        with pytest.raises(GymError):
            await programs.create_program(session, org.id, name="X", kind="bootcamp")
        assert await programs.update_program(session, org.id, uuid.uuid4(), {"name": "x"}) is None
    assert renamed.name == "Personal Coaching" and renamed.kind == "coaching"
    assert to_class.value.code == "program_has_enrollments" and bad_field.value.code == "invalid_field"


async def test_another_orgs_program_is_invisible(db, factory) -> None:
    org, other = await factory.org(), await factory.org()
    async with db.scope(org_id=org.id) as session:
        mine = await programs.create_program(session, org.id, name="CrossFit", kind="class")
    async with db.scope(org_id=other.id) as session:
        assert await programs.get_program(session, other.id, mine.id) is None
        assert await programs.list_programs(session, other.id) == []


async def test_search_programs_by_approximate_name(db, factory) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        for name, kind in (("CrossFit", "class"), ("Open Gym", "class"), ("Daily Feed", "feed")):
            await programs.create_program(session, org.id, name=name, kind=kind)
        found = [p.name for p in await programs.search_programs(session, org.id, "crosfit")]
        gym = [p.name for p in await programs.search_programs(session, org.id, "open")]
    assert found[0] == "CrossFit" and gym == ["Open Gym"]
