"""SSE framing: `event: <type>\\ndata: <json>\\n\\n` for each agent event, and how /schema documents the streams.

Each frame's data repeats its type (`{"type": <event>, ...}`); the frame types are the engine's own structs
(agent/events.py) and form one tagged union per stream (`StaffFrame`), documented from those same declarations.
/schema documents a stream by its events (`EventStream`): `{event, data}` with the frame as `data`'s content schema.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, ClassVar, get_args

from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIType, Reference, Schema
from litestar.plugins import OpenAPISchemaPlugin
from litestar.response import Stream
from litestar.typing import FieldDefinition
from msgspec import Struct

from agent.events import Event, StaffFrame

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator

SSE_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no", "connection": "keep-alive"}
SSE_MEDIA_TYPE = "text/event-stream"


def frame(event: Event) -> bytes:
    """One frame, its data encoded once straight to bytes."""
    return b"event: " + event.type.encode() + b"\ndata: " + event.encoded() + b"\n\n"


MAX_EVENT_ID = 2**31 - 1  # event ids are int4 sequence numbers


def last_event_id(header: str | None) -> int:
    """The event id a reconnecting client names in `Last-Event-ID`, or 0 (replay everything) when the header
    is missing or is not an id this service could have sent: a decimal integer in 1..2^31-1."""
    value = (header or "").strip()
    if not value.isascii() or not value.isdigit() or len(value) > 10:
        return 0
    number = int(value)
    return number if 0 < number <= MAX_EVENT_ID else 0


def sse_response(events: AsyncIterator[Event], trace_id: str) -> Stream:
    async def body() -> AsyncIterator[bytes]:
        async for event in events:
            yield frame(event)

    return Stream(body(), media_type=SSE_MEDIA_TYPE, headers={**SSE_HEADERS, "x-trace-id": trace_id})


STREAM_DESCRIPTION = (
    "An SSE stream of `event: <type>` / `data: <json>` frames. Types: conversation_started, text_delta, "
    "tool_started, tool_completed, confirmation_pending, disambiguation_pending, message_done, done, error. "
    "Every stream ends with exactly one `done`, also after an `error`. Every frame has an `id: <turnId>:<seq>` "
    "(seq from 1) and the first names `turnId`: after a dropped connection, GET .../turns/{turnId}/stream with "
    "`Last-Event-ID` replays what followed and follows the turn, which runs on whatever the client does.")


class EventStream:
    """A `text/event-stream` body as /schema documents it: one schema per event, as an SSE parser reads it.

    An event is `{event, data}` (plus `id` when the stream sends one): `event` is the frame's type and `data` the
    JSON text of its frame, whose schema rides in `contentSchema` (JSON Schema's way to type a string's content;
    OpenAPI 3.2 documents event streams the same way).
    """

    frames: ClassVar[tuple[type[Struct], ...]] = ()
    id_pattern: ClassVar[str | None] = None  # the events' `id`, when they carry one


class EventStreamSchemaPlugin(OpenAPISchemaPlugin):
    """Renders an `EventStream` as the `oneOf` of its events; each frame struct becomes a component."""

    @staticmethod
    def is_plugin_supported_type(value: Any) -> bool:
        return isinstance(value, type) and issubclass(value, EventStream)

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: SchemaCreator) -> Schema:
        stream: type[EventStream] = field_definition.annotation
        return Schema(one_of=[_event_schema(frame, stream.id_pattern, schema_creator) for frame in stream.frames])


def _event_schema(frame: type[Struct], id_pattern: str | None, schema_creator: SchemaCreator) -> Schema:
    properties: dict[str, Schema | Reference] = {
        "event": Schema(type=OpenAPIType.STRING, const=frame.__struct_config__.tag),
        "data": Schema(type=OpenAPIType.STRING, content_media_type="application/json",
                       content_schema=schema_creator.for_field_definition(FieldDefinition.from_annotation(frame)))}
    if id_pattern is not None:
        properties["id"] = Schema(type=OpenAPIType.STRING, pattern=id_pattern)
    return Schema(type=OpenAPIType.OBJECT, properties=properties, required=sorted(properties),
                  additional_properties=False)


SEQ_ID = r"^[1-9][0-9]*$"  # an event id that is a sequence number


def event_stream(frames: Any, description: str, *, ids: bool = False,
                 id_pattern: str | None = None) -> dict[int, ResponseSpec]:
    """The 200 of a streaming operation whose events carry `frames` (a union of frame structs); `ids`: each
    event has a sequence number as its `id`, `id_pattern`: an `id` of that pattern."""
    pattern = id_pattern if id_pattern is not None else SEQ_ID if ids else None
    stream = type("EventStream", (EventStream,), {"frames": get_args(frames), "id_pattern": pattern})
    return {200: ResponseSpec(data_container=stream, media_type=SSE_MEDIA_TYPE, description=description,
                              generate_examples=False)}


TURN_FRAME_ID = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[1-9][0-9]*$"  # <turnId>:<seq>


def stream_response() -> dict[int, ResponseSpec]:
    """The 200 of a staff turn: `text/event-stream` whose frames' data is a `StaffFrame`, each with its id."""
    return event_stream(StaffFrame, STREAM_DESCRIPTION, id_pattern=TURN_FRAME_ID)
