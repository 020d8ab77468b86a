"""The run tells the truth: a pytest plugin that accounts for every collected test and ends the run with one line.

    collected 2613 = 2600 passed + 1 failed + 0 errors + 12 skipped + 0 xfailed + 0 xpassed + 0 not run

Under pytest-xdist a worker that dies (a crash, the OOM killer, os._exit) takes the tests it had not run with it;
pytest's own summary counts only what reported, so a run could end "2465 passed" with 148 tests never run and
nothing saying so. Here the collected ids (each worker reports its collection to the controller) are matched with
the reports: a test with no outcome is "not run", and a run with any not run, or any worker that went down
without finishing, fails with a line that says which and how many. Registered by tests/conftest.py (and by any
test run that wants it: `config.pluginmanager.register(RunAccounting(config))`).
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pytest

OUTCOMES = ("passed", "failed", "errors", "skipped", "xfailed", "xpassed")
_RANK = {"passed": 0, "xfailed": 0, "skipped": 1, "xpassed": 1, "errors": 2, "failed": 3}
SHOWN_NOT_RUN = 10


def _outcome(report: pytest.TestReport) -> str | None:
    """The outcome one phase's report gives its test (None: nothing to count yet)."""
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            return "xpassed" if xfail else "passed"
        if report.skipped:
            return "xfailed" if xfail else "skipped"
        return "failed"
    if report.failed:  # setup or teardown
        return "errors"
    if report.skipped and report.when == "setup":
        return "xfailed" if xfail else "skipped"
    return None


class RunAccounting:
    """Every collected test ends in exactly one outcome, or is counted as not run (and fails the run)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.collected: dict[str, None] = {}  # ordered: the first not-run ids shown are the first collected
        self.outcomes: dict[str, str] = {}
        self.crashed: list[str] = []
        self.line: str | None = None

    # ---- what was collected -------------------------------------------------------------------------

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not hasattr(self.config, "workerinput"):  # -n 0: this process collected the run
            self.collected.update(dict.fromkeys(item.nodeid for item in session.items))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.collected.update(dict.fromkeys(ids))

    # ---- what happened ------------------------------------------------------------------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        outcome = _outcome(report)
        if outcome is None:
            return
        before = self.outcomes.get(report.nodeid)
        if before is None or _RANK[outcome] > _RANK[before]:
            self.outcomes[report.nodeid] = outcome

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object | None) -> None:
        if error is not None:
            self.crashed.append(f"{node.gateway.id} ({str(error).strip().splitlines()[-1][:120]})" if str(error).strip()
                                else node.gateway.id)

    @pytest.hookimpl(optionalhook=True)
    def pytest_handlecrashitem(self, crashitem: str, report: pytest.TestReport, sched: Any) -> None:
        self.outcomes[crashitem] = "failed"  # the test its worker died in

    # ---- the account --------------------------------------------------------------------------------

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if hasattr(self.config, "workerinput") or self.config.option.collectonly or not self.collected:
            return
        counts = Counter(self.outcomes.get(nodeid) for nodeid in self.collected)
        not_run = [nodeid for nodeid in self.collected if nodeid not in self.outcomes]
        parts = " + ".join(f"{counts[name]} {name}" for name in OUTCOMES)
        self.line = f"collected {len(self.collected)} = {parts} + {len(not_run)} not run"
        problems = []
        if not_run:
            shown = ", ".join(not_run[:SHOWN_NOT_RUN]) + (" ..." if len(not_run) > SHOWN_NOT_RUN else "")
            problems.append(f"{len(not_run)} of {len(self.collected)} collected tests never ran: {shown}")
        if self.crashed:
            problems.append(f"test workers crashed: {', '.join(self.crashed)}")
        if problems:
            self.line += "\nTHE RUN FAILED: " + "; ".join(problems)
            if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
                session.exitstatus = pytest.ExitCode.TESTS_FAILED

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """The account, as the run's last line (after pytest's own summary)."""
        if self.line is None:
            return
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(self.line)
            reporter.flush()
        else:
            print(self.line, file=sys.stderr)
