"""`spotter demo` and `spotter serve` through the real CLI in subprocesses: one demo per data dir, a rerun
keeps the gym as it was, and stopping (SIGTERM, SIGINT) stops every embedded server the command started."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import httpx
import jwt
import psutil

from core.embedded import EmbeddedPostgres, leftover_servers
from gym.demo.tenancy import HARBOR
from tests.servers import free_port

REPO = Path(__file__).resolve().parents[2]
STARTUP = 240.0  # migrations + seeding + the local embedder's warm-up, on a busy 2-core machine


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "ANTHROPIC_API_KEY")}
    return {**env, "DATA_DIR": str(data_dir), "APP_ENV": "development", "AUTH_MODE": "dev",
            "AGENT_MODEL_PROVIDER": "offline", "SENTRY_DSN": "", "POSTHOG_API_KEY": "", "LOG_LEVEL": "warning"}


def _spotter(data_dir: Path, *args: str, timeout: float = STARTUP) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "api.cli", *args], cwd=REPO, env=_env(data_dir),
                          capture_output=True, text=True, timeout=timeout)


def _start(data_dir: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "api.cli", *args], cwd=REPO, env=_env(data_dir),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _wait_ready(proc: subprocess.Popen[str], url: str) -> None:
    """Poll /health until the server is ready (a start-up wait, not a race: nothing else depends on it)."""
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"exited {proc.returncode}: {proc.stdout.read() if proc.stdout else ''}")
        try:
            if httpx.get(f"{url}/health", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError("server did not become ready")


def _server_pids(data_dir: Path) -> dict[str, int]:
    """The embedded servers of `data_dir`, from their own pid files."""
    postmaster = (data_dir / "pg" / "postmaster.pid").read_text().splitlines()[0]
    return {"postgres": int(postmaster), "redis": int((data_dir / "redis.pid").read_text())}


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE  # exited; only the reaping is left
    except psutil.NoSuchProcess:
        return True


def _stop(proc: subprocess.Popen[str], sig: signal.Signals) -> str:
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=120)
    return out


async def _murph_deleted(url: str, *, delete: bool = False) -> bool:
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        if delete:
            await conn.execute("UPDATE workouts SET deleted_at = now() WHERE org_id = $1 AND title = 'Murph'",
                               HARBOR.id)
        rows = await conn.fetch("SELECT deleted_at FROM workouts WHERE org_id = $1 AND title = 'Murph'", HARBOR.id)
        assert rows, "the demo gym has no Murph"
        return all(r["deleted_at"] is not None for r in rows)
    finally:
        await conn.close()


def test_a_second_demo_touches_nothing_a_rerun_keeps_the_gym_and_sigterm_stops_everything(tmp_path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    demo = _start(tmp_path, "demo", "--port", str(port), "--members", "1")
    try:
        _wait_ready(demo, url)
        pids = _server_pids(tmp_path)

        second = _spotter(tmp_path, "demo", "--port", str(free_port()), timeout=120)
        assert second.returncode == 1
        assert "already running" in second.stderr and url in second.stderr and str(demo.pid) in second.stderr
        assert "Spotter demo on" not in second.stdout  # no banner, nothing started
        assert all(psutil.pid_exists(pid) for pid in pids.values())
        assert httpx.get(f"{url}/health", timeout=10).json() == {"status": "ok", "postgres": "up", "redis": "up",
                                                                          "down": []}

        pg = EmbeddedPostgres(tmp_path)  # attaches to the demo's server
        try:
            assert asyncio.run(_murph_deleted(pg.url(), delete=True))
        finally:
            pg.stop()  # leaves it running: the demo still uses it
        assert psutil.pid_exists(pids["postgres"])

        rerun = _spotter(tmp_path, "seed-demo")
        assert rerun.returncode == 0, rerun.stderr
        assert "kept as it is" in rerun.stdout

        output = _stop(demo, signal.SIGTERM)
    finally:
        if demo.poll() is None:
            demo.kill()
    assert demo.returncode == 128 + signal.SIGTERM, output
    assert "Spotter demo on" in output and "kept as it is" not in output  # the first run seeded
    banner = output[output.index("Spotter demo on"):].splitlines()
    console = [line for line in banner if line.startswith("console: ")]  # the README's `console:` line
    assert len(console) == 1 and console[0].startswith(f"console: {url}/console/#token="), banner
    token = console[0].removeprefix(f"console: {url}/console/#token=")  # the owner's dev token, nothing around it
    assert jwt.decode(token, options={"verify_signature": False})["email"] == "owner@harbor.test", banner
    assert '"event": "request"' not in output and '"event":"request"' not in output  # a quiet terminal
    for name, pid in pids.items():
        assert _gone(pid), name
    assert leftover_servers(tmp_path) == []

    pg = EmbeddedPostgres(tmp_path)  # a later run finds the gym as the demo left it
    try:
        assert asyncio.run(_murph_deleted(pg.url()))
    finally:
        pg.stop()
    assert leftover_servers(tmp_path) == []


def test_serve_stops_its_embedded_servers_on_ctrl_c(tmp_path) -> None:
    """SIGINT here; the demo test above covers SIGTERM through the same `embedded_services`."""
    sig = signal.SIGINT
    assert _spotter(tmp_path, "migrate").returncode == 0
    assert leftover_servers(tmp_path) == []  # migrate stopped the postgres it started
    port = free_port()
    serve = _start(tmp_path, "serve", "--port", str(port))
    try:
        _wait_ready(serve, f"http://127.0.0.1:{port}")
        pids = _server_pids(tmp_path)
        assert len(leftover_servers(tmp_path)) >= 2  # postgres (and its workers) and redis, found by path
        output = _stop(serve, sig)
    finally:
        if serve.poll() is None:
            serve.kill()
    # uvicorn re-raises the signal after its graceful shutdown; uvicorn.run swallows the KeyboardInterrupt
    assert serve.returncode == (0 if sig == signal.SIGINT else 128 + sig), output
    for name, pid in pids.items():
        assert _gone(pid), name
    assert leftover_servers(tmp_path) == []
