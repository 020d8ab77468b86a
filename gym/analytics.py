"""Analytics that no single domain service owns: the org dashboard, coach overview, workouts summary.

Revenue, attendance and member numbers come from gym.billing, gym.attendance and gym.member_analytics; this module
adds the cross-entity queries and the period arithmetic (previous period, to-date comparison, bucket
size). Every number is counted in SQL; Python only arranges the results.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from gym import attendance, billing, member_analytics
from gym.periods import Period, Tz, day_range, local_today

# --- periods ----------------------------------------------------------------------------------------------


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def previous_period(period: Period, tz: Tz) -> Period:
    """The period of the same shape just before: whole months shift by months (a quarter by a quarter),
    anything else by its own number of days (a week by a week)."""
    first, after = period.first_day, period.last_day + timedelta(days=1)
    if first.day == 1 and after.day == 1:
        months = (after.year - first.year) * 12 + after.month - first.month
        start = _add_months(first, -months)
    else:
        start = first - (after - first)
    last = first - timedelta(days=1)
    return day_range(start, last, tz, f"{start.isoformat()}..{last.isoformat()}")


def comparison_windows(period: Period, tz: Tz, now: datetime) -> tuple[Period, Period, str]:
    """(current, previous, basis) for a period-over-period comparison.

    A period still in progress is compared to date: its days so far against the same number of days
    from the start of the previous period ("Nov 1-23 vs Oct 1-23"), not against a whole previous period.
    """
    before = previous_period(period, tz)
    today = local_today(tz, now)
    if not period.first_day <= today < period.last_day:
        return period, before, "full_period"
    elapsed = today - period.first_day
    current = day_range(period.first_day, today, tz, f"{period.first_day.isoformat()}..{today.isoformat()}")
    last = min(before.first_day + elapsed, before.last_day)
    return current, day_range(before.first_day, last, tz, f"{before.first_day.isoformat()}..{last.isoformat()}"), \
        "to_date"


def auto_bucket(period: Period) -> str:
    """day for up to two weeks, week for up to a quarter, month beyond."""
    days = (period.last_day - period.first_day).days + 1
    return "day" if days <= 14 else "week" if days <= 92 else "month"


def percent_change(current: int, previous: int) -> float | None:
    """Change from `previous` to `current` in percent (one decimal); None when there is nothing to compare to."""
    if not previous:
        return None
    return round((current - previous) * 100 / previous, 1)


async def default_currency(session: AsyncSession, org_id: uuid.UUID) -> str | None:
    """The currency most of the gym's plans are priced in (for labelling zero amounts)."""
    return await session.scalar(
        select(billing.MembershipPlan.currency).where(billing.MembershipPlan.org_id == org_id)
        .group_by(billing.MembershipPlan.currency).order_by(func.count().desc(), billing.MembershipPlan.currency)
        .limit(1))


# --- plans ------------------------------------------------------------------------------------------------

async def plan_distribution(session: AsyncSession, org_id: uuid.UUID, period: Period) -> dict[str, Any]:
    """billing.plan_distribution (current mix) plus how many subscriptions each plan started in the period."""
    mix = await billing.plan_distribution(session, org_id)
    sub = billing.MemberSubscription
    started = dict((await session.execute(
        select(sub.plan_id, func.count()).where(sub.org_id == org_id,
                                                sub.started_on.between(period.first_day, period.last_day))
        .group_by(sub.plan_id))).all())
    for plan in mix["plans"]:
        plan["started_in_period"] = started.get(plan["plan_id"], 0)
    return {**mix, "started_in_period": sum(started.values())}


# --- coaches ----------------------------------------------------------------------------------------------

COACH_OVERVIEW_SQL = """
WITH coach AS (
    SELECT user_id FROM memberships
    WHERE org_id = :org AND status = 'active'
      AND (role = 'coach' OR (role <> 'member' AND user_id = CAST(:only AS uuid)))
    UNION SELECT coach_user_id FROM members
    WHERE org_id = :org AND deleted_at IS NULL AND status IN ('active', 'frozen') AND coach_user_id IS NOT NULL
    UNION SELECT coach_user_id FROM class_sessions
    WHERE org_id = :org AND coach_user_id IS NOT NULL AND cancelled_at IS NULL
      AND starts_at >= :start AND starts_at < :end
    UNION SELECT coach_user_id FROM assignments
    WHERE org_id = :org AND deleted_at IS NULL AND coach_user_id IS NOT NULL
      AND scheduled_on BETWEEN :first AND :last
),
coached AS (
    SELECT coach_user_id AS user_id, count(*) AS members FROM members
    WHERE org_id = :org AND deleted_at IS NULL AND status IN ('active', 'frozen')
    GROUP BY coach_user_id
),
taught AS (
    SELECT s.coach_user_id AS user_id, count(DISTINCT s.id) AS sessions,
           count(b.id) FILTER (WHERE b.status = 'attended') AS visits,
           count(b.id) FILTER (WHERE b.status = 'no_show') AS no_shows
    FROM class_sessions s LEFT JOIN bookings b ON b.session_id = s.id AND b.org_id = s.org_id
    WHERE s.org_id = :org AND s.cancelled_at IS NULL AND s.starts_at >= :start AND s.starts_at < :end
    GROUP BY s.coach_user_id
),
assigned AS (
    SELECT coach_user_id AS user_id, count(*) AS assignments FROM assignments
    WHERE org_id = :org AND deleted_at IS NULL AND scheduled_on BETWEEN :first AND :last
    GROUP BY coach_user_id
),
concerns AS (  -- comments a coach should read: on assignments they coach, or of members they coach
    SELECT a.coach_user_id AS user_id, c.id, c.author_user_id
    FROM workout_comments c JOIN assignments a ON a.id = c.assignment_id AND a.org_id = c.org_id
    WHERE c.org_id = :org AND a.deleted_at IS NULL AND a.coach_user_id IS NOT NULL
    UNION
    SELECT m.coach_user_id, c.id, c.author_user_id
    FROM workout_comments c JOIN assignments a ON a.id = c.assignment_id AND a.org_id = c.org_id
    JOIN members m ON m.id = a.member_id AND m.org_id = a.org_id
    WHERE c.org_id = :org AND a.deleted_at IS NULL AND m.coach_user_id IS NOT NULL
),
unread AS (
    SELECT k.user_id, count(*) AS unread FROM concerns k
    WHERE k.author_user_id IS DISTINCT FROM k.user_id AND NOT EXISTS (
        SELECT 1 FROM comment_read_markers r WHERE r.comment_id = k.id AND r.coach_user_id = k.user_id)
    GROUP BY k.user_id
)
SELECT coach.user_id, u.name, u.email,
       COALESCE(coached.members, 0) AS members, COALESCE(taught.sessions, 0) AS sessions,
       COALESCE(taught.visits, 0) AS visits, COALESCE(taught.no_shows, 0) AS no_shows,
       COALESCE(assigned.assignments, 0) AS assignments, COALESCE(unread.unread, 0) AS unread_comments,
       count(*) OVER () AS total
FROM coach JOIN users u ON u.id = coach.user_id
LEFT JOIN coached ON coached.user_id = coach.user_id
LEFT JOIN taught ON taught.user_id = coach.user_id
LEFT JOIN assigned ON assigned.user_id = coach.user_id
LEFT JOIN unread ON unread.user_id = coach.user_id
WHERE CAST(:only AS uuid) IS NULL OR coach.user_id = CAST(:only AS uuid)
ORDER BY sessions DESC, members DESC, assignments DESC, u.name, coach.user_id
LIMIT :limit
"""


async def coach_overview(session: AsyncSession, org_id: uuid.UUID, period: Period, *,
                         coach_user_id: uuid.UUID | None = None, limit: int = 10) -> dict[str, Any]:
    """Per coach: current members coached (active or frozen), sessions coached in the period (not cancelled)
    with visits and no-shows in them, assignments scheduled in the period, and comments unread now.

    Coaches are staff with the coach role plus anyone who coaches a member, a session or an assignment in
    the period. With `coach_user_id`, only that staff member (an empty list when they are not staff here).
    """
    rows = (await session.execute(text(COACH_OVERVIEW_SQL), {
        "org": org_id, "only": coach_user_id, "start": period.start, "end": period.end,
        "first": period.first_day, "last": period.last_day, "limit": limit})).all()
    return {"period": period.as_dict(), "count": rows[0].total if rows else 0, "coaches": [
        {"user_id": r.user_id, "name": r.name, "email": r.email, "members": r.members, "sessions": r.sessions,
         "visits": r.visits, "no_shows": r.no_shows,
         "avg_visits_per_session": round(r.visits / r.sessions, 2) if r.sessions else 0.0,
         "assignments": r.assignments, "unread_comments": r.unread_comments} for r in rows]}


# --- workouts ---------------------------------------------------------------------------------------------

# Live workouts "in" the period: created in it, or scheduled in it (their own date or a live assignment).
WORKOUTS_IN_PERIOD = """
WITH flagged AS (
    SELECT w.id, w.program_id, w.format,
           w.created_at >= :start AND w.created_at < :end AS created_in,
           COALESCE(w.scheduled_on BETWEEN :first AND :last, false) OR EXISTS (
               SELECT 1 FROM assignments a WHERE a.org_id = w.org_id AND a.workout_id = w.id
                 AND a.deleted_at IS NULL AND a.scheduled_on BETWEEN :first AND :last) AS scheduled_in
    FROM workouts w
    WHERE w.org_id = :org AND w.deleted_at IS NULL
      AND (CAST(:program AS uuid) IS NULL OR w.program_id = CAST(:program AS uuid))
),
picked AS (SELECT * FROM flagged WHERE created_in OR scheduled_in)
"""

PER_PROGRAM_SQL = WORKOUTS_IN_PERIOD + """,
counted AS (
    SELECT program_id, created_in::int AS created, scheduled_in::int AS scheduled,
           (format = 'structured')::int AS structured, (format = 'freeform')::int AS freeform,
           1 AS workouts, 0 AS assignments
    FROM picked
    UNION ALL
    SELECT a.program_id, 0, 0, 0, 0, 0, 1
    FROM assignments a JOIN workouts w ON w.id = a.workout_id AND w.org_id = a.org_id AND w.deleted_at IS NULL
    WHERE a.org_id = :org AND a.deleted_at IS NULL AND a.scheduled_on BETWEEN :first AND :last
      AND (CAST(:program AS uuid) IS NULL OR a.program_id = CAST(:program AS uuid))
)
SELECT GROUPING(counted.program_id) = 1 AS is_total, counted.program_id, max(p.name) AS program_name,
       sum(created) AS created, sum(scheduled) AS scheduled, sum(structured) AS structured,
       sum(freeform) AS freeform, sum(workouts) AS workouts, sum(assignments) AS assignments,
       count(*) OVER () - 1 AS programs
FROM counted LEFT JOIN programs p ON p.id = counted.program_id AND p.org_id = :org
GROUP BY GROUPING SETS ((counted.program_id), ())
ORDER BY is_total DESC, workouts DESC, assignments DESC, program_name NULLS LAST
LIMIT :limit + 1
"""

EXERCISES_SQL = WORKOUTS_IN_PERIOD + """
SELECT m.exercise_id, COALESCE(e.name, mode() WITHIN GROUP (ORDER BY m.name)) AS name, count(DISTINCT picked.id) AS workouts,
       count(*) AS uses, count(*) OVER () AS total
FROM picked
JOIN workout_sections s ON s.workout_id = picked.id AND s.org_id = :org
JOIN workout_movements m ON m.section_id = s.id AND m.org_id = :org
LEFT JOIN exercises e ON e.id = m.exercise_id AND e.org_id = :org
GROUP BY m.exercise_id, e.name, CASE WHEN m.exercise_id IS NULL THEN lower(m.name) END
ORDER BY workouts DESC, uses DESC, name
LIMIT :limit
"""

COUNT_KEYS = ("created", "scheduled", "structured", "freeform", "workouts", "assignments")


async def workouts_summary(session: AsyncSession, org_id: uuid.UUID, period: Period, *,
                           program_id: uuid.UUID | None = None, limit: int = 10) -> dict[str, Any]:
    """Live workouts created or scheduled in the period (scheduled: their own date or an assignment in it),
    per program with structured vs freeform and assignments, and the most-used exercises in them.

    Movements that name no library exercise are grouped by their written name (case-insensitive) and shown
    in their most common spelling.
    """
    params = {"org": org_id, "program": program_id, "start": period.start, "end": period.end,
              "first": period.first_day, "last": period.last_day, "limit": limit}
    rows = (await session.execute(text(PER_PROGRAM_SQL), params)).all()
    totals = next((r for r in rows if r.is_total), None)
    programs = [{"program_id": r.program_id, "name": r.program_name,
                 **{key: int(getattr(r, key)) for key in COUNT_KEYS}} for r in rows if not r.is_total]
    exercises = (await session.execute(text(EXERCISES_SQL), params)).all()
    return {
        "period": period.as_dict(),
        "totals": {key: int(getattr(totals, key)) if totals else 0 for key in COUNT_KEYS},
        "program_count": totals.programs if totals else 0, "programs": programs,
        "exercise_count": exercises[0].total if exercises else 0,
        "top_exercises": [{"exercise_id": r.exercise_id, "name": r.name, "workouts": r.workouts, "uses": r.uses}
                          for r in exercises],
    }


# --- the dashboard ----------------------------------------------------------------------------------------

async def org_insights(session: AsyncSession, org_id: uuid.UUID, period: Period, tz: Tz, now: datetime, *,
                       include_money: bool = True, at_risk_days: int = 21) -> dict[str, Any]:
    """Headline numbers for one period: members (active now, joined, churned, at risk), attendance, and, when
    `include_money`, paid revenue against the previous period (to date while the period runs) and failed
    payments."""
    people = await member_analytics.members_summary(session, org_id, period, now, at_risk_days=at_risk_days)
    visits = await attendance.attendance_summary(session, org_id, period.start, period.end)
    out: dict[str, Any] = {
        "period": period.as_dict(),
        "members": {"active": people["by_status"]["active"], "frozen": people["by_status"]["frozen"],
                    "joined": people["joined"], "churned": people["cancelled"], "at_risk": people["at_risk"],
                    "at_risk_days": at_risk_days},
        "attendance": {key: visits[key] for key in ("visits", "unique_members", "sessions", "no_shows",
                                                          "avg_visits_per_session", "no_show_rate")},
    }
    if include_money:
        current, before, basis = comparison_windows(period, tz, now)
        now_revenue = await billing.revenue_summary(session, org_id, current.start, current.end)
        then_revenue = await billing.revenue_summary(session, org_id, before.start, before.end)
        failed = await billing.failed_payments(session, org_id, period.start, period.end, limit=0)
        out["revenue"] = {
            "currency": now_revenue["currency"] or then_revenue["currency"] or await default_currency(session, org_id),
            "basis": basis, "current": current.as_dict(), "previous": before.as_dict(),
            "current_cents": now_revenue["total_cents"], "previous_cents": then_revenue["total_cents"],
            "change_pct": percent_change(now_revenue["total_cents"], then_revenue["total_cents"]),
        }
        out["failed_payments"] = {"count": failed["count"], "amount_cents": failed["amount_cents"],
                                  "recovered": failed["recovered"], "unrecovered": failed["count"] - failed["recovered"]}
    return out
