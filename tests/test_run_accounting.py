"""The test command tells the truth (tests/accounting.py): pytest runs a tiny suite in a subprocess, under xdist,
in which one test kills its worker (os._exit); the run must fail, and its last line must count every collected test
with the ones that never ran. A suite that runs whole passes, with the same line. A worker killed while its embedded
Postgres and Redis run (the project's own fixtures, tests/conftest.py) leaves neither running after the run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
LINE = re.compile(r"^collected (\d+) = (\d+) passed \+ (\d+) failed \+ (\d+) errors \+ (\d+) skipped \+ (\d+) xfailed "
                  r"\+ (\d+) xpassed \+ (\d+) not run$")

CONFTEST = """
import pytest
from tests.accounting import RunAccounting


def pytest_configure(config):
    config.pluginmanager.register(RunAccounting(config), "run-accounting")
"""
PLAIN = """
import pytest


@pytest.mark.parametrize("n", range(4))
def test_passes(n):
    assert n >= 0


def test_skips():
    pytest.skip("not here")


@pytest.mark.xfail(reason="known", strict=True)
def test_known_failure():
    assert False
"""
CRASH = """
import os


def test_first():
    assert True


def test_kills_its_worker():
    os._exit(3)


{rest}
"""


FUZZ = """
from tests.api.fuzz_report import fail_briefly


def test_a_fuzz_that_found_a_lot():
    fail_briefly({f"check {n}": ["x" * 5000, {"nested": [list(range(100))] * 50}] for n in range(2000)})
"""


# The project's conftest (its fixtures, its account, its check for leftover servers) as the tiny suite's plugin;
# the test starts both embedded servers, writes down their pids, and kills its worker.
PROJECT_CONFTEST = 'pytest_plugins = ["tests.conftest"]\n'
SERVERS_CRASH = """
import os


def test_kills_its_worker_with_its_servers_up(embedded_pg, embedded_redis):
    pg_pid = int((embedded_pg.pgdata / "postmaster.pid").read_text().splitlines()[0])
    with open(os.environ["SPOTTER_TEST_PIDS"], "w") as out:
        out.write(f"{pg_pid} {embedded_redis.pid}")
    os._exit(3)


def test_after():
    assert True
"""


def _suite(tmp_path: Path, *, crash: bool, fuzz: bool = False) -> Path:
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p no:randomly\n")
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_plain.py").write_text(PLAIN)
    if crash:
        rest = "\n\n".join(f"def test_after_{n}():\n    assert True" for n in range(6))
        (tmp_path / "test_crash.py").write_text(CRASH.format(rest=rest))
    if fuzz:
        (tmp_path / "test_fuzz.py").write_text(FUZZ)
    return tmp_path


def _run(where: Path, workers: int = 2, *, with_stderr: bool = False, **extra_env: str) -> tuple[int, list[str]]:
    """The suite (under xdist with `workers`, no worker restarts): its exit code and its output's lines (stdout,
    then stderr `with_stderr`)."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1", **extra_env}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_XDIST_TESTRUNUID", None)
    env.pop("PYTEST_XDIST_WORKER_COUNT", None)
    xdist = ["-n", str(workers), "--dist", "loadscope", "--max-worker-restart", "0"] if workers else ["-p", "no:xdist"]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", *xdist, str(where)],
                          cwd=where, env=env, capture_output=True, text=True, timeout=400)
    output = done.stdout + (done.stderr if with_stderr else "")
    return done.returncode, [line for line in output.splitlines() if line.strip()]


def _counts(lines: list[str]) -> tuple[int, ...]:
    found = [LINE.match(line) for line in lines]
    matched = [m for m in found if m]
    assert matched, "\n".join(lines[-15:])
    return tuple(int(g) for g in matched[-1].groups())


def test_a_worker_that_dies_fails_the_run_and_every_unrun_test_is_counted(tmp_path: Path) -> None:
    code, lines = _run(_suite(tmp_path, crash=True))
    assert code != 0, "\n".join(lines[-15:])
    collected, passed, failed, errors, skipped, xfailed, xpassed, not_run = _counts(lines)
    assert collected == 14 == passed + failed + errors + skipped + xfailed + xpassed + not_run
    assert failed >= 1 and not_run >= 1  # the test that killed it, and the module's tests after it
    failure = [line for line in lines if line.startswith("THE RUN FAILED")]
    assert failure and "never ran" in failure[-1] and "crashed" in failure[-1]
    assert lines[-1].startswith("THE RUN FAILED") and LINE.match(lines[-2])  # the run ends with its account


def test_a_whole_run_passes_with_its_account_as_the_last_line(tmp_path: Path) -> None:
    code, lines = _run(_suite(tmp_path, crash=False), workers=0)
    assert code == 0, "\n".join(lines[-15:])
    assert LINE.match(lines[-1])
    assert _counts(lines) == (6, 4, 0, 0, 1, 1, 0, 0)


def test_a_fuzz_failure_fails_its_test_briefly_and_the_run_counts_it(tmp_path: Path) -> None:
    """A schemathesis-sized failure (tests/api/fuzz_report.py) is one bounded message without a traceback."""
    code, lines = _run(_suite(tmp_path, crash=False, fuzz=True))
    assert code == 1, "\n".join(lines[-15:])
    assert _counts(lines) == (7, 4, 1, 0, 1, 1, 0, 0)
    assert sum(len(line) for line in lines) < 40_000 and "more characters" in "\n".join(lines)


def test_a_worker_that_dies_with_its_servers_up_leaves_no_server_running(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider -p no:randomly\n")
    (suite / "conftest.py").write_text(PROJECT_CONFTEST)
    (suite / "test_servers.py").write_text(SERVERS_CRASH)
    pids = tmp_path / "pids"
    code, lines = _run(suite, workers=1, with_stderr=True, SPOTTER_TEST_PIDS=str(pids))
    kept = [line.split(": ", 1)[1] for line in lines if line.startswith("this run's temp dir is kept: ")]
    try:
        assert code != 0, "\n".join(lines[-15:])
        assert _counts(lines)[0] == 2 and _counts(lines)[-1] == 1  # the test after the crash never ran
        pg_pid, redis_pid = (int(pid) for pid in pids.read_text().split())
        alive = [pid for pid in (pg_pid, redis_pid) if psutil.pid_exists(pid)
                 and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
        assert not alive, f"servers outlived the run: {alive}\n" + "\n".join(lines[-15:])
    finally:
        for path in kept:  # a failed run keeps its temp dir (Postgres' data) for a look: not this one
            shutil.rmtree(path, ignore_errors=True)
