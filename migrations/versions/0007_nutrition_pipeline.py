"""The nutrition and training pipeline (issue 15, NUTRITION.md): runs, envelopes, events, check-ins,
adjustments and medical clearances. Every table is org-scoped with FORCE'd row-level security.

A run belongs to one gym member (`members.id`). At most one run per member may be working or paused
(state neither `output_ready` nor `error`): a partial unique index makes "409 run_in_progress" a
database fact, not a race between two requests.

Revision ID: 0007_nutrition_pipeline
Revises: 0006_training_record
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, UUID

from core.database import APP_ROLE
from core.rls import drop_tenant_table, run, tenant_table

revision = "0007_nutrition_pipeline"
down_revision = "0006_training_record"
branch_labels = None
depends_on = None

TABLES = ("nutrition_runs", "nutrition_messages", "nutrition_events", "nutrition_checkins",
          "nutrition_adjustments", "nutrition_medical_clearances")
STATES = ("intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
          "chef_processing", "coach_processing", "output_ready", "paused_physician", "error")
AGENTS = ("INTAKE", "SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH", "PHYSICIAN", "USER",
          "ORCHESTRATOR")
EVENT_KINDS = ("state", "envelope", "physician", "conflict", "error", "done")


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


def _id() -> sa.Column:
    return sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()"))


def _org() -> sa.Column:
    return sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                     nullable=False)


def _ref(name: str, target: str, *, ondelete: str = "CASCADE", nullable: bool = False) -> sa.Column:
    return sa.Column(name, UUID(as_uuid=True), sa.ForeignKey(f"{target}.id", ondelete=ondelete), nullable=nullable)


def _ts(name: str, *, nullable: bool = True, now: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable,
                     server_default=sa.func.now() if now else None)


def upgrade() -> None:
    op.create_table(
        "nutrition_runs", _id(), _org(),
        _ref("member_id", "members"),
        _ref("created_by", "users", ondelete="SET NULL", nullable=True),
        sa.Column("state", sa.String(32), nullable=False, server_default="intake_pending"),
        sa.Column("previous_state", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False, server_default="1"),
        sa.Column("terminated_medical", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("intake", JSONB, nullable=False),
        # The agent the run resumes after a restart: the last one whose output was accepted.
        sa.Column("last_completed_agent", sa.String(16), nullable=True),
        # What the run is currently doing beyond its state: the agents still to (re)run in this version.
        sa.Column("plan", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.Column("error", JSONB, nullable=True),
        sa.Column("job_id", sa.String(64), nullable=True),
        sa.Column("started_on", sa.Date, nullable=False, server_default=sa.func.current_date()),
        _ts("superseded_at"),
        _ts("finished_at"),
        _ts("created_at", nullable=False, now=True),
        _ts("updated_at", nullable=False, now=True),
        sa.CheckConstraint(f"state IN ({_in(STATES)})", name="state"),
        sa.CheckConstraint(f"previous_state IS NULL OR previous_state IN ({_in(STATES)})", name="previous_state"),
        sa.CheckConstraint("version >= 1", name="version"),
        sa.CheckConstraint("NOT terminated_medical OR state = 'error'", name="terminated_medical"),
    )
    op.create_index("ix_nutrition_runs_member", "nutrition_runs", ["org_id", "member_id", "created_at"])
    op.create_index("uq_nutrition_runs_member_active", "nutrition_runs", ["member_id"], unique=True,
                    postgresql_where=sa.text("state NOT IN ('output_ready', 'error')"))

    op.create_table(
        "nutrition_messages", _id(), _org(),
        _ref("run_id", "nutrition_runs"),
        sa.Column("run_version", sa.Integer, nullable=False),
        sa.Column("from_agent", sa.String(16), nullable=False),
        sa.Column("to_agent", sa.String(16), nullable=False),
        sa.Column("data_type", sa.String(32), nullable=False),
        sa.Column("payload", JSONB, nullable=False),
        sa.Column("schema_version", sa.String(8), nullable=False, server_default="1.0"),
        sa.Column("attempt", sa.Integer, nullable=False, server_default="1"),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint(f"from_agent IN ({_in(AGENTS)})", name="from_agent"),
        sa.CheckConstraint(f"to_agent IN ({_in(AGENTS)})", name="to_agent"),
        sa.CheckConstraint("run_version >= 1 AND attempt >= 1", name="counters"),
    )
    op.create_index("ix_nutrition_messages_run", "nutrition_messages", ["run_id", "created_at"])
    # One accepted output per agent, data type, version and attempt: a resumed worker cannot store twice.
    op.create_index("uq_nutrition_messages_output", "nutrition_messages",
                    ["run_id", "run_version", "from_agent", "data_type", "attempt"], unique=True)

    op.create_table(
        "nutrition_events",
        sa.Column("id", sa.BigInteger, sa.Identity(always=False), primary_key=True),
        _org(),
        _ref("run_id", "nutrition_runs"),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", JSONB, nullable=False),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint(f"kind IN ({_in(EVENT_KINDS)})", name="kind"),
        sa.UniqueConstraint("run_id", "seq", name="uq_nutrition_events_run_seq"),
    )

    op.create_table(
        "nutrition_checkins", _id(), _org(),
        _ref("run_id", "nutrition_runs"),
        _ref("member_id", "members"),
        _ref("submitted_by", "users", ondelete="SET NULL", nullable=True),
        sa.Column("checkin_date", sa.Date, nullable=False),
        sa.Column("weeks_on_program", sa.Integer, nullable=False),
        sa.Column("run_version", sa.Integer, nullable=False),
        sa.Column("payload", JSONB, nullable=False),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint("weeks_on_program >= 0", name="weeks"),
    )
    op.create_index("ix_nutrition_checkins_run", "nutrition_checkins", ["run_id", "checkin_date", "created_at"])

    op.create_table(
        "nutrition_adjustments", _id(), _org(),
        _ref("run_id", "nutrition_runs"),
        _ref("checkin_id", "nutrition_checkins"),
        sa.Column("from_version", sa.Integer, nullable=False),
        sa.Column("to_version", sa.Integer, nullable=False),
        sa.Column("triggers", JSONB, nullable=False, server_default=sa.text("'[]'::jsonb")),
        sa.Column("payload", JSONB, nullable=False),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint("to_version IN (from_version, from_version + 1)", name="versions"),
    )
    op.create_index("ix_nutrition_adjustments_run", "nutrition_adjustments", ["run_id", "created_at"])
    op.create_index("uq_nutrition_adjustments_checkin", "nutrition_adjustments", ["checkin_id"], unique=True)

    op.create_table(
        "nutrition_medical_clearances", _id(), _org(),
        _ref("member_id", "members"),
        _ref("run_id", "nutrition_runs", ondelete="SET NULL", nullable=True),
        _ref("recorded_by", "users", ondelete="SET NULL", nullable=True),
        sa.Column("note", sa.Text, nullable=False, server_default=""),
        _ts("created_at", nullable=False, now=True),
    )
    op.create_index("ix_nutrition_clearances_member", "nutrition_medical_clearances", ["member_id", "created_at"])

    for table in TABLES:
        run(op, tenant_table(table))
    run(op, [f"GRANT USAGE ON SEQUENCE nutrition_events_id_seq TO {APP_ROLE}"])


def downgrade() -> None:
    for table in reversed(TABLES):
        run(op, drop_tenant_table(table))
