"""The member's training record (TRAINER.md "Data"): profiles, settings, locations with equipment, category and
muscle goals, preferences, exercise logs, trainer workouts, scheduled workouts, workout plans, milestone goals.

Every table is org-scoped with FORCE'd RLS and tied to `members`; one current location per member is a
partial unique index. Loads are stored in kg, distances in km.

Revision ID: 0006_training_record
Revises: 0005_rag
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0006_training_record"
down_revision = "0005_rag"
branch_labels = None
depends_on = None

TABLES = ("member_profiles", "member_settings", "member_locations", "category_goals", "muscle_goals",
          "member_preferences", "workout_plans", "trainer_workouts", "exercise_logs", "scheduled_workouts",
          "milestone_goals")
MUSCLES = ("Chest", "Back", "Shoulders", "Biceps", "Triceps", "Abs", "Lower Back", "Quadriceps", "Hamstrings",
           "Glutes", "Calves", "Trapezius", "Abductors", "Adductors", "Forearms", "Neck")
EXERCISE_TYPES = ("strength", "bodyweight", "cardio_distance", "cardio_time", "hiit", "circuit", "flexibility",
                  "yoga", "isometric", "balance", "sport_specific")
PREFERENCE_TYPES = ("workout", "injury", "time", "equipment", "intensity", "muscle_group", "exercise", "goal",
                    "recovery", "other")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN (" + ",".join(f"'{v}'" for v in values) + ")"


def _id() -> sa.Column:
    return sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()"))


def _org() -> sa.Column:
    return sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                     nullable=False)


def _member() -> sa.Column:
    return sa.Column("member_id", UUID(as_uuid=True), sa.ForeignKey("members.id", ondelete="CASCADE"), nullable=False)


def _fk(name: str, target: str) -> sa.Column:
    return sa.Column(name, UUID(as_uuid=True), sa.ForeignKey(target, ondelete="SET NULL"), nullable=True)


def _ts(name: str, *, nullable: bool = False) -> sa.Column:
    if nullable:
        return sa.Column(name, sa.DateTime(timezone=True), nullable=True)
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now())


def _num(name: str) -> sa.Column:
    return sa.Column(name, sa.Numeric(10, 2), nullable=True)


def _jsonb(name: str, empty: str = "[]") -> sa.Column:
    return sa.Column(name, JSONB, nullable=False, server_default=sa.text(f"'{empty}'::jsonb"))


def upgrade() -> None:
    op.create_table(
        "member_profiles", _id(), _org(), _member(),
        _num("height_cm"), _num("weight_kg"),
        sa.Column("birth_year", sa.Integer, nullable=True),
        sa.Column("sex", sa.String(10), nullable=True),
        sa.Column("experience", sa.String(20), nullable=True),
        _ts("created_at"), _ts("updated_at"),
        sa.UniqueConstraint("member_id", name="uq_member_profiles_member"),
        sa.CheckConstraint("sex IS NULL OR sex IN ('female','male','other')", name="sex"),
        sa.CheckConstraint("experience IS NULL OR experience IN ('beginner','intermediate','advanced')",
                           name="experience"),
        sa.CheckConstraint("height_cm IS NULL OR height_cm BETWEEN 50 AND 260", name="height"),
        sa.CheckConstraint("weight_kg IS NULL OR weight_kg BETWEEN 20 AND 400", name="weight"),
        sa.CheckConstraint("birth_year IS NULL OR birth_year BETWEEN 1900 AND 2100", name="birth_year"),
    )

    op.create_table(
        "member_settings", _id(), _org(), _member(),
        sa.Column("weight_unit", sa.String(3), nullable=False, server_default="kg"),
        sa.Column("distance_unit", sa.String(2), nullable=False, server_default="km"),
        _ts("updated_at"),
        sa.UniqueConstraint("member_id", name="uq_member_settings_member"),
        sa.CheckConstraint("weight_unit IN ('kg','lbs')", name="weight_unit"),
        sa.CheckConstraint("distance_unit IN ('km','mi')", name="distance_unit"),
    )

    op.create_table(
        "member_locations", _id(), _org(), _member(),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("equipment", ARRAY(sa.Text), nullable=False, server_default=sa.text("'{}'::text[]")),
        sa.Column("is_current", sa.Boolean, nullable=False, server_default=sa.false()),
        _ts("created_at"), _ts("updated_at"),
    )
    op.create_index("uq_member_locations_current", "member_locations", ["member_id"], unique=True,
                    postgresql_where=sa.text("is_current"))
    op.create_index("uq_member_locations_name", "member_locations", ["member_id", sa.text("lower(name)")],
                    unique=True)

    op.create_table(
        "category_goals", _id(), _org(), _member(),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("description", sa.Text, nullable=True),
        sa.Column("weight", sa.Numeric(6, 5), nullable=False),
        _ts("created_at"),
        sa.CheckConstraint("weight >= 0 AND weight <= 1", name="weight"),
    )
    op.create_index("uq_category_goals_name", "category_goals", ["member_id", sa.text("lower(name)")], unique=True)

    op.create_table(
        "muscle_goals", _id(), _org(), _member(),
        sa.Column("muscle", sa.String(20), nullable=False),
        sa.Column("weight", sa.Numeric(6, 5), nullable=False),
        _ts("created_at"),
        sa.UniqueConstraint("member_id", "muscle", name="uq_muscle_goals_member_muscle"),
        sa.CheckConstraint(_in("muscle", MUSCLES), name="muscle"),
        sa.CheckConstraint("weight >= 0 AND weight <= 1", name="weight"),
    )

    op.create_table(
        "member_preferences", _id(), _org(), _member(),
        sa.Column("type", sa.String(20), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("guidance", sa.Text, nullable=False),
        _ts("expires_at", nullable=True),
        sa.Column("delete_after_use", sa.Boolean, nullable=False, server_default=sa.false()),
        _ts("created_at"),
        sa.CheckConstraint(_in("type", PREFERENCE_TYPES), name="type"),
    )
    op.create_index("ix_member_preferences_member", "member_preferences", ["org_id", "member_id"])

    op.create_table(
        "workout_plans", _id(), _org(), _member(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("goal_description", sa.Text, nullable=True),
        sa.Column("start_date", sa.Date, nullable=False),
        sa.Column("end_date", sa.Date, nullable=False),
        sa.Column("workouts_per_week", sa.Integer, nullable=True),
        sa.Column("preferred_days", ARRAY(sa.Text), nullable=False, server_default=sa.text("'{}'::text[]")),
        sa.Column("status", sa.String(12), nullable=False, server_default="active"),
        _ts("created_at"),
        sa.CheckConstraint("status IN ('active','completed','paused','cancelled')", name="status"),
        sa.CheckConstraint("end_date >= start_date", name="dates"),
        sa.CheckConstraint("workouts_per_week IS NULL OR workouts_per_week BETWEEN 1 AND 14", name="per_week"),
    )
    op.create_index("ix_workout_plans_member", "workout_plans", ["org_id", "member_id", "status"])

    op.create_table(
        "trainer_workouts", _id(), _org(), _member(),
        sa.Column("session_id", UUID(as_uuid=True), nullable=True),  # the trainer session that built it
        sa.Column("workout_key", sa.String(20), nullable=False),       # workout_N, unique per session
        sa.Column("title", sa.String(200), nullable=True),
        _jsonb("exercises"),
        sa.Column("summary", JSONB, nullable=True),
        _jsonb("completed", "{}"),                                      # ex_NNN -> actuals
        sa.Column("status", sa.String(12), nullable=False, server_default="current"),
        _ts("created_at"), _ts("updated_at"), _ts("completed_at", nullable=True),
        sa.CheckConstraint("status IN ('current','completed','abandoned')", name="status"),
    )
    op.create_index("ix_trainer_workouts_member", "trainer_workouts", ["org_id", "member_id", "status"])
    op.create_index("uq_trainer_workouts_session_key", "trainer_workouts", ["session_id", "workout_key"], unique=True,
                    postgresql_where=sa.text("session_id IS NOT NULL"))

    op.create_table(
        "exercise_logs", _id(), _org(), _member(),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("exercise_type", sa.String(20), nullable=False),
        sa.Column("sets", sa.Integer, nullable=True),
        sa.Column("reps", sa.Integer, nullable=True),
        _num("load_kg"), _num("duration_min"), _num("distance_km"),
        sa.Column("rpe", sa.Numeric(3, 1), nullable=True),
        _jsonb("muscles"), _jsonb("goals"),
        sa.Column("notes", sa.Text, nullable=True),
        sa.Column("performed_at", sa.DateTime(timezone=True), nullable=False),
        _fk("workout_id", "trainer_workouts.id"),
        sa.Column("exercise_key", sa.String(20), nullable=True),        # ex_NNN in that workout
        _ts("undone_at", nullable=True),
        _ts("created_at"),
        sa.CheckConstraint(_in("exercise_type", EXERCISE_TYPES), name="exercise_type"),
        sa.CheckConstraint("sets IS NULL OR sets BETWEEN 1 AND 100", name="sets"),
        sa.CheckConstraint("reps IS NULL OR reps BETWEEN 1 AND 1000", name="reps"),
        sa.CheckConstraint("load_kg IS NULL OR load_kg >= 0", name="load"),
        sa.CheckConstraint("duration_min IS NULL OR duration_min > 0", name="duration"),
        sa.CheckConstraint("distance_km IS NULL OR distance_km > 0", name="distance"),
        sa.CheckConstraint("rpe IS NULL OR rpe BETWEEN 1 AND 10", name="rpe"),
    )
    op.create_index("ix_exercise_logs_member_time", "exercise_logs", ["org_id", "member_id", "performed_at"],
                    postgresql_where=sa.text("undone_at IS NULL"))

    op.create_table(
        "scheduled_workouts", _id(), _org(), _member(),
        sa.Column("scheduled_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("workout_type", sa.String(100), nullable=False),
        sa.Column("duration_minutes", sa.Integer, nullable=True),
        sa.Column("notes", sa.Text, nullable=True),
        _jsonb("exercises"),
        sa.Column("status", sa.String(12), nullable=False, server_default="scheduled"),
        _fk("plan_id", "workout_plans.id"),
        _ts("created_at"), _ts("updated_at"),
        sa.CheckConstraint("status IN ('scheduled','completed','skipped','cancelled')", name="status"),
        sa.CheckConstraint("duration_minutes IS NULL OR duration_minutes BETWEEN 1 AND 600", name="duration"),
    )
    op.create_index("ix_scheduled_workouts_member_time", "scheduled_workouts", ["org_id", "member_id", "scheduled_at"])

    op.create_table(
        "milestone_goals", _id(), _org(), _member(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("goal_type", sa.String(10), nullable=False),
        _num("target_value"),
        sa.Column("target_unit", sa.String(50), nullable=True),
        sa.Column("target_date", sa.Date, nullable=True),
        _num("current_value"),
        sa.Column("status", sa.String(10), nullable=False, server_default="active"),
        _fk("plan_id", "workout_plans.id"),
        _ts("created_at"), _ts("achieved_at", nullable=True),
        sa.CheckConstraint("goal_type IN ('distance','weight','time','event','other')", name="goal_type"),
        sa.CheckConstraint("status IN ('active','achieved','abandoned')", name="status"),
    )
    op.create_index("ix_milestone_goals_member", "milestone_goals", ["org_id", "member_id", "status"])

    for table in TABLES:
        run(op, tenant_table(table))


def downgrade() -> None:
    for table in reversed(TABLES):
        run(op, drop_tenant_table(table))
