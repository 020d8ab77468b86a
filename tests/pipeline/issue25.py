"""What the issue-25 HTTP tests share: a member with a login in a fresh org, the nutrition base URL, starting a
run and following its events until it rests, reading a run's detail."""

from __future__ import annotations

from datetime import date
from typing import Any

from gym import members
from tests.sse import frames_with_ids


async def member(db, factory, org, name: str = "Dani"):
    """(the member's user, their member id): a member who signs in and acts for themself."""
    user = await factory.user(org, role="member", name=name)
    async with db.scope(org_id=org.id) as session:
        row = await members.create_member(session, org.id, first_name=name, user_id=user.id,
                                          joined_at=date(2026, 1, 5))
    return user, row.id


def base(org) -> str:
    return f"/organizations/{org.id}/nutrition"


async def start(client, org, headers, intake: dict[str, Any], member_id=None) -> str:
    """The new run's URL (202 asserted)."""
    body: dict[str, Any] = {"intake": intake}
    if member_id is not None:
        body["membershipId"] = str(member_id)
    started = await client.post(f"{base(org)}/runs", json=body, headers=headers)
    assert started.status_code == 202, started.text
    return f"{base(org)}/runs/{started.json()['runId']}"


async def follow(client, url: str, headers, after: int | None = None) -> list[tuple[int, str, dict[str, Any]]]:
    """The run's frames (after `after`) until it rests."""
    if after is not None:
        headers = {**headers, "last-event-id": str(after)}
    return await frames_with_ids(client, f"{url}/events", headers)


def states(frames) -> list[str]:
    return [d["to"] for _, kind, d in frames if kind == "state"]


async def detail(client, url: str, headers) -> dict[str, Any]:
    got = await client.get(url, headers=headers)
    assert got.status_code == 200, got.text
    return got.json()
