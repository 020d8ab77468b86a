"""Shared test infrastructure: real embedded Postgres + Redis, the app under uvicorn, per-test tenants.

Nothing here mocks our own code; a guard makes any attempt to reach a real model host fail.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# The app and its servers are imported by the fixtures that build them, not here: under xdist the controller
# process loads this file too but runs no test, and these imports cost it ~2.6 s of CPU before any worker starts.
if TYPE_CHECKING:
    import httpx

    from api.auth import DevKeys
    from core.database import Database
    from core.embedded import EmbeddedPostgres, EmbeddedRedis
    from core.settings import Settings
    from tests.factories import Factory
    from tests.fakes.anthropic_server import FakeAnthropic
    from tests.servers import ThreadedServer

FORBIDDEN_HOSTS = ("anthropic.com", "voyageai.com", "posthog.com", "sentry.io")
_OWN_BASETEMP = pytest.StashKey[Path]()
_KEEP_BASETEMP = pytest.StashKey[bool]()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The session's temp dir is a fresh `spotter-pytest-*` of its own in the system temp dir rather than under
    pytest's shared `pytest-of-<user>`: as root, pgserver runs PostgreSQL as the `pgserver` user and opens the
    data dir's parent folders to it, and any other pytest session starting on the machine closes
    `pytest-of-<user>` again (mode 0700), failing an initdb or a pg_ctl under way here. Removed after the
    session unless it failed. An explicit --basetemp still wins; xdist workers get theirs inside this one."""
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        config.option.basetemp = tempfile.mkdtemp(prefix="spotter-pytest-")
        config.stash[_OWN_BASETEMP] = Path(config.option.basetemp)
    from tests.accounting import RunAccounting

    config.pluginmanager.register(RunAccounting(config), "spotter-run-accounting")  # the run's last line


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: one worker more than the CPUs this process may use. A worker's tests spend a sixth of their time
    waiting (on subprocesses starting, Chromium, leases and timers under test), so with one worker per CPU the
    machine sat idle 17 % of the run; with one more it is idle 4 %, and on 2 CPUs the suite takes 236-242 s instead
    of 276 s (bench/README.md). Two more costs more in startup and contention than it fills (264 s).
    With PYTEST_XDIST_AUTO_NUM_WORKERS set, pytest-xdist's own hook decides, as it documents."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    affinity = getattr(os, "sched_getaffinity", None)  # none on macOS
    return (len(affinity(0)) if affinity else os.cpu_count() or 1) + 1


def pytest_collection_finish(session: pytest.Session) -> None:
    """The garbage collector, tuned for a test worker: what collection imported (the app, its libraries,
    hypothesis, schemathesis, Playwright: a large heap that lives as long as the process) is frozen out of the
    collector's scans, and a collection runs after 50,000 new objects instead of 700. The cyclic collector had
    spent 13 % of a worker's CPU rescanning that heap (37 s of the suite's, measured with gc.callbacks); it now
    spends 18 s. Reference counting frees everything else as before."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def pytest_unconfigure(config: pytest.Config) -> None:
    own = config.stash.get(_OWN_BASETEMP, None)
    if own is None:
        return
    if config.stash.get(_KEEP_BASETEMP, False):
        print(f"\nthis run's temp dir is kept: {own}", file=sys.stderr)
    else:
        shutil.rmtree(own, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def no_real_model_hosts() -> Iterator[None]:
    """Any DNS lookup of a real model/telemetry host fails the test that made it."""
    real = socket.getaddrinfo

    def guarded(host, *args, **kwargs):
        if isinstance(host, str) and any(host == h or host.endswith("." + h) for h in FORBIDDEN_HOSTS):
            raise RuntimeError(f"tests must not reach {host}")
        return real(host, *args, **kwargs)

    socket.getaddrinfo = guarded
    yield
    socket.getaddrinfo = real


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("spotter-data")


# Run beside each worker's Postgres: when the worker is gone (its end of the pipe closes: a normal exit, a crash,
# the OOM killer, kill -9) and the server is still up, stop it at once (SIGQUIT to the postmaster: immediate
# shutdown). pgserver's postmaster is a daemon of its own that nothing else would stop when its worker died.
_PG_WATCHDOG = """
import os, signal, sys, time
sys.stdin.buffer.read()
try:
    pid = int(open(sys.argv[1]).readline())
    os.kill(pid, signal.SIGQUIT)
    for _ in range(100):
        os.kill(pid, 0)
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
except (OSError, ValueError):
    pass
"""


@pytest.fixture(scope="session")
def embedded_pg(data_dir: Path) -> Iterator[EmbeddedPostgres]:
    from core import migrations
    from core.embedded import EmbeddedPostgres

    pg = EmbeddedPostgres(data_dir)
    watchdog = subprocess.Popen([sys.executable, "-c", _PG_WATCHDOG, str(pg.pgdata / "postmaster.pid")],
                                stdin=subprocess.PIPE, start_new_session=True)
    try:
        migrations.upgrade(pg.url())
        yield pg
    finally:
        pg.stop()
        assert watchdog.stdin is not None
        watchdog.stdin.close()  # the server is stopped: the watchdog finds no postmaster and leaves
        with contextlib.suppress(subprocess.TimeoutExpired):
            watchdog.wait(timeout=30)


@pytest.fixture(scope="session")
def embedded_redis(data_dir: Path) -> Iterator[EmbeddedRedis]:
    from core.embedded import EmbeddedRedis

    redis = EmbeddedRedis(data_dir / "redis")
    yield redis
    redis.stop()


@pytest.fixture(scope="session")
def base_settings(data_dir: Path, embedded_pg: EmbeddedPostgres, embedded_redis: EmbeddedRedis) -> Settings:
    """Settings for the app under test; agent-level conftests extend them (fake model URL, ...). The app logs
    warnings and up unless LOG_LEVEL says otherwise: a request log line from a server thread would land between
    pytest's progress dots."""
    from core.settings import load_settings

    quiet = {} if os.environ.get("LOG_LEVEL") else {"log_level": "warning"}
    return load_settings(app_env="test", data_dir=data_dir, database_url=embedded_pg.url(),
                         redis_url=embedded_redis.url, auth_mode="dev", agent_model_provider="anthropic",
                         anthropic_api_key=None, **quiet)


@pytest.fixture(scope="session")
def fake_model() -> Iterator[FakeAnthropic]:
    """The fake Anthropic Messages API every app under test talks to (real HTTP, real SDK)."""
    from tests.fakes.anthropic_server import FakeAnthropic

    fake = FakeAnthropic().start()
    yield fake
    fake.stop()


@pytest.fixture
def clean_model(fake_model):
    """The shared fake model with no script or recorded request before and after the test."""
    fake_model.reset()
    yield fake_model
    fake_model.reset()


@pytest.fixture(scope="session")
def app_settings(base_settings: Settings, fake_model: FakeAnthropic) -> Settings:
    # nutrition runs stay offline here: the shared fake model is scripted per test (tests/pipeline/test_model_agents)
    return base_settings.model_copy(update={"anthropic_api_key": "sk-test-fake", "anthropic_base_url": fake_model.url,
                                            "anthropic_max_retries": 0, "nutrition_agents": "offline"})


@pytest.fixture(scope="session")
def server(app_settings: Settings) -> Iterator[ThreadedServer]:
    from api.app import create_app
    from tests.servers import ThreadedServer

    srv = ThreadedServer(create_app(app_settings)).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
async def db(embedded_pg: EmbeddedPostgres) -> AsyncIterator[Database]:
    from core.database import Database

    database = Database(embedded_pg.url(), pool_size=5)
    yield database
    await database.dispose()


@pytest.fixture(scope="session")
def dev_keys(data_dir: Path) -> DevKeys:
    from api.auth import DevKeys

    return DevKeys(data_dir)


@pytest.fixture
def factory(db: Database, dev_keys: DevKeys) -> Factory:
    from tests.factories import Factory

    return Factory(db, dev_keys)


@pytest.fixture
async def client(server: ThreadedServer) -> AsyncIterator[httpx.AsyncClient]:
    import httpx

    # plain http to the app on loopback: verify=False spares loading the CA bundle for every test (10 ms each)
    async with httpx.AsyncClient(base_url=server.url, timeout=30, verify=False) as http:
        yield http


_WORKER_LEFTOVERS = pytest.StashKey[list[str]]()


def _kill_leftovers(session: pytest.Session) -> list[str]:
    """Kill the postgres / redis-server processes still running from this session's temp dirs (the fixtures'
    servers, or those of a CLI run in a subprocess); name them."""
    from core.embedded import leftover_servers

    factory = getattr(session.config, "_tmp_path_factory", None)
    # a worker's temp dir, or the controller's own (under which every worker's lies: a worker that crashed never
    # checked its own); None: no temp dir was made, so no server was started
    base = getattr(factory, "_basetemp", None) or session.config.stash.get(_OWN_BASETEMP, None)
    leftovers = leftover_servers(base) if base is not None else []
    for proc in leftovers:
        with contextlib.suppress(Exception):
            proc.kill()
    return [f"{p.info['name']} (pid {p.pid})" for p in leftovers]


def pytest_terminal_summary(terminalreporter) -> None:
    """The figures tests measured (`record_property("figure", line)`: tests/safety's recall and false alarms),
    printed after the run. Under xdist each report carries its test's properties from the worker, so the controller
    prints them as a single process would."""
    lines: list[str] = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) == "call":
                lines += [str(value) for name, value in getattr(report, "user_properties", ()) if name == "figure"]
    if lines:
        terminalreporter.section("measured figures")
        for line in dict.fromkeys(lines):
            terminalreporter.line(line)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The suite leaves no embedded server behind: one still running from this session's temp dirs fails the
    run, and is killed so it does not outlive the check either. Under xdist each worker checks its own temp
    dir after its fixtures are torn down (a worker's servers may die with it before the controller looks) and
    hands what it found to the controller, which checks the whole temp tree again and fails the run."""
    names = _kill_leftovers(session)
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: its exit status does not reach the run's
        workeroutput["leftover_servers"] = names
        return
    names += session.config.stash.get(_WORKER_LEFTOVERS, [])
    if names:
        print(f"\nembedded servers outlived the test session: {', '.join(names)}", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    # a failed run keeps its temp dir (server logs, data) for a look afterwards
    session.config.stash[_KEEP_BASETEMP] = session.exitstatus not in (pytest.ExitCode.OK,
                                                                       pytest.ExitCode.NO_TESTS_COLLECTED)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """xdist, on the controller: keep what a finished worker found left behind (see pytest_sessionfinish)."""
    found = getattr(node, "workeroutput", {}).get("leftover_servers", [])
    node.config.stash.setdefault(_WORKER_LEFTOVERS, []).extend(found)
