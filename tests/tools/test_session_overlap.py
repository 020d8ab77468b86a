"""Issue 17 item 9: scheduling the same open-gym session again is refused with session_overlap (the agent says
so and asks); with allowOverlap=true after the user agreed, it is scheduled; another class type is not a clash."""

from __future__ import annotations

import re

from core.i18n import translate
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


async def test_an_overlap_is_refused_in_the_callers_words_with_schedule_anyway(gym, tools) -> None:  # noqa: F811
    """Issue 27 item 1: the people's message is in the caller's language and names no tool, code or parameter;
    the hint (English, for the model) stays out of it; the next step is a button that sends words."""
    await tools.ok("class_sessions__create", OPEN_GYM, org=gym.org, user=gym.owner, now=WINTER)
    for locale, words, label in (("he", "כבר יש שיעור Open Gym בשעה הזו.", "לקבוע בכל זאת"),
                                 ("ru", None, None), ("en", "Open Gym already has a class at that time.", None)):
        error = await tools.fails("class_sessions__create", OPEN_GYM, "session_overlap", org=gym.org,
                                  user=gym.owner, now=WINTER, locale=locale)
        if words:
            assert error["message"] == words
        assert not re.search(r"allowOverlap|class_sessions|session_overlap|Tell the user", error["message"])
        assert "allowOverlap=true" in error["hint"] and "allowOverlap" not in error["nextStep"]["message"]
        assert error["nextStep"]["key"] == "schedule_anyway"
        assert error["nextStep"]["label"] == translate("agent.nextSteps.schedule_anyway.label", locale)
        if label:
            assert error["nextStep"]["label"] == label
        if locale == "ru":
            assert re.search(r"[а-я]", error["message"]) and "Open Gym" in error["message"]
