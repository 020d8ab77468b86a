"""Issue 44 item 5 over HTTP: Regenerate and Edit replace a user message (`replaces` on send) and keep what they
replaced as an alternative the console can show again (POST .../alternatives/{messageId}); the model never reads a
hidden alternative, and what cannot be replaced answers 404 / 409 before any stream opens."""

from __future__ import annotations

from tests.fakes.anthropic_server import Reply, Text
from tests.sse import sse


def _said(request: dict) -> list[str]:
    """The person's words in a recorded model request, message by message (the context blocks left out)."""
    out = []
    for message in request["messages"]:
        if message["role"] != "user" or isinstance(message["content"], str):
            continue
        texts = [b["text"] for b in message["content"] if b.get("type") == "text" and not b["text"].startswith("<")]
        out += texts
    return out


async def test_regenerate_and_edit_keep_alternatives_and_the_model_reads_only_the_shown_path(
        client, factory, fake_model) -> None:
    org = await factory.org()
    owner, coach = await factory.user(org, "owner"), await factory.user(org, "coach")
    base = f"/organizations/{org.id}/agent"
    answers = iter(["First answer.", "Second question's answer.", "Regenerated answer.", "Edited answer."])
    fake_model.respond_with(lambda body: Reply(Text(next(answers))))

    first = await sse(client, f"{base}/messages", json_body={"message": "who is at risk"}, headers=owner.headers)
    conversation_id = first.one("conversation_started")["conversationId"]
    url = f"{base}/conversations/{conversation_id}"
    await sse(client, f"{base}/messages", json_body={"message": "and revenue", "conversationId": conversation_id},
              headers=owner.headers)
    detail = (await client.get(url, headers=owner.headers)).json()
    last_user = [m for m in detail["messages"] if m["role"] == "user"][-1]
    assert "alternatives" not in last_user

    # Regenerate: the same words in place of the last message; the old answer is kept as an alternative.
    regen = await sse(client, f"{base}/messages", headers=owner.headers,
                      json_body={"message": "and revenue", "conversationId": conversation_id,
                                 "replaces": last_user["id"]})
    assert regen.status == 200 and regen.names[-1] == "done"
    said = _said(fake_model.requests[-1].body)
    assert said == ["who is at risk", "and revenue"], said  # the replaced turn is not sent again
    detail = (await client.get(url, headers=owner.headers)).json()
    texts = [m["text"] for m in detail["messages"]]
    assert texts == ["who is at risk", "First answer.", "and revenue", "Regenerated answer."]
    shown = detail["messages"][2]
    assert shown["alternatives"] == [last_user["id"], shown["id"]] and shown["regenerated"] is True

    # Edit the first message: it and every later turn become an alternative branch.
    first_user = detail["messages"][0]
    edited = await sse(client, f"{base}/messages", headers=owner.headers,
                       json_body={"message": "who joined this month", "conversationId": conversation_id,
                                  "replaces": first_user["id"]})
    assert edited.status == 200
    assert _said(fake_model.requests[-1].body) == ["who joined this month"]
    detail = (await client.get(url, headers=owner.headers)).json()
    assert [m["text"] for m in detail["messages"]] == ["who joined this month", "Edited answer."]
    assert detail["messages"][0]["alternatives"] == [first_user["id"], detail["messages"][0]["id"]]
    assert detail["messages"][0]["regenerated"] is False

    # Flip back to the first branch: it comes back with the regenerated answer that was shown inside it.
    back = await client.post(f"{url}/alternatives/{first_user['id']}", headers=owner.headers)
    assert back.status_code == 200, back.text
    assert [m["text"] for m in back.json()["messages"]] == [
        "who is at risk", "First answer.", "and revenue", "Regenerated answer."]
    assert back.json() == (await client.get(url, headers=owner.headers)).json()
    # ... and inside it to the first answer of the regenerated message.
    older = await client.post(f"{url}/alternatives/{last_user['id']}", headers=owner.headers)
    assert [m["text"] for m in older.json()["messages"]][-1] == "Second question's answer."

    # What cannot be replaced: another person's conversation, an unknown message, an assistant message, a
    # message hidden under another choice, a new conversation.
    other = await client.post(f"{url}/alternatives/{first_user['id']}", headers=coach.headers)
    assert other.status_code == 404 and other.json()["code"] == "conversation_not_found"
    unknown = await client.post(f"{url}/alternatives/{org.id}", headers=owner.headers)
    assert unknown.status_code == 404 and unknown.json()["code"] == "message_not_found"
    answer_id = older.json()["messages"][1]["id"]
    refused = await sse(client, f"{base}/messages", headers=owner.headers,
                        json_body={"message": "x", "conversationId": conversation_id, "replaces": answer_id})
    assert refused.status == 409 and refused.body["code"] == "message_not_replaceable"
    edited_id = detail["messages"][0]["id"]  # hidden now, under the first branch's choice
    hidden = await sse(client, f"{base}/messages", headers=owner.headers,
                       json_body={"message": "x", "conversationId": conversation_id, "replaces": edited_id})
    assert hidden.status == 409
    fresh = await sse(client, f"{base}/messages", headers=owner.headers,
                      json_body={"message": "x", "replaces": first_user["id"]})
    assert fresh.status == 404 and fresh.body["code"] == "message_not_found"
    assert [m["text"] for m in (await client.get(url, headers=owner.headers)).json()["messages"]] == [
        "who is at risk", "First answer.", "and revenue", "Second question's answer."]
