"""The front desk's work (issue 42): waitlists, check-ins, membership freezes and messages to members.

`waitlist_entries` holds who waits for a seat in a full session, in the order they joined (one row per member and
session; a member who leaves keeps the row with `left_at`, so an undo puts them back in their place). `check_ins`
is each visit the desk records (with or without a booking), with what it changed, so an undo restores the member's
last visit and the booking. `membership_freezes` is a freeze from one local day to another with its reason.
`member_messages` is the outbox: drafts, then queued messages the worker delivers (status queued, sent, failed,
bounced; `not_before` defers one past quiet hours or the daily limit). `members` gains `messages_opted_out_at`;
`organizations` gains `messages_daily_limit` (None: the default in gym/outbox.py).

Revision ID: 0024_front_desk
Revises: 0023_set_units
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0024_front_desk"
down_revision = "0023_set_units"
branch_labels = None
depends_on = None

TABLES = ("member_messages", "membership_freezes", "check_ins", "waitlist_entries")


def _id() -> sa.Column:
    return sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()"))


def _org() -> sa.Column:
    return sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                     nullable=False)


def _member() -> sa.Column:
    return sa.Column("member_id", UUID(as_uuid=True), sa.ForeignKey("members.id", ondelete="CASCADE"), nullable=False)


def _by() -> sa.Column:
    return sa.Column("created_by", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True)


def _at(name: str, nullable: bool = True) -> sa.Column:
    if nullable:
        return sa.Column(name, sa.DateTime(timezone=True), nullable=True)
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()"))


def upgrade() -> None:
    op.add_column("members", sa.Column("messages_opted_out_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("organizations", sa.Column("messages_daily_limit", sa.Integer, nullable=True))

    op.create_table(
        "waitlist_entries", _id(), _org(),
        sa.Column("session_id", UUID(as_uuid=True), sa.ForeignKey("class_sessions.id", ondelete="CASCADE"),
                  nullable=False),
        _member(), _at("joined_at", nullable=False), _at("left_at"), _at("promoted_at"),
        sa.Column("booking_id", UUID(as_uuid=True), sa.ForeignKey("bookings.id", ondelete="SET NULL"), nullable=True),
        _by(),
        sa.UniqueConstraint("session_id", "member_id", name="uq_waitlist_entries_session_member"),
    )
    op.create_index("ix_waitlist_entries_queue", "waitlist_entries", ["org_id", "session_id", "joined_at"])

    op.create_table(
        "check_ins", _id(), _org(), _member(),
        sa.Column("booking_id", UUID(as_uuid=True), sa.ForeignKey("bookings.id", ondelete="SET NULL"), nullable=True),
        _at("checked_in_at", nullable=False), _at("previous_last_visit_at"),
        sa.Column("previous_booking_status", sa.String(10), nullable=True),
        sa.Column("booking_created", sa.Boolean, nullable=False, server_default=sa.false()),
        _by(), _at("undone_at"),
    )
    op.create_index("ix_check_ins_member_time", "check_ins", ["org_id", "member_id", "checked_in_at"])

    op.create_table(
        "membership_freezes", _id(), _org(), _member(),
        sa.Column("starts_on", sa.Date, nullable=False), sa.Column("ends_on", sa.Date, nullable=False),
        sa.Column("reason", sa.String(300), nullable=True),
        sa.Column("previous_status", sa.String(10), nullable=False),
        _by(), _at("created_at", nullable=False), _at("unfrozen_at"),
        sa.CheckConstraint("ends_on >= starts_on", name="freeze_order"),
    )
    op.create_index("ix_membership_freezes_member", "membership_freezes", ["org_id", "member_id", "starts_on"])

    op.create_table(
        "member_messages", _id(), _org(), _member(),
        sa.Column("batch_id", UUID(as_uuid=True), nullable=False),
        sa.Column("channel", sa.String(10), nullable=False, server_default="email"),
        sa.Column("purpose", sa.String(20), nullable=False),
        sa.Column("reason", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False, server_default="draft"),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("failure_code", sa.String(40), nullable=True),
        sa.Column("provider_id", sa.String(300), nullable=True),
        _by(), _at("created_at", nullable=False), _at("queued_at"), _at("not_before"), _at("sent_at"),
        _at("discarded_at"), _at("updated_at", nullable=False),
        sa.CheckConstraint("status IN ('draft', 'discarded', 'queued', 'sent', 'failed', 'bounced')",
                           name="message_status"),
    )
    op.create_index("ix_member_messages_batch", "member_messages", ["org_id", "batch_id"])
    op.create_index("ix_member_messages_due", "member_messages", ["org_id", "not_before"],
                    postgresql_where=sa.text("status = 'queued'"))
    op.create_index("ix_member_messages_sent", "member_messages", ["org_id", "sent_at"],
                    postgresql_where=sa.text("sent_at IS NOT NULL"))

    for table in TABLES:
        run(op, tenant_table(table))


def downgrade() -> None:
    for table in TABLES:
        run(op, drop_tenant_table(table))
    op.drop_column("organizations", "messages_daily_limit")
    op.drop_column("members", "messages_opted_out_at")
