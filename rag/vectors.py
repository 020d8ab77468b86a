"""pgvector's SQLAlchemy `Vector` type, bound through pgvector's asyncpg codec (binary, float32).

`core.database` registers `pgvector.asyncpg.register_vector` on every connection, so asyncpg sends a
vector parameter in pgvector's binary format. pgvector's SQLAlchemy type renders values as text for
drivers without that codec; `Embedding` hands the codec a `pgvector.Vector` instead and reads one
back as a list, so statements name their vector parameters by type, with no text casts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pgvector import Vector
from pgvector.sqlalchemy import VECTOR
from sqlalchemy import BindParameter, bindparam


class Embedding(VECTOR):
    cache_ok = True

    def bind_processor(self, dialect: Any) -> Any:
        def process(value: Sequence[float] | Any | None) -> Vector | None:
            if value is None or isinstance(value, Vector):
                return value
            return Vector(list(value))
        return process

    def result_processor(self, dialect: Any, coltype: Any) -> Any:
        def process(value: Vector | str | None) -> list[float] | None:
            return Vector._from_db(value)
        return process


def vector_param(name: str, dims: int) -> BindParameter[Any]:
    """A bound parameter `:name` of type vector(dims)."""
    return bindparam(name, type_=Embedding(dims))
