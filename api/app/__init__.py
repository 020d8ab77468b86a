"""The Litestar application factory: `create_app(settings)`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path

from litestar import Litestar
from litestar.static_files import create_static_files_router

from agent.mcp_calls import McpCalls
from agent.storage_snapshot import daily_snapshots
from agent.turn_runner import TurnRunner
from api.console_files import ConsoleFiles
from api.controllers.agent import AgentController
from api.controllers.food_log import FoodLogController
from api.controllers.gym_plates import GymPlatesController
from api.controllers.me import MeController
from api.controllers.member_bookings import MemberBookingsController
from api.controllers.nutrition import NutritionController
from api.controllers.nutrition_members import NutritionMembersController
from api.controllers.system import DevJwksController, SystemController
from api.controllers.trainer import TrainerController
from api.controllers.trainer_app import TrainerAppController
from api.controllers.trainer_chat import TrainerChatController
from api.dependencies import APP_DEPENDENCIES
from api.errors import EXCEPTION_HANDLERS
from api.mcp.routes import McpMount
from api.middleware import trace_middleware
from api.openapi import SCHEMA_PLUGINS, openapi_config
from api.options import allow_routed_methods
from api.rate_limit import STORE, turn_rate_limit
from api.requests import JsonRequest
from api.resources import Resources, open_resources
from api.sse import EventStreamSchemaPlugin
from core.i18n import LOCALES_DIR
from core.idempotency import sweep_forever
from core.logging import configure_logging
from core.settings import Settings
from pipeline.jobs import Worker, start_in_process
from pipeline.model_agents import select_agents
from pipeline.questions import HealthQuestions

MAX_BODY_BYTES = 256 * 1024
CONSOLE_DIR = Path(__file__).resolve().parent.parent / "console"


def create_app(settings: Settings, *, resources: Resources | None = None) -> Litestar:
    """Build the app; it opens its own resources on start-up unless given ready ones (tests share them)."""
    configure_logging(settings.log_level)
    mcp = McpMount(settings)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        owned = resources is None
        app.state.resources = resources if resources is not None else await open_resources(settings)
        db, services = app.state.resources.db, app.state.resources.agent
        # The nutrition agents, one set for the runs' worker and the health questions (`uses_model` decides).
        agents = select_agents(settings, db, services.model, services.orchestrator.meter)
        app.state.health_questions = HealthQuestions(db, agents)
        app.state.turns = TurnRunner(app.state.resources.redis, observability=services.observability)
        mcp.bind(McpCalls(loop=services.orchestrator, resumer=services.resumer, settings=settings))
        worker = None
        if owned:
            await services.start()  # RAG outbox worker + local model warm-up
            worker = Worker.from_settings(db, agents, settings,  # nutrition runs, in-process
                                           tracing=services.observability.tracing if services.observability else None)
            worker_task = start_in_process(worker)
        sweeper = asyncio.get_running_loop().create_task(sweep_forever(db)) if owned else None
        try:
            async with mcp.run(), daily_snapshots(settings.storage_snapshot_schedule, app.state.resources.db,
                                                  app.state.resources.agent.orchestrator.observability):
                yield
        finally:
            await app.state.turns.close(grace_seconds=settings.agent_shutdown_grace_seconds)
            if sweeper is not None:
                sweeper.cancel()
                with suppress(asyncio.CancelledError):
                    await sweeper
            if worker is not None:
                worker.stop()
                await worker_task
            if owned:
                await app.state.resources.close()

    console_files = ConsoleFiles()
    handlers: list = [
        SystemController, MeController, AgentController, TrainerController, TrainerChatController, TrainerAppController,
        NutritionController, NutritionMembersController, MemberBookingsController, FoodLogController, GymPlatesController,
        *mcp.routes(),
        create_static_files_router("/console/locales", [LOCALES_DIR], name="console-locales", file_system=console_files),
        create_static_files_router("/console", [CONSOLE_DIR], html_mode=True, name="console", file_system=console_files),
    ]
    if settings.auth_mode == "dev":
        handlers.append(DevJwksController)
    middleware: list = [trace_middleware]
    stores: dict = {}
    rate_limit = turn_rate_limit(settings)
    if rate_limit is not None:
        config, store = rate_limit
        middleware.append(config.middleware)
        stores[STORE] = store
    return Litestar(
        route_handlers=handlers,
        lifespan=[lifespan],
        dependencies=APP_DEPENDENCIES,  # what handlers may name (api/dependencies.py); no service locator
        middleware=middleware,
        before_send=[allow_routed_methods],
        plugins=[EventStreamSchemaPlugin(), *SCHEMA_PLUGINS],
        stores=stores,
        exception_handlers=EXCEPTION_HANDLERS,  # type: ignore[arg-type]
        openapi_config=openapi_config(),
        request_class=JsonRequest,
        request_max_body_size=MAX_BODY_BYTES,
        debug=False,
    )
