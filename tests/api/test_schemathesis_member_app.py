"""Schemathesis fuzzes the member's training app (issue 26) as a member: every documented operation under
`/organizations/{org_id}/trainer/` that the app added (workout, sets, exercises, timers, library, progress,
recovery, calendar, plates), with the org, a real exercise and a real set fixed in the path half of the time and a fresh
current workout before each operation, so the fuzz reaches past the guards into the services. It must find no
5xx and no answer the schema does not document (status, content type, body).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import requests
import schemathesis
import schemathesis.specs.openapi.schemas  # imported eagerly, as tests/api/test_schemathesis.py says
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from gym.training import workout_sets
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from gym.training.workout_sets import SetInput
from tests.api.fuzz_report import (
    FUZZ_BUDGET_SECONDS,
    SCHEMA_TIMEOUT_SECONDS,
    TEST_TIMEOUT_SECONDS,
    fail_briefly,
)
from tests.api.test_trainer_app_endpoints import superset_workout
from tests.trainer.fixtures import trainee

EXAMPLES = 8
SEED = 20261127
CHECKS = [status_code_conformance, content_type_conformance, response_schema_conformance]
APP_PATHS = ("/workout", "/exercises", "/progress/", "/recovery", "/calendar", "/plates")


def _ours(path: str) -> bool:
    tail = path.split("/trainer", 1)[1] if "/trainer/" in path else ""
    return path.startswith("/organizations/{org_id}/trainer/") and tail.startswith(APP_PATHS)


def _fuzz(base_url: str, token: str, fixed: dict[str, str], reset: Callable[[], dict[str, str]]) -> tuple[
        int, set[str], list[str]]:
    schema = schemathesis.openapi.from_url(f"{base_url}/schema/openapi.json", timeout=SCHEMA_TIMEOUT_SECONDS)
    headers = {"authorization": f"Bearer {token}"}
    problems: list[str] = []
    seen: set[str] = set()
    calls = 0
    deadline = time.monotonic() + FUZZ_BUDGET_SECONDS
    with requests.Session() as session:
        for result in schema.get_all_operations():
            if time.monotonic() > deadline:  # the budget is spent: end on our own, inside the test's timeout
                problems.append(f"the fuzz spent its {FUZZ_BUDGET_SECONDS} s before it saw every operation")
                break
            operation = result.ok()
            if not _ours(operation.path):
                continue
            seen.add(f"{operation.method.upper()} {operation.path}")
            names = {p.name for p in operation.path_parameters}
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                for use_fixed in ((True, False) if names else (False,)):
                    path_parameters = {k: v for k, v in {**fixed, **reset()}.items() if k in names} if use_fixed \
                        else {}
                    strategy = operation.as_strategy(generation_mode=mode, path_parameters=path_parameters)

                    @seed(SEED)
                    @settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.generate],
                              suppress_health_check=list(HealthCheck))
                    @given(case=strategy)
                    def run(case: Any) -> None:
                        nonlocal calls
                        calls += 1
                        response = case.call(base_url=base_url, session=session, headers=headers, timeout=30)
                        label = f"{case.method} {case.formatted_path}"
                        if response.status_code >= 500:
                            problems.append(f"{label}: {response.status_code} {response.text[:200]}")
                            return
                        try:
                            case.validate_response(response, checks=CHECKS, headers=headers)
                        except (AssertionError, BaseExceptionGroup) as exc:
                            problems.append(f"{label}: {response.status_code} {str(exc)[:400]}")

                    try:
                        run()
                    except Unsatisfiable:
                        continue
    return calls, seen, problems


@pytest.mark.timeout(TEST_TIMEOUT_SECONDS)
async def test_schemathesis_finds_nothing_undocumented_in_the_member_app(server, db, factory) -> None:
    t = await trainee(db, factory)
    loop = asyncio.get_running_loop()

    async def fresh() -> dict[str, str]:
        """A new current workout with one logged set: what the next operation's fixed path names."""
        now = datetime.now(UTC)
        async with db.scope(org_id=t.org.id) as session:
            await save_workout(session, t.org.id, t.member_id, Workout.model_validate(superset_workout()),
                               now=now - timedelta(minutes=5))
            item = (await workout_sets.log_set(session, t.org.id, t.member_id,
                                                    SetInput(exercise_id="ex_001", reps=10), now=now)).item
        return {"set_id": str(item.id)}

    def reset() -> dict[str, str]:
        return asyncio.run_coroutine_threadsafe(fresh(), loop).result(timeout=30)

    fixed = {"org_id": str(t.org.id), "exercise_id": "ex_001"}
    calls, seen, problems = await asyncio.to_thread(_fuzz, server.url, t.user.token, fixed, reset)

    assert seen >= {"GET /organizations/{org_id}/trainer/workout", "POST /organizations/{org_id}/trainer/workout/sets",
                    "DELETE /organizations/{org_id}/trainer/workout/sets/{set_id}",
                    "PUT /organizations/{org_id}/trainer/workout/exercises/{exercise_id}",
                    "GET /organizations/{org_id}/trainer/calendar"}, seen
    assert len(seen) == 17 and calls >= 200  # with PUT …/trainer/exercises/note and GET …/trainer/plates (issue 43)
    if problems:
        fail_briefly(problems[:20])
