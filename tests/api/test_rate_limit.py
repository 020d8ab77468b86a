"""The per-user turn rate limit (Litestar's middleware over Redis): counted per authenticated user on the
routes that open a turn, with RateLimit-* headers, refused as 429 `rate_limited` in the usual error body."""

from __future__ import annotations

import httpx

from api.app import create_app
from tests.fakes.anthropic_server import Reply, Text
from tests.servers import ThreadedServer
from tests.sse import sse


async def test_turns_over_the_limit_are_refused_per_user_with_rate_limit_headers(app_settings, factory,
                                                                                 fake_model) -> None:
    server = ThreadedServer(create_app(app_settings.model_copy(update={"agent_rate_limit_per_minute": 2}))).start()
    try:
        org = await factory.org()
        owner, coach = await factory.user(org, "owner"), await factory.user(org, "coach")
        member = await factory.user(org, "member")
        fake_model.respond_with(lambda body: Reply(Text("ok")))
        url = f"/organizations/{org.id}/agent/messages"
        async with httpx.AsyncClient(base_url=server.url) as http:
            refused_member = await sse(http, url, json_body={"message": "hi"}, headers=member.headers)
            unauthenticated = await sse(http, url, json_body={"message": "hi"})
            owner_sends = [await sse(http, url, json_body={"message": "hi"}, headers=owner.headers)
                           for _ in range(3)]
            coach_send = await sse(http, url, json_body={"message": "hi"}, headers=coach.headers)
            listing = await http.get(f"/organizations/{org.id}/agent/conversations", headers=owner.headers)
    finally:
        server.stop()
    assert (refused_member.status, unauthenticated.status) == (403, 401)  # refused first, never counted
    assert [r.status for r in owner_sends] == [200, 200, 429]
    assert [r.headers.get("ratelimit-remaining") for r in owner_sends] == ["1", "0", "0"]
    assert all(r.headers.get("ratelimit-limit") == "2" for r in owner_sends)
    assert owner_sends[2].headers.get("ratelimit-policy") == "2; w=60"
    assert int(owner_sends[2].headers["ratelimit-reset"]) > 0
    refused = owner_sends[2].body
    assert refused is not None and refused["code"] == "rate_limited" and refused["traceId"] and refused["message"]
    assert owner_sends[2].headers.get("x-trace-id") == refused["traceId"]
    assert coach_send.status == 200 and coach_send.headers.get("ratelimit-remaining") == "1"  # keyed by user
    assert listing.status_code == 200 and "ratelimit-limit" not in listing.headers  # only routes that open a turn


async def test_the_limit_is_off_by_default_outside_production(client, factory, fake_model) -> None:
    org = await factory.org()
    owner = await factory.user(org, "owner")
    fake_model.respond_with(lambda body: Reply(Text("ok")))
    result = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                       headers=owner.headers)
    assert result.status == 200 and "ratelimit-limit" not in result.headers
