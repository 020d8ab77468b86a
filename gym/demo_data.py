"""The demo gym's members, billing, classes, bookings and forms (TOOLS.md, "The demo gym").

Everything generated is a pure function of (seed, member count, reference date): ids are uuid5
(`demo_id`) or derived from one, randomness comes from `random.Random` seeded per org, and no value
reads the clock. Re-seeding deletes the demo orgs' rows and writes them again, so running it twice
leaves the same data. Rows go in with COPY in chunks, so `members=100_000` stays fast and bounded in
memory; `last_visit_at` is then set from the attended bookings, so it always agrees with them.
"""

from __future__ import annotations

import importlib
import random
import uuid
from bisect import bisect
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from itertools import accumulate
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from core.database import Database
from gym.demo_tenancy import HARBOR, NORTHSIDE, DemoOrg, demo_id, seed_demo_tenancy
from gym.training.demo import seed_trainer_records, seeding_instant

DEMO_SEED = 7
HARBOR_MEMBERS = 320
NORTHSIDE_MEMBERS = 40
DEMO_REFERENCE_TZ = HARBOR.timezone
DANI_USER_ID = demo_id("user", "dani@harbor.test")
DANI_MEMBER_ID = demo_id("member", HARBOR.slug, "dani-mizrahi")
SAAR_COHEN_ID = demo_id("member", HARBOR.slug, "saar-cohen")
SAAR_LEVI_ID = demo_id("member", HARBOR.slug, "saar-levi")
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


def reference_date(now: datetime | date | None = None) -> date:
    """The demo's "today": the local date in Harbor's timezone of `now` (default: the current instant)."""
    if isinstance(now, datetime):
        return now.astimezone(ZoneInfo(DEMO_REFERENCE_TZ)).date()
    return now or datetime.now(UTC).astimezone(ZoneInfo(DEMO_REFERENCE_TZ)).date()


def serial_ids(*parts: str) -> Callable[[int], uuid.UUID]:
    """Cheap deterministic ids for bulk rows: a uuid5 whose last 48 bits are replaced by a counter."""
    base = demo_id(*parts).int & ~((1 << 48) - 1)
    return lambda n: uuid.UUID(int=base | n)


@dataclass(frozen=True)
class PlanSpec:
    key: str
    name: str
    price_cents: int
    interval: str
    weight: float  # share of new subscriptions
    visits_per_week: float
    every_days: int = 0  # class packs are re-bought every N days
    active: bool = True


@dataclass(frozen=True)
class TypeSpec:
    key: str
    name: str
    minutes: int
    capacity: int
    color: str
    weight: float  # how much an adult member likes it


@dataclass(frozen=True)
class Slot:
    weekdays: tuple[int, ...]  # Monday = 0
    clock: str
    type_key: str
    minutes: int | None = None
    coach: int | None = 0  # index into the org's coaches; None = no coach


@dataclass(frozen=True)
class Special:
    key: str
    first: str
    last: str
    email: str
    status: str
    plan: str
    joined_days_ago: int
    coach: int | None
    user_id: uuid.UUID | None = None
    stops_days_ago: int = 0  # attendance stops this many days ago (at-risk)
    overdue: bool = False
    pending_forms: tuple[str, ...] = ()
    notes: str | None = None


@dataclass(frozen=True)
class OrgSpec:
    org: DemoOrg
    currency: str
    plans: tuple[PlanSpec, ...]
    types: tuple[TypeSpec, ...]
    schedule: tuple[Slot, ...]
    forms: tuple[tuple[str, str, str], ...]  # key, name, type_key
    coaches: tuple[uuid.UUID, ...]
    created_by: uuid.UUID
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    email_domains: tuple[str, ...]
    phone: Callable[[random.Random], str]
    specials: tuple[Special, ...] = ()
    extra_names: tuple[tuple[str, str], ...] = ()

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.org.timezone)


ISRAELI_FIRST = ("Noa", "Yael", "Tamar", "Shira", "Maya", "Avi", "Yossi", "Itai", "Omer", "Eitan", "Roni", "Lior", "Gal",
                 "Nir", "Amit", "Tal", "Ido", "Yoav", "Michal", "Hila", "Adi", "Dana", "Oren", "Guy", "Asaf",
                 "Yonatan", "Ariel", "Moran", "Keren", "Liat", "Shai", "Ron", "Erez", "Hadar", "Inbar", "Neta",
                 "Ofir", "Rotem", "Yuval", "Daniel", "Nadav", "Matan", "Shani", "Efrat", "Orly", "Boaz", "Gili",
                 "Reut", "Sivan", "Tomer", "Uri", "Yarden", "Ziv", "Elad", "Hagit", "Kobi", "Lihi", "Meital")
RUSSIAN_FIRST = ("Dmitri", "Alexei", "Sergei", "Olga", "Natasha", "Irina", "Anya", "Vlad", "Igor", "Katya", "Pavel",
                 "Yulia", "Maxim", "Sveta", "Misha", "Nikolai", "Tatiana", "Boris", "Elena", "Andrei", "Kirill",
                 "Ksenia", "Oksana", "Roman", "Artem", "Polina", "Denis", "Galina", "Yevgeny", "Lena")
ENGLISH_FIRST = ("James", "Emma", "Olivia", "Jack", "Sophie", "Liam", "Chloe", "Ben", "Hannah", "Ryan", "Grace",
                 "Tom", "Lucy", "Sam", "Kate", "Rachel", "David", "Sarah", "Michael", "Amelia", "Harry", "Isla",
                 "George", "Poppy", "Oscar", "Freya", "Alfie", "Ella", "Charlie", "Megan", "Joe", "Holly")
ISRAELI_LAST = ("Cohen", "Levi", "Mizrahi", "Peretz", "Biton", "Friedman", "Azoulay", "Katz", "Shapiro", "Goldberg",
                "Avraham", "Ben-David", "Dahan", "Ohana", "Amar", "Malka", "Gabay", "Rosen", "Segal", "Weiss",
                "Hadad", "Elbaz", "Yosef", "Shalom", "Golan", "Barak", "Navon", "Sasson", "Tzur", "Harel",
                "Carmi", "Ashkenazi", "Sharabi", "Vaknin", "Erez")
RUSSIAN_LAST = ("Ivanov", "Petrov", "Smirnov", "Kuznetsov", "Popov", "Volkov", "Sokolov", "Lebedev", "Kozlov",
                "Novikov", "Morozov", "Pavlova", "Orlova", "Fedorov", "Belova", "Zaitsev", "Gusev", "Romanova")
ENGLISH_LAST = ("Smith", "Jones", "Brown", "Taylor", "Wilson", "Davies", "Evans", "Thomas", "Johnson", "Roberts",
                "Walker", "Wright", "Robinson", "Thompson", "White", "Hughes", "Edwards", "Green", "Hall", "Wood",
                "Harris", "Clarke", "Jackson", "Turner", "Hill", "Moore", "Cooper", "Ward", "Morris", "King")
# Harbor's only Saars and only Dani are the named specials below; keep those first names out of the pool.
HARBOR_FIRST = tuple(n for n in ISRAELI_FIRST * 3 + RUSSIAN_FIRST + ENGLISH_FIRST if n not in ("Saar", "Dani"))
HARBOR_LAST = ISRAELI_LAST * 3 + RUSSIAN_LAST + ENGLISH_LAST
NOTES = ("Knee injury: no deep squats for now.", "Prefers morning classes.", "Referred by a friend.",
         "Competes in local throwdowns.", "Asked about nutrition coaching.", "Pregnant: scaled programming.",
         "Lower back issues; check warm-up.", "Wants to learn the snatch.", "Corporate discount.")


def _user(email: str) -> uuid.UUID:
    return demo_id("user", email)


SUN_THU, WEEKDAYS_MON_FRI = (6, 0, 1, 2, 3), (0, 1, 2, 3, 4)
HARBOR_SPEC = OrgSpec(
    org=HARBOR, currency="ILS",
    plans=(PlanSpec("unlimited", "Unlimited Monthly", 45000, "month", 0.44, 3.0),
           PlanSpec("pack8", "8-Class Pack", 32000, "class_pack", 0.16, 1.9, every_days=28),
           PlanSpec("pack12", "12-Class Pack", 42000, "class_pack", 0.12, 2.6, every_days=30),
           PlanSpec("yearly", "Yearly Unlimited", 450000, "year", 0.11, 2.8),
           PlanSpec("student", "Student Monthly", 30000, "month", 0.17, 2.3),
           PlanSpec("legacy", "Founders Monthly (closed)", 35000, "month", 0.0, 2.5, active=False)),
    types=(TypeSpec("crossfit", "CrossFit", 60, 16, "#E4572E", 6.0),
           TypeSpec("open_gym", "Open Gym", 120, 25, "#17BEBB", 2.0),
           TypeSpec("oly", "Olympic Lifting", 75, 10, "#FFC914", 1.0),
           TypeSpec("mobility", "Mobility", 45, 15, "#76B041", 1.0),
           TypeSpec("kids", "Kids", 45, 12, "#2E86AB", 0.0)),
    schedule=(*(Slot(SUN_THU, clock, "crossfit", coach=i % 2)
                for i, clock in enumerate(("06:30", "07:30", "17:30", "18:30", "19:30"))),
              Slot(SUN_THU, "10:00", "open_gym", coach=None),
              Slot((0, 2), "20:30", "oly", coach=1), Slot((6, 1), "20:30", "mobility"),
              Slot((6, 1, 3), "16:30", "kids"),
              *(Slot((4,), clock, "crossfit", coach=i % 2) for i, clock in enumerate(("07:00", "08:00", "09:00"))),
              Slot((4,), "10:00", "open_gym", coach=None), Slot((5,), "10:00", "crossfit", coach=1),
              Slot((5,), "11:15", "mobility")),
    forms=(("waiver", "Liability Waiver", "waiver"), ("parq", "PAR-Q", "parq"),
           ("health", "Health Declaration", "health")),
    coaches=(_user("coach@harbor.test"), _user("owner@harbor.test")),
    created_by=_user("admin@harbor.test"),
    first_names=HARBOR_FIRST, last_names=HARBOR_LAST,
    email_domains=("gmail.com", "walla.co.il", "outlook.com", "yahoo.com", "mail.ru", "icloud.com"),
    phone=lambda rng: f"+972-5{rng.choice('0234578')}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
    specials=(
        Special("dani-mizrahi", "Dani", "Mizrahi", "dani@harbor.test", "active", "unlimited", 430, 0,
                user_id=DANI_USER_ID, pending_forms=("health",), notes="Training for a first Murph."),
        Special("saar-cohen", "Saar", "Cohen", "saar.cohen@gmail.com", "active", "pack12", 250, 0),
        Special("saar-levi", "Saar", "Levi", "saar.levi@walla.co.il", "active", "unlimited", 520, 1,
                stops_days_ago=26, overdue=True, notes="Shoulder rehab; asked about Mobility classes."),
    ),
)
NORTHSIDE_SPEC = OrgSpec(
    org=NORTHSIDE, currency="GBP",
    plans=(PlanSpec("unlimited", "Unlimited Monthly", 12000, "month", 0.55, 2.8),
           PlanSpec("pack10", "10-Class Pack", 9000, "class_pack", 0.2, 2.0, every_days=35),
           PlanSpec("annual", "Annual", 120000, "year", 0.1, 2.6),
           PlanSpec("offpeak", "Off-Peak Monthly", 7500, "month", 0.15, 2.0)),
    types=(TypeSpec("barbell", "Barbell Club", 90, 12, "#3D5A80", 4.0),
           TypeSpec("foundations", "Strength Foundations", 60, 10, "#98C1D9", 2.0),
           TypeSpec("conditioning", "Conditioning", 45, 16, "#EE6C4D", 2.0),
           TypeSpec("open_gym", "Open Gym", 120, 20, "#293241", 1.0)),
    schedule=(Slot(WEEKDAYS_MON_FRI, "07:00", "conditioning"), Slot(WEEKDAYS_MON_FRI, "18:00", "barbell"),
              Slot((0, 2, 4), "19:30", "foundations"), Slot(WEEKDAYS_MON_FRI, "12:00", "open_gym", coach=None),
              Slot((5,), "10:00", "barbell")),
    forms=(("waiver", "Liability Waiver", "waiver"), ("parq", "PAR-Q", "parq")),
    coaches=(_user("owner@northside.test"),),
    created_by=_user("owner@northside.test"),
    first_names=ENGLISH_FIRST, last_names=ENGLISH_LAST,
    email_domains=("gmail.com", "outlook.com", "btinternet.com", "yahoo.co.uk"),
    phone=lambda rng: f"+44 7{rng.randint(100, 999)} {rng.randint(100000, 999999)}",
    # Same names as Harbor members, to show that one gym never sees the other's.
    extra_names=(("Saar", "Cohen"), ("Noa", "Levi"), ("Dmitri", "Ivanov")),
)


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
class _Sink:
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
        connection = await (await self.session.connection()).get_raw_connection()
        for table in reversed(TABLES):
            rows = self.rows.pop(table, None)
            if rows:
                await connection.driver_connection.copy_records_to_table(table, records=rows, columns=COLUMNS[table])
                self.counts[table] += len(rows)


class _OrgBuilder:
    """Generates one org's rows into a sink; all randomness from `rng`, all dates relative to `today`."""

    def __init__(self, spec: OrgSpec, count: int, rng: random.Random, today: date, sink: _Sink) -> None:
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
        weeks = [[[[] for _ in spec.types] for _ in range(3)] for _ in range((HISTORY_DAYS + AHEAD_DAYS) // 7 + 1)]
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


async def _clear(session: AsyncSession, org_ids: list[uuid.UUID]) -> None:
    for table in TABLES:
        await session.execute(text(f"DELETE FROM {table} WHERE org_id = ANY(:orgs)"), {"orgs": org_ids})


async def _set_last_visits(session: AsyncSession, org_ids: list[uuid.UUID]) -> None:
    await session.execute(text("""
        UPDATE members m SET last_visit_at = v.last_visit
        FROM (SELECT member_id, max(checked_in_at) AS last_visit FROM bookings
              WHERE org_id = ANY(:orgs) AND status = 'attended' GROUP BY member_id) v
        WHERE m.id = v.member_id AND m.org_id = ANY(:orgs)"""), {"orgs": org_ids})


def _training_seeder():
    """`gym.training_demo.seed_training` if the training half is installed, else None."""
    try:
        module = importlib.import_module("gym.training_demo")
    except ModuleNotFoundError as exc:
        if exc.name != "gym.training_demo":
            raise
        return None
    return getattr(module, "seed_training", None)


async def seed_demo_gym(session: AsyncSession, *, members: int | None = None, seed: int = DEMO_SEED,
                        now: datetime | date | None = None) -> dict[str, Any]:
    """(Re)generate both demo orgs on an owner session; returns row counts per table and the reference date."""
    await seed_demo_tenancy(session)
    today = reference_date(now)
    harbor_count = max(members or HARBOR_MEMBERS, len(HARBOR_SPEC.specials) + 1)
    org_ids = [HARBOR.id, NORTHSIDE.id]
    await _clear(session, org_ids)
    sink = _Sink(session)
    plan = ((HARBOR_SPEC, harbor_count, seed + 1), (NORTHSIDE_SPEC, NORTHSIDE_MEMBERS, seed + 2))
    built = []
    for spec, count, training_seed in plan:
        builder = _OrgBuilder(spec, count, random.Random(f"{seed}/{spec.org.slug}"), today, sink)
        built.append((spec, count, training_seed, await builder.build()))
    await sink.flush()
    await _set_last_visits(session, org_ids)
    for table in TABLES:
        await session.execute(text(f"ANALYZE {table}"))
    seed_training = _training_seeder()
    if seed_training is not None:
        for spec, count, training_seed, active_ids in built:
            await seed_training(session, org_id=spec.org.id, member_ids=active_ids, coach_user_ids=list(spec.coaches),
                                rng=random.Random(training_seed), today=today, scale=count)
    trainer = {spec.org.slug: await seed_trainer_records(
        session, org_id=spec.org.id, member_ids=active_ids, instant=seeding_instant(now, DEMO_REFERENCE_TZ),
        scale=count, dani_id=DANI_MEMBER_ID if spec.org is HARBOR else None) for spec, count, _, active_ids in built}
    return {"reference_date": today.isoformat(), "harbor_members": harbor_count, "northside_members": NORTHSIDE_MEMBERS,
            "rows": dict(sink.counts), "training": seed_training is not None, "trainer": trainer}


async def seed_demo(db: Database, members: int | None = None, *, seed: int = DEMO_SEED,
                    now: datetime | date | None = None) -> dict[str, Any]:
    """The `spotter seed-demo` entry point: one owner transaction around `seed_demo_gym`."""
    async with db.owner() as session:
        return await seed_demo_gym(session, members=members, seed=seed, now=now)
