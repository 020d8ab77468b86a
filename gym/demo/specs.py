"""What the demo gym holds, as data: its plans, class types, weekly timetable, special members and names
(TOOLS.md, "The demo gym"). gym/demo/builder.py turns a spec into rows."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from gym.demo.tenancy import HARBOR, NORTHSIDE, DemoOrg, demo_id

HARBOR_MEMBERS = 320
NORTHSIDE_MEMBERS = 40
DEMO_REFERENCE_TZ = HARBOR.timezone
DANI_USER_ID = demo_id("user", "dani@harbor.test")


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

