"""A one-line progress bar on stderr (redrawn in place on a terminal; a line per tenth of the run otherwise)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, *, out: TextIO | None = None, width: int = 30) -> None:
        self.total, self.width = total, width
        self.out = out if out is not None else sys.stderr
        self.done = self.passed = 0
        self.started = time.monotonic()
        self.live = bool(getattr(self.out, "isatty", lambda: False)())
        self._last_line = -1

    def advance(self, passed: bool, label: str = "") -> None:
        self.done += 1
        self.passed += passed
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        filled = int(self.width * self.done / self.total) if self.total else self.width
        line = (f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} tries, "
                f"{self.passed} passed, {elapsed:.0f}s elapsed, ~{eta:.0f}s left  {label[:40]}")
        if self.live:
            self.out.write("\r" + line.ljust(120))
            if self.done == self.total:
                self.out.write("\n")
            self.out.flush()
            return
        tenth = self.done * 10 // max(self.total, 1)
        if tenth != self._last_line or self.done == self.total:
            self._last_line = tenth
            self.out.write(line + "\n")
            self.out.flush()
