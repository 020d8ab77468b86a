"""One running instance per data dir: an exclusive `flock` on `<data_dir>/<name>.lock`, holding who holds it.

The kernel drops the lock when its holder exits however it exits (kill -9 included), so a stale file
never blocks a new start; a second start reads the holder's pid and URL from the file and touches
nothing else.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path
from typing import Any


class InstanceLock:
    def __init__(self, data_dir: Path, name: str) -> None:
        self.path = data_dir / f"{name}.lock"
        self._fd: int | None = None

    def acquire(self, **info: Any) -> dict[str, Any] | None:
        """Take the lock and record `info` (plus our pid) in it: None. Held elsewhere: the holder's info."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return self.holder() or {}
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), **info}).encode())
        self._fd = fd
        return None

    def holder(self) -> dict[str, Any] | None:
        with contextlib.suppress(OSError, ValueError):
            found = json.loads(self.path.read_text() or "null")
            return found if isinstance(found, dict) else None
        return None

    def release(self) -> None:
        if self._fd is None:
            return
        os.ftruncate(self._fd, 0)
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None
