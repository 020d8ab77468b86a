"""Issue 17 item 6: a staff user renames and deletes their own conversations (beyond the spec);
anyone else gets 404 conversation_not_found, a blank title 400, and the list follows."""

from __future__ import annotations

from tests.fakes.anthropic_server import Reply, Text
from tests.sse import sse


async def test_rename_then_delete_own_conversation_and_others_get_404(client, factory, fake_model) -> None:
    org = await factory.org()
    owner, coach = await factory.user(org, "owner"), await factory.user(org, "coach")
    fake_model.respond_with(lambda body: Reply(Text("ok")))
    base = f"/organizations/{org.id}/agent"
    started = await sse(client, f"{base}/messages", json_body={"message": "revenue this month"}, headers=owner.headers)
    assert started.status == 200
    conversation_id = (await client.get(f"{base}/conversations", headers=owner.headers)).json()["items"][0]["id"]
    url = f"{base}/conversations/{conversation_id}"

    renamed = await client.patch(url, json={"title": "  November revenue  "}, headers=owner.headers)
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["title"] == "November revenue" and renamed.json()["id"] == conversation_id
    assert (await client.patch(url, json={"title": "   "}, headers=owner.headers)).status_code == 400
    other = await client.patch(url, json={"title": "mine now"}, headers=coach.headers)
    assert other.status_code == 404 and other.json()["code"] == "conversation_not_found"
    listing = (await client.get(f"{base}/conversations", headers=owner.headers)).json()
    assert [c["title"] for c in listing["items"]] == ["November revenue"]

    assert (await client.delete(url, headers=coach.headers)).status_code == 404
    deleted = await client.delete(url, headers=owner.headers)
    assert deleted.status_code == 200 and deleted.json() == {"ok": True, "deletedConversationId": conversation_id}
    assert (await client.get(f"{base}/conversations", headers=owner.headers)).json()["items"] == []
    assert (await client.get(url, headers=owner.headers)).status_code == 404
    assert (await client.delete(url, headers=owner.headers)).status_code == 404
