"""POST .../trainer/chat lists the turn's `message` and `question` frames (TRAINER.md "HTTP": `messages: [{content,
attachments}]`, `question: {content, options}|null`): their shapes are derived from the frames' declarations
(agent/trainer/frames.py), so a field is declared once, and the body carries no `type` (nor a frame's `turnId`)."""

from __future__ import annotations

import json

import msgspec

from agent.trainer.frames import QuestionFrame, TrainerMessage, message_frame, question_frame
from api.responses import shape
from api.trainer_frames import ChatMessage, ChatQuestion, TrainerChatBody, frame_body
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import chest_workout, trainee
from tests.trainer.scripted import Trainer


def _own_fields(struct: type[msgspec.Struct]) -> list[tuple[str, str, object]]:
    return [(f.name, f.encode_name, f.type) for f in msgspec.structs.fields(struct) if f.name != "turn_id"]


def test_the_chat_shapes_are_the_frames_fields() -> None:
    assert _own_fields(ChatMessage) == _own_fields(TrainerMessage)
    assert [f.encode_name for f in msgspec.structs.fields(ChatMessage)] == ["content", "attachments"]
    assert _own_fields(ChatQuestion) == _own_fields(QuestionFrame)
    assert [f.encode_name for f in msgspec.structs.fields(ChatQuestion)] == ["content", "options"]


def test_a_field_added_to_the_frame_is_in_the_body() -> None:
    """What a change to the `message` frame's declaration does to the body: it follows, no second place to edit."""

    class Message(TrainerMessage, tag="message"):
        read_seconds: int | None = None

    body = frame_body(Message, "ChatMessage")
    assert [f.encode_name for f in msgspec.structs.fields(body)] == ["content", "attachments", "readSeconds"]
    frame = Message(content="Rest 90 s.", attachments=[], read_seconds=4)
    assert msgspec.json.encode(msgspec.convert(json.loads(frame.encoded("t-1")), body)) == (
        b'{"content":"Rest 90 s.","attachments":[],"readSeconds":4}')


def test_the_chat_body_encodes_as_before() -> None:
    """The bytes the body had when its shapes were declared by hand: each frame's data as the engine encodes it
    (its `type` first, a first frame's `turnId` last), converted as the endpoint does, loses both."""
    attachments = [{"workout": {"id": "workout_1", "title": "Quick chest", "load": 14.5, "note": None}}]
    message = json.loads(message_frame("Here it is, שלום", attachments).encoded("7f0c"))
    empty = json.loads(message_frame("", []).encoded())
    question = json.loads(question_frame("Home or gym?", ["Home", "Gym"]).encoded())
    body = shape({"sessionId": "s1", "messages": [message, empty], "question": question, "iterations": 3},
                 TrainerChatBody)
    assert msgspec.json.encode(body) == (
        '{"sessionId":"s1","messages":[{"content":"Here it is, שלום","attachments":[{"workout":{"id":"workout_1",'
        '"title":"Quick chest","load":14.5,"note":null}}]},{"content":"","attachments":[]}],'
        '"question":{"content":"Home or gym?","options":["Home","Gym"]},"iterations":3}').encode()
    nothing = shape({"sessionId": None, "messages": [], "question": None, "iterations": 0}, TrainerChatBody)
    assert msgspec.json.encode(nothing) == b'{"sessionId":null,"messages":[],"question":null,"iterations":0}'


def _script() -> list[Reply]:
    return [Reply(ToolUse("workout__generate_workout", chest_workout(), id="g1")),
            Reply(ToolUse("coach__message_notify_user", {"text": "Your quick chest workout",
                                                         "attachments": ["workout_1"]}, id="n1")),
            Reply(ToolUse("coach__message_ask_user", {"text": "Home or gym?", "options": ["Home", "Gym"]}, id="a1"))]


async def test_the_chat_body_is_the_streams_message_and_question_without_their_type(client, db, factory,
                                                                                   clean_model) -> None:
    """The same script over the SSE endpoint and over /chat: the body's message and question are the frames' data
    without `type`, their keys in the frames' order."""
    streamed = await trainee(db, factory)
    Trainer(clean_model, _script())
    stream = await sse(client, f"/organizations/{streamed.org.id}/trainer/messages",
                       json_body={"message": "chest please"}, headers=streamed.user.headers)
    frames = [(name, {k: v for k, v in data.items() if k not in {"type", "turnId"}})
              for name, data in stream.events if name in {"message", "question"}]
    assert [name for name, _ in frames] == ["message", "question"]

    chatted = await trainee(db, factory)
    Trainer(clean_model, _script())
    response = await client.post(f"/organizations/{chatted.org.id}/trainer/chat", json={"message": "chest please"},
                                 headers=chatted.user.headers)
    assert response.status_code == 200, response.text
    body = response.json()  # keys in the order sent
    assert list(body) == ["sessionId", "messages", "question", "iterations"]
    [message] = body["messages"]
    assert list(message) == ["content", "attachments"] and list(body["question"]) == ["content", "options"]
    assert message == frames[0][1] and body["question"] == frames[1][1]
    assert message["attachments"][0]["workout"]["id"] == "workout_1"
    assert (message["content"], body["question"]["options"]) == ("Your quick chest workout", ["Home", "Gym"])
