"""read router: searches, lookups and comment threads through the real runner, scoped to one gym."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

import pytest

from gym import assignments, billing, classes, exercises, forms, members, programs, tasks, workouts
from tests import factories
from tests.tools.harness import REGISTRY
from tools.leaves.read import AskUserToPickInput

NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)  # Monday 12:00 in Jerusalem
LAST_VISIT = datetime(2026, 11, 16, 16, 30, tzinfo=UTC)  # Monday 18:30 in Jerusalem, a week before NOW


@dataclass
class Gym:
    org: factories.TestOrg
    owner: factories.TestUser
    coach: factories.TestUser
    coach2: factories.TestUser
    ids: dict[str, uuid.UUID] = field(default_factory=dict)


async def build_gym(db, factory: factories.Factory) -> Gym:
    """Members (two Saars), Dani with a failed payment, programs, a class session, Murph, comments, a task."""
    org = await factory.org(timezone="Asia/Jerusalem")
    gym = Gym(org, await factory.user(org, "owner"), await factory.user(org, "coach", name="Coach One"),
              await factory.user(org, "coach", name="Coach Two"))
    ids = gym.ids
    async with db.scope(org_id=org.id) as s:
        for first, last, email in [("Saar", "Cohen", "saar.cohen@example.test"), ("Saar", "Levi", None),
                                   ("Shira", "Saar", "shira@example.test"),
                                   ("Dani", "Mizrahi", "dani@example.test"), ("Noa", "Peretz", "noa.peretz@example.test")]:
            member = await members.create_member(s, org.id, first_name=first, last_name=last, email=email,
                                                 joined_at=date(2026, 1, 5))
            ids[f"{first} {last}"] = member.id
        dani = ids["Dani Mizrahi"]
        await members.update_member(s, org.id, dani, coach_user_id=gym.coach.id)
        await members.update_member(s, org.id, ids["Noa Peretz"], user_id=gym.coach2.id, status="frozen")
        monthly = await billing.create_plan(s, org.id, name="Unlimited Monthly", price_cents=45000, interval="month")
        pack = await billing.create_plan(s, org.id, name="Ten Pack", price_cents=60000, interval="class_pack")
        sub = await billing.subscribe(s, org.id, member_id=dani, plan_id=monthly.id, started_on=date(2026, 1, 5))
        await billing.subscribe(s, org.id, member_id=ids["Saar Levi"], plan_id=pack.id, started_on=date(2026, 3, 1))
        pay = dict(member_id=dani, subscription_id=sub.id, amount_cents=45000)
        await billing.record_payment(s, org.id, **pay, due_on=date(2026, 10, 5), status="paid",
                                     paid_at=datetime(2026, 10, 5, 6, tzinfo=UTC))
        await billing.record_payment(s, org.id, **pay, due_on=date(2026, 11, 5), status="failed",
                                     attempted_at=datetime(2026, 11, 5, 6, tzinfo=UTC))
        coaching = await programs.create_program(s, org.id, name="Coaching", kind="coaching")
        crossfit = await programs.create_program(s, org.id, name="CrossFit", kind="class")
        ids.update(coaching=coaching.id, crossfit=crossfit.id)
        await programs.enroll_member(s, org.id, coaching.id, dani)
        class_type = await classes.create_class_type(s, org.id, name="CrossFit WOD", program_id=crossfit.id)
        session = await classes.create_session(s, org.id, class_type_id=class_type.id, starts_at=LAST_VISIT,
                                               coach_user_id=gym.coach.id, published=True)
        ids["class_session"] = session.id
        booking = await classes.book(s, org.id, class_session_id=session.id, member_id=ids["Saar Cohen"],
                                     now=datetime(2026, 11, 15, tzinfo=UTC))
        await classes.set_booking_status(s, org.id, booking.id, "attended", now=LAST_VISIT)
        await exercises.install_library(s, org.id)
        ids["exercise"] = (await exercises.search_exercises(s, org.id, "Back Squat", 1))[0].id
        murph = await workouts.create_workout(
            s, org.id, title="Murph", program_id=coaching.id, scheduled_on=date(2026, 11, 20), structure_from_text=True,
            freeform_text="For time: 1 mile run, 100 pull-ups, 200 push-ups, 300 air squats, 1 mile run")
        ids["workout"] = murph.workout.id
        assignment = await assignments.assign_personal(s, org.id, workout_id=murph.workout.id, member_id=dani,
                                                       scheduled_on=date(2026, 11, 20), coach_user_id=gym.coach.id,
                                                       published=True)
        ids["assignment"] = assignment.id
        for key, body, author, at in [("c1", "Legs are toast", {"author_member_id": dani}, 8),
                                      ("c2", "Great job, rest tomorrow", {"author_user_id": gym.coach.id}, 9),
                                      ("c3", "Thanks coach!", {"author_member_id": dani}, 10)]:
            comment = await assignments.add_comment(s, org.id, assignment.id, body=body, **author)
            comment.created_at = datetime(2026, 11, 20, at, tzinfo=UTC)
            ids[key] = comment.id
        ids["task"] = (await tasks.create_task(s, org.id, title="Call Dani about payment", created_by=gym.owner.id)).id
        waiver = await forms.create_form(s, org.id, name="Liability Waiver", type_key="waiver")
        await forms.assign_form(s, org.id, form_id=waiver.id, member_id=dani, now=NOW, due_on=date(2026, 11, 30))
        await s.flush()
    return gym


@pytest.fixture(scope="module")
async def gyms(db, dev_keys) -> tuple[Gym, Gym]:
    """Two gyms built once for the read-only tests: `here` and `there` (for foreign ids)."""
    factory = factories.Factory(db, dev_keys)
    return await build_gym(db, factory), await build_gym(db, factory)


async def run_ok(tools, gym: Gym, name: str, input: dict, user: factories.TestUser | None = None) -> dict:
    return await tools.ok(name, input, org=gym.org, user=user or gym.owner, now=NOW)


VALID = {
    "read__get_current_context": {},
    "read__programs_list": {},
    "read__members_search": {"query": "Saar"},
    "read__members_get": {"memberId": str(uuid.uuid4())},
    "read__exercises_search": {"query": "squat"},
    "read__exercises_resolve_batch": {"names": ["back squat"]},
    "read__search_anything": {"query": "Murph"},
    "read__lookup_by_id": {"type": "task", "id": str(uuid.uuid4())},
    "read__workout_comments_in_program": {"programId": str(uuid.uuid4())},
    "read__workout_comments_for_assignment": {"assignmentId": str(uuid.uuid4())},
}
BAD = {
    "read__programs_list": {"kind": "yoga"},
    "read__members_search": {"query": "Saar", "limit": 0},
    "read__members_get": {"memberId": "not-a-uuid"},
    "read__exercises_search": {"query": ""},
    "read__exercises_resolve_batch": {"names": []},
    "read__search_anything": {"query": "Murph", "types": ["planet"]},
    "read__lookup_by_id": {"type": "planet", "id": str(uuid.uuid4())},
    "read__workout_comments_in_program": {"programId": "12", "since": "yesterday-ish"},
    "read__workout_comments_for_assignment": {},
}


@pytest.mark.parametrize("name", sorted(VALID))
async def test_every_read_tool_is_for_staff_only(tools, gyms, name) -> None:
    """Every staff role sees the read tools; the member role gets neither the tool nor a run."""
    here, _ = gyms
    for role in ("owner", "admin", "coach", "front_desk"):
        assert name in {s.name for s in REGISTRY.for_role(role)}
    assert name not in {s.name for s in REGISTRY.for_role("member")}
    await tools.fails(name, VALID[name], "forbidden_for_role", org=here.org, user=here.owner, role="member")


@pytest.mark.parametrize("name", sorted(BAD))
async def test_bad_input_is_a_validation_failure(tools, gyms, name) -> None:
    here, _ = gyms
    await tools.fails(name, BAD[name], "validation_failed", org=here.org, user=here.owner)


async def test_programs_list_shows_active_programs_with_member_counts(tools, gyms) -> None:
    here, there = gyms
    out = await run_ok(tools, here, "read__programs_list", {}, user=here.coach)
    by_name = {p["name"]: p for p in out["programs"]}
    assert out["count"] == 2 and set(by_name) == {"Coaching", "CrossFit"}
    assert by_name["Coaching"] == {"id": str(here.ids["coaching"]), "name": "Coaching", "kind": "coaching",
                                   "memberCount": 1}
    assert by_name["CrossFit"]["kind"] == "class"
    assert str(there.ids["coaching"]) not in {p["id"] for p in out["programs"]}
    classes_only = await run_ok(tools, here, "read__programs_list", {"kind": "class"})
    assert [p["name"] for p in classes_only["programs"]] == ["CrossFit"]


async def test_saar_search_ranks_both_saars_first_with_picker_ready_labels(tools, gyms) -> None:
    """'Saar' puts Saar Cohen and Saar Levi first; their label/sublabel/detail go straight into the picker."""
    here, there = gyms
    out = await run_ok(tools, here, "read__members_search", {"query": "Saar"}, user=here.coach)
    top = {hit["label"]: hit for hit in out["members"][:2]}
    assert set(top) == {"Saar Cohen", "Saar Levi"}
    assert out["members"][2]["label"] == "Shira Saar"
    cohen, levi = top["Saar Cohen"], top["Saar Levi"]
    assert cohen["id"] == str(here.ids["Saar Cohen"]) and cohen["sublabel"] == "saar.cohen@example.test"
    assert cohen["detail"] == "Last visit 2026-11-16 18:30"  # Jerusalem time, not UTC
    assert levi["sublabel"] == "Ten Pack" and levi["detail"] == "No visits yet"  # no email: the plan
    assert str(there.ids["Saar Cohen"]) not in {hit["id"] for hit in out["members"]}
    picker = AskUserToPickInput.model_validate({"kind": "member", "prompt": "Which Saar?", "candidates": [
        {k: hit[k] for k in ("id", "label", "sublabel", "detail")} for hit in out["members"][:2]]})
    assert [c.label for c in picker.candidates] == [hit["label"] for hit in out["members"][:2]]
    assert "read__ask_user_to_pick" in REGISTRY.get("read__members_search").summary


async def test_members_search_filters_by_email_status_and_role(tools, gyms) -> None:
    here, _ = gyms
    by_email = await run_ok(tools, here, "read__members_search", {"email": "noa.peretz@"})
    assert [h["label"] for h in by_email["members"]] == ["Noa Peretz"]
    assert by_email["members"][0]["detail"].startswith("Frozen · ")
    in_russian = await tools.ok("read__members_search", {"email": "noa.peretz@"}, org=here.org, user=here.owner,
                                now=NOW, locale="ru")
    assert in_russian["members"][0]["detail"].startswith("Заморожен · ")  # the picker card in the reader's words
    frozen = await run_ok(tools, here, "read__members_search", {"status": "frozen"})
    assert [h["label"] for h in frozen["members"]] == ["Noa Peretz"]
    coaches = await run_ok(tools, here, "read__members_search", {"role": "coach"})  # Noa's login is a coach
    assert [h["label"] for h in coaches["members"]] == ["Noa Peretz"]
    plain = await run_ok(tools, here, "read__members_search", {"query": "Saar", "role": "member", "limit": 2})
    assert {h["label"] for h in plain["members"]} == {"Saar Cohen", "Saar Levi"}
    none = await run_ok(tools, here, "read__members_search", {"query": "Saar", "email": "nobody@"})
    assert none == {"count": 0, "members": []}


async def test_members_get_reports_a_failed_overdue_payment(tools, gyms) -> None:
    here, _ = gyms
    out = await run_ok(tools, here, "read__members_get", {"memberId": str(here.ids["Dani Mizrahi"])},
                       user=here.coach)
    assert out["name"] == "Dani Mizrahi" and out["status"] == "active"
    assert out["plan"] == {"id": out["plan"]["id"], "name": "Unlimited Monthly", "interval": "month",
                           "price": "₪450.00"}
    assert out["subscription"]["status"] == "active"
    pay = out["payments"]
    assert pay["state"] == "overdue"
    assert pay["lastPayment"] == {"amount": "₪450.00", "status": "failed", "dueOn": "2026-11-05"}
    assert pay["overdueCount"] == 1 and pay["overdueAmount"] == "₪450.00" and pay["failedLast90Days"] == 1
    assert pay["lastPaidAt"].startswith("2026-10-05 09:00")  # 06:00 UTC in Jerusalem summer time
    assert any("FAILED" in note for note in out["attention"])
    assert [p["name"] for p in out["programs"]] == ["Coaching"]
    assert out["coach"] == {"id": str(here.coach.id), "name": "Coach One"}
    assert out["pendingForms"] == 1 and "lastVisit" not in out


async def test_members_get_of_a_visitor_and_of_another_gym(tools, gyms) -> None:
    here, there = gyms
    cohen = await run_ok(tools, here, "read__members_get", {"memberId": str(here.ids["Saar Cohen"])})
    assert cohen["lastVisit"] == "2026-11-16 18:30 (7 days ago)" and cohen["visitsLast30Days"] == 1
    assert cohen["payments"]["state"] == "none" and cohen["attention"] == []
    await tools.fails("read__members_get", {"memberId": str(there.ids["Saar Cohen"])}, "member_not_found",
                      org=here.org, user=here.owner)
    # the spec's name for the same id (spotter-agent-behavior.md: "Full member detail by membershipId")
    by_spec_name = await run_ok(tools, here, "read__members_get", {"membershipId": str(here.ids["Saar Cohen"])})
    assert by_spec_name == cohen


async def test_exercises_search_and_batch_resolution(tools, gyms) -> None:
    here, _ = gyms
    out = await run_ok(tools, here, "read__exercises_search", {"query": "becnh press", "limit": 3})
    assert out["exercises"][0]["name"] == "Bench Press" and out["count"] <= 3
    squats = await run_ok(tools, here, "read__exercises_search", {"query": "squat", "category": "squat"})
    assert squats["count"] > 1 and {e["category"] for e in squats["exercises"]} == {"squat"}
    batch = await run_ok(tools, here, "read__exercises_resolve_batch",
                         {"names": ["RDL", "T2B", "squat", "zumba dance"]})
    assert (batch["resolved"], batch["ambiguous"], batch["unknown"]) == (2, 1, 1)
    rdl, t2b, squat, zumba = batch["results"]
    assert rdl["status"] == "resolved" and rdl["exerciseName"] == "Romanian Deadlift"
    uuid.UUID(rdl["exerciseId"])
    assert t2b["exerciseName"] == "Toes-to-Bar"
    assert squat["status"] == "ambiguous" and len(squat["candidates"]) >= 2
    assert zumba == {"name": "zumba dance", "status": "unknown"}


async def test_search_anything_groups_hits_by_type(tools, gyms) -> None:
    here, there = gyms
    out = await run_ok(tools, here, "read__search_anything", {"query": "Murph"})
    assert set(out["groups"]) == {"program", "workout", "exercise", "member"}
    murph = out["groups"]["workout"][0]
    assert murph == {"type": "workout", "id": str(here.ids["workout"]), "label": "Murph",
                     "sublabel": "2026-11-20 · Coaching"}
    assert str(there.ids["workout"]) not in {h["id"] for h in out["groups"]["workout"]}
    crossfit = await run_ok(tools, here, "read__search_anything", {"query": "crossfit", "types": ["program"]})
    assert list(crossfit["groups"]) == ["program"]
    assert crossfit["groups"]["program"][0] == {"type": "program", "id": str(here.ids["crossfit"]),
                                                "label": "CrossFit", "sublabel": "class"}
    saar = await run_ok(tools, here, "read__search_anything", {"query": "Saar", "types": ["member", "exercise"]})
    assert {h["label"] for h in saar["groups"]["member"][:2]} == {"Saar Cohen", "Saar Levi"}
    assert saar["total"] == sum(len(hits) for hits in saar["groups"].values())


LOOKUP_KEYS = {"member": "Dani Mizrahi", "program": "coaching", "workout": "workout", "exercise": "exercise",
               "class_session": "class_session", "assignment": "assignment", "task": "task"}


@pytest.mark.parametrize("kind", sorted(LOOKUP_KEYS))
async def test_lookup_by_id_for_each_type_and_foreign_ids(tools, gyms, kind) -> None:
    """Each type resolves in its own gym; the same kind of id from another gym (or nowhere) is not found."""
    here, there = gyms
    out = await run_ok(tools, here, "read__lookup_by_id", {"type": kind, "id": str(here.ids[LOOKUP_KEYS[kind]])})
    detail = out["detail"]
    assert out["type"] == kind and detail["id"] == str(here.ids[LOOKUP_KEYS[kind]])
    expected = {"member": ("name", "Dani Mizrahi"), "program": ("name", "Coaching"), "workout": ("title", "Murph"),
                "exercise": ("name", "Back Squat"), "class_session": ("start", "18:30"),
                "assignment": ("scheduledOn", "2026-11-20"), "task": ("title", "Call Dani about payment")}[kind]
    assert detail[expected[0]] == expected[1]
    for foreign in (there.ids[LOOKUP_KEYS[kind]], uuid.uuid4()):
        await tools.fails("read__lookup_by_id", {"type": kind, "id": str(foreign)}, f"{kind}_not_found",
                          org=here.org, user=here.owner)


async def test_lookup_details_carry_what_matters(tools, gyms) -> None:
    here, _ = gyms
    look = lambda kind, key: run_ok(tools, here, "read__lookup_by_id",  # noqa: E731
                                    {"type": kind, "id": str(here.ids[key])}, user=here.coach)
    workout = (await look("workout", "workout"))["detail"]
    assert workout["program"] == {"id": str(here.ids["coaching"]), "name": "Coaching"}
    movements = [m["name"] for s in workout["sections"] for m in s["movements"]]
    assert "pull-ups" in movements and workout["sections"][0]["movements"][0]["distance_m"] == 1609
    session = (await look("class_session", "class_session"))["detail"]
    assert session["date"] == "2026-11-16" and session["booked"] == 1 and session["coach"]["name"] == "Coach One"
    assignment = (await look("assignment", "assignment"))["detail"]
    assert assignment["workout"]["title"] == "Murph" and assignment["member"]["name"] == "Dani Mizrahi"
    assert assignment["comments"] == 3 and assignment["unreadComments"] == 2  # the coach wrote one of them
    program = (await look("program", "crossfit"))["detail"]
    assert [t["name"] for t in program["classTypes"]] == ["CrossFit WOD"]


async def test_comment_thread_for_an_assignment_is_oldest_first_with_read_state(tools, gyms) -> None:
    here, there = gyms
    out = await run_ok(tools, here, "read__workout_comments_for_assignment",
                       {"assignmentId": str(here.ids["assignment"])}, user=here.coach)
    assert [c["body"] for c in out["comments"]] == ["Legs are toast", "Great job, rest tomorrow", "Thanks coach!"]
    assert [c["unread"] for c in out["comments"]] == [True, False, True]
    assert [c["byMember"] for c in out["comments"]] == [True, False, True]
    assert out["comments"][0]["author"] == "Dani Mizrahi" and out["comments"][0]["at"].startswith("2026-11-20 10:00")
    assert out["count"] == 3 and out["unread"] == 2
    await tools.fails("read__workout_comments_for_assignment", {"assignmentId": str(there.ids["assignment"])},
                      "assignment_not_found", org=here.org, user=here.owner)


async def test_comments_in_program_and_foreign_program(tools, gyms) -> None:
    here, there = gyms
    out = await run_ok(tools, here, "read__workout_comments_in_program", {"programId": str(here.ids["coaching"])},
                       user=here.coach)
    assert out["program"]["name"] == "Coaching" and out["count"] == 3
    assert [c["body"] for c in out["comments"]][0] == "Thanks coach!"  # newest first
    later = await run_ok(tools, here, "read__workout_comments_in_program",
                         {"programId": str(here.ids["coaching"]), "since": "2026-11-21"})
    assert later["count"] == 0
    limited = await run_ok(tools, here, "read__workout_comments_in_program",
                           {"programId": str(here.ids["coaching"]), "limit": 1})
    assert limited["count"] == 1
    await tools.fails("read__workout_comments_in_program", {"programId": str(there.ids["coaching"])},
                      "program_not_found", org=here.org, user=here.owner)


async def test_unread_only_respects_each_coachs_own_read_markers(tools, db, factory) -> None:
    """Coach One reading the thread clears it for Coach One only; Coach Two still sees everything unread."""
    gym = await build_gym(db, factory)
    program = {"programId": str(gym.ids["coaching"]), "unreadOnly": True}
    first = await run_ok(tools, gym, "read__workout_comments_in_program", program, user=gym.coach)
    second = await run_ok(tools, gym, "read__workout_comments_in_program", program, user=gym.coach2)
    assert {c["body"] for c in first["comments"]} == {"Legs are toast", "Thanks coach!"}  # not their own reply
    assert second["count"] == 3
    async with db.scope(org_id=gym.org.id) as s:
        await assignments.mark_comments_read(s, gym.org.id, gym.coach.id, assignment_id=gym.ids["assignment"])
    assert (await run_ok(tools, gym, "read__workout_comments_in_program", program, user=gym.coach))["count"] == 0
    assert (await run_ok(tools, gym, "read__workout_comments_in_program", program, user=gym.coach2))["count"] == 3
    thread = await run_ok(tools, gym, "read__workout_comments_for_assignment",
                          {"assignmentId": str(gym.ids["assignment"])}, user=gym.coach)
    assert thread["unread"] == 0 and thread["count"] == 3
