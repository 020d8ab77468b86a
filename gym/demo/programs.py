"""The demo gym's training data: exercise library, programs and enrollments, a year of CrossFit
workouts (Murph included), a daily feed, 1-on-1 coaching assignments with comments (recent ones
unread), next week's drafts waiting to be published, and program templates.

Called by `gym.demo.seed.seed_demo_gym` on an owner session after the members exist. Everything is a
pure function of (org_id, member_ids, coach_user_ids, rng, today, scale): ids are `demo_id(str(org_id),
...)` or derived from one, no value reads the clock, and the org's training rows are replaced, so a
re-seed writes the same data again. Rows that grow with the member count go in with COPY.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import insert, text
from sqlalchemy.ext.asyncio import AsyncSession

from gym.demo.tenancy import demo_id
from gym.exercise_library import LIBRARY
from gym.exercises import Exercise, library_rows
from gym.program_templates import ProgramTemplate, history_structure, validate_structure
from gym.programs import Program
from gym.workout_text import MILE_M
from gym.workouts import MovementIn, SectionIn, WorkoutDraft, insert_workouts

DEMO_MEMBERS = 320  # the member count the demo's sizes (30 coaching clients, 80 on the feed) are tuned for
HISTORY_DAYS = 365
AHEAD_DAYS = 14
COMMENT_DAYS = 14   # comments on the last two weeks of assignments...
UNREAD_DAYS = 3     # ...the last three days of which the coaches have not read yet
PUBLISHED_AHEAD = 2  # upcoming days already published; the rest of the next two weeks are drafts
# Children first: the order the org's training rows are deleted in (cascades take the rest).
CLEAR_ORDER = ("assignments", "workouts", "program_enrollments", "program_templates", "programs", "exercises")
PROGRAMS = (("coaching", "Coaching", "coaching", "1-on-1 personal training with your coach."),
            ("crossfit", "CrossFit", "class", "The daily CrossFit class programming."),
            ("open_gym", "Open Gym", "class", "Open gym time: bring your own program."),
            ("feed", "Daily Feed", "feed", "A short daily workout for home or travel days."))
LINKED_CLASS_TYPES = {"crossfit": "crossfit", "open gym": "open_gym"}

# (library name, as written on the whiteboard, prescription choices)
METCON_MOVES: tuple[tuple[str, str, tuple[dict[str, Any], ...]], ...] = (
    ("Run", "run", ({"distance_m": 200}, {"distance_m": 400}, {"distance_m": 800})),
    ("Row", "row", ({"distance_m": 500}, {"calories": 15}, {"calories": 20})),
    ("Bike", "bike", ({"calories": 12}, {"calories": 18})),
    ("Ski Erg", "ski", ({"calories": 12}, {"calories": 15})),
    ("Double-Under", "double-unders", ({"reps": 30}, {"reps": 50})),
    ("Wall Ball Shot", "wall balls", ({"reps": 15, "load_kg": 9, "notes": "9/6kg"},
                                      {"reps": 20, "load_kg": 9, "notes": "9/6kg"})),
    ("Kettlebell Swing", "kettlebell swings", ({"reps": 15, "load_kg": 24, "notes": "24/16kg"},
                                               {"reps": 21, "load_kg": 24, "notes": "24/16kg"})),
    ("Pull-up", "pull-ups", ({"reps": 10}, {"reps": 15})),
    ("Push-up", "push-ups", ({"reps": 15}, {"reps": 20})),
    ("Air Squat", "air squats", ({"reps": 20}, {"reps": 30})),
    ("Burpee", "burpees", ({"reps": 10}, {"reps": 12})),
    ("Box Jump", "box jumps", ({"reps": 15, "notes": "60/50cm"},)),
    ("Toes-to-Bar", "toes-to-bar", ({"reps": 10}, {"reps": 15})),
    ("Thruster", "thrusters", ({"reps": 12, "load_kg": 43, "notes": "43/30kg"},)),
    ("Power Clean", "power cleans", ({"reps": 9, "load_kg": 61, "notes": "61/43kg"},)),
    ("Deadlift", "deadlifts", ({"reps": 12, "load_kg": 84, "notes": "84/61kg"},)),
    ("Handstand Push-up", "HSPU", ({"reps": 8}, {"reps": 10})),
    ("Walking Lunge", "walking lunges", ({"reps": 20},)),
    ("Sit-up", "sit-ups", ({"reps": 20}, {"reps": 25})),
    ("Dumbbell Snatch", "DB snatches", ({"reps": 16, "load_kg": 22.5, "notes": "22.5/15kg"},)),
    ("Chest-to-Bar Pull-up", "chest-to-bar pull-ups", ({"reps": 10},)),
    ("Sumo Deadlift High Pull", "SDHP", ({"reps": 12, "load_kg": 34, "notes": "34/25kg"},)),
)
STRENGTH: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("Back Squat", "5x5", {"sets": 5, "reps": 5, "load_pct": 75}),
    ("Front Squat", "5x3", {"sets": 5, "reps": 3, "load_pct": 80}),
    ("Deadlift", "5x3", {"sets": 5, "reps": 3, "load_pct": 80}),
    ("Strict Press", "5x5", {"sets": 5, "reps": 5, "load_pct": 70}),
    ("Push Press", "5x3", {"sets": 5, "reps": 3, "load_pct": 80}),
    ("Bench Press", "5x5", {"sets": 5, "reps": 5, "load_pct": 75}),
    ("Power Clean", "EMOM 10", {"sets": 10, "reps": 2, "load_pct": 70}),
    ("Snatch", "EMOM 12", {"sets": 12, "reps": 1, "load_pct": 70}),
    ("Clean and Jerk", "EMOM 10", {"sets": 10, "reps": 1, "load_pct": 75}),
    ("Romanian Deadlift", "4x8", {"sets": 4, "reps": 8, "load_pct": 60}),
)
BENCHMARKS: dict[str, tuple[str, int | None, list[tuple[str, str, dict[str, Any]]]]] = {
    "Fran": ("21-15-9 for time", 3, [("Thruster", "thrusters", {"load_kg": 43, "notes": "43/30kg"}),
                                     ("Pull-up", "pull-ups", {})]),
    "Cindy": ("AMRAP 20", None, [("Pull-up", "pull-ups", {"reps": 5}), ("Push-up", "push-ups", {"reps": 10}),
                                 ("Air Squat", "air squats", {"reps": 15})]),
    "Helen": ("3 rounds for time", 3, [("Run", "run", {"distance_m": 400}),
                                       ("Kettlebell Swing", "kettlebell swings",
                                        {"reps": 21, "load_kg": 24, "notes": "24/16kg"}),
                                       ("Pull-up", "pull-ups", {"reps": 12})]),
    "Grace": ("For time", None, [("Clean and Jerk", "clean and jerks",
                                  {"reps": 30, "load_kg": 61, "notes": "61/43kg"})]),
    "Annie": ("50-40-30-20-10 for time", 5, [("Double-Under", "double-unders", {}), ("Sit-up", "sit-ups", {})]),
    "Karen": ("For time", None, [("Wall Ball Shot", "wall balls", {"reps": 150, "load_kg": 9, "notes": "9/6kg"})]),
    "Jackie": ("For time", None, [("Row", "row", {"distance_m": 1000}),
                                 ("Thruster", "thrusters", {"reps": 50, "load_kg": 20}),
                                 ("Pull-up", "pull-ups", {"reps": 30})]),
    "DT": ("5 rounds for time", 5, [("Deadlift", "deadlifts", {"reps": 12, "load_kg": 70}),
                                    ("Hang Power Clean", "hang power cleans", {"reps": 9, "load_kg": 70}),
                                    ("Push Jerk", "push jerks", {"reps": 6, "load_kg": 70})]),
}
MURPH = ("For time", [("Run", "1 mile run", {"distance_m": MILE_M}), ("Pull-up", "pull-ups", {"reps": 100}),
                      ("Push-up", "push-ups", {"reps": 200}), ("Air Squat", "air squats", {"reps": 300}),
                      ("Run", "1 mile run", {"distance_m": MILE_M})])
PT_SESSIONS = (("Strength A", [("Back Squat", "back squat", {"sets": 4, "reps": 6, "load_pct": 70}),
                               ("Dumbbell Bench Press", "DB bench press", {"sets": 3, "reps": 10}),
                               ("Dumbbell Row", "single-arm DB row", {"sets": 3, "reps": 10})]),
               ("Strength B", [("Romanian Deadlift", "RDL", {"sets": 4, "reps": 8, "load_pct": 60}),
                               ("Strict Press", "strict press", {"sets": 4, "reps": 6}),
                               ("Walking Lunge", "walking lunges", {"sets": 3, "reps": 20})]),
               ("Engine", [("Row", "row", {"distance_m": 500, "sets": 5, "notes": "1:1 work:rest"}),
                           ("Plank", "plank", {"duration_s": 45, "sets": 3})]))
FEED = ("20 min AMRAP:\n10 push-ups\n15 air squats\n20 sit-ups",
        "5 rounds for time:\n20 lunges\n15 burpees\n400m run",
        "EMOM 16:\nodd: 12 kettlebell swings\neven: 30s plank",
        "For time:\n100 air squats\n75 sit-ups\n50 push-ups\n25 burpees",
        "4 rounds:\n1 min jumping jacks\n15 glute bridges\n10 push-ups\n1 min rest")
MEMBER_COMMENTS = ("Squats felt heavy today, dropped to 60kg for the last two sets.", "Done! Felt strong.",
                   "Left knee a bit sore on the lunges, is that ok?", "Can we swap the running for rowing? Shins.",
                   "PR on the RDLs 🎉", "Skipped the last round, ran out of time.", "סיימתי! היה קשה אבל טוב",
                   "כואב לי קצת בכתף בלחיצות", "Сделал всё, подтягивания с резинкой.",
                   "Травмировал запястье, можно заменить отжимания?", "Too easy — can I go heavier next week?")
COACH_REPLIES = ("Great work, keep it up!", "Let's drop the load 10% and focus on depth.",
                 "Swap the run for bike next time, no problem.", "Ice it and tell me how it feels tomorrow.",
                 "Yes — add 2.5kg next session.")
CLASS_COMMENTS = ("Rx, 12:41", "Scaled pull-ups to ring rows, 14:05", "Loved this one!", "9 rounds + 4",
                  "Brutal. 18:22", "First time Rx on the thrusters 💪", "Did it at home with dumbbells")


def _at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=UTC)


def _last_memorial_day(today: date) -> date:
    """The last Monday of May on or before `today` (Murph day)."""
    for year in (today.year, today.year - 1):
        day = date(year, 5, 31)
        day -= timedelta(days=day.weekday())
        if day <= today:
            return day
    raise AssertionError("unreachable")


def _movement_text(written: str, p: dict[str, Any]) -> str:
    if "distance_m" in p:
        lead = "1 mile" if p["distance_m"] == MILE_M else f"{p['distance_m']}m"
        return written if written.startswith("1 mile") else f"{lead} {written}"
    qty = f"{p['calories']} cal " if "calories" in p else f"{p['reps']} " if "reps" in p else ""
    extra = (f" ({p['notes']})" if "notes" in p else f" @ {p['load_kg']}kg" if "load_kg" in p
             else f" @ {p['load_pct']}%" if "load_pct" in p else "")
    return f"{qty}{written}{extra}"


def _to_text(sections: list[SectionIn]) -> str:
    """Whiteboard text for a generated workout (what the freeform days store); parse_workout_text reads it back."""
    blocks = []
    for s in sections:
        first = s.movements[0]
        if s.title == "Strength" and "x" in (s.scheme or ""):
            head, lines = "Strength:", [f"{first.name} {s.scheme} @ {first.prescription['load_pct']}%"]
        else:
            head = ": ".join(part for part in (s.title, s.scheme) if part) + ":"
            lines = [_movement_text(m.name, m.prescription) for m in s.movements]
        blocks.append("\n".join([head, *lines]))
    return "\n\n".join(blocks)


class _Seeder:
    def __init__(self, session: AsyncSession, org_id: uuid.UUID, member_ids: Sequence[uuid.UUID],
                 coach_user_ids: Sequence[uuid.UUID], rng: random.Random, today: date, scale: int | None) -> None:
        self.session, self.org_id, self.rng, self.today = session, org_id, rng, today
        self.members, self.coaches = list(member_ids), list(coach_user_ids)
        self.factor = (scale or DEMO_MEMBERS) / DEMO_MEMBERS
        self.exercise = {e.name: self.id("exercise", e.name) for e in LIBRARY}
        self.program = {key: self.id("program", key) for key, *_ in PROGRAMS}

    def id(self, *parts: str) -> uuid.UUID:
        return demo_id(str(self.org_id), *parts)

    def section(self, scheme: str | None, moves, *, title: str | None = None, rounds: int | None = None,
                notes: str | None = None) -> SectionIn:
        return SectionIn(title=title, scheme=scheme, rounds=rounds, notes=notes,
                         movements=[MovementIn(written, self.exercise[name], dict(p)) for name, written, p in moves])

    async def copy(self, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
        if rows:
            raw = (await (await self.session.connection()).get_raw_connection()).driver_connection
            assert raw is not None, "a session on an open asyncpg connection"
            await raw.copy_records_to_table(table, records=rows, columns=columns)

    async def run(self) -> None:
        await self.clear()
        await self.session.execute(insert(Exercise.__table__),  # type: ignore[arg-type]  # stub: __table__ is a FromClause, here a Table
                                   library_rows(self.org_id, lambda e: self.exercise[e.name]))
        await self.session.execute(insert(Program.__table__), [  # type: ignore[arg-type]  # stub: __table__ is a FromClause, here a Table
            {"id": self.program[key], "org_id": self.org_id, "name": name, "kind": kind, "description": about,
             "created_by": self.coaches[0] if self.coaches else None} for key, name, kind, about in PROGRAMS])
        await self.link_class_types()
        coaching, feed = self.enroll()
        await self.crossfit()
        await self.daily_feed()
        await self.personal_training(coaching)
        await self.copy("program_enrollments", ("id", "org_id", "program_id", "member_id", "status", "enrolled_at"),
                        [(self.id("enrollment", key, str(m)), self.org_id, self.program[key], m, "active",
                          _at(self.today - timedelta(days=self.rng.randint(14, 300)), 9))
                         for key, members in (("coaching", coaching), ("feed", feed)) for m in members])
        await self.templates()
        for table in CLEAR_ORDER:
            await self.session.execute(text(f"ANALYZE {table}"))

    async def clear(self) -> None:
        for table in CLEAR_ORDER:
            await self.session.execute(text(f"DELETE FROM {table} WHERE org_id = :org"), {"org": self.org_id})

    async def link_class_types(self) -> None:
        for name, key in LINKED_CLASS_TYPES.items():
            await self.session.execute(text(
                "UPDATE class_types SET program_id = :p WHERE org_id = :org AND lower(name) = :name"),
                {"p": self.program[key], "org": self.org_id, "name": name})
        await self.session.execute(text("""
            UPDATE class_sessions s SET program_id = t.program_id FROM class_types t
            WHERE s.class_type_id = t.id AND s.org_id = :org AND t.org_id = :org AND t.program_id IS NOT NULL
              AND s.program_id IS DISTINCT FROM t.program_id"""), {"org": self.org_id})

    def enroll(self) -> tuple[list[uuid.UUID], list[uuid.UUID]]:
        n = len(self.members)
        coaching = self.rng.sample(self.members, min(n, max(3, round(30 * self.factor))))
        feed = self.rng.sample(self.members, min(n, max(5, round(80 * self.factor))))
        return coaching, feed

    def daily_wod(self, day: date) -> tuple[str, list[SectionIn]]:
        rng = self.rng
        if rng.random() < 0.08:
            name = rng.choice(sorted(BENCHMARKS))
            scheme, rounds, benchmark = BENCHMARKS[name]
            return name, [self.section(scheme, benchmark, rounds=rounds)]
        sections = []
        if rng.random() < 0.6:
            lift, scheme, p = rng.choice(STRENGTH)
            sections.append(self.section(scheme, [(lift, lift, p)], title="Strength"))
        moves = rng.sample(METCON_MOVES, rng.randint(2, 4))
        shape = rng.choice(("amrap", "rounds", "emom", "chipper"))
        rounds = None
        if shape == "amrap":
            scheme = f"AMRAP {rng.choice((10, 12, 14, 16, 20))}"
        elif shape == "rounds":
            rounds = rng.randint(3, 5)
            scheme = f"{rounds} rounds for time"
        elif shape == "emom":
            scheme = f"EMOM {len(moves) * rng.choice((3, 4, 5))}"
        else:
            scheme = "For time"
        sections.append(self.section(scheme, [(name, written, rng.choice(ps)) for name, written, ps in moves],
                                     title="Metcon", rounds=rounds))
        return f"WOD {day:%a %d %b}", sections

    async def crossfit(self) -> None:
        program, murph_day = self.program["crossfit"], _last_memorial_day(self.today)
        drafts, rows = [], []
        for offset in range(-HISTORY_DAYS, AHEAD_DAYS + 1):
            day = self.today + timedelta(days=offset)
            if day == murph_day:
                workout_id, title = self.id("workout", "murph"), "Murph"
                sections = [self.section(MURPH[0], MURPH[1], notes="Partition the pull-ups, push-ups and squats "
                                         "as needed. Rx: 9 kg vest.")]
                drafts.append(WorkoutDraft(title, "Hero WOD in memory of Navy Lt. Michael Murphy.", program, day,
                                           sections=sections, created_by=self.coaches[0] if self.coaches else None,
                                           id=workout_id))
            else:
                workout_id = self.id("workout", "crossfit", day.isoformat())
                title, sections = self.daily_wod(day)
                structured = self.rng.random() < 0.6
                drafts.append(WorkoutDraft(title, None, program, day,
                                           freeform_text=None if structured else _to_text(sections),
                                           sections=sections if structured else None,
                                           created_by=self.coaches[0] if self.coaches else None, id=workout_id))
            published = offset <= PUBLISHED_AHEAD
            rows.append((self.id("assignment", "crossfit", day.isoformat()), self.org_id, workout_id, None, program,
                         day, published, None, _at(day - timedelta(days=3), 8)))
        await insert_workouts(self.session, self.org_id, drafts)
        await self.assignments(rows)
        recent = [(r[0], r[5]) for r in rows if 0 < (self.today - r[5]).days <= COMMENT_DAYS]
        await self.comments([self.comment(assignment, n, self.rng.choice(self.members), None,
                                          self.rng.choice(CLASS_COMMENTS), day, 20 + n)
                             for assignment, day in recent for n in range(self.rng.randint(0, 3) if self.members else 0)])

    async def daily_feed(self) -> None:
        program, drafts, rows = self.program["feed"], [], []
        for offset in range(-56, AHEAD_DAYS + 1):
            day = self.today + timedelta(days=offset)
            workout_id = self.id("workout", "feed", day.isoformat())
            drafts.append(WorkoutDraft(f"Daily Feed {day:%a %d %b}", None, program, day,
                                       freeform_text=self.rng.choice(FEED), id=workout_id))
            rows.append((self.id("assignment", "feed", day.isoformat()), self.org_id, workout_id, None, program, day,
                         offset <= 0, None, _at(day - timedelta(days=2), 8)))
        await insert_workouts(self.session, self.org_id, drafts)
        await self.assignments(rows)

    async def personal_training(self, clients: list[uuid.UUID]) -> None:
        program = self.program["coaching"]
        first_week = self.today - timedelta(days=self.today.weekday() + 28)
        weeks = (28 + AHEAD_DAYS) // 7 + 1
        drafts, pool = [], {}
        for week in range(weeks):
            monday = first_week + timedelta(days=7 * week)
            for title, moves in PT_SESSIONS:
                workout_id = self.id("workout", "pt", monday.isoformat(), title)
                pool[(week, title)] = workout_id
                drafts.append(WorkoutDraft(f"PT {title} · week of {monday:%d %b}", None, program, None,
                                           sections=[self.section("Straight sets", moves)],
                                           created_by=self.coaches[0] if self.coaches else None, id=workout_id))
        await insert_workouts(self.session, self.org_id, drafts)
        rows, comments = [], []
        for client in clients:
            coach = (self.coaches[0] if self.rng.random() < 0.7 else self.rng.choice(self.coaches)) \
                if self.coaches else None
            days = sorted(self.rng.sample(range(7), 2))
            for week in range(weeks):
                for slot, weekday in enumerate(days):
                    day = first_week + timedelta(days=7 * week + weekday)
                    age = (self.today - day).days
                    if age > 28 or age < -AHEAD_DAYS:
                        continue
                    title = PT_SESSIONS[(week + slot) % len(PT_SESSIONS)][0]
                    assignment = self.id("assignment", "pt", str(client), day.isoformat())
                    rows.append((assignment, self.org_id, pool[(week, title)], client, program, day,
                                 age >= -PUBLISHED_AHEAD, coach, _at(day - timedelta(days=4), 9)))
                    if 0 < age <= COMMENT_DAYS and self.rng.random() < 0.45:
                        comments.append(self.comment(assignment, 0, client, None,
                                                     self.rng.choice(MEMBER_COMMENTS), day, 19))
                        if coach and age > UNREAD_DAYS and self.rng.random() < 0.5:
                            comments.append(self.comment(assignment, 1, None, coach,
                                                         self.rng.choice(COACH_REPLIES), day, 21))
        await self.assignments(rows)
        await self.comments(comments)

    def comment(self, assignment: uuid.UUID, n: int, member: uuid.UUID | None, user: uuid.UUID | None, body: str,
                day: date, hour: int) -> tuple:
        return (self.id("comment", str(assignment), str(n)), self.org_id, assignment, member, user, body,
                _at(day, hour, self.rng.randint(0, 59)))

    async def assignments(self, rows: list[tuple]) -> None:
        await self.copy("assignments", ("id", "org_id", "workout_id", "member_id", "program_id", "scheduled_on",
                                        "published", "coach_user_id", "created_at"), rows)

    async def comments(self, rows: list[tuple]) -> None:
        await self.copy("workout_comments", ("id", "org_id", "assignment_id", "author_member_id", "author_user_id",
                                             "body", "created_at"), rows)
        cutoff = _at(self.today - timedelta(days=UNREAD_DAYS), 0)
        await self.copy("comment_read_markers", ("org_id", "comment_id", "coach_user_id", "read_at"),
                        [(self.org_id, c[0], coach, c[6] + timedelta(hours=3)) for c in rows if c[6] < cutoff
                         for coach in self.coaches if coach != c[4]])

    async def templates(self) -> None:
        strength = [{"week": w, "day": d, "title": f"Week {w} · {lift}", "sections": [
            {"title": "Strength", "scheme": "5x5" if w < 3 else "5x3", "movements": [
                {"name": lift, "exercise_id": str(self.exercise[lift]),
                 "prescription": {"sets": 5, "reps": 5 if w < 3 else 3, "load_pct": 65 + 5 * w}}]}]}
            for w in range(1, 5) for d, lift in ((1, "Back Squat"), (3, "Strict Press"), (5, "Deadlift"))]
        onramp = [{"week": w, "day": d, "title": f"On-Ramp {(w - 1) * 3 + i + 1}", "freeform_text": text_}
                  for w in (1, 2) for i, (d, text_) in enumerate(zip((1, 3, 5), FEED[w - 1:w + 2], strict=True))]
        weeks, history = await history_structure(self.session, self.org_id, self.program["crossfit"],
                                                 self.today - timedelta(days=27), self.today)
        rows: list[tuple[str, str, str, int, list[dict[str, Any]], str]] = [("strength-cycle", "4-Week Strength Cycle", "Squat, press and deadlift, 5x5 building to 5x3.",
                 4, strength, "manual"),
                ("on-ramp", "Beginner On-Ramp", "Two weeks of simple sessions for new members.", 2, onramp,
                 "manual"),
                ("crossfit-last-4-weeks", "CrossFit — last 4 weeks", "The last four weeks of CrossFit classes.",
                 weeks, history, "history")]
        await self.session.execute(insert(ProgramTemplate.__table__), [  # type: ignore[arg-type]  # stub: __table__ is a FromClause, here a Table
            {"id": self.id("template", key), "org_id": self.org_id, "name": name, "description": about,
             "weeks": w, "structure": validate_structure(w, structure), "source": source,
             "created_by": self.coaches[0] if self.coaches else None}
            for key, name, about, w, structure, source in rows if structure])


async def seed_training(session: AsyncSession, *, org_id: uuid.UUID, member_ids: list, coach_user_ids: list,
                        rng: random.Random, today: date, scale: int | None = None) -> None:
    """Replace the org's training data with the demo's (owner session; members must already exist).

    `scale` is the org's member count; enrollments and coaching volume grow with it, the class
    programming does not.
    """
    await _Seeder(session, org_id, member_ids, coach_user_ids, rng, today, scale).run()
