"""Members, billing (plans, subscriptions, payments), classes (types, sessions, bookings) and forms.

`class_types.program_id` and `class_sessions.program_id` have no foreign key yet: programs arrive in
0004, which adds it.

Revision ID: 0003_members_classes
Revises: 0002_tasks
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0003_members_classes"
down_revision = "0002_tasks"
branch_labels = None
depends_on = None

TABLES = ("members", "membership_plans", "member_subscriptions", "payments", "class_types", "class_sessions",
          "bookings", "forms", "form_assignments")


def _id() -> sa.Column:
    return sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()"))


def _org() -> sa.Column:
    return sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                     nullable=False)


def _ref(name: str, target: str, *, ondelete: str = "CASCADE", nullable: bool = False) -> sa.Column:
    return sa.Column(name, UUID(as_uuid=True), sa.ForeignKey(f"{target}.id", ondelete=ondelete), nullable=nullable)


def _user(name: str) -> sa.Column:
    return _ref(name, "users", ondelete="SET NULL", nullable=True)


def _ts(name: str, *, nullable: bool = True, now: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable,
                     server_default=sa.func.now() if now else None)


def _trgm(name: str, table: str, column: str) -> None:
    op.create_index(name, table, [column], postgresql_using="gin", postgresql_ops={column: "gin_trgm_ops"})


def upgrade() -> None:
    op.create_table(
        "members", _id(), _org(),
        sa.Column("first_name", sa.String(100), nullable=False),
        sa.Column("last_name", sa.String(100), nullable=False, server_default=""),
        sa.Column("full_name", sa.String(201), nullable=False),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("phone", sa.String(40), nullable=True),
        sa.Column("status", sa.String(10), nullable=False, server_default="active"),
        sa.Column("joined_at", sa.Date, nullable=False, server_default=sa.func.current_date()),
        _user("coach_user_id"),
        _ts("last_visit_at"),
        _user("user_id"),
        sa.Column("notes", sa.Text, nullable=True),
        _ts("deleted_at"),
        _ts("created_at", nullable=False, now=True),
        _ts("updated_at", nullable=False, now=True),
        sa.CheckConstraint("status IN ('lead','active','frozen','cancelled')", name="status"),
    )
    _trgm("ix_members_full_name_trgm", "members", "full_name")
    _trgm("ix_members_email_trgm", "members", "email")
    op.create_index("ix_members_org_status", "members", ["org_id", "status"],
                    postgresql_where=sa.text("deleted_at IS NULL"))
    op.create_index("ix_members_org_last_visit", "members", ["org_id", "last_visit_at"],
                    postgresql_where=sa.text("deleted_at IS NULL"))
    op.create_index("ix_members_org_joined", "members", ["org_id", "joined_at"])
    op.create_index("ix_members_org_coach", "members", ["org_id", "coach_user_id"])
    op.create_index("ix_members_user", "members", ["user_id"])
    op.create_index("uq_members_org_email", "members", ["org_id", sa.text("lower(email)")], unique=True,
                    postgresql_where=sa.text("deleted_at IS NULL AND email IS NOT NULL"))

    op.create_table(
        "membership_plans", _id(), _org(),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("price_cents", sa.Integer, nullable=False),
        sa.Column("currency", sa.CHAR(3), nullable=False, server_default="ILS"),
        sa.Column("interval", sa.String(12), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False, server_default=sa.true()),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint("interval IN ('month','year','week','class_pack')", name="interval"),
        sa.CheckConstraint("price_cents >= 0", name="price"),
    )
    op.create_index("ix_membership_plans_org", "membership_plans", ["org_id", "active"])

    op.create_table(
        "member_subscriptions", _id(), _org(),
        _ref("member_id", "members"),
        _ref("plan_id", "membership_plans", ondelete="RESTRICT"),
        sa.Column("status", sa.String(10), nullable=False, server_default="active"),
        sa.Column("started_on", sa.Date, nullable=False),
        sa.Column("ends_on", sa.Date, nullable=True),
        _ts("cancelled_at"),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint("status IN ('active','paused','cancelled','expired')", name="status"),
    )
    op.create_index("ix_member_subscriptions_member", "member_subscriptions", ["member_id", "started_on"])
    op.create_index("ix_member_subscriptions_org_plan", "member_subscriptions", ["org_id", "status", "plan_id"])

    op.create_table(
        "payments", _id(), _org(),
        _ref("member_id", "members"),
        _ref("subscription_id", "member_subscriptions", ondelete="SET NULL", nullable=True),
        sa.Column("amount_cents", sa.Integer, nullable=False),
        sa.Column("currency", sa.CHAR(3), nullable=False, server_default="ILS"),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("due_on", sa.Date, nullable=False),
        _ts("paid_at"),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint("status IN ('paid','failed','refunded','pending')", name="status"),
    )
    op.create_index("ix_payments_org_paid_at", "payments", ["org_id", "paid_at"],
                    postgresql_where=sa.text("status = 'paid'"))
    op.create_index("ix_payments_org_unpaid", "payments", ["org_id", "due_on"],
                    postgresql_where=sa.text("status IN ('failed','pending')"))
    op.create_index("ix_payments_member_due", "payments", ["member_id", "due_on"])
    op.create_index("ix_payments_subscription", "payments", ["subscription_id"])

    op.create_table(
        "class_types", _id(), _org(),
        sa.Column("program_id", UUID(as_uuid=True), nullable=True),  # FK added with programs (0004)
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("default_duration_min", sa.Integer, nullable=False, server_default="60"),
        sa.Column("default_capacity", sa.Integer, nullable=False, server_default="16"),
        sa.Column("color", sa.String(9), nullable=True),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint("default_duration_min > 0", name="duration"),
        sa.CheckConstraint("default_capacity > 0", name="capacity"),
    )
    op.create_index("ix_class_types_org_program", "class_types", ["org_id", "program_id"])
    _trgm("ix_class_types_name_trgm", "class_types", "name")

    op.create_table(
        "class_sessions", _id(), _org(),
        _ref("class_type_id", "class_types", ondelete="RESTRICT"),
        sa.Column("program_id", UUID(as_uuid=True), nullable=True),  # FK added with programs (0004)
        sa.Column("title", sa.String(200), nullable=False),
        _ts("starts_at", nullable=False),
        _ts("ends_at", nullable=False),
        sa.Column("capacity", sa.Integer, nullable=False),
        _user("coach_user_id"),
        sa.Column("published", sa.Boolean, nullable=False, server_default=sa.false()),
        _ts("cancelled_at"),
        _user("created_by"),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint("ends_at > starts_at", name="time_order"),
        sa.CheckConstraint("capacity > 0", name="capacity"),
    )
    op.create_index("ix_class_sessions_org_starts", "class_sessions", ["org_id", "starts_at"])
    op.create_index("ix_class_sessions_type_starts", "class_sessions", ["class_type_id", "starts_at"])

    op.create_table(
        "bookings", _id(), _org(),
        _ref("session_id", "class_sessions"),
        _ref("member_id", "members"),
        sa.Column("status", sa.String(10), nullable=False, server_default="booked"),
        _ts("booked_at", nullable=False, now=True),
        _ts("checked_in_at"),
        sa.UniqueConstraint("session_id", "member_id", name="uq_bookings_session_member"),
        sa.CheckConstraint("status IN ('booked','attended','no_show','cancelled')", name="status"),
    )
    op.create_index("ix_bookings_member_checked_in", "bookings", ["member_id", "checked_in_at"])

    op.create_table(
        "forms", _id(), _org(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("type_key", sa.String(10), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False, server_default=sa.true()),
        _ts("created_at", nullable=False, now=True),
        sa.CheckConstraint("type_key IN ('waiver','parq','health','custom')", name="type_key"),
    )
    op.create_index("ix_forms_org", "forms", ["org_id", "type_key"])

    op.create_table(
        "form_assignments", _id(), _org(),
        _ref("form_id", "forms"),
        _ref("member_id", "members"),
        sa.Column("status", sa.String(10), nullable=False, server_default="pending"),
        _ts("assigned_at", nullable=False, now=True),
        sa.Column("due_on", sa.Date, nullable=True),
        _ts("completed_at"),
        sa.CheckConstraint("status IN ('pending','completed','expired')", name="status"),
    )
    op.create_index("ix_form_assignments_org_pending", "form_assignments", ["org_id", "due_on"],
                    postgresql_where=sa.text("status = 'pending'"))
    op.create_index("ix_form_assignments_member", "form_assignments", ["member_id", "form_id", "assigned_at"])

    for table in TABLES:
        run(op, tenant_table(table))


def downgrade() -> None:
    for table in reversed(TABLES):
        run(op, drop_tenant_table(table))
