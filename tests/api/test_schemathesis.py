"""Schemathesis over the live app as an owner, a member and front desk, with every check it has (issue 22).

Each role's run is what `st run --checks all` does with this repository's `schemathesis.toml`: the coverage,
fuzzing and stateful phases with a fixed seed and a bounded budget, as that role, with a second user of the same
role in the same org as the peer `object_level_authorization` replays the role's reads as. The org is pinned; a
real conversation (staff), trainer session (member), nutrition run and member are pinned half the time, so the
fuzz gets past the 404s. Every caller is also a member of the gym (staff who train there) with a live current
workout: before each call of the member app's workout routes the workout is made current again if the fuzz
finished or discarded it, so set logging, undo, add, swap and remove are reached in every role (issue 39). Every check the installed schemathesis registers runs, plus one of ours: a turn's stream
(agent or trainer) ends with exactly one `done` and never reports `internal`.

Where a check has nothing to judge, that is the API, not a gap in the run: the examples phase has no examples
to send (the schema documents none); `response_headers_conformance` checks documented response headers and
/schema documents none; `missing_required_header` has only `Authorization` to drop (no operation takes a
required header parameter). The three exemptions, each a rule a schema cannot carry, live in
`schemathesis.toml` with their reasons.
"""

from __future__ import annotations

import asyncio
import json
import time
import tomllib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import schemathesis

# schemathesis imports parts of itself lazily; the fuzz runs in a worker thread, and CPython 3.11.7 can fail to
# compile a module there after deep recursion elsewhere in the session ("AST constructor recursion depth
# mismatch"). Importing them here, in the main thread at collection, avoids that.
import schemathesis.engine.core
import schemathesis.specs.openapi.schemas
from schemathesis.checks import CHECKS, CheckContext
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import Status, events, from_schema
from schemathesis.generation.case import Case

from gym.training import workout_sets
from gym.training.trainer_workouts import current_workout, save_workout
from gym.training.workout import Workout
from gym.training.workout_sets import SetInput
from tests.api.fuzz_report import (
    FUZZ_BUDGET_SECONDS,
    SCHEMA_TIMEOUT_SECONDS,
    TEST_TIMEOUT_SECONDS,
    fail_briefly,
)
from tests.api.test_trainer_app_endpoints import superset_workout
from tests.fakes.anthropic_server import Reply, Text
from tests.gym.nutrition import samples
from tests.sse import parse_frames, sse
from tests.trainer.members import link_member

SEED = 20261123
EXAMPLES = 15

REPOSITORY_CONFIG = Path(__file__).resolve().parents[2] / "schemathesis.toml"
ROLES = ("owner", "member", "front_desk")


def turn_stream_problems(text: str) -> list[str]:
    """What is wrong with a turn's SSE stream: it must end with exactly one `done` and never report `internal`.
    A run's replayable log (its frames carry `id:`) may end anywhere: a replay after its last frame is empty."""
    if "\nid: " in f"\n{text}":
        return []
    frames = parse_frames(text)
    names = [name for name, _ in frames]
    problems = [] if names[-1:] == ["done"] and names.count("done") == 1 else [f"{names} do not end in one done"]
    return problems + [f"error frame {data.get('code')}" for name, data in frames
                       if name == "error" and data.get("code") == "internal"]


@schemathesis.check
def turn_stream_ends_with_one_done(ctx: CheckContext, response: schemathesis.Response, case: Case) -> bool | None:
    if (response.headers.get("content-type") or [""])[0].startswith("text/event-stream") \
            and not response.stream_cut_short:
        problems = turn_stream_problems(response.content.decode("utf-8", "replace"))
        assert not problems, "; ".join(problems)
    return None


ALL_CHECKS = sorted(check.__name__ for check in CHECKS.get_all())


@dataclass
class World:
    """One role's run: who calls, who the peer is, and the ids pinned half the time."""

    role: str
    org_id: str
    token: str
    peer_token: str
    pinned: dict[str, str] = field(default_factory=dict)
    before_workout_call: Callable[[], None] | None = None  # keeps the caller's current workout live


_ACTIVE: list[World] = []  # the world whose fuzz is running (the hook below is global to schemathesis)
WORKOUT_ROUTES = "/trainer/workout"


@schemathesis.hook
def before_call(ctx, case: Case, kwargs) -> None:
    """Before a call of the member app's workout routes: the caller has a current workout (made anew if the fuzz
    finished or discarded it), so the call reaches set logging rather than 409 no_current_workout."""
    world = _ACTIVE[-1] if _ACTIVE else None
    if world is not None and world.before_workout_call is not None and WORKOUT_ROUTES in case.operation.path:
        world.before_workout_call()


@dataclass
class Report:
    calls: int = 0
    seconds: float = 0.0
    sets_logged: int = 0  # 201 answers of POST .../trainer/workout/sets: the fuzz reached set logging
    stopped_early: bool = False  # the budget ran out before the engine did
    failures: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)

    def by_check(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for check, _, _ in self.failures:
            counts[check] = counts.get(check, 0) + 1
        return counts


def _config(world: World, auth_file: Path) -> SchemathesisConfig:
    settings = tomllib.loads(REPOSITORY_CONFIG.read_text()) if REPOSITORY_CONFIG.exists() else {}
    dictionaries = {name: {"values": [value]} for name, value in world.pinned.items()}
    settings.update({
        "seed": SEED,
        "workers": 1,
        "continue-on-failure": True,
        "request-timeout": 30,
        "cache": {"enabled": False},  # no .schemathesis/ left behind, nothing learnt from an earlier run
        "generation": {"max-examples": EXAMPLES, "database": "none"},
        "checks": {"enabled": True},
        "auth": {"wfc": {"path": str(auth_file), "user": world.role, "peers": [world.role, "peer"]}},
        "dictionaries": dictionaries,
        "parameters": {"path.org_id": world.org_id,
                       **{f"path.{name}": {"dictionary": name, "probability": 0.5} for name in world.pinned}},
    })
    return SchemathesisConfig.from_dict(settings)


def _fuzz(base_url: str, world: World, auth_file: Path) -> Report:
    auth_file.write_text(json.dumps({"auth": [
        {"name": world.role, "fixedHeaders": [{"name": "Authorization", "value": f"Bearer {world.token}"}]},
        {"name": "peer", "fixedHeaders": [{"name": "Authorization", "value": f"Bearer {world.peer_token}"}]}]}))
    config = _config(world, auth_file)
    schema = schemathesis.openapi.from_url(f"{base_url}/schema/openapi.json", config=config,
                                           timeout=SCHEMA_TIMEOUT_SECONDS)
    report = Report()
    started = time.monotonic()
    _ACTIVE.append(world)
    try:
        _run(schema, report)
    finally:
        _ACTIVE.remove(world)
    report.seconds = time.monotonic() - started
    return report


def _run(schema, report: Report) -> None:
    """The engine's events until it ends or the budget is spent (then the run stops where it is: closing the event
    stream stops the engine), so the test always ends on its own, well inside its timeout. The member app's workout
    routes run first, then every other operation: on a loaded machine the budget ran out in the coverage phase of
    the others before the fuzz reached set logging (the member's run: 2,436 calls, no set logged)."""
    deadline = time.monotonic() + FUZZ_BUDGET_SECONDS
    # two excludes: an include is OR-ed with the priority filter the config brings, so it kept every operation
    for part in (schema.exclude(path_regex=f"^(?!.*{WORKOUT_ROUTES})"), schema.exclude(path_regex=WORKOUT_ROUTES)):
        if not _execute(part, report, deadline):
            report.stopped_early = True
            return


def _execute(schema, report: Report, deadline: float) -> bool:
    """One engine run's events into `report`; False when the deadline came first."""
    for event in from_schema(schema).execute():
        if time.monotonic() > deadline:
            return False
        if isinstance(event, events.ScenarioFinished):
            report.calls += len(event.recorder.interactions)
            report.sets_logged += sum(1 for i in event.recorder.interactions.values()
                                      if i.request.method == "POST" and i.request.uri.split("?")[0].endswith(
                                          "/trainer/workout/sets") and i.response is not None
                                      and i.response.status_code == 201)
            for case_id, checks in event.recorder.checks.items():
                for check in checks:
                    if check.status == Status.FAILURE and check.failure_info is not None:
                        failure = check.failure_info.failure
                        key = (check.name, failure.operation, failure.title)
                        response = event.recorder.find_response(case_id=case_id)
                        answer = f"{response.status_code} {response.content[:300]!r}" if response else "no response"
                        report.failures.setdefault(key, []).append(
                            f"{failure.message[:300]}\n-> {answer}\n{check.failure_info.code_sample[:600]}")
        elif isinstance(event, events.NonFatalError | events.FatalError):
            error = event.value if isinstance(event, events.NonFatalError) else event.exception
            report.failures.setdefault(("engine_error", getattr(event, "label", ""), type(error).__name__), []).append(
                str(error)[:600])
    return True


async def _live_workout(db, org_id, trainee_id) -> Callable[[], Awaitable[str | None]]:
    """What keeps the trainee's workout live: a current workout with one set logged when there is none (the set's
    id), else nothing."""
    async def ensure() -> str | None:
        now = datetime.now(UTC)
        async with db.scope(org_id=org_id) as session:
            if await current_workout(session, org_id, trainee_id) is not None:
                return None
            await save_workout(session, org_id, trainee_id, Workout.model_validate(superset_workout()),
                               now=now - timedelta(minutes=5))
            return str((await workout_sets.log_set(session, org_id, trainee_id, SetInput(exercise_id="ex_001", reps=10),
                                                   now=now)).item.id)
    return ensure


async def _world(role: str, factory, db, client) -> World:
    org = await factory.org(tier="elite")
    owner = await factory.user(org, "owner", name="Fuzz Owner")
    caller = owner if role == "owner" else await factory.user(org, role, name=f"Fuzz {role}")
    peer = await factory.user(org, role, name=f"Peer {role}")
    pinned: dict[str, str] = {}
    loop = asyncio.get_running_loop()
    trainee_id = await link_member(db, org.id, caller.id, f"Fuzz {role.title()}")  # staff who train here too
    ensure = await _live_workout(db, org.id, trainee_id)
    pinned["set_id"] = str(await ensure())
    pinned["exercise_id"] = "ex_001"

    def before_workout_call() -> None:
        asyncio.run_coroutine_threadsafe(ensure(), loop).result(timeout=60)

    if role == "member":
        member_id = trainee_id
        await link_member(db, org.id, peer.id, "Peer Member")
        created = await client.post(f"/organizations/{org.id}/trainer/sessions", headers=caller.headers)
        pinned["session_id"] = created.json()["id"]
        started = await client.post(f"/organizations/{org.id}/nutrition/runs", json={"intake": samples.INTAKE},
                                    headers=caller.headers)
    else:
        member_id = await link_member(db, org.id, None, "Pinned Member")
        turn = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                         headers=caller.headers)
        pinned["conversation_id"] = turn.one("conversation_started")["conversationId"]
        started = await client.post(f"/organizations/{org.id}/nutrition/runs",
                                    json={"membershipId": str(member_id), "intake": samples.INTAKE},
                                    headers=owner.headers)
    assert started.status_code == 202, started.text
    pinned["run_id"] = started.json()["runId"]
    pinned["member_id"] = str(member_id)
    return World(role, str(org.id), caller.token, peer.token, pinned, before_workout_call)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.timeout(TEST_TIMEOUT_SECONDS)
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")  # schemathesis' own use
async def test_schemathesis_with_every_check_finds_nothing(role, server, client, factory, db, clean_model,
                                                           tmp_path) -> None:
    """Every check of the installed schemathesis, as `role`: no 5xx, no undocumented status, header or body, no
    schema-valid request refused or invalid one accepted, no OPTIONS `Allow` beyond the schema, no object of one
    user readable by their peer, and every turn stream ending in one `done`."""
    clean_model.respond_with(lambda body: Reply(Text("Noted.")))
    world = await _world(role, factory, db, client)

    report = await asyncio.to_thread(_fuzz, server.url, world, tmp_path / "auth.json")

    print(f"{role}: {report.calls} calls in {report.seconds:.1f} s{' (budget spent)' if report.stopped_early else ''}, "
          f"{report.sets_logged} sets logged; failures by check: {report.by_check()}")
    assert report.calls >= 500
    assert report.sets_logged >= 5  # the live workout: set logging is reached in every role
    if report.failures:
        fail_briefly({" | ".join(k): v[:2] for k, v in report.failures.items()})


def test_the_fuzz_runs_every_check_schemathesis_has() -> None:
    """The run enables all registered checks, so a check added by a schemathesis upgrade is run, not skipped."""
    config = _config(World("owner", "o", "t", "p"), Path("auth.json"))
    project = config.projects.get_default()
    enabled = {name for name in ALL_CHECKS if project.checks.get_by_name(name=name).enabled}
    assert set(ALL_CHECKS) - enabled == set()
    assert {"not_a_server_error", "positive_data_acceptance", "negative_data_rejection", "use_after_free",
            "ensure_resource_availability", "ignored_auth", "object_level_authorization", "allow_header_conformance",
            "unsupported_method", "missing_required_header", "turn_stream_ends_with_one_done"} <= set(ALL_CHECKS)


def test_the_stream_check_catches_a_turn_without_one_done_or_with_internal() -> None:
    done = 'event: done\ndata: {"type": "done"}\n\n'
    internal = 'event: error\ndata: {"type": "error", "code": "internal"}\n\n'
    assert turn_stream_problems('event: text_delta\ndata: {"delta": "hi"}\n\n' + done) == []
    assert turn_stream_problems('event: text_delta\ndata: {"delta": "hi"}\n\n') != []
    assert turn_stream_problems(done + done) != []
    assert turn_stream_problems(internal + done) == ["error frame internal"]
    assert turn_stream_problems("") != []
    assert turn_stream_problems('id: 4\nevent: state\ndata: {"type": "state"}\n\n') == []  # a run's log
