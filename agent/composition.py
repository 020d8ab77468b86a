"""Assemble the agent from settings: model client, registry, runner, prices, the one orchestrator and resumer
(every persona runs through them)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import structlog

from agent.compaction import Compactor
from agent.conversations import MCP_CHANNEL
from agent.copilot import STAFF_COPILOT
from agent.costs import PriceBook
from agent.mcp_persona import MCP
from agent.model import AnthropicModel, DisabledModel, ModelClient
from agent.observability import Observability, build_observability
from agent.orchestrator import Orchestrator
from agent.persona import Personas
from agent.resume import Resumer
from agent.titles import TitleGenerator
from core.database import Database
from core.settings import Settings, SettingsError
from rag.ambient import AmbientFinder
from rag.embeddings import Embedder, EmbedderError, LocalEmbedder, build_embedder
from rag.worker import OutboxWorker
from tools.catalog import build_registry
from tools.registry import ToolRegistry
from tools.runner import ToolRunner

log = structlog.get_logger("agent.composition")

# The personas the engine runs without being told (the composition root is the one place that names them): a send
# or an answer that names no persona is the staff copilot's; an MCP conversation is continued by MCP's. The
# member's trainer is named by its controllers (api/controllers/trainer_chat.py).
PERSONAS = Personas(default=STAFF_COPILOT, channels={MCP_CHANNEL: MCP})


@dataclass
class AgentServices:
    model: ModelClient
    registry: ToolRegistry
    orchestrator: Orchestrator
    resumer: Resumer
    observability: Observability | None = None
    titles: TitleGenerator | None = None
    embedder: Embedder | None = None
    rag_worker: OutboxWorker | None = None
    warming: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Background work for the app's lifetime: the RAG outbox drainer, and loading the local
        embedding model now rather than on the first turn (which would miss the ambient budget)."""
        if self.rag_worker is None:  # tests (APP_ENV=test) run neither
            return
        self.rag_worker.start()
        if isinstance(self.embedder, LocalEmbedder):
            self.warming = asyncio.get_running_loop().create_task(_warm(self.embedder))

    async def close(self) -> None:
        if self.rag_worker is not None:
            await self.rag_worker.stop()
        if self.titles is not None:
            await self.titles.drain(grace_seconds=2.0)
        close = getattr(self.model, "close", None)
        if close is not None:
            await close()
        if self.observability is not None:  # flushes PostHog's queue and Sentry's transport (blocking I/O)
            await asyncio.to_thread(self.observability.close)


async def _warm(embedder: LocalEmbedder) -> None:
    try:
        await embedder.warm()
    except EmbedderError as exc:
        log.warning("rag.embedder.unavailable", error=str(exc)[:200])


def build_model(settings: Settings) -> ModelClient:
    if settings.agent_model_provider == "offline":
        from offline_model.model import OfflineModel

        return OfflineModel()
    if not settings.anthropic_api_key:
        return DisabledModel()
    return AnthropicModel(api_key=settings.anthropic_api_key, base_url=settings.anthropic_base_url,
                          max_retries=settings.anthropic_max_retries, timeout=settings.anthropic_timeout)


def build_agent(settings: Settings, db: Database, redis: Any, *, observability: Observability | None = None,
                titles: bool | None = None, rag_worker: bool | None = None, model: ModelClient | None = None,
                registry: ToolRegistry | None = None, embedder: Embedder | None = None) -> AgentServices:
    """`titles` None follows AGENT_TITLES (default: on in production only). A background title request is an
    extra model call that scripted model servers (tests, demos) would answer with a reply meant for a turn.
    `rag_worker` None means on except under APP_ENV=test, where tests drain the RAG outbox themselves.
    `model`, `registry` and `embedder` default to the ones settings give; a caller that builds many agents
    (evals/: one per database copy) passes its own, so a model client and an embedding model are made once."""
    prices = PriceBook(settings.model_prices)
    try:
        prices.check_models(settings.agent_model, settings.summarizer_model)
    except ValueError as exc:
        raise SettingsError(f"invalid settings: AGENT_MODEL/SUMMARIZER_MODEL: {exc}") from None
    registry = registry if registry is not None else build_registry()
    model = model if model is not None else build_model(settings)
    observability = observability if observability is not None else build_observability(settings)
    compactor = Compactor(db, model, settings.summarizer_model, prices=prices, observability=observability)
    if titles is None:
        titles = settings.agent_titles if settings.agent_titles is not None else settings.is_production
    title_generator = TitleGenerator(db, model, settings.summarizer_model, prices=prices) if titles else None
    embedder = embedder if embedder is not None else build_embedder(settings)
    if rag_worker is None:
        rag_worker = settings.app_env != "test"
    orchestrator = Orchestrator(db=db, redis=redis, model=model, registry=registry,
                                runner=ToolRunner(db, embedder=embedder), prices=prices, settings=settings,
                                personas=PERSONAS,
                                observability=observability, compactor=compactor, titles=title_generator,
                                ambient=AmbientFinder(db, embedder))
    return AgentServices(model=model, registry=registry, orchestrator=orchestrator, resumer=Resumer.on(orchestrator),
                         observability=observability, titles=title_generator, embedder=embedder,
                         rag_worker=OutboxWorker(db, embedder) if rag_worker else None)
