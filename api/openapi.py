"""/schema's configuration, and what it says about request bodies beyond what Litestar reads off their types.

Every JSON body passes one gate first (`api.requests.JsonRequest`): no NUL in any string or key, no nesting
deeper than 32. Litestar documents a pydantic body from its field types and loses what pydantic enforces beyond
them (unknown fields forbidden, a constraint inside `X | None`, a model's cross-field rule); `BodySchemaPlugin`
documents each pydantic body with pydantic's own JSON Schema of it instead, plus the gate:
- a pattern refusing NUL on every free-text string, and on the names of free-form objects, whose values are
  `StorableJson`;
- the extras a model ignores (it does not forbid them): any `StorableJson` under a name without NUL.
A body the service validates itself (a `dict` checked against a payload model, with per-field 422 errors) is
documented as that model: `Annotated[dict[str, Any], DocumentedAs(Model)]`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, OpenAPIType, Reference, Schema, SecurityScheme
from litestar.plugins import OpenAPISchemaPlugin
from litestar.plugins.pydantic import PydanticSchemaPlugin
from litestar.typing import FieldDefinition
from pydantic import BaseModel

from api.bodies import NO_NUL
from api.requests import MAX_JSON_DEPTH

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator
    from pydantic import GetJsonSchemaHandler
    from pydantic_core import CoreSchema

COMPONENT = "#/components/schemas/{model}"


class StorableJson:
    """The `StorableJson` component: any JSON the JSON gate lets through."""


STORABLE_JSON = {"$ref": COMPONENT.format(model=StorableJson.__name__)}


def _register_storable_json(schema_creator: SchemaCreator) -> None:
    field = FieldDefinition.from_annotation(StorableJson)
    schema = schema_creator.schema_registry.get_schema_for_field_definition(field)
    if schema.any_of is not None:
        return

    def itself() -> Reference:
        reference = schema_creator.schema_registry.get_reference_for_field_definition(field)
        assert reference is not None
        return reference

    schema.title = StorableJson.__name__
    schema.description = (f"Any JSON the database can store: no NUL in a string or a key, at most {MAX_JSON_DEPTH} "
                          "levels deep.")
    schema.any_of = [
        Schema(type=[OpenAPIType.NULL, OpenAPIType.BOOLEAN, OpenAPIType.NUMBER]),
        Schema(type=OpenAPIType.STRING, pattern=NO_NUL),
        Schema(type=OpenAPIType.ARRAY, items=itself()),
        Schema(type=OpenAPIType.OBJECT, property_names=Schema(pattern=NO_NUL), additional_properties=itself()),
    ]


@dataclass(frozen=True)
class DocumentedAs:
    """Marks a free-form body (or field) that the service validates against `model` itself."""

    model: type[BaseModel]

    def __get_pydantic_json_schema__(self, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> dict:
        return handler(self.model.__pydantic_core_schema__)


class DocumentedAsSchemaPlugin(OpenAPISchemaPlugin):
    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return any(isinstance(meta, DocumentedAs) for meta in field_definition.metadata)

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: SchemaCreator) -> Schema:
        marker = next(meta for meta in field_definition.metadata if isinstance(meta, DocumentedAs))
        return schema_creator.for_field_definition(FieldDefinition.from_annotation(marker.model))  # type: ignore[return-value]


class BodySchemaPlugin(PydanticSchemaPlugin):
    """A pydantic body as pydantic validates it, plus the JSON gate (see the module)."""

    @classmethod
    def for_pydantic_model(cls, field_definition: FieldDefinition, schema_creator: SchemaCreator) -> Schema:
        # Litestar's pass registers the component and every model it refers to; its content is replaced.
        schema = super().for_pydantic_model(field_definition=field_definition, schema_creator=schema_creator)
        model: type[BaseModel] = field_definition.annotation
        own = model.model_json_schema(ref_template=COMPONENT)
        own.pop("$defs", None)
        _document_storable(own)
        _register_storable_json(schema_creator)
        aliases = schema.field_aliases()
        for key, value in own.items():
            setattr(schema, aliases.get(key, key), value)
        return schema


def _document_storable(node: Any) -> None:
    """Free text gets the NUL-free pattern; a free-form object gets NUL-free names and storable values."""
    if not isinstance(node, dict) or "$ref" in node:
        return
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for branch in node.get(key, ()):
            _document_storable(branch)
    for child in (*node.get("properties", {}).values(), node.get("items")):
        _document_storable(child)
    kind = node.get("type")
    types = kind if isinstance(kind, list) else [kind]
    if "string" in types and not node.keys() & {"pattern", "enum", "const", "format"}:
        node["pattern"] = NO_NUL
    if "object" in types and node.get("additionalProperties", True) not in (False, None):
        extra = node.get("additionalProperties", True)
        if extra in (True, {}):
            node["propertyNames"], node["additionalProperties"] = {"pattern": NO_NUL}, STORABLE_JSON
        else:
            _document_storable(extra)


SCHEMA_PLUGINS: list[Any] = [DocumentedAsSchemaPlugin(), BodySchemaPlugin()]


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(title="Spotter", version="0.1.0", path="/schema", components=Components(
        security_schemes={"bearer": SecurityScheme(type="http", scheme="bearer", bearer_format="JWT",
                                                   description="A session JWT (Clerk; dev tokens in dev mode)")}))
