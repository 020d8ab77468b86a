"""The nearest vocabulary words of a short spelling: the closest `nearest_terms` first, then those under
the distance floor, so the GiST KNN scan stops after a few words.

With the floor inside the KNN scan (migration 0011), a spelling with fewer close words than
`nearest_terms` ("deadlifts": 4 within the floor) walked the whole vocabulary to fill the LIMIT and
filtered every word out: 3.3 ms per spelling at 100k members instead of ~0.1 ms (EXPLAIN ANALYZE).

Revision ID: 0012_rag_nearest_terms
Revises: 0011_rag_member_cap
Create Date: 2026-11-24
"""

import importlib.util
from pathlib import Path

from alembic import op

revision = "0012_rag_nearest_terms"
down_revision = "0011_rag_member_cap"
branch_labels = None
depends_on = None

SLOW = """      SELECT t.term FROM rag_terms t WHERE t.org_id = org AND s.v <<<-> t.term <= 1 - nearest_floor
      ORDER BY s.v <<<-> t.term LIMIT nearest_terms) t"""
FAST = """      SELECT k.term FROM (
        SELECT t.term, s.v <<<-> t.term AS distance FROM rag_terms t WHERE t.org_id = org
        ORDER BY s.v <<<-> t.term LIMIT nearest_terms) k
      WHERE k.distance <= 1 - nearest_floor) t"""


def _previous():
    path = Path(__file__).with_name("0011_rag_member_cap.py")
    spec = importlib.util.spec_from_file_location("_migration_0011_rag_member_cap", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def candidates_fn() -> str:
    """Migration 0011's rag_term_candidates() with the nearest words taken, then filtered."""
    previous = _previous().CANDIDATES_FN
    assert SLOW in previous
    return previous.replace(SLOW, FAST)


def upgrade() -> None:
    op.execute(candidates_fn())  # same signature: grants stay


def downgrade() -> None:
    op.execute(_previous().CANDIDATES_FN)
