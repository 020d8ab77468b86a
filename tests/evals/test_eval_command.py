"""`spotter eval` through the real CLI: without a key the offline model runs the chosen tasks, the tables go to
stdout, the results file is written and compared with a previous run's (what changed is flagged)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from evals.report import TryResult, compare, write_results

REPO = Path(__file__).resolve().parents[2]


def _try(task: str, status: str) -> TryResult:
    return TryResult(task=task, family="staff_read", attempt=1, status=status, failures=[] if status == "pass" else ["x"])


def test_a_fall_in_a_task_s_pass_rate_is_flagged() -> None:
    before = [_try("a", "pass"), _try("a", "pass"), _try("b", "fail"), _try("c", "pass")]
    after = [_try("a", "pass"), _try("a", "fail"), _try("b", "pass"), _try("c", "pass"), _try("d", "pass")]
    assert compare(before, after) == {"a": "REGRESSED (was 100%)", "b": "fixed (was 0%)", "d": "new"}


def test_spotter_eval_offline_prints_the_tables_and_writes_results(embedded_pg, embedded_redis, data_dir,
                                                                    tmp_path) -> None:
    previous = tmp_path / "earlier" / "results.jsonl"
    previous.parent.mkdir()
    write_results(previous, {"model": "offline", "started": "2026-01-01T00:00:00+00:00"},
                  [_try("who-am-i", "fail"), _try("delete-murph", "pass")], [])
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ANTHROPIC", "AGENT_"))}
    env.update({"APP_ENV": "test", "DATABASE_URL": embedded_pg.url(), "REDIS_URL": embedded_redis.url,
                "DATA_DIR": str(data_dir), "SENTRY_DSN": "", "POSTHOG_API_KEY": ""})
    done = subprocess.run([sys.executable, "-m", "api.cli", "eval", "--model", "offline", "--k", "1", "--tasks",
                           "who-am-i,delete-murph", "--no-index", "--out", str(tmp_path), "--compare", str(previous)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "spotter eval --model offline --k 1" in out and "offline demo model, not an LLM" in out
    assert "who-am-i" in out and "fixed (was 0%)" in out  # the row of a task that now passes, compared
    assert "staff_destructive" in out and "pass^1 100.0% over 2 tasks" in out
    assert f"compared with {previous}: 0 regressed, 1 fixed" in out
    assert "agent.turn" not in out  # the engine's logs stay off the tables
    results = sorted(p for p in tmp_path.glob("*-offline/results.jsonl"))
    assert len(results) == 1
    lines = [json.loads(line) for line in results[0].read_text().splitlines()]
    assert lines[0]["kind"] == "run" and lines[0]["model"] == "offline" and lines[0]["reference_date"]
    tries = [line for line in lines if line["kind"] == "try"]
    assert {t["task"]: t["status"] for t in tries} == {"who-am-i": "pass", "delete-murph": "pass"}
    assert all(Path(t["transcript"]).exists() for t in tries)
