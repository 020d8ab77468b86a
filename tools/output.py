"""The base of a tool's output model: snake_case fields, camelCase JSON keys.

The runner dumps outputs by alias, so `avg_visits_per_session` reaches the model as `avgVisitsPerSession`;
a service's row (a dict or an object with attributes) becomes the output with `model_validate`, without
renaming each field by hand.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class ToolOut(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, from_attributes=True)
