"""Generates one demo org's rows from its spec (gym/demo/specs.py) and COPYs them out in chunks.

All randomness comes from the org's `random.Random`, all dates are relative to the reference date."""

from __future__ import annotations

import random
import uuid
from bisect import bisect
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from itertools import accumulate

from sqlalchemy.ext.asyncio import AsyncSession

from gym.demo.specs import HARBOR_MEMBERS, NORTHSIDE_MEMBERS, NOTES, OrgSpec, PlanSpec
from gym.demo.tenancy import HARBOR, demo_id

# Child tables first: the order rows are deleted in (and the reverse of the order they are written in).
TABLES = ("form_assignments", "forms", "bookings", "class_sessions", "class_types", "payments",
          "member_subscriptions", "membership_plans", "members")
COLUMNS = {
    "members": ("id", "org_id", "first_name", "last_name", "full_name", "email", "phone", "status", "joined_at",
                "coach_user_id", "user_id", "notes", "created_at", "updated_at"),
    "membership_plans": ("id", "org_id", "name", "price_cents", "currency", "interval", "active", "created_at"),
    "member_subscriptions": ("id", "org_id", "member_id", "plan_id", "status", "started_on", "ends_on",
                             "cancelled_at", "created_at"),
    "payments": ("id", "org_id", "member_id", "subscription_id", "amount_cents", "currency", "status", "due_on",
                 "paid_at", "created_at"),
    "class_types": ("id", "org_id", "name", "default_duration_min", "default_capacity", "color", "created_at"),
    "class_sessions": ("id", "org_id", "class_type_id", "title", "starts_at", "ends_at", "capacity", "coach_user_id",
                       "published", "cancelled_at", "created_by", "created_at"),
    "bookings": ("id", "org_id", "session_id", "member_id", "status", "booked_at", "checked_in_at"),
    "forms": ("id", "org_id", "name", "type_key", "active", "created_at"),
    "form_assignments": ("id", "org_id", "form_id", "member_id", "status", "assigned_at", "due_on", "completed_at"),
}
HISTORY_DAYS = 365
AHEAD_DAYS = 14
BOOKABLE_AHEAD_DAYS = 7  # sessions in the first week ahead are published and booked; the second week is a draft


def serial_ids(*parts: str) -> Callable[[int], uuid.UUID]:
    """Cheap deterministic ids for bulk rows: a uuid5 whose last 48 bits are replaced by a counter."""
    base = demo_id(*parts).int & ~((1 << 48) - 1)
    return lambda n: uuid.UUID(int=base | n)


@dataclass
class _Member:
    id: uuid.UUID
    status: str
    joined: date
    plan: PlanSpec | None
    attend_from: date
    attend_to: date  # inclusive
    visits_per_week: float
    part: int  # preferred time of day: 0 morning, 1 midday, 2 evening
    type_weights: list[float]
    overdue: bool = False
    pending_forms: tuple[str, ...] | None = None  # None: random; a tuple: exactly these are pending
    changed_plan: PlanSpec | None = None  # previous plan, if the member switched
    switched_on: date | None = None


@dataclass
class Sink:
    """Buffers rows per table and COPYs them out, parents before children, whenever a buffer fills up."""

    session: AsyncSession
    chunk: int = 20_000
    rows: dict[str, list[tuple]] = field(default_factory=lambda: defaultdict(list))
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, table: str, row: tuple) -> None:
        self.rows[table].append(row)

    async def spill(self) -> None:
        """Flush once any buffer holds a chunk (called between units of work, not per row)."""
        if any(len(rows) >= self.chunk for rows in self.rows.values()):
            await self.flush()

    async def flush(self) -> None:
        connection = (await (await self.session.connection()).get_raw_connection()).driver_connection
        assert connection is not None, "a session on an open asyncpg connection"
        for table in reversed(TABLES):
            rows = self.rows.pop(table, None)
            if rows:
                await connection.copy_records_to_table(table, records=rows, columns=COLUMNS[table])
                self.counts[table] += len(rows)


class OrgBuilder:
    """Generates one org's rows into a sink; all randomness from `rng`, all dates relative to `today`."""

    def __init__(self, spec: OrgSpec, count: int, rng: random.Random, today: date, sink: Sink) -> None:
        self.spec, self.count, self.rng, self.today, self.sink = spec, count, rng, today, sink
        self.org_id = spec.org.id
        self.tz = spec.tz
        self.first_day = today - timedelta(days=HISTORY_DAYS)
        self.copies = max(1, round(count / (HARBOR_MEMBERS if spec.org is HARBOR else NORTHSIDE_MEMBERS)))
        self.plan_ids = {p.key: demo_id("plan", spec.org.slug, p.key) for p in spec.plans}
        self.type_ids = {t.key: demo_id("class_type", spec.org.slug, t.key) for t in spec.types}
        self.form_ids = {key: demo_id("form", spec.org.slug, key) for key, _, _ in spec.forms}
        self.ids = {kind: serial_ids(kind, spec.org.slug) for kind in
                    ("subscription", "payment", "session", "booking", "form_assignment")}
        self.serial: dict[str, int] = defaultdict(int)
        self.members: list[_Member] = []

    def next_id(self, kind: str) -> uuid.UUID:
        self.serial[kind] += 1
        return self.ids[kind](self.serial[kind])

    def at(self, day: date, clock: str | time) -> datetime:
        wall = clock if isinstance(clock, time) else time.fromisoformat(clock)
        return datetime.combine(day, wall, tzinfo=self.tz).astimezone(UTC)

    async def build(self) -> list[uuid.UUID]:
        await self.catalog()
        await self.people()
        await self.billing()
        await self.classes()
        await self.form_assignments()
        return [m.id for m in self.members if m.status == "active"]

    async def catalog(self) -> None:
        created = self.at(self.today - timedelta(days=3 * 365), "09:00")
        for plan in self.spec.plans:
            self.sink.add("membership_plans", (self.plan_ids[plan.key], self.org_id, plan.name, plan.price_cents,
                                               self.spec.currency, plan.interval, plan.active, created))
        for t in self.spec.types:
            self.sink.add("class_types", (self.type_ids[t.key], self.org_id, t.name, t.minutes, t.capacity, t.color,
                                          created))
        for key, name, type_key in self.spec.forms:
            self.sink.add("forms", (self.form_ids[key], self.org_id, name, type_key, True, created))

    # --- members ---------------------------------------------------------------------------------------

    def _type_weights(self, kid: bool) -> list[float]:
        if kid:
            return [1.0 if t.key == "kids" else 0.0 for t in self.spec.types]
        return [t.weight * self.rng.uniform(0.3, 1.7) for t in self.spec.types]

    def _plan(self) -> PlanSpec:
        live = [p for p in self.spec.plans if p.active]
        return self.rng.choices(live, weights=[p.weight for p in live])[0]

    async def people(self) -> None:
        rng, today, used_emails = self.rng, self.today, {s.email for s in self.spec.specials}
        email_counts: dict[str, int] = defaultdict(int)
        for special in self.spec.specials:
            joined = today - timedelta(days=special.joined_days_ago)
            plan = next(p for p in self.spec.plans if p.key == special.plan)
            attend_to = (today - timedelta(days=special.stops_days_ago) if special.stops_days_ago
                         else today + timedelta(days=BOOKABLE_AHEAD_DAYS - 1))
            member = _Member(demo_id("member", self.spec.org.slug, special.key), special.status, joined, plan,
                             max(joined, self.first_day), attend_to, plan.visits_per_week, 2,
                             self._type_weights(False), special.overdue, special.pending_forms)
            self._write_member(member, special.first, special.last, special.email, special.coach, special.user_id,
                               special.notes)
        generic = self.count - len(self.spec.specials)
        extra = list(self.spec.extra_names)
        for n in range(generic):
            first, last = extra.pop(0) if extra else (rng.choice(self.spec.first_names), rng.choice(self.spec.last_names))
            base = f"{first}.{last}".lower().replace(" ", "").replace("'", "")
            email_counts[base] += 1
            email = f"{base}{email_counts[base] if email_counts[base] > 1 else ''}@{rng.choice(self.spec.email_domains)}"
            while email in used_emails:
                email_counts[base] += 1
                email = f"{base}{email_counts[base]}@{rng.choice(self.spec.email_domains)}"
            used_emails.add(email)
            member = self._generic_member(demo_id("member", self.spec.org.slug, str(n)))
            coach = rng.randrange(len(self.spec.coaches)) if rng.random() < 0.55 else None
            notes = rng.choice(NOTES) if rng.random() < 0.12 else None
            self._write_member(member, first, last, email, coach, None, notes)
            await self.sink.spill()

    def _generic_member(self, member_id: uuid.UUID) -> _Member:
        rng, today = self.rng, self.today
        roll = rng.random()
        status = "lead" if roll < 0.07 else "cancelled" if roll < 0.19 else "frozen" if roll < 0.24 else "active"
        if status == "lead":
            joined = today - timedelta(days=rng.randint(1, 60))
        elif rng.random() < 0.35:
            joined = today - timedelta(days=rng.randint(HISTORY_DAYS + 1, 3 * 365))
        else:
            joined = today - timedelta(days=rng.randint(1 if status == "active" else 60, HISTORY_DAYS))
        plan = None if status == "lead" else self._plan()
        kid = status != "lead" and rng.random() < 0.06 and any(t.key == "kids" for t in self.spec.types)
        rate = (plan.visits_per_week if plan else 1.0) * rng.uniform(0.5, 1.3)
        stop = today + timedelta(days=BOOKABLE_AHEAD_DAYS - 1)
        tenure = (today - joined).days
        if status == "active" and tenure > 90 and rng.random() < 0.09:
            stop = today - timedelta(days=rng.randint(22, 75))  # at risk: quiet for 3+ weeks
        elif status == "active" and 21 < tenure <= 90 and rng.random() < 0.06:
            rate = 0.0  # joined and never came
        elif status == "frozen":
            stop = today - timedelta(days=rng.randint(5, min(120, tenure - 20)))
        elif status == "cancelled":
            stop = today - timedelta(days=rng.randint(5, min(HISTORY_DAYS, tenure - 20)))
        start = max(joined, self.first_day)
        if status == "lead":
            stop, rate = joined + timedelta(days=6), 0.7 if rng.random() < 0.4 else 0.0
        part = 2 if kid else rng.choices((0, 1, 2), weights=(3, 1, 6))[0]
        member = _Member(member_id, status, joined, plan, start, max(stop, start), rate, part, self._type_weights(kid))
        latest_switch = (min(today, member.attend_to) - joined).days - 30  # switch well before any cancel/freeze
        if plan and latest_switch > 90 and rng.random() < 0.15:
            member.changed_plan = self._plan()
            member.switched_on = joined + timedelta(days=rng.randint(60, latest_switch))
        if status == "active" and rng.random() < 0.025:
            member.overdue = True
        return member

    def _write_member(self, member: _Member, first: str, last: str, email: str, coach: int | None,
                      user_id: uuid.UUID | None, notes: str | None) -> None:
        self.members.append(member)
        created = self.at(member.joined, "10:00")
        self.sink.add("members", (
            member.id, self.org_id, first, last, f"{first} {last}", email, self.spec.phone(self.rng), member.status,
            member.joined, None if coach is None else self.spec.coaches[coach], user_id, notes, created, created))

    # --- billing ---------------------------------------------------------------------------------------

    def _due_dates(self, plan: PlanSpec, start: date, end: date) -> list[date]:
        dues, n, day = [], 0, start
        while day <= end:
            if day >= self.first_day:
                dues.append(day)
            n += 1
            if plan.interval == "month":
                index = start.year * 12 + start.month - 1 + n
                day = date(index // 12, index % 12 + 1, min(start.day, 28))
            elif plan.interval == "year":
                day = date(start.year + n, start.month, min(start.day, 28))
            else:
                day = start + timedelta(days=n * (plan.every_days or 7))
        return dues

    async def billing(self) -> None:
        for m in self.members:
            if m.plan is None:
                continue
            periods: list[tuple[PlanSpec, date, date | None, str]] = []
            if m.changed_plan and m.switched_on:
                periods.append((m.changed_plan, m.joined, m.switched_on - timedelta(days=1), "expired"))
                periods.append((m.plan, m.switched_on, None, m.status))
            else:
                periods.append((m.plan, m.joined, None, m.status))
            for plan, started, ended, member_status in periods:
                status = {"active": "active", "frozen": "paused", "cancelled": "cancelled"}.get(member_status,
                                                                                                 member_status)
                ends_on = ended if ended else m.attend_to if status == "cancelled" else None
                cancelled_at = self.at(m.attend_to, "11:00") if status == "cancelled" else None
                sub_id = self.next_id("subscription")
                self.sink.add("member_subscriptions", (sub_id, self.org_id, m.id, self.plan_ids[plan.key], status,
                                                       started, ends_on, cancelled_at, self.at(started, "10:05")))
                bill_to = ended or (m.attend_to if status in ("paused", "cancelled") else self.today)
                dues = self._due_dates(plan, started, min(bill_to, self.today))
                past = [due for due in dues if due < self.today]
                unpaid = past[-1] if m.overdue and ended is None and past else None
                for due in dues:
                    self._payment(m, sub_id, plan, due, unpaid=due == unpaid)
            await self.sink.spill()

    def _payment(self, m: _Member, sub_id: uuid.UUID, plan: PlanSpec, due: date, *, unpaid: bool) -> None:
        """One due date's attempts: usually paid; sometimes a failed charge and a paid retry; rarely refunded;
        `unpaid` leaves it failed or pending (overdue)."""
        rng, charged = self.rng, self.at(due, time(8, self.rng.randrange(60)))
        row = (self.org_id, m.id, sub_id, plan.price_cents, self.spec.currency)
        if unpaid:
            status = "pending" if rng.random() < 0.35 else "failed"
            self.sink.add("payments", (self.next_id("payment"), *row, status, due, None, charged))
            return
        roll = rng.random()
        if roll < 0.035 and due < self.today - timedelta(days=5):  # a failed charge, recovered by a retry
            self.sink.add("payments", (self.next_id("payment"), *row, "failed", due, None, charged))
            charged += timedelta(days=rng.randint(1, 4), hours=rng.randint(0, 6))
        status = "refunded" if 0.035 <= roll < 0.04 else "paid"
        self.sink.add("payments", (self.next_id("payment"), *row, status, due, charged, charged))

    # --- classes and bookings --------------------------------------------------------------------------

    async def classes(self) -> None:
        rng, spec = self.rng, self.spec
        types = {t.key: t for t in spec.types}
        type_index = {t.key: i for i, t in enumerate(spec.types)}
        starts: list[datetime] = []
        capacity: list[int] = []
        cancelled: list[bool] = []
        session_ids: list[uuid.UUID] = []
        # week → time of day (0 morning, 1 midday, 2 evening) → class type index → session indexes
        weeks: list[list[list[list[int]]]] = [[[[] for _ in spec.types] for _ in range(3)] for _ in range((HISTORY_DAYS + AHEAD_DAYS) // 7 + 1)]
        for offset in range(HISTORY_DAYS + AHEAD_DAYS):
            day = self.first_day + timedelta(days=offset)
            for slot in spec.schedule:
                if day.weekday() not in slot.weekdays:
                    continue
                ctype = types[slot.type_key]
                begin = self.at(day, slot.clock)
                end = begin + timedelta(minutes=slot.minutes or ctype.minutes)
                hour = int(slot.clock[:2])
                part = 0 if hour < 10 else 1 if hour < 16 else 2
                for copy in range(self.copies):
                    is_cancelled = day < self.today and rng.random() < 0.01
                    session_id = self.next_id("session")
                    coach = None if slot.coach is None else spec.coaches[(slot.coach + copy) % len(spec.coaches)]
                    title = ctype.name if copy == 0 else f"{ctype.name} · Room {copy + 1}"
                    self.sink.add("class_sessions", (
                        session_id, self.org_id, self.type_ids[ctype.key], title, begin, end, ctype.capacity, coach,
                        day < self.today + timedelta(days=BOOKABLE_AHEAD_DAYS),
                        begin - timedelta(days=2) if is_cancelled else None, spec.created_by,
                        begin - timedelta(days=21)))
                    index = len(starts)
                    starts.append(begin)
                    capacity.append(ctype.capacity)
                    cancelled.append(is_cancelled)
                    session_ids.append(session_id)
                    weeks[offset // 7][part][type_index[ctype.key]].append(index)
            await self.sink.spill()
        await self.bookings(weeks, starts, capacity, cancelled, session_ids)

    async def bookings(self, weeks, starts, capacity, cancelled, session_ids) -> None:
        rng = self.rng
        filled = [0] * len(starts)
        today_start = self.at(self.today, "00:00")
        bookable_until = self.at(self.today + timedelta(days=BOOKABLE_AHEAD_DAYS), "00:00")
        for m in self.members:
            if m.visits_per_week <= 0:
                continue
            window_start = self.at(m.attend_from, "00:00")
            window_end = self.at(m.attend_to + timedelta(days=1), "00:00")
            first_week = (m.attend_from - self.first_day).days // 7
            last_week = (m.attend_to - self.first_day).days // 7
            # Weighted picks by bisecting cumulative weights (rng.choices is the hot spot at scale).
            part_cum = list(accumulate(4.0 if part == m.part else 1.0 for part in range(3)))
            type_cum = list(accumulate(m.type_weights))
            whole, fraction = int(m.visits_per_week), m.visits_per_week % 1
            for week in range(first_week, last_week + 1):
                want = whole + (rng.random() < fraction)
                taken: set[int] = set()
                for _ in range(want):
                    for _attempt in range(3):
                        part = bisect(part_cum, rng.random() * part_cum[-1])
                        kind = bisect(type_cum, rng.random() * type_cum[-1])
                        options = weeks[week][part][kind]
                        if not options:
                            continue
                        index = rng.choice(options)
                        begin = starts[index]
                        if (index in taken or filled[index] >= capacity[index] or not window_start <= begin < window_end
                                or begin >= bookable_until):
                            continue
                        taken.add(index)
                        self._booking(m, index, begin, session_ids[index], cancelled[index], today_start, filled)
                        break
            await self.sink.spill()

    def _booking(self, m: _Member, index: int, begin: datetime, session_id: uuid.UUID, cancelled: bool,
                 today_start: datetime, filled: list[int]) -> None:
        rng, roll = self.rng, self.rng.random()
        if cancelled:
            status = "cancelled"
        elif begin < today_start:
            status = "cancelled" if roll < 0.07 else "no_show" if roll < 0.13 else "attended"
        else:
            status = "cancelled" if roll < 0.06 else "booked"
        if status != "cancelled":
            filled[index] += 1
        checked_in = begin - timedelta(minutes=rng.randint(0, 12)) if status == "attended" else None
        booked_at = min(begin - timedelta(hours=rng.randint(2, 96)), today_start)  # never after "now"
        self.sink.add("bookings", (self.next_id("booking"), self.org_id, session_id, m.id, status, booked_at,
                                   checked_in))

    # --- forms -----------------------------------------------------------------------------------------

    async def form_assignments(self) -> None:
        rng, today = self.rng, self.today
        keys = {type_key: key for key, _, type_key in self.spec.forms}
        for m in self.members:
            for type_key, key in keys.items():
                assigned_on = m.joined
                if type_key == "health":  # renewed every year on the join anniversary
                    years = max(0, (today - m.joined).days // 365)
                    assigned_on = m.joined + timedelta(days=365 * years)
                if m.status == "lead" and type_key != "waiver":
                    continue
                roll = rng.random()
                if m.pending_forms is not None:
                    pending = type_key in m.pending_forms
                else:
                    age = (today - assigned_on).days
                    pending = m.status == "lead" or (age < 21 and roll < 0.6) or (age < 120 and roll < 0.08)
                if pending:
                    status, completed = "pending", None
                elif m.pending_forms is None and type_key == "health" and (
                        roll < 0.07 or (m.status != "active" and roll < 0.5)):
                    status, completed = "expired", None
                else:
                    status, completed = "completed", self.at(assigned_on + timedelta(days=rng.randint(0, 3)), "20:00")
                self.sink.add("form_assignments", (
                    self.next_id("form_assignment"), self.org_id, self.form_ids[key], m.id, status,
                    self.at(assigned_on, "10:10"), assigned_on + timedelta(days=7), completed))
            await self.sink.spill()

