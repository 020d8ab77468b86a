"""Several `spotter serve` processes and a `spotter worker` against one PostgreSQL and one Redis, behind nginx
(deploy/nginx.conf rendered), as README "Several API processes" runs them: for the tests and for
bench/disconnects.py.

Every process is started with the real command line, so the turn that one process runs is read, followed and
stopped through another exactly as in production. nginx is Debian's (`.ci/run` installs it); `nginx_binary()`
names it or says why it is missing.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.servers import free_port

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx.conf"


def spotter_command() -> list[str]:
    """The `spotter` console script of this interpreter's environment (else `python -m api.cli`)."""
    script = Path(sys.executable).with_name("spotter")
    return [str(script)] if script.exists() else [sys.executable, "-m", "api.cli"]


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


def render_nginx(listen: str, upstreams: list[str], runtime: Path) -> str:
    """deploy/nginx.conf for these API processes (one `server` line each)."""
    servers = " ".join(f"server {address};" for address in upstreams)
    return (TEMPLATE.read_text().replace("@LISTEN@", listen).replace("@UPSTREAMS@", servers)
            .replace("@RUNTIME@", str(runtime)))


def _wait_http(url: str, process: subprocess.Popen, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode} before {url} answered")
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s")


@dataclass
class Cluster:
    """`api` API processes and (with `worker`) one worker process; `url` is nginx in front of the API ones."""

    env: dict[str, str]  # the settings every process shares (DATABASE_URL, REDIS_URL, DATA_DIR, ...)
    api: int = 2
    worker: bool = True
    backends: list[str] = field(default_factory=list)  # "127.0.0.1:port" of each API process, in start order
    url: str = ""
    processes: list[subprocess.Popen] = field(default_factory=list)
    runtime: Path | None = None
    quiet: bool = False  # the processes' stderr to /dev/null (a bench's output stays one JSON document)

    def start(self) -> Cluster:
        nginx = nginx_binary()
        if nginx is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx-light)")
        env = {**os.environ, **self.env}
        err = subprocess.DEVNULL if self.quiet else None
        try:
            for _ in range(self.api):
                port = free_port()
                process = subprocess.Popen([*spotter_command(), "serve", "--host", "127.0.0.1", "--port", str(port)],
                                           cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
                self.processes.append(process)
                self.backends.append(f"127.0.0.1:{port}")
            if self.worker:
                self.processes.append(subprocess.Popen([*spotter_command(), "worker"], cwd=ROOT, env=env,
                                                       stdout=subprocess.DEVNULL, stderr=err))
            for backend, process in zip(self.backends, self.processes, strict=False):
                _wait_http(f"http://{backend}/health/live", process)
            self.runtime = Path(tempfile.mkdtemp(prefix="spotter-nginx-"))
            self.runtime.chmod(0o755)  # nginx's workers (nobody) use its temp folders
            port = free_port()
            (self.runtime / "nginx.conf").write_text(render_nginx(f"127.0.0.1:{port}", self.backends, self.runtime))
            proxy = subprocess.Popen([nginx, "-p", str(self.runtime), "-c", str(self.runtime / "nginx.conf"),
                                      "-e", "stderr", "-g", "daemon off;"], stdout=subprocess.DEVNULL)
            self.processes.append(proxy)
            self.url = f"http://127.0.0.1:{port}"
            _wait_http(f"{self.url}/health/live", proxy)
        except BaseException:
            self.stop()
            raise
        return self

    def kill(self, backend: str) -> None:
        """kill -9 the API process at `backend` (a crash: nothing of it runs any more)."""
        process = self.processes[self.backends.index(backend)]
        process.kill()
        process.wait(timeout=10)

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        self.processes.clear()
        if self.runtime is not None:
            shutil.rmtree(self.runtime, ignore_errors=True)
            self.runtime = None
