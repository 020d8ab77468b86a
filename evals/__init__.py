"""The gym evaluation suite: tasks as data (evals/tasks/*.toml), each run K times in a fresh copy of the seeded
demo gym, graded by the database's end state, reported as pass^1 / pass^k with cost per task.

A layer above the engine: it imports agent/, tools/, gym/, core/ and (through evals/nutrition.py alone) the
nutrition pipeline; only the `spotter eval` command (api/cli/) imports it.
"""
