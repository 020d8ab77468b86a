"""The per-user turn rate limit: Litestar's rate-limit middleware on the routes that open a turn.

Keyed by the authenticated user (the route's own guards run first, so a stranger is refused as before and
never counted), counted in Redis so every API process shares the window, with the `RateLimit-*` headers.
A refusal is 429 `rate_limited` in the usual error body (api/errors.py). `AGENT_RATE_LIMIT_PER_MINUTE`
(settings.turn_rate_limit) sets the limit; 0 turns it off.
"""

from __future__ import annotations

from inspect import isawaitable

from litestar import Request
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.stores.redis import RedisStore

from core import redis_clients
from core.settings import Settings

OPENS_TURN = "opens_turn"  # route `opt` key: this handler starts a model turn
STORE = "turn_rate_limit"


async def _opens_turn(request: Request) -> bool:
    """Count only routes marked `opt={OPENS_TURN: True}`, and only callers their own guards let in."""
    handler = request.scope["route_handler"]
    if not handler.opt.get(OPENS_TURN):
        return False
    for guard in handler.resolve_guards():  # who is calling (sets state.caller); they run again, cheaply
        checked = guard(request, handler)
        if isawaitable(checked):
            await checked
    return True


def _user_key(request: Request) -> str:
    return str(request.state.caller.user_id)


def turn_rate_limit(settings: Settings) -> tuple[RateLimitConfig, RedisStore] | None:
    """The middleware config and its Redis store, or None when the limit is off."""
    limit = settings.turn_rate_limit
    if limit <= 0:
        return None
    if not settings.redis_url:
        raise RuntimeError("REDIS_URL must be resolved before the app is built when the turn rate limit is on")
    config = RateLimitConfig(rate_limit=("minute", limit), identifier_for_request=_user_key,
                             check_throttle_handler=_opens_turn, store=STORE)
    # its own pool; the store closes it with the app
    client = redis_clients.connect(settings.redis_url, timeout=settings.redis_timeout_seconds, decode_responses=False)
    return config, RedisStore(client, namespace="spotter_rate", handle_client_shutdown=True)
