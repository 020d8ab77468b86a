"""Training: programs and enrollments, the exercise library, workouts (sections → movements),
assignments with comments and per-coach read markers, program templates; links class types and
class sessions to programs.

Revision ID: 0004_training
Revises: 0003_members_classes
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0004_training"
down_revision = "0003_members_classes"
branch_labels = None
depends_on = None

TABLES = ("programs", "program_enrollments", "exercises", "workouts", "workout_sections", "workout_movements",
          "assignments", "workout_comments", "comment_read_markers", "program_templates")
CATEGORIES = ("squat", "lunge", "hinge", "press", "pull", "carry", "gymnastics", "monostructural", "olympic",
              "core", "plyometric", "mobility", "accessory")
PROGRAM_LINKS = ("class_types", "class_sessions")

# array_to_string is only STABLE; the wrapper is IMMUTABLE so a generated column may call it.
SEARCH_TEXT_FN = """CREATE OR REPLACE FUNCTION exercise_search_text(name text, aliases text[])
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT lower(name || ' ' || coalesce(array_to_string(aliases, ' '), '')) $$"""


def _id() -> sa.Column:
    return sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()"))


def _org() -> sa.Column:
    return sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                     nullable=False)


def _fk(name: str, target: str, ondelete: str, *, nullable: bool = True) -> sa.Column:
    return sa.Column(name, UUID(as_uuid=True), sa.ForeignKey(target, ondelete=ondelete), nullable=nullable)


def _ts(name: str, *, nullable: bool = False) -> sa.Column:
    if nullable:
        return sa.Column(name, sa.DateTime(timezone=True), nullable=True)
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now())


def _trgm(name: str, table: str, column: str) -> None:
    op.create_index(name, table, [sa.text(f"{column} gin_trgm_ops")], postgresql_using="gin")


def _text_array(name: str) -> sa.Column:
    return sa.Column(name, ARRAY(sa.Text), nullable=False, server_default=sa.text("'{}'::text[]"))


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    op.execute(SEARCH_TEXT_FN)

    op.create_table(
        "programs", _id(), _org(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("description", sa.Text, nullable=True),
        sa.Column("active", sa.Boolean, nullable=False, server_default=sa.true()),
        _ts("deleted_at", nullable=True),
        _fk("created_by", "users.id", "SET NULL"),
        _ts("created_at"), _ts("updated_at"),
        sa.CheckConstraint("kind IN ('coaching','class','feed')", name="kind"),
    )
    op.create_index("ix_programs_org_live", "programs", ["org_id", "name"],
                    postgresql_where=sa.text("deleted_at IS NULL"))
    _trgm("ix_programs_name_trgm", "programs", "name")

    op.create_table(
        "program_enrollments", _id(), _org(),
        _fk("program_id", "programs.id", "CASCADE", nullable=False),
        _fk("member_id", "members.id", "CASCADE", nullable=False),
        sa.Column("status", sa.String(10), nullable=False, server_default="active"),
        _ts("enrolled_at"), _ts("ended_at", nullable=True),
        sa.UniqueConstraint("program_id", "member_id", name="uq_program_enrollments_program_member"),
        sa.CheckConstraint("status IN ('active','ended')", name="status"),
    )
    op.create_index("ix_program_enrollments_member", "program_enrollments", ["org_id", "member_id"])

    op.create_table(
        "exercises", _id(), _org(),
        sa.Column("name", sa.String(200), nullable=False),
        _text_array("aliases"), _text_array("equipment"), _text_array("muscles"),
        sa.Column("category", sa.String(20), nullable=False),
        sa.Column("search_text", sa.Text, sa.Computed("exercise_search_text(name, aliases)", persisted=True)),
        _ts("created_at"),
        sa.UniqueConstraint("org_id", "name", name="uq_exercises_org_name"),
        sa.CheckConstraint("category IN (" + ",".join(f"'{c}'" for c in CATEGORIES) + ")", name="category"),
    )
    _trgm("ix_exercises_name_trgm", "exercises", "name")
    _trgm("ix_exercises_search_trgm", "exercises", "search_text")

    op.create_table(
        "workouts", _id(), _org(),
        _fk("program_id", "programs.id", "SET NULL"),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("description", sa.Text, nullable=True),
        sa.Column("scheduled_on", sa.Date, nullable=True),
        sa.Column("format", sa.String(12), nullable=False, server_default="freeform"),
        sa.Column("freeform_text", sa.Text, nullable=True),
        _ts("deleted_at", nullable=True),
        _fk("created_by", "users.id", "SET NULL"),
        _ts("created_at"), _ts("updated_at"),
        sa.CheckConstraint("format IN ('freeform','structured')", name="format"),
    )
    op.create_index("ix_workouts_program_day", "workouts", ["org_id", "program_id", "scheduled_on"],
                    postgresql_where=sa.text("deleted_at IS NULL"))
    _trgm("ix_workouts_title_trgm", "workouts", "title")

    op.create_table(
        "workout_sections", _id(), _org(),
        _fk("workout_id", "workouts.id", "CASCADE", nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("title", sa.String(200), nullable=True),
        sa.Column("scheme", sa.String(200), nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("notes", sa.Text, nullable=True),
        sa.UniqueConstraint("workout_id", "position", name="uq_workout_sections_position"),
    )

    op.create_table(
        "workout_movements", _id(), _org(),
        _fk("section_id", "workout_sections.id", "CASCADE", nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        _fk("exercise_id", "exercises.id", "SET NULL"),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("prescription", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.UniqueConstraint("section_id", "position", name="uq_workout_movements_position"),
    )
    op.create_index("ix_workout_movements_exercise", "workout_movements", ["exercise_id"])

    op.create_table(
        "assignments", _id(), _org(),
        _fk("workout_id", "workouts.id", "CASCADE", nullable=False),
        _fk("member_id", "members.id", "CASCADE"),
        _fk("program_id", "programs.id", "SET NULL"),
        sa.Column("scheduled_on", sa.Date, nullable=False),
        sa.Column("published", sa.Boolean, nullable=False, server_default=sa.false()),
        _fk("coach_user_id", "users.id", "SET NULL"),
        _ts("created_at"), _ts("updated_at"), _ts("deleted_at", nullable=True),
    )
    op.create_index("ix_assignments_org_day", "assignments", ["org_id", "scheduled_on"],
                    postgresql_where=sa.text("deleted_at IS NULL"))
    op.create_index("ix_assignments_member_day", "assignments", ["org_id", "member_id", "scheduled_on"],
                    postgresql_where=sa.text("deleted_at IS NULL AND member_id IS NOT NULL"))
    op.create_index("ix_assignments_program_day", "assignments", ["org_id", "program_id", "scheduled_on"],
                    postgresql_where=sa.text("deleted_at IS NULL"))
    op.create_index("ix_assignments_workout", "assignments", ["workout_id"])

    op.create_table(
        "workout_comments", _id(), _org(),
        _fk("assignment_id", "assignments.id", "CASCADE", nullable=False),
        _fk("author_member_id", "members.id", "SET NULL"),
        _fk("author_user_id", "users.id", "SET NULL"),
        sa.Column("body", sa.Text, nullable=False),
        # clock time, not transaction time: a thread written in one transaction keeps its order
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False,
                  server_default=sa.text("clock_timestamp()")),
    )
    op.create_index("ix_workout_comments_assignment", "workout_comments", ["assignment_id", "created_at"])
    op.create_index("ix_workout_comments_org_created", "workout_comments", ["org_id", sa.text("created_at DESC")])

    op.create_table(
        "comment_read_markers", _org(),
        _fk("comment_id", "workout_comments.id", "CASCADE", nullable=False),
        _fk("coach_user_id", "users.id", "CASCADE", nullable=False),
        _ts("read_at"),
        sa.PrimaryKeyConstraint("comment_id", "coach_user_id", name="pk_comment_read_markers"),
    )
    op.create_index("ix_comment_read_markers_coach", "comment_read_markers", ["org_id", "coach_user_id"])

    op.create_table(
        "program_templates", _id(), _org(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("description", sa.Text, nullable=True),
        sa.Column("weeks", sa.Integer, nullable=False),
        sa.Column("structure", JSONB, nullable=False, server_default=sa.text("'[]'::jsonb")),
        sa.Column("source", sa.String(10), nullable=False, server_default="manual"),
        _fk("created_by", "users.id", "SET NULL"),
        _ts("created_at"),
        sa.CheckConstraint("source IN ('manual','history')", name="source"),
        sa.CheckConstraint("weeks BETWEEN 1 AND 104", name="weeks"),
    )
    _trgm("ix_program_templates_name_trgm", "program_templates", "name")

    for table in TABLES:
        run(op, tenant_table(table))

    for table in PROGRAM_LINKS:
        op.create_foreign_key(f"fk_{table}_program_id_programs", table, "programs", ["program_id"], ["id"],
                              ondelete="SET NULL")
        op.create_index(f"ix_{table}_program", table, ["program_id"])


def downgrade() -> None:
    for table in PROGRAM_LINKS:
        op.drop_index(f"ix_{table}_program", table_name=table)
        op.drop_constraint(f"fk_{table}_program_id_programs", table, type_="foreignkey")
    for table in reversed(TABLES):
        run(op, drop_tenant_table(table))
    op.execute("DROP FUNCTION IF EXISTS exercise_search_text(text, text[])")
