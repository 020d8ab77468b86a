"""Rows a hot path inserts, sent as data-modifying CTEs of one statement whose shape is built once.

Building an `insert(...).values(...)` with literal values costs about a millisecond of Python per row
(bind parameters made and walked for the cache key every time), more than the round trip to Postgres.
A hot path (the agent's round trip) instead describes each row as a `Row`: a template, which builds the
INSERT once with bind parameters named under a prefix, and the row's values. `statement(rows, main)`
returns the statement for that shape (cached: the same shape is the same statement object, so
SQLAlchemy's compiled cache serves it) and the parameters for these rows.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BindParameter, Executable, Select, TableClause, UpdateBase, bindparam

# (bind-name prefix, how many rows of the same template come before it in the statement) → the INSERT (or
# another data-modifying statement, e.g. the UPDATE that touches a conversation)
Template = Callable[[str, int], UpdateBase]
Main = Callable[[], UpdateBase | Select[Any]]

_SHAPES_KEPT = 512  # distinct statement shapes held (a shape: the main statement and its rows' templates)


@dataclass(frozen=True)
class Row:
    """One row to insert: the template that builds its INSERT and the values of the template's parameters."""

    template: Template
    values: Mapping[str, Any]


def binds(table: TableClause, prefix: str, columns: Sequence[str]) -> dict[str, BindParameter[Any]]:
    """`column: bindparam(prefix + column)` typed as the column, for a template's `.values(...)`."""
    return {name: bindparam(prefix + name, type_=table.c[name].type) for name in columns}


class Statements:
    """The statement of each shape, built on first use; least recently used shapes are dropped past a bound."""

    def __init__(self, kept: int = _SHAPES_KEPT) -> None:
        self.kept = kept
        self._built: OrderedDict[Hashable, Executable] = OrderedDict()

    def get(self, rows: Sequence[Row], main: tuple[Hashable, Main] | None = None,
            ) -> tuple[Executable, dict[str, Any]]:
        """The statement inserting `rows` (each a CTE of `main`, or alone when `main` is None and there is one
        row) and its parameters. `main` is (a key naming it, a builder of its statement: an INSERT, or a SELECT
        that reads the snapshot from before the rows)."""
        if main is None and len(rows) != 1:
            raise ValueError("without a main statement, exactly one row")
        shape = (main[0] if main else None, tuple(row.template for row in rows))
        stmt = self._built.get(shape)
        if stmt is None:
            stmt = self._build(rows, main)
            self._built[shape] = stmt
            if len(self._built) > self.kept:
                self._built.popitem(last=False)
        else:
            self._built.move_to_end(shape)
        params: dict[str, Any] = {}
        for n, row in enumerate(rows):
            prefix = _prefix(n)
            params.update({prefix + name: value for name, value in row.values.items()})
        return stmt, params

    @staticmethod
    def _build(rows: Sequence[Row], main: tuple[Hashable, Main] | None) -> Executable:
        ordinals: dict[Template, int] = {}
        inserts = []
        for n, row in enumerate(rows):
            ordinal = ordinals.get(row.template, 0)
            ordinals[row.template] = ordinal + 1
            inserts.append(row.template(_prefix(n), ordinal))
        if main is None:
            return inserts[0]
        stmt = main[1]()
        for n, insert_ in enumerate(inserts):
            stmt = stmt.add_cte(insert_.cte(f"along_{n}"))
        return stmt


def _prefix(n: int) -> str:
    return f"r{n}_"


statements = Statements()
