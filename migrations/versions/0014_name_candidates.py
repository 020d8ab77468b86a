"""Index-driven live name search: the candidate ids of an exercise or workout name search, by trigram index.

The read tools' live name searches scored every exercise (~200 per gym: similarity to the name and each
alias, word similarity to the search text) and every workout title (~500) against the query, 5-10 ms per
call with a whole staff message as the query. The trigram GIN indexes on `exercises.search_text` and
`workouts.title` would hand over only the rows holding enough of the query's trigrams, but under
row-level security the pg_trgm operators (not leakproof) cannot be index conditions, and on tables this
small the planner prefers a sequential scan anyway. These functions (SECURITY DEFINER, as the rag
candidate functions of migrations 0005 and 0010) return the ids whose text has word similarity ≥
`threshold` to the query (`text %> q` through the GIN index, sequential and plain index scans off) with
that word similarity; the caller reads and ranks those rows under its own row-level security (a workout
title search orders by the similarity returned, so no workout row is scored outside the function). A session scoped to another org
(or to none) gets nothing. EXPLAIN ANALYZE at 100k members, a ten-word message: 0.1 ms instead of 2.7 ms for the
prefilter alone.

Revision ID: 0014_name_candidates
Revises: 0013_rag_functions
Create Date: 2026-11-24
"""

from alembic import op

from core.database import APP_ROLE
from core.rls import run

revision = "0014_name_candidates"
down_revision = "0013_rag_functions"
branch_labels = None
depends_on = None

EXERCISES = "exercise_name_candidates(uuid, text, double precision)"
WORKOUTS = "workout_title_candidates(uuid, text, double precision)"


def _fn(name: str, table: str, column: str) -> str:
    # The org test is kept out of the index conditions (`IS TRUE`) so the (org_id, ...) btree cannot be
    # chosen over the trigram index; the rows the index offers are then filtered by org. Nothing else is
    # tested here (a `deleted_at IS NULL` lets the planner pick a partial btree index instead): the
    # caller filters what it reads.
    return f"""
CREATE OR REPLACE FUNCTION {name}(org uuid, q text, threshold double precision)
RETURNS TABLE (id uuid, similarity real) LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
SET enable_seqscan = off SET enable_indexscan = off SET enable_indexonlyscan = off
SET plan_cache_mode = force_generic_plan ROWS 20 AS $$
BEGIN
  IF org IS NULL OR app_current_org() IS DISTINCT FROM org THEN  -- fails closed: no scope, no ids
    RETURN;
  END IF;
  PERFORM set_config('pg_trgm.word_similarity_threshold', threshold::text, true);
  RETURN QUERY SELECT t.id, word_similarity(q, lower(t.{column})) FROM {table} t
    WHERE t.{column} %> q AND (t.org_id = org) IS TRUE;
END $$"""


def upgrade() -> None:
    op.execute(_fn("exercise_name_candidates", "exercises", "search_text"))
    op.execute(_fn("workout_title_candidates", "workouts", "title"))
    run(op, [statement for signature in (EXERCISES, WORKOUTS) for statement in (
        f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC", f"GRANT EXECUTE ON FUNCTION {signature} TO {APP_ROLE}")])


def downgrade() -> None:
    run(op, [f"DROP FUNCTION IF EXISTS {EXERCISES}", f"DROP FUNCTION IF EXISTS {WORKOUTS}"])
