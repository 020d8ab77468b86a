"""Assemble the agent from settings: model client, registry, runner, prices, orchestrator, resumer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.costs import PriceBook
from agent.model import AnthropicModel, DisabledModel, ModelClient
from agent.observability import Observability
from agent.orchestrator import Orchestrator
from agent.resume import Resumer
from core.database import Database
from core.settings import Settings, SettingsError
from tools.catalog import build_registry
from tools.registry import ToolRegistry
from tools.runner import ToolRunner


@dataclass
class AgentServices:
    model: ModelClient
    registry: ToolRegistry
    orchestrator: Orchestrator
    resumer: Resumer

    async def close(self) -> None:
        close = getattr(self.model, "close", None)
        if close is not None:
            await close()


def build_model(settings: Settings) -> ModelClient:
    if settings.agent_model_provider == "offline":
        from agent.offline_model import OfflineModel

        return OfflineModel()
    if not settings.anthropic_api_key:
        return DisabledModel()
    return AnthropicModel(api_key=settings.anthropic_api_key, base_url=settings.anthropic_base_url,
                          max_retries=settings.anthropic_max_retries, timeout=settings.anthropic_timeout)


def build_agent(settings: Settings, db: Database, redis: Any, *, observability: Observability | None = None,
                tool_services: dict[str, Any] | None = None) -> AgentServices:
    prices = PriceBook(settings.model_prices)
    try:
        prices.check_models(settings.agent_model, settings.summarizer_model)
    except ValueError as exc:
        raise SettingsError(f"invalid settings: AGENT_MODEL/SUMMARIZER_MODEL: {exc}") from None
    registry = build_registry()
    model = build_model(settings)
    orchestrator = Orchestrator(db=db, redis=redis, model=model, registry=registry,
                                runner=ToolRunner(db, tool_services), prices=prices, settings=settings,
                                observability=observability)
    return AgentServices(model=model, registry=registry, orchestrator=orchestrator, resumer=Resumer(orchestrator))
