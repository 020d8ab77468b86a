"""How long a newcomer waits: the README's first command on a fresh clone until the console answers.

    python -m bench.demo_start [--runs 2] [--keep-pip-cache] [--compare COMMAND]

Each run clones this checkout's HEAD into a new temporary folder, runs the README's first command there exactly as
the README writes it (read from README.md, so the bench measures what a newcomer pastes) with pip's cache off
(a fresh machine has none; `--keep-pip-cache` measures a second install on a machine that has one), and times:
the venv and install (until `spotter demo` starts), the demo's start (until it prints the console URL) and the
first answer of that URL (HTTP 200). Then it stops the demo the way a terminal does (SIGTERM to its process group)
and checks that no server of the clone is left. Prints one line per run and the load average around it.
`--compare` times another command the same way, alternating with the README's run by run (a floor or an
alternative measured side by side: the same network and load for both).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONSOLE = re.compile(r"(http://\S+/console/\S*)")
TIMEOUT_S = 600


def readme_command() -> str:
    """The first shell block of README.md: the command that sets up and runs the demo."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"```sh\n(.+?)\n```", text, re.S)
    if found is None:
        sys.exit("README.md has no ```sh block")
    return found.group(1).strip()


def _wait_for_console(process: subprocess.Popen[str], started: float) -> tuple[str, float, float]:
    """The console URL, when the demo printed it, and when `spotter demo` itself began (the venv's python ran)."""
    assert process.stdout is not None
    demo_began = 0.0
    for line in process.stdout:
        if not demo_began and ("spotter" in line.lower() or "postgres" in line.lower()):
            demo_began = time.monotonic() - started
        found = CONSOLE.search(line)
        if found:
            return found.group(1), demo_began, time.monotonic() - started
        if time.monotonic() - started > TIMEOUT_S:
            break
    raise SystemExit(f"no console URL within {TIMEOUT_S} s (exit code {process.poll()})")


def _first_answer(url: str, started: float) -> float:
    while time.monotonic() - started < TIMEOUT_S:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{url} did not answer 200 within {TIMEOUT_S} s")


def run_once(command: str, keep_pip_cache: bool) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="spotter-demo-start-"))
    try:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(folder / "spotter")], check=True)
        clone = folder / "spotter"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "DATABASE_URL", "REDIS_URL"))}
        if not keep_pip_cache:
            env["PIP_NO_CACHE_DIR"] = env["UV_NO_CACHE"] = "1"
        load_before = os.getloadavg()[0]
        started = time.monotonic()
        process = subprocess.Popen(["bash", "-c", command], cwd=clone, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            url, demo_began, printed = _wait_for_console(process, started)
            answered = _first_answer(url, started)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        time.sleep(1)
        left = subprocess.run(["pgrep", "-f", str(clone)], capture_output=True, text=True).stdout.split()
        return {"demo_began_s": demo_began, "console_printed_s": printed, "console_answered_s": answered,
                "load_before": load_before, "load_after": os.getloadavg()[0], "left_behind": float(len(left))}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--keep-pip-cache", action="store_true")
    parser.add_argument("--compare", help="another command to time the same way, run by run")
    args = parser.parse_args()
    commands = {"README": readme_command(), **({"compare": args.compare} if args.compare else {})}
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; "
          f"pip/uv cache {'kept' if args.keep_pip_cache else 'off (PIP_NO_CACHE_DIR=1, UV_NO_CACHE=1)'}")
    for name, command in commands.items():
        print(f"{name}: {command}")
    for run in range(1, args.runs + 1):
        for name, command in commands.items():
            r = run_once(command, args.keep_pip_cache)
            print(f"run {run} {name}: first line from the demo at {r['demo_began_s']:.1f} s, console URL printed at "
                  f"{r['console_printed_s']:.1f} s, console answered 200 at {r['console_answered_s']:.1f} s; load "
                  f"{r['load_before']:.2f} -> {r['load_after']:.2f}; processes left behind: {int(r['left_behind'])}",
                  flush=True)


if __name__ == "__main__":
    main()
