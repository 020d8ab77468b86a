"""analytics tools: every number equals a hand count over a small fixed gym in Asia/Jerusalem, plus the
role, cross-org and bad-input checks every tool gets.

The gym (NOW = Monday 23 Nov 2026, 12:00 local; Jerusalem is UTC+2 in November, UTC+3 until 25 Oct):
  members  Ada   active    joined 2026-11-03  Unlimited (started 11-03)  coach Carmel
           Ben   active    joined 2026-11-10  8-Class Pack (11-10)       never visits
           Cy    active    joined 2026-06-01  Unlimited (06-01)          coach Carmel, last visit 1 Oct
           Dov   frozen    joined 2026-03-01  8-Class Pack, paused
           Eli   cancelled joined 2025-12-01  Unlimited, cancelled 16 Nov 00:30 local   coach Carmel
           Fay   lead      joined 2026-11-20
  plans    Unlimited ₪450.00/month, 8-Class Pack ₪320.00/class pack
  payments P1 Ada ₪450 paid 3 Nov 10:00      P2 Ben ₪320 paid 10 Nov 10:00
           P3 Cy  ₪450 paid 1 Nov 00:30 local (31 Oct 22:30 UTC)  -> November
           P4 Cy  ₪450 paid 1 Oct 09:00      P5 Eli ₪450 paid 31 Oct 23:30 local -> October
           P6 Eli ₪450 failed 2 Nov 08:00 (never recovered)
  classes  S0 CrossFit  Thu 1 Oct 07:00, cap 10, Carmel: Cy attended
           S1 CrossFit  Thu 12 Nov 07:00, cap 10, Carmel: Ada attended, Ben no-show
           S2 CrossFit  Thu 19 Nov 07:00, cap 10, Carmel: Ada attended, Cy cancelled
           S3 Open Gym  Fri 20 Nov 18:00, cap 4, no coach: Ada attended
           S4 Open Gym  Thu 26 Nov 18:00, cap 4, Olga (owner): Ada booked, Ben booked
           S5 CrossFit  Sat 21 Nov 07:00, Carmel, cancelled (no bookings)
  workouts W1 Murph (Coaching, structured, created 5 Nov): Run, Pull-up, Push-up, Air Squat, Run, Vest walk
           W2 Fran (CrossFit, structured, dated 12 Nov, created 20 Oct): Thruster, Pull-up
           W3 Easy row (Coaching, freeform, created 1 Oct), assigned to Ada 14 Nov (A1, no coach)
           W4 Old (Coaching, freeform, dated 3 Oct, created 2 Oct)   W5 Gone (created 6 Nov, deleted)
           A2 W1 -> Cy 16 Nov coach Carmel; A3 W1 -> Ada 2 Dec coach Carmel
  comments A1: Ada (unread by Carmel, Ada's coach); A2: Cy (marked read), Carmel's own reply; A3: Ada (unread)
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update

from gym import assignments, billing, classes, exercises, members, programs, workouts
from gym.workouts import MovementIn, SectionIn, Workout
from tests import factories
from tests.tools.harness import REGISTRY, roles_of

TZ = "Asia/Jerusalem"
NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)
ACTIONS = ("revenue_summary", "revenue_trend", "plan_distribution", "coach_overview", "members_summary",
           "members_growth", "at_risk_members", "members_activation", "popular_classes", "class_utilization",
           "org_insights", "workouts_summary")
ALL_ROLES = ("owner", "admin", "coach", "front_desk", "member")


def local(*args: int) -> datetime:
    return datetime(*args, tzinfo=ZoneInfo(TZ))


@dataclass
class Gym:
    org: factories.TestOrg
    users: dict[str, factories.TestUser]
    ids: dict[str, uuid.UUID] = field(default_factory=dict)


async def _build(db, factory: factories.Factory) -> Gym:
    org = await factory.org(timezone=TZ)
    gym = Gym(org, {
        "owner": await factory.user(org, "owner", name="Olga Owner"),
        "admin": await factory.user(org, "admin", name="Adam Admin"),
        "coach": await factory.user(org, "coach", name="Carmel Coach"),
        "coach2": await factory.user(org, "coach", name="Zohar Coach"),
        "front_desk": await factory.user(org, "front_desk"),
        "member": await factory.user(org, "member"),
    })
    carmel, olga = gym.users["coach"].id, gym.users["owner"].id
    ids = gym.ids
    async with db.scope(org_id=org.id) as s:
        unlimited = await billing.create_plan(s, org.id, name="Unlimited", price_cents=45000, interval="month")
        pack = await billing.create_plan(s, org.id, name="8-Class Pack", price_cents=32000, interval="class_pack")
        ids.update(unlimited=unlimited.id, pack=pack.id)
        subs = {}
        for name, status, joined, plan, sub_status, coach in (
                ("Ada", "active", date(2026, 11, 3), unlimited, "active", carmel),
                ("Ben", "active", date(2026, 11, 10), pack, "active", None),
                ("Cy", "active", date(2026, 6, 1), unlimited, "active", carmel),
                ("Dov", "frozen", date(2026, 3, 1), pack, "paused", None),
                ("Eli", "cancelled", date(2025, 12, 1), unlimited, "cancelled", carmel),
                ("Fay", "lead", date(2026, 11, 20), None, None, None)):
            member = await members.create_member(s, org.id, first_name=name, last_name="Test", status=status,
                                                 joined_at=joined, coach_user_id=coach)
            ids[name] = member.id
            if plan is not None:
                subs[name] = await billing.subscribe(s, org.id, member_id=member.id, plan_id=plan.id,
                                                     started_on=joined, status=sub_status)
        subs["Eli"].cancelled_at = local(2026, 11, 16, 0, 30)  # Sunday 22:30 UTC, Monday in Jerusalem

        async def pay(name: str, cents: int, at: datetime, status: str = "paid") -> None:
            await billing.record_payment(s, org.id, member_id=ids[name], subscription_id=subs[name].id,
                                         amount_cents=cents, due_on=at.date(), status=status,
                                         paid_at=at if status == "paid" else None, attempted_at=at)

        await pay("Ada", 45000, local(2026, 11, 3, 10))
        await pay("Ben", 32000, local(2026, 11, 10, 10))
        await pay("Cy", 45000, local(2026, 11, 1, 0, 30))
        await pay("Cy", 45000, local(2026, 10, 1, 9))
        await pay("Eli", 45000, local(2026, 10, 31, 23, 30))
        await pay("Eli", 45000, local(2026, 11, 2, 8), status="failed")

        crossfit = await classes.create_class_type(s, org.id, name="CrossFit", default_capacity=10)
        open_gym = await classes.create_class_type(s, org.id, name="Open Gym", default_capacity=4)
        ids.update(crossfit_type=crossfit.id, open_gym_type=open_gym.id)

        async def session(kind, at: datetime, coach: uuid.UUID | None, visits: dict[str, str]):
            row = await classes.create_session(s, org.id, class_type_id=kind.id, starts_at=at, coach_user_id=coach,
                                               published=True)
            for name, status in visits.items():
                booking = await classes.book(s, org.id, class_session_id=row.id, member_id=ids[name],
                                             now=at - timedelta(days=1))
                if status != "booked":
                    await classes.set_booking_status(s, org.id, booking.id, status, now=at + timedelta(minutes=5))
            return row

        await session(crossfit, local(2026, 10, 1, 7), carmel, {"Cy": "attended"})
        await session(crossfit, local(2026, 11, 12, 7), carmel, {"Ada": "attended", "Ben": "no_show"})
        await session(crossfit, local(2026, 11, 19, 7), carmel, {"Ada": "attended", "Cy": "cancelled"})
        await session(open_gym, local(2026, 11, 20, 18), None, {"Ada": "attended"})
        await session(open_gym, local(2026, 11, 26, 18), olga, {"Ada": "booked", "Ben": "booked"})
        cancelled = await session(crossfit, local(2026, 11, 21, 7), carmel, {})
        await classes.cancel_session(s, org.id, cancelled.id, NOW)

        coaching = await programs.create_program(s, org.id, name="Coaching", kind="coaching")
        crossfit_program = await programs.create_program(s, org.id, name="CrossFit", kind="class")
        ids.update(coaching=coaching.id, crossfit_program=crossfit_program.id)
        lib = {name: (await exercises.create_exercise(s, org.id, name=name, category=category)).id
               for name, category in (("Run", "monostructural"), ("Pull-up", "pull"), ("Push-up", "press"),
                                      ("Air Squat", "squat"), ("Thruster", "squat"))}

        def moves(*names: str) -> list[SectionIn]:
            return [SectionIn(movements=[MovementIn(name=n, exercise_id=lib.get(n)) for n in names])]

        async def workout(title: str, created: datetime, program: uuid.UUID, **kw) -> uuid.UUID:
            detail = await workouts.create_workout(s, org.id, title=title, program_id=program, **kw)
            await s.execute(update(Workout).where(Workout.id == detail.workout.id).values(created_at=created))
            return detail.workout.id

        murph = await workout("Murph", local(2026, 11, 5, 9), coaching.id,
                              sections=moves("Run", "Pull-up", "Push-up", "Air Squat", "Run", "Vest walk"))
        await workout("Fran", local(2026, 10, 20, 9), crossfit_program.id, scheduled_on=date(2026, 11, 12),
                      sections=moves("Thruster", "Pull-up"))
        row = await workout("Easy row", local(2026, 10, 1, 9), coaching.id, freeform_text="20 min easy row")
        await workout("Old", local(2026, 10, 2, 9), coaching.id, scheduled_on=date(2026, 10, 3), freeform_text="x")
        gone = await workout("Gone", local(2026, 11, 6, 9), coaching.id, freeform_text="y")
        await workouts.soft_delete_workout(s, org.id, gone, NOW)

        a1 = await assignments.assign_personal(s, org.id, workout_id=row, member_id=ids["Ada"],
                                               scheduled_on=date(2026, 11, 14))
        a2 = await assignments.assign_personal(s, org.id, workout_id=murph, member_id=ids["Cy"],
                                               scheduled_on=date(2026, 11, 16), coach_user_id=carmel)
        a3 = await assignments.assign_personal(s, org.id, workout_id=murph, member_id=ids["Ada"],
                                               scheduled_on=date(2026, 12, 2), coach_user_id=carmel)
        await assignments.add_comment(s, org.id, a1.id, body="felt good", author_member_id=ids["Ada"])
        await assignments.add_comment(s, org.id, a2.id, body="legs gone", author_member_id=ids["Cy"])
        await assignments.mark_comments_read(s, org.id, carmel, assignment_id=a2.id, now=NOW)
        await assignments.add_comment(s, org.id, a2.id, body="rest tomorrow", author_user_id=carmel)
        await assignments.add_comment(s, org.id, a3.id, body="can I scale?", author_member_id=ids["Ada"])
    return gym


@pytest.fixture(scope="module")
async def gym(db, dev_keys) -> Gym:
    """Built once: every analytics tool only reads."""
    return await _build(db, factories.Factory(db, dev_keys))


@pytest.fixture(scope="module")
async def other(db, dev_keys) -> Gym:
    """A second gym with its own class type, program and staff, for cross-org ids."""
    factory = factories.Factory(db, dev_keys)
    org = await factory.org(timezone="Europe/London")
    theirs = Gym(org, {"owner": await factory.user(org, "owner")})
    async with db.scope(org_id=org.id) as s:
        theirs.ids["class_type"] = (await classes.create_class_type(s, org.id, name="Spin")).id
        theirs.ids["program"] = (await programs.create_program(s, org.id, name="Theirs", kind="class")).id
    return theirs


async def run(tools, gym: Gym, action: str, input: dict | None = None, role: str = "owner") -> dict:
    return await tools.ok(f"analytics__{action}", input or {}, org=gym.org, user=gym.users[role], role=role, now=NOW)


# --- revenue ----------------------------------------------------------------------------------------------

async def test_revenue_summary_this_month_by_local_payment_time(tools, gym) -> None:
    out = await run(tools, gym, "revenue_summary")
    assert out["period"] == {"label": "this_month", "from": "2026-11-01", "to": "2026-11-30", "timezone": TZ}
    assert out["currency"] == "ILS"
    # P1 45000 + P2 32000 + P3 45000 (00:30 on 1 Nov local) = 122000
    assert out["revenue"] == {"cents": 122000, "display": "₪1,220.00"}
    assert (out["payments"], out["payingMembers"]) == (3, 3)
    assert out["averagePerMember"] == {"cents": 40667, "display": "₪406.67"}  # 122000 / 3 = 40666.67, half-up
    assert out["refunded"]["cents"] == 0
    assert (out["failedAttempts"], out["failedAmount"]["cents"]) == (1, 45000)  # P6


async def test_revenue_summary_last_month_and_the_midnight_edges(tools, gym) -> None:
    october = await run(tools, gym, "revenue_summary", {"period": "last_month"})
    # P4 45000 + P5 45000 (23:30 on 31 Oct local stays in October) = 90000
    assert (october["revenue"]["cents"], october["payments"]) == (90000, 2)
    assert (october["period"]["from"], october["period"]["to"]) == ("2026-10-01", "2026-10-31")
    last_day = await run(tools, gym, "revenue_summary", {"from": "2026-10-31", "to": "2026-10-31"})
    first_day = await run(tools, gym, "revenue_summary", {"from": "2026-11-01", "to": "2026-11-01"})
    assert (last_day["revenue"]["cents"], last_day["payments"]) == (45000, 1)  # P5 only
    assert (first_day["revenue"]["cents"], first_day["payments"]) == (45000, 1)  # P3 only
    assert last_day["period"]["label"] == "2026-10-31..2026-10-31"


async def test_revenue_trend_by_month_and_zero_filled_days(tools, gym) -> None:
    out = await run(tools, gym, "revenue_trend", {"from": "2026-10-01", "to": "2026-11-30", "bucket": "month"})
    assert [(p["start"], p["revenue"]["cents"], p["payments"]) for p in out["points"]] == [
        ("2026-10-01", 90000, 2), ("2026-11-01", 122000, 3)]
    assert out["total"] == {"cents": 212000, "display": "₪2,120.00"}
    week = await run(tools, gym, "revenue_trend", {"period": "this_week"})  # Mon 23 - Sun 29 Nov: nothing paid
    assert week["bucket"] == "day" and len(week["points"]) == 7
    assert week["total"] == {"cents": 0, "display": "₪0.00"}  # currency from the plans when nothing was paid


async def test_revenue_trend_refuses_too_many_points(tools, gym) -> None:
    error = await tools.fails("analytics__revenue_trend", {"period": "this_year", "bucket": "day"},
                              "too_many_points", org=gym.org, user=gym.users["owner"], now=NOW)
    assert "coarser" in error["hint"]


async def test_plan_distribution_counts_live_subscriptions_and_new_ones(tools, gym) -> None:
    out = await run(tools, gym, "plan_distribution", role="admin")
    assert (out["activeSubscriptions"], out["startedInPeriod"], out["count"]) == (3, 2, 2)
    unlimited, pack = out["plans"]
    # Unlimited: Ada + Cy active (Eli cancelled) -> 2 of 3 = 66.7 %, 2 x 45000 a month; Ada started in Nov
    assert (unlimited["name"], unlimited["activeSubscriptions"], unlimited["pausedSubscriptions"]) == ("Unlimited", 2, 0)
    assert (unlimited["sharePct"], unlimited["monthlyValue"]["cents"], unlimited["startedInPeriod"]) == (66.7, 90000, 1)
    assert unlimited["price"] == {"cents": 45000, "display": "₪450.00"}
    # Pack: Ben active, Dov paused -> 1 of 3 = 33.3 %, 1 x 32000; Ben started in Nov
    assert (pack["activeSubscriptions"], pack["pausedSubscriptions"], pack["sharePct"]) == (1, 1, 33.3)
    assert (pack["monthlyValue"]["cents"], pack["startedInPeriod"]) == (32000, 1)


# --- coaches ----------------------------------------------------------------------------------------------

async def test_coach_overview_per_coach(tools, gym) -> None:
    out = await run(tools, gym, "coach_overview")
    by_name = {c["name"]: c for c in out["coaches"]}
    assert [c["name"] for c in out["coaches"]] == ["Carmel Coach", "Olga Owner", "Zohar Coach"]
    assert out["count"] == 3
    carmel = by_name["Carmel Coach"]
    assert carmel["members"] == 2  # Ada, Cy (Eli is cancelled)
    assert carmel["sessions"] == 2  # S1, S2 (S5 cancelled, S0 in October)
    assert (carmel["visits"], carmel["noShows"], carmel["avgVisitsPerSession"]) == (2, 1, 1.0)
    assert carmel["assignments"] == 1  # A2 (A3 is in December, A1 has no coach)
    assert carmel["unreadComments"] == 2  # A1 via Ada's coach + A3; A2's is read, the reply is her own
    olga = by_name["Olga Owner"]  # coaches S4 only
    assert (olga["members"], olga["sessions"], olga["visits"], olga["unreadComments"]) == (0, 1, 0, 0)
    assert by_name["Zohar Coach"]["sessions"] == 0


async def test_coach_overview_for_one_staff_member(tools, gym, other) -> None:
    out = await run(tools, gym, "coach_overview", {"coachUserId": str(gym.users["admin"].id)})
    assert (out["count"], out["coaches"][0]["name"], out["coaches"][0]["sessions"]) == (1, "Adam Admin", 0)
    for stranger in (other.users["owner"].id, gym.users["member"].id, uuid.uuid4()):
        await tools.fails("analytics__coach_overview", {"coachUserId": str(stranger)}, "coach_not_found",
                          org=gym.org, user=gym.users["owner"], now=NOW)


# --- members ----------------------------------------------------------------------------------------------

async def test_members_summary(tools, gym) -> None:
    out = await run(tools, gym, "members_summary", role="coach")
    assert out["total"] == 6
    assert out["byStatus"] == {"lead": 1, "active": 3, "frozen": 1, "cancelled": 1}
    assert (out["joined"], out["churned"]) == (2, 1)  # Ada, Ben joined (Fay is a lead); Eli cancelled
    assert (out["atRisk"], out["atRiskDays"]) == (1, 21)  # Cy
    week = await run(tools, gym, "members_summary", {"atRiskDays": 7})
    assert week["atRisk"] == 2  # Cy, and Ben (never visited, joined 13 days ago)


async def test_members_growth_buckets_by_local_week(tools, gym) -> None:
    out = await run(tools, gym, "members_growth")
    assert out["bucket"] == "week"  # 30 days -> weeks starting Monday
    assert [(p["start"], p["joined"], p["churned"], p["net"]) for p in out["points"]] == [
        ("2026-10-26", 0, 0, 0), ("2026-11-02", 1, 0, 1),  # Ada, 3 Nov
        ("2026-11-09", 1, 0, 1),  # Ben, 10 Nov
        ("2026-11-16", 0, 1, -1),  # Eli at 00:30 Monday local (still Sunday in UTC)
        ("2026-11-23", 0, 0, 0), ("2026-11-30", 0, 0, 0)]
    assert (out["joined"], out["churned"], out["net"]) == (2, 1, 1)


async def test_at_risk_members_threshold_and_order(tools, gym) -> None:
    out = await run(tools, gym, "at_risk_members", role="coach")
    assert (out["asOf"], out["days"], out["count"]) == ("2026-11-23", 21, 1)
    (cy,) = out["members"]
    assert (cy["name"], cy["lastVisitOn"], cy["plan"], cy["coach"]) == ("Cy Test", "2026-10-01", "Unlimited",
                                                                         "Carmel Coach")
    assert cy["daysSinceLastVisit"] == 53  # 1 Oct 04:05 UTC -> 23 Nov 10:00 UTC
    week = await run(tools, gym, "at_risk_members", {"days": 7, "limit": 1})
    assert week["count"] == 2 and [m["name"] for m in week["members"]] == ["Ben Test"]  # never visited first
    assert "lastVisitOn" not in week["members"][0]


async def test_members_activation(tools, gym) -> None:
    out = await run(tools, gym, "members_activation")
    # joined in Nov: Ada (first visit 12 Nov, 9 days after joining), Ben (never) -> 1 of 2
    assert (out["joined"], out["activated"], out["notActivated"], out["activationRatePct"]) == (2, 1, 1, 50.0)
    strict = await run(tools, gym, "members_activation", {"withinDays": 7})
    assert (strict["activated"], strict["activationRatePct"], strict["withinDays"]) == (0, 0.0, 7)


# --- classes ----------------------------------------------------------------------------------------------

async def test_popular_classes_by_type_and_slot(tools, gym) -> None:
    out = await run(tools, gym, "popular_classes", role="coach")
    assert out["count"] == 2
    assert [(c["name"], c["sessions"], c["visits"], c["avgVisits"]) for c in out["classes"]] == [
        ("CrossFit", 2, 2, 1.0),  # S1, S2 (S5 cancelled)
        ("Open Gym", 2, 1, 0.5)]  # S3 visit, S4 still ahead
    slots = await run(tools, gym, "popular_classes", {"by": "slot", "limit": 2})
    assert slots["count"] == 3
    assert [(c["name"], c["weekday"], c["time"], c["visits"]) for c in slots["classes"]] == [
        ("CrossFit", "thursday", "07:00", 2), ("Open Gym", "friday", "18:00", 1)]


async def test_class_utilization(tools, gym) -> None:
    out = await run(tools, gym, "class_utilization")
    # CrossFit: S1 (Ada) + S2 (Ada) = 2 of 10 + 10; Open Gym: S3 (Ada) + S4 (Ada, Ben) = 3 of 4 + 4
    assert (out["sessions"], out["capacity"], out["filled"], out["utilizationPct"]) == (4, 28, 5, 17.9)
    assert [(t["name"], t["filled"], t["capacity"], t["utilizationPct"]) for t in out["classTypes"]] == [
        ("Open Gym", 3, 8, 37.5), ("CrossFit", 2, 20, 10.0)]
    only = await run(tools, gym, "class_utilization", {"classTypeId": str(gym.ids["crossfit_type"]),
                                                        "period": "last_month"})
    assert (only["sessions"], only["filled"], only["utilizationPct"]) == (1, 1, 10.0)  # S0: Cy


# --- dashboard and workouts -------------------------------------------------------------------------------

async def test_org_insights_for_owner_compares_revenue_to_date(tools, gym) -> None:
    out = await run(tools, gym, "org_insights")
    assert out["members"] == {"active": 3, "frozen": 1, "joined": 2, "churned": 1, "atRisk": 1, "atRiskDays": 21}
    # S1-S4 held: visits Ada x3, one no-show (Ben, S1); 3 / 4 sessions; 1 / (3 + 1) no-show rate
    assert out["attendance"] == {"visits": 3, "uniqueMembers": 1, "sessions": 4, "noShows": 1,
                                 "avgVisitsPerSession": 0.75, "noShowRatePct": 25.0}
    revenue = out["revenue"]
    assert revenue["basis"] == "to_date"
    assert (revenue["current"]["from"], revenue["current"]["to"]) == ("2026-11-01", "2026-11-23")
    assert (revenue["previous"]["from"], revenue["previous"]["to"]) == ("2026-10-01", "2026-10-23")
    # 1-23 Nov: 122000; 1-23 Oct: P4 45000 (P5 is 31 Oct); (122000 - 45000) / 45000 = 171.1 %
    assert (revenue["revenue"]["cents"], revenue["previousRevenue"]["cents"], revenue["changePct"]) == (
        122000, 45000, 171.1)
    assert out["failedPayments"] == {"count": 1, "amount": {"cents": 45000, "display": "₪450.00"},
                                     "recovered": 0, "unrecovered": 1}
    assert "note" not in out


async def test_org_insights_full_period_and_for_a_coach(tools, gym) -> None:
    october = await run(tools, gym, "org_insights", {"period": "last_month"}, role="admin")
    revenue = october["revenue"]
    assert (revenue["basis"], revenue["previous"]["from"], revenue["previous"]["to"]) == (
        "full_period", "2026-09-01", "2026-09-30")
    assert (revenue["revenue"]["cents"], revenue["previousRevenue"]["cents"]) == (90000, 0)
    assert "changePct" not in revenue  # no September revenue to compare with
    assert october["attendance"]["visits"] == 1 and october["members"]["joined"] == 0  # S0: Cy
    coach = await run(tools, gym, "org_insights", role="coach")
    assert "revenue" not in coach and "failedPayments" not in coach
    assert "owners and admins" in coach["note"]
    assert coach["members"]["active"] == 3


async def test_workouts_summary(tools, gym) -> None:
    out = await run(tools, gym, "workouts_summary", role="coach")
    # Murph (created 5 Nov, assigned 16 Nov), Fran (dated 12 Nov), Easy row (assigned 14 Nov);
    # Old is October and Gone is deleted
    assert out["totals"] == {"workouts": 3, "created": 1, "scheduled": 3, "structured": 2, "freeform": 1,
                             "assignments": 2}
    assert out["programCount"] == 2
    coaching, crossfit = out["programs"]
    assert (coaching["name"], coaching["workouts"], coaching["created"], coaching["scheduled"],
            coaching["structured"], coaching["freeform"], coaching["assignments"]) == ("Coaching", 2, 1, 2, 1, 1, 2)
    assert (crossfit["name"], crossfit["workouts"], crossfit["scheduled"], crossfit["assignments"]) == (
        "CrossFit", 1, 1, 0)
    # Pull-up in Murph and Fran; Run twice in Murph; the rest once, by name
    assert out["exerciseCount"] == 6
    assert [(e["name"], e["workouts"], e["uses"]) for e in out["topExercises"]] == [
        ("Pull-up", 2, 2), ("Run", 1, 2), ("Air Squat", 1, 1), ("Push-up", 1, 1), ("Thruster", 1, 1),
        ("Vest walk", 1, 1)]
    assert "exerciseId" not in out["topExercises"][-1]  # an unresolved movement
    fran_only = await run(tools, gym, "workouts_summary", {"programId": str(gym.ids["crossfit_program"]),
                                                            "limit": 1})
    assert fran_only["totals"]["workouts"] == 1 and fran_only["exerciseCount"] == 2
    assert [e["name"] for e in fran_only["topExercises"]] == ["Pull-up"]


# --- generic checks ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("action", ACTIONS)
async def test_allowed_roles_succeed_and_others_are_refused(tools, gym, action: str) -> None:
    name = f"analytics__{action}"
    allowed = roles_of(name)
    assert REGISTRY.get(name).side_effects == "read" and REGISTRY.get(name).confirm == "never"
    for role in ALL_ROLES:
        if role in allowed:
            out = await run(tools, gym, action, role=role)
            assert "period" in out or "asOf" in out
        else:
            assert name not in {s.name for s in REGISTRY.for_role(role)}
            await tools.fails(name, {}, "forbidden_for_role", org=gym.org, user=gym.users[role], role=role, now=NOW)
    expected = {"owner", "admin"} if action in ("revenue_summary", "revenue_trend", "plan_distribution",
                                                "coach_overview") else {"owner", "admin", "coach"}
    assert allowed == expected


@pytest.mark.parametrize("action", [a for a in ACTIONS if a != "at_risk_members"])
async def test_bad_periods_are_validation_failures(tools, gym, action: str) -> None:
    for bad in ({"period": "next_decade"}, {"from": "2026-11-30", "to": "2026-11-01"}, {"from": "30/11/2026"},
                {"from": "2000-01-01", "to": "2026-01-01"}):
        await tools.fails(f"analytics__{action}", bad, "validation_failed", org=gym.org, user=gym.users["owner"],
                          now=NOW)


@pytest.mark.parametrize(("action", "bad"), [
    ("at_risk_members", {"days": 0}), ("at_risk_members", {"limit": 500}), ("revenue_trend", {"bucket": "hour"}),
    ("members_growth", {"bucket": "year"}), ("popular_classes", {"by": "coach"}),
    ("class_utilization", {"classTypeId": "not-a-uuid"}), ("coach_overview", {"coachUserId": 7}),
    ("workouts_summary", {"limit": 0}), ("members_activation", {"withinDays": -1}),
    ("members_summary", {"atRiskDays": 0}), ("org_insights", {"atRiskDays": 1000}),
    ("plan_distribution", {"limit": 0}), ("revenue_summary", {"period": 3})])
async def test_bad_fields_are_validation_failures(tools, gym, action: str, bad: dict) -> None:
    await tools.fails(f"analytics__{action}", bad, "validation_failed", org=gym.org, user=gym.users["owner"], now=NOW)


@pytest.mark.parametrize(("action", "field", "key", "code"), [
    ("class_utilization", "classTypeId", "class_type", "class_type_not_found"),
    ("workouts_summary", "programId", "program", "program_not_found")])
async def test_ids_from_another_gym_are_not_found(tools, gym, other, action, field, key, code) -> None:
    await tools.fails(f"analytics__{action}", {field: str(other.ids[key])}, code, org=gym.org,
                      user=gym.users["owner"], now=NOW)
    await tools.fails(f"analytics__{action}", {field: str(uuid.uuid4())}, code, org=gym.org,
                      user=gym.users["owner"], now=NOW)


async def test_another_gym_sees_none_of_these_numbers(tools, other) -> None:
    """The same tools in another org count only that org's rows (empty here)."""
    revenue = await run(tools, other, "revenue_summary")
    assert (revenue["revenue"]["cents"], revenue["payments"], revenue["failedAttempts"]) == (0, 0, 0)
    assert revenue["period"]["timezone"] == "Europe/London"
    people = await run(tools, other, "members_summary")
    assert people["total"] == 0
    coaches = await run(tools, other, "coach_overview")
    assert coaches["count"] == 0
