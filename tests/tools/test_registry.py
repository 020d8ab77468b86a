"""The registry and runner: names, duplicates, per-role views, role re-check, validation, typed failures."""

import json
import uuid

import pytest
from pydantic import BaseModel

from core.tenancy import Caller, OrgAccess
from tools.catalog import build_registry
from tools.errors import ToolFailed
from tools.registry import STAFF, Audit, Inverse, ToolRegistry, ToolRouter, by_id
from tools.runner import ToolRunner


class Empty(BaseModel):
    pass


def test_duplicate_action_is_rejected_at_declaration() -> None:
    router = ToolRouter("demo")

    @router.agent_tool(action="ping", summary="p", input=Empty, roles=STAFF)
    async def ping(ctx, input):
        return {}

    with pytest.raises(ValueError, match="duplicate tool demo__ping"):
        @router.agent_tool(action="ping", summary="again", input=Empty, roles=STAFF)
        async def ping_again(ctx, input):
            return {}


def test_duplicate_name_across_routers_is_rejected_by_the_registry() -> None:
    first, second = ToolRouter("demo"), ToolRouter("demo")
    for router in (first, second):
        router.agent_tool(action="ping", summary="p", input=Empty, roles=STAFF)(lambda ctx, i: None)
    registry = ToolRegistry()
    registry.include(first)
    with pytest.raises(ValueError, match="duplicate"):
        registry.include(second)


def test_invalid_names_and_missing_inverses_are_rejected() -> None:
    with pytest.raises(ValueError, match="invalid tool name"):
        ToolRouter("bad router").agent_tool(action="x", summary="x", input=Empty, roles=STAFF)(lambda c, i: None)
    router = ToolRouter("demo")
    router.agent_tool(action="make", summary="m", input=Empty, roles=STAFF, side_effects="write",
                      inverse=Inverse("demo", "unmake", by_id))(lambda c, i: None)
    registry = ToolRegistry()
    registry.include(router)
    with pytest.raises(ValueError, match="inverse demo__unmake"):
        registry.validate_inverses()


def test_registry_is_built_per_role_and_member_gets_only_the_trainer() -> None:
    registry = build_registry()
    names = {spec.name for spec in registry.for_role("front_desk")}
    assert {"tasks__create", "read__get_current_context"} <= names
    member = registry.for_role("member")
    assert len(member) == 29 and all(spec.roles == {"member"} for spec in member)
    assert not {spec.name for spec in member} & {s.name for r in ("owner", "admin", "coach", "front_desk")
                                                 for s in registry.for_role(r)}
    for spec in registry.specs.values():
        assert spec.name == f"{spec.router}__{spec.action}"
        tool = spec.to_anthropic()
        assert tool["input_schema"]["type"] == "object" and tool["description"]


@pytest.fixture
def runner(db) -> ToolRunner:
    return ToolRunner(db)


def _access(org, role: str) -> OrgAccess:
    return OrgAccess(org_id=org.id, org_name=org.name, tier="pro", timezone=org.timezone, locale="en",
                     budget_override_usd_micros=None, role=role)


def _caller(user) -> Caller:
    return Caller(user_id=user.id, clerk_id=user.clerk_id, email=user.email, name="T")


async def test_runner_rechecks_role_and_validates_input(runner, factory) -> None:
    org = await factory.org()
    user = await factory.user(org, "member")
    spec = build_registry().get("tasks__create")
    refused = await runner.run(spec, {"title": "x"}, access=_access(org, "member"), caller=_caller(user))
    assert not refused.ok and refused.error["code"] == "forbidden_for_role"
    invalid = await runner.run(spec, {"title": ""}, access=_access(org, "owner"), caller=_caller(user))
    assert not invalid.ok and invalid.error["code"] == "validation_failed" and "title" in invalid.error["detail"]


async def test_runner_turns_exceptions_into_typed_results_and_rolls_back(runner, factory, db) -> None:
    from sqlalchemy import text

    org = await factory.org()
    user = await factory.user(org, "owner")
    router = ToolRouter("boom")

    @router.agent_tool(action="typed", summary="t", input=Empty, roles=STAFF, side_effects="write",
                       audit=Audit("thing", "thing.typed"))
    async def typed(ctx, input):
        await ctx.session.execute(text("INSERT INTO tasks (org_id, title) VALUES (:o, 'half-done')"),
                                  {"o": ctx.org_id})
        raise ToolFailed("thing_locked", "The thing is locked.", "Unlock it first.")

    @router.agent_tool(action="bug", summary="b", input=Empty, roles=STAFF)
    async def bug(ctx, input):
        raise ZeroDivisionError

    failed = await runner.run(router.specs["typed"], {}, access=_access(org, "owner"), caller=_caller(user))
    # a code with no words in locales/ keeps the service's sentence; the model also gets it as the detail
    assert failed.error == {"code": "thing_locked", "message": "The thing is locked.", "detail": "The thing is locked.",
                            "hint": "Unlock it first."}
    crashed = await runner.run(router.specs["bug"], {}, access=_access(org, "owner"), caller=_caller(user))
    assert crashed.error["code"] == "internal"
    async with db.owner() as session:
        leftovers = await session.scalar(text("SELECT count(*) FROM tasks WHERE org_id = :o"), {"o": org.id})
        audits = await session.scalar(text("SELECT count(*) FROM audit_logs WHERE org_id = :o"), {"o": org.id})
    assert leftovers == 0 and audits == 0


async def test_runner_turns_any_service_error_into_the_typed_result(runner, factory) -> None:
    """A gym rule raised deep in a service, or any other ServiceError, reaches the model as {code, message, hint}."""
    from core.errors import ServiceError
    from gym.errors import GymError

    org = await factory.org()
    user = await factory.user(org, "owner")
    router = ToolRouter("rules")

    @router.agent_tool(action="gym", summary="g", input=Empty, roles=STAFF)
    async def gym_rule(ctx, input):
        raise GymError("session_full", "the session is full", "Offer the waitlist.", status=409, capacity=16)

    @router.agent_tool(action="other", summary="o", input=Empty, roles=STAFF)
    async def other(ctx, input):
        raise ServiceError("index_unavailable")

    gym = await runner.run(router.specs["gym"], {}, access=_access(org, "owner"), caller=_caller(user))
    assert gym.error == {"code": "session_full", "message": "That class is full (16 places).",
                         "detail": "the session is full",
                         "hint": "Offer the waitlist."}
    plain = await runner.run(router.specs["other"], {}, access=_access(org, "owner"), caller=_caller(user))
    assert plain.error["code"] == "index_unavailable"
    assert plain.error["message"] and plain.error["hint"]


@pytest.mark.parametrize("raw", [{"title": "Fix\x00 the rower"}, {"ti\x00tle": "x"},
                                 {"title": "ok", "notes": "fine", "extra": [{"deep": "a\x00"}]}])
async def test_a_nul_anywhere_in_a_tool_input_is_a_typed_validation_error(runner, factory, db, raw) -> None:
    from sqlalchemy import text

    org = await factory.org()
    user = await factory.user(org, "owner")
    spec = build_registry().get("tasks__create")
    outcome = await runner.run(spec, raw, access=_access(org, "owner"), caller=_caller(user))
    assert not outcome.ok and outcome.error["code"] == "validation_failed"
    assert "NUL" in outcome.error["detail"] and "\x00" not in outcome.error["detail"]
    assert "\x00" not in outcome.error["message"]
    async with db.owner() as session:
        assert await session.scalar(text("SELECT count(*) FROM tasks WHERE org_id = :o"), {"o": org.id}) == 0


async def test_foreign_org_ids_are_not_found(runner, factory) -> None:
    org_a, org_b = await factory.org(), await factory.org()
    owner_a, owner_b = await factory.user(org_a, "owner"), await factory.user(org_b, "owner")
    registry = build_registry()
    made = await runner.run(registry.get("tasks__create"), {"title": "A's task"}, access=_access(org_a, "owner"),
                            caller=_caller(owner_a))
    task_id = made.output["id"]
    for action, extra in (("update", {"title": "stolen"}), ("complete", {}), ("delete", {})):
        outcome = await runner.run(registry.get(f"tasks__{action}"), {"id": task_id, **extra},
                                   access=_access(org_b, "owner"), caller=_caller(owner_b))
        assert not outcome.ok and outcome.error["code"] == "task_not_found", action
    listed = await runner.run(registry.get("tasks__list"), {}, access=_access(org_b, "owner"), caller=_caller(owner_b))
    assert listed.output["count"] == 0
    assert uuid.UUID(task_id)


def test_input_schemas_carry_no_generated_titles_but_keep_a_property_named_title() -> None:
    """pydantic's titles ("Exerciseid") are dropped from every tool's schema; a field called `title` stays."""
    registry = build_registry()
    schemas = {spec.name: spec.input_schema() for spec in registry.for_role("owner")}

    def keywords(node, inside_names=False):
        if isinstance(node, list):
            for item in node:
                yield from keywords(item)
        elif isinstance(node, dict):
            for key, value in node.items():
                if not inside_names:
                    yield key
                yield from keywords(value, inside_names=key in ("properties", "$defs") and not inside_names)

    assert all("title" not in set(keywords(schema)) for schema in schemas.values())
    assert "title" in schemas["tasks__create"]["properties"] and "title" in schemas["tasks__create"]["required"]
    assert schemas["workouts__create"]["$defs"]["MovementInput"]["properties"]["exerciseId"]["description"]
    assert len(json.dumps(schemas)) > 20_000  # the schemas themselves are all still there
