"""Model-made JSON the database cannot store: a NUL byte (\\x00) in any string, key or value, and a number
JSON cannot hold (inf, nan: Postgres refuses `Infinity` in JSONB).

The runner refuses a tool input holding one (a typed `validation_failed`, never a database error), and
what is persisted (the assistant's tool_use blocks, execution inputs) has each NUL replaced by U+FFFD and each
non-finite number by its text ("inf").
"""

from __future__ import annotations

import math
from typing import Any

NUL = "\x00"
REPLACEMENT = "\ufffd"


def nul_path(value: Any, path: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """Where the first NUL sits in a JSON value (a key holding one is shown with it replaced), or None."""
    if isinstance(value, str):
        return path if NUL in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and NUL in key:
                return (*path, key.replace(NUL, REPLACEMENT))
            found = nul_path(item, (*path, key))
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = nul_path(item, (*path, index))
            if found is not None:
                return found
    return None


def storable(value: Any) -> Any:
    """`value` with every NUL in its strings (keys too) replaced, so Postgres text/JSONB accepts it."""
    if isinstance(value, str):
        return value.replace(NUL, REPLACEMENT) if NUL in value else value
    if isinstance(value, dict):
        return {storable(key): storable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [storable(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value
