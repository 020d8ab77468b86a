"""Row estimates for the search functions, and vocabulary words inserted in order.

Row estimates: `rag_alike_terms()` returns a few dozen words and
`rag_term_candidates()` a few hundred ids, not PostgreSQL's default 1,000 rows for a set-returning
function. With the default the planner sorted the candidates' ~6,500 lexemes for a merge join with the
alike words; with these it hashes the words (lexical scoring of a ten-word message at 100k members:
17 ms instead of 21 ms, EXPLAIN ANALYZE).

Order: two drains writing documents of one org at once (two `spotter serve` processes) may add the same
new words; inserted in different orders, each could wait on the other's uncommitted word (a deadlock).
The trigger now inserts them sorted.

Revision ID: 0013_rag_functions
Revises: 0012_rag_nearest_terms
Create Date: 2026-11-24
"""

import importlib.util
from pathlib import Path

from alembic import op

revision = "0013_rag_functions"
down_revision = "0012_rag_nearest_terms"
branch_labels = None
depends_on = None

ALIKE = "rag_alike_terms(text[], boolean[], real)"
CANDIDATES = ("rag_term_candidates(text[], integer[], text[], boolean[], boolean[], integer[], integer[], text[], "
              "integer, real, integer, integer, integer, real)")


def _vocabulary_migration():
    path = Path(__file__).with_name("0010_rag_terms.py")
    spec = importlib.util.spec_from_file_location("_migration_0010_rag_terms", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def collect_fn() -> str:
    """Migration 0010's rag_terms_collect() with the words inserted sorted."""
    previous = _vocabulary_migration().COLLECT_FN
    unordered = "  ON CONFLICT DO NOTHING;"
    assert previous.count(unordered) == 1
    return previous.replace(unordered, "  ORDER BY 1, 2\n  ON CONFLICT DO NOTHING;")


def upgrade() -> None:
    op.execute(collect_fn())
    op.execute(f"ALTER FUNCTION {ALIKE} ROWS 20")
    op.execute(f"ALTER FUNCTION {CANDIDATES} ROWS 200")


def downgrade() -> None:
    op.execute(_vocabulary_migration().COLLECT_FN)
    op.execute(f"ALTER FUNCTION {ALIKE} ROWS 1000")
    op.execute(f"ALTER FUNCTION {CANDIDATES} ROWS 1000")
