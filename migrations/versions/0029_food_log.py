"""The member's food log, body weights and expenditure choice (issue 43 item 6: MacroFactor's core).

`food_log_entries` holds what a member ate on a local day of their gym, in a meal: a library food with the portion
as entered (amount and unit: g, oz or the food's serving) and its grams, or a quick entry of calories and macros
with an optional label; energy and macros are stored as computed when logged. `body_weights` holds one weight per
member and day (an edit replaces it). `expenditure_choices` holds each member's explicit choice between the
SCIENTIST's formula TDEE and their estimated expenditure (with the estimate they accepted), which the next weekly
check-in applies.

Revision ID: 0029_food_log
Revises: 0027_hardening
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0029_food_log"
down_revision = "0028_conversation_channel"
branch_labels = None
depends_on = None

TABLES = ("food_log_entries", "body_weights", "expenditure_choices")


def _owned() -> list[sa.Column]:
    return [
        sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False),
        sa.Column("member_id", UUID(as_uuid=True), sa.ForeignKey("members.id", ondelete="CASCADE"), nullable=False),
    ]


def _at(name: str) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()"))


def upgrade() -> None:
    op.create_table(
        "food_log_entries", *_owned(),
        sa.Column("eaten_on", sa.Date, nullable=False),
        sa.Column("meal", sa.String(10), nullable=False),
        sa.Column("food_key", sa.String(40), nullable=True),
        sa.Column("amount", sa.Numeric(8, 2), nullable=True),
        sa.Column("unit", sa.String(8), nullable=True),
        sa.Column("grams", sa.Numeric(8, 2), nullable=True),
        sa.Column("label", sa.String(80), nullable=True),
        sa.Column("kcal", sa.Numeric(8, 1), nullable=False),
        sa.Column("protein_g", sa.Numeric(7, 2), nullable=True),
        sa.Column("fat_g", sa.Numeric(7, 2), nullable=True),
        sa.Column("carbs_g", sa.Numeric(7, 2), nullable=True),
        sa.Column("fiber_g", sa.Numeric(7, 2), nullable=True),
        _at("created_at"),
        sa.CheckConstraint("meal IN ('breakfast', 'lunch', 'dinner', 'snack')", name="food_log_meal"),
        sa.CheckConstraint("unit IS NULL OR unit IN ('g', 'oz', 'serving')", name="food_log_unit"),
        sa.CheckConstraint("(food_key IS NULL) = (grams IS NULL) AND (food_key IS NULL) = (amount IS NULL)",
                           name="food_log_portion"),
        sa.CheckConstraint("kcal BETWEEN 0 AND 10000", name="food_log_kcal"),
        sa.CheckConstraint("grams IS NULL OR grams > 0", name="food_log_grams"),
    )
    op.create_index("ix_food_log_entries_day", "food_log_entries", ["org_id", "member_id", "eaten_on"])

    op.create_table(
        "body_weights", *_owned(),
        sa.Column("measured_on", sa.Date, nullable=False),
        sa.Column("weight_kg", sa.Numeric(6, 2), nullable=False),
        _at("created_at"), _at("updated_at"),
        sa.UniqueConstraint("member_id", "measured_on", name="uq_body_weights_member_day"),
        sa.CheckConstraint("weight_kg BETWEEN 25 AND 350", name="body_weight_range"),
    )

    op.create_table(
        "expenditure_choices", *_owned(),
        sa.Column("choice", sa.String(8), nullable=False),
        sa.Column("estimate_kcal", sa.Integer, nullable=True),
        sa.Column("formula_kcal", sa.Integer, nullable=True),
        sa.Column("confidence", sa.String(6), nullable=True),
        _at("decided_at"),
        sa.UniqueConstraint("member_id", name="uq_expenditure_choices_member"),
        sa.CheckConstraint("choice IN ('estimate', 'formula')", name="expenditure_choice"),
        sa.CheckConstraint("choice = 'formula' OR estimate_kcal IS NOT NULL", name="expenditure_choice_estimate"),
    )

    for table in TABLES:
        run(op, tenant_table(table))


def downgrade() -> None:
    for table in reversed(TABLES):
        run(op, drop_tenant_table(table))
