"""The console's files served by the real app over HTTP: Litestar's local file system against `ConsoleFiles`.

    python -m bench.console_files [--loads 40]

Two uvicorn servers of the same app (api/app/'s static routers, the trace middleware, the offline model), one
reading the console from disk through Litestar's local file system and one from memory (api/console_files.py),
each in a subprocess of its own. A "page load" is every file the console's folder holds (the HTML, all scripts
and styles) and one locale, requested in turn over one keep-alive connection; the loads alternate between the two
servers. Printed per server: the wall time per load and the server process's CPU per load (from /proc).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from api.app import CONSOLE_DIR

REPO = Path(__file__).resolve().parents[1]
SERVER = """
import sys
import uvicorn
import api.app as app_module
from api.app import create_app
from core.settings import Settings

if sys.argv[2] == "disk":  # the routers as they were: no file system given, so Litestar's local one
    app_module.ConsoleFiles = lambda: None
settings = Settings(agent_model_provider="offline", auth_mode="dev", database_url="postgresql+asyncpg://x@/x")
app = create_app(settings)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", lifespan="off")
"""


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _page() -> list[str]:
    names = sorted(p.name for p in CONSOLE_DIR.iterdir() if p.suffix in (".js", ".css"))
    return ["/console/", *(f"/console/{name}" for name in names), "/console/locales/en.json"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=40)
    args = parser.parse_args()
    page = _page()
    servers = {}
    for kind in ("disk", "memory"):
        port = _port()
        proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), kind], cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers[kind] = (proc, f"http://127.0.0.1:{port}")
    try:
        clients = {kind: httpx.Client(base_url=url, timeout=10) for kind, (_, url) in servers.items()}
        for kind, client in clients.items():
            for _ in range(200):
                try:
                    if client.get("/console/").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            for path in page:  # warm: imports, first reads
                assert client.get(path).status_code == 200, (kind, path)
        wall = dict.fromkeys(clients, 0.0)
        cpu = dict.fromkeys(clients, 0.0)
        for _ in range(args.loads):
            for kind, client in clients.items():
                pid = servers[kind][0].pid
                before, started = _cpu_seconds(pid), time.perf_counter()
                for path in page:
                    client.get(path)
                wall[kind] += time.perf_counter() - started
                cpu[kind] += _cpu_seconds(pid) - before
        print(f"{args.loads} page loads of {len(page)} files each, alternating")
        for kind in clients:
            print(f"  {kind:6}  wall {wall[kind] / args.loads * 1000:6.1f} ms per load,"
                  f"  server CPU {cpu[kind] / args.loads * 1000:6.1f} ms per load")
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
