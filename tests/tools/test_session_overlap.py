"""Issue 17 item 9: scheduling the same open-gym session again is refused with session_overlap (the agent says
so and asks); with allowOverlap=true after the user agreed, it is scheduled; another class type is not a clash."""

from __future__ import annotations

from tests.tools.test_class_sessions import OPEN_GYM, WINTER, gym  # noqa: F401  (the fixture)


async def test_same_session_twice_is_an_overlap_until_the_user_agrees(gym, tools) -> None:  # noqa: F811
    first = await tools.ok("class_sessions__create", OPEN_GYM, org=gym.org, user=gym.owner, now=WINTER)
    error = await tools.fails("class_sessions__create", OPEN_GYM, "session_overlap", org=gym.org, user=gym.owner,
                              now=WINTER)
    assert "Open Gym" in error["message"] and "allowOverlap=true" in error["hint"]
    later = {**OPEN_GYM, "start": "14:00", "end": "15:00"}  # back to back is no overlap
    assert (await tools.ok("class_sessions__create", later, org=gym.org, user=gym.owner, now=WINTER))["id"]
    crossfit = {**OPEN_GYM, "classType": "crossfit"}
    assert (await tools.ok("class_sessions__create", crossfit, org=gym.org, user=gym.owner, now=WINTER))["id"]
    agreed = await tools.ok("class_sessions__create", {**OPEN_GYM, "allowOverlap": True}, org=gym.org,
                            user=gym.owner, now=WINTER)
    assert agreed["id"] != first["id"]
