"""Fair queues between gyms (issue 40 item 5): a job's org rides in its PgQueuer headers (`{"org": <uuid>}`), and
`job_queue_rank(entrypoint, org)` counts the org's jobs still queued on that entrypoint, so a new job is enqueued
behind its own org's backlog (priority = -rank) and PgQueuer's dequeue (priority DESC, id ASC) serves the orgs
round-robin: a gym that floods the queue waits for itself, not the others (gym/job_queue.py).

The function is SECURITY DEFINER: the app role, which may insert jobs but not read them (0018), learns a count and
nothing else. The partial index keeps the count to the org's own queued jobs.

Revision ID: 0026_fair_queue
Revises: 0025_workout_left_out
Create Date: 2026-11-29
"""

from alembic import op

from core.database import APP_ROLE
from core.rls import run

revision = "0026_fair_queue"
down_revision = "0025_workout_left_out"
branch_labels = None
depends_on = None

SIGNATURE = "job_queue_rank(text, text)"

FUNCTION = """
CREATE OR REPLACE FUNCTION job_queue_rank(queue text, org text) RETURNS integer
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT count(*)::integer FROM pgqueuer
  WHERE entrypoint = queue AND status = 'queued' AND headers->>'org' = org
$$"""


def upgrade() -> None:
    run(op, ["CREATE INDEX IF NOT EXISTS pgqueuer_queued_by_org ON pgqueuer (entrypoint, (headers->>'org')) "
             "WHERE status = 'queued'",
             FUNCTION,
             f"REVOKE ALL ON FUNCTION {SIGNATURE} FROM PUBLIC",
             f"GRANT EXECUTE ON FUNCTION {SIGNATURE} TO {APP_ROLE}"])


def downgrade() -> None:
    run(op, [f"DROP FUNCTION IF EXISTS {SIGNATURE}", "DROP INDEX IF EXISTS pgqueuer_queued_by_org"])
