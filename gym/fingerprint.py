"""The digest of an id set that a bulk preview shows and its confirmation must match."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Collection


def fingerprint(ids: Collection[uuid.UUID]) -> str:
    """A short stable digest of an id set (order-free), carried from preview to confirmation."""
    return hashlib.sha256("\n".join(sorted(str(i) for i in ids)).encode()).hexdigest()[:16]
