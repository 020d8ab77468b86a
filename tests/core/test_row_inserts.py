"""core.row_inserts: one statement object per shape (so SQLAlchemy's compiled cache serves it), rows' parameters
under their own prefixes, a bounded number of shapes kept."""

from __future__ import annotations

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, insert
from sqlalchemy.dialects import postgresql

from core.row_inserts import Row, Statements, binds

_T = Table("t", MetaData(), Column("id", Integer, primary_key=True), Column("name", String))


def _row_insert(prefix: str, ordinal: int):
    return insert(_T).values(binds(_T, prefix, ("id", "name")))


def _main():
    return insert(_T).values(binds(_T, "m_", ("id", "name")))


def test_the_same_shape_is_the_same_statement_and_each_row_has_its_own_parameters() -> None:
    built = Statements()
    first, params = built.get([Row(_row_insert, {"id": 1, "name": "a"}), Row(_row_insert, {"id": 2, "name": "b"})],
                              main=("t", _main))
    again, params_again = built.get([Row(_row_insert, {"id": 3, "name": "c"}), Row(_row_insert, {"id": 4, "name": "d"})],
                                    main=("t", _main))
    assert again is first
    assert params == {"r0_id": 1, "r0_name": "a", "r1_id": 2, "r1_name": "b"}
    assert params_again == {"r0_id": 3, "r0_name": "c", "r1_id": 4, "r1_name": "d"}
    sql = " ".join(str(first.compile(dialect=postgresql.dialect())).replace("::INTEGER", "")
                   .replace("::VARCHAR", "").split())
    assert sql == ("WITH along_0 AS (INSERT INTO t (id, name) VALUES (%(r0_id)s, %(r0_name)s)), along_1 AS "
                   "(INSERT INTO t (id, name) VALUES (%(r1_id)s, %(r1_name)s)) "
                   "INSERT INTO t (id, name) VALUES (%(m_id)s, %(m_name)s)")
    one, _ = built.get([Row(_row_insert, {"id": 5, "name": "e"})], main=("t", _main))
    assert one is not first  # another shape


def test_a_row_alone_and_the_bound_on_shapes() -> None:
    built = Statements(kept=2)
    alone, params = built.get([Row(_row_insert, {"id": 1, "name": "a"})])
    assert params == {"r0_id": 1, "r0_name": "a"}
    with pytest.raises(ValueError):
        built.get([Row(_row_insert, {"id": 1, "name": "a"})] * 2)
    built.get([Row(_row_insert, {"id": 1, "name": "a"})], main=("t", _main))
    built.get([Row(_row_insert, {"id": 1, "name": "a"})] * 2, main=("t", _main))  # a third shape: the first goes
    assert built.get([Row(_row_insert, {"id": 1, "name": "a"})])[0] is not alone
