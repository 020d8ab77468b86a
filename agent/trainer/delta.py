"""A knowledge source's changes since the context last had it (TRAINER.md "Context budget": a changed source is
sent as what changed, not the whole source again).

`diff(old, new)` mirrors the data's shape: a dict gives only the keys whose values changed (a nested dict as its
own changes, a removed key as null); a list whose items all carry one identity key (`id`, `muscle`, `exercise`
or `name`) gives `{"added": [items], "changed": [each item's key and its changes], "removed": [their keys]}`;
anything else is replaced whole. `apply(old, delta)` rebuilds the new data from the old, so a reader of the context (the offline
model) sees what the model sees. Data is compared after `compact` (no null fields), as it is rendered.
"""

from __future__ import annotations

import json
from typing import Any

IDENTITY_KEYS = ("id", "muscle", "exercise", "name")
LIST_PARTS = ("added", "changed", "removed")


class Whole(Exception):
    """The change cannot be said as a delta (a dict became a list, ...): send the whole source."""


def compact(data: Any) -> Any:
    """The data without null fields, at any depth (what the model reads; nulls say nothing)."""
    if isinstance(data, dict):
        return {k: compact(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [compact(v) for v in data]
    return data


def size(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False, sort_keys=True, default=str))


def _identity(old: list[Any], new: list[Any]) -> str | None:
    """The key every item of both lists carries, unique within each list; None when there is none."""
    items = [*old, *new]
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for key in IDENTITY_KEYS:
        if all(isinstance(i.get(key), str | int) for i in items):
            if len({i[key] for i in old}) == len(old) and len({i[key] for i in new}) == len(new):
                return key
    return None


def _list_delta(old: list[Any], new: list[Any], key: str) -> dict[str, Any]:
    before = {i[key]: i for i in old}
    after = {i[key] for i in new}
    out = {"added": [i for i in new if i[key] not in before],
           "changed": [{key: i[key], **diff(before[i[key]], i)} for i in new if i[key] in before and before[i[key]] != i],
           "removed": [k for k in before if k not in after]}
    return {part: items for part, items in out.items() if items}


def _change(old: Any, new: Any) -> Any:
    """The change of one value inside a dict delta (old != new)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return diff(old, new)
    if isinstance(old, list) and isinstance(new, list):
        return diff(old, new) if _identity(old, new) else new  # a list stays a list: the reader tells it apart
    if isinstance(old, list) and isinstance(new, dict):
        raise Whole  # a dict for a list would read as the list's changes
    return new


def diff(old: Any, new: Any) -> Any:
    """The changes from `old` to `new` (both compacted); raises Whole when only the whole new data says it."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = {k: _change(old[k], v) if k in old else v for k, v in new.items() if old.get(k) != v}
        for k in old:
            if k not in new:
                out[k] = None
        return out
    if isinstance(old, list) and isinstance(new, list):
        key = _identity(old, new)
        if key is None:
            raise Whole
        return _list_delta(old, new, key)
    raise Whole


def apply(old: Any, delta: Any) -> Any:
    """`old` with `delta` applied (the inverse of diff)."""
    if isinstance(old, list):
        key = _identity(old, [*delta.get("added", []), *delta.get("changed", [])])
        if key is None:
            return old
        changed = {i[key]: i for i in delta.get("changed", [])}
        removed = set(delta.get("removed", []))
        kept = [apply(i, changed[i[key]]) if i[key] in changed else i for i in old if i[key] not in removed]
        return [*kept, *delta.get("added", [])]
    if isinstance(old, dict):
        out = dict(old)
        for k, v in delta.items():
            if v is None:
                out.pop(k, None)
            elif k in old and isinstance(old[k], dict) and isinstance(v, dict):
                out[k] = apply(old[k], v)
            elif k in old and isinstance(old[k], list) and isinstance(v, dict):
                out[k] = apply(old[k], v)
            else:
                out[k] = v
        return out
    return delta
