"""Fixtures of the pipeline tests that drive the model-backed agents over real HTTP against the fake
Anthropic server (tests/fakes/anthropic_server.py), metered like every model call."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import redis.asyncio as aioredis

from agent.costs import PriceBook
from agent.metering import Meter
from agent.model import AnthropicModel
from pipeline.model_agents import ModelAgents
from tests.servers import ThreadedServer


@pytest.fixture
def clean_fake_model(fake_model):
    """The shared fake with no script and no recorded requests, before and after the test."""
    fake_model.reset()
    yield fake_model
    fake_model.reset()


@pytest.fixture
async def model(fake_model) -> AsyncIterator[AnthropicModel]:
    client = AnthropicModel(api_key="sk-test-fake", base_url=fake_model.url, max_retries=0)
    yield client
    await client.close()


@pytest.fixture
async def agents(db, embedded_redis, app_settings, model, clean_fake_model) -> AsyncIterator[ModelAgents]:
    """The model-backed agents (pipeline/model_agents.py) over the fake server."""
    redis = aioredis.from_url(embedded_redis.url, decode_responses=True)
    meter = Meter(db=db, redis=redis, prices=PriceBook({}), settings=app_settings)
    yield ModelAgents(db, model, meter, model_name=app_settings.agent_model)
    await redis.aclose()


@pytest.fixture(scope="module")
def model_server(app_settings) -> Iterator[ThreadedServer]:
    """`spotter serve` with a key, one per module: its worker (on a queue of its own) and health questions use
    the fake model."""
    from api.app import create_app

    settings = app_settings.model_copy(update={"nutrition_agents": "auto",
                                               "nutrition_queue": f"nutrition_model_{uuid.uuid4().hex[:8]}"})
    srv = ThreadedServer(create_app(settings)).start()
    yield srv
    srv.stop()


@pytest.fixture
async def http(model_server, clean_fake_model) -> AsyncIterator[httpx.AsyncClient]:
    """A client of `model_server`, the fake model clean before and after."""
    async with httpx.AsyncClient(base_url=model_server.url, timeout=60) as client:
        yield client
