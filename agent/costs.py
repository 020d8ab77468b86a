"""Model prices and per-turn cost in USD micros.

Prices are USD per million tokens, from Anthropic's published pricing (platform docs, "Model pricing").
Cache buckets are priced apart: reads 0.1×, 5-minute writes 1.25×, 1-hour writes 2× the input price,
unless a row says otherwise. Settings (`MODEL_PRICES`) can add or override rows. A model with no known
price refuses to start: a turn must never cost $0 by accident.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import structlog

log = structlog.get_logger("agent.costs")


@dataclass(frozen=True)
class Price:
    input: float
    output: float
    cache_read: float
    cache_write_5m: float
    cache_write_1h: float

    @classmethod
    def from_io(cls, input: float, output: float, *, cache_read: float | None = None) -> Price:
        return cls(input=input, output=output, cache_read=input * 0.1 if cache_read is None else cache_read,
                   cache_write_5m=input * 1.25, cache_write_1h=input * 2.0)


_HAIKU_45 = Price.from_io(1.0, 5.0)
_SONNET_4 = Price.from_io(3.0, 15.0)
_OPUS_45 = Price.from_io(5.0, 25.0)
MODEL_PRICES: dict[str, Price] = {
    "claude-haiku-4-5": _HAIKU_45,
    "claude-haiku-4-5-20251001": _HAIKU_45,
    "claude-sonnet-4-0": _SONNET_4,
    "claude-sonnet-4-20250514": _SONNET_4,
    "claude-sonnet-4-5": _SONNET_4,
    "claude-sonnet-4-5-20250929": _SONNET_4,
    "claude-sonnet-4-6": _SONNET_4,
    "claude-opus-4-5": _OPUS_45,
    "claude-opus-4-5-20251101": _OPUS_45,
    "claude-opus-4-6": _OPUS_45,
    "claude-opus-4-7": _OPUS_45,
    "claude-opus-4-8": _OPUS_45,
    "claude-opus-5": _OPUS_45,
    "claude-fable-5": Price.from_io(10.0, 50.0, cache_read=1.0),
    "claude-fable-5-1": Price.from_io(10.0, 50.0, cache_read=0.25),
}


@dataclass(frozen=True)
class Usage:
    """Token counts of one or more model calls, by billing bucket."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_5m_tokens: int = 0
    cache_write_1h_tokens: int = 0

    @property
    def cache_creation_tokens(self) -> int:
        return self.cache_write_5m_tokens + self.cache_write_1h_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens,
                     self.cache_read_tokens + other.cache_read_tokens,
                     self.cache_write_5m_tokens + other.cache_write_5m_tokens,
                     self.cache_write_1h_tokens + other.cache_write_1h_tokens)

    @property
    def cache_hit_ratio(self) -> float:
        denominator = self.cache_read_tokens + self.cache_creation_tokens + self.input_tokens
        return round(self.cache_read_tokens / denominator, 4) if denominator else 0.0


class PriceBook:
    """The price table in force: built-ins plus settings overrides."""

    def __init__(self, overrides: Mapping[str, Mapping[str, float]] | None = None) -> None:
        self.prices = dict(MODEL_PRICES)
        for model, row in (overrides or {}).items():
            base = Price.from_io(float(row["input"]), float(row["output"]))
            self.prices[model] = Price(
                input=base.input, output=base.output,
                cache_read=float(row.get("cache_read", base.cache_read)),
                cache_write_5m=float(row.get("cache_write_5m", base.cache_write_5m)),
                cache_write_1h=float(row.get("cache_write_1h", base.cache_write_1h)))

    def price(self, model: str) -> Price:
        try:
            return self.prices[model]
        except KeyError:
            raise ValueError(f"no price known for model {model!r}; add it to MODEL_PRICES") from None

    def cost_usd_micros(self, model: str, usage: Usage) -> int:
        """USD micros (1e-6 dollars) for `usage` on `model`, rounded to the nearest micro."""
        p = self.price(model)
        dollars_times_million = (usage.input_tokens * p.input + usage.output_tokens * p.output
                                 + usage.cache_read_tokens * p.cache_read
                                 + usage.cache_write_5m_tokens * p.cache_write_5m
                                 + usage.cache_write_1h_tokens * p.cache_write_1h)
        return round(dollars_times_million)  # tokens × $/MTok = micro-dollars

    def check_models(self, *models: str) -> None:
        """Refuse unknown models; warn on ones announced for retirement (DEPRECATED_MODELS)."""
        for model in models:
            self.price(model)
            deprecated = deprecated_models().get(model)
            if deprecated:
                log.warning("agent.model.deprecated", model=model, end_of_life=deprecated)


# Models Anthropic has announced for retirement, with the retirement date (platform docs, "Model
# deprecations"; the same dates the SDK warns with). Our own table: the SDK's copy is private API.
DEPRECATED_MODELS: dict[str, str] = {
    "claude-sonnet-4-5": "2026-11-30",
    "claude-sonnet-4-5-20250929": "2026-11-30",
    "claude-mythos-preview": "2026-06-30",
}


def deprecated_models() -> dict[str, str]:
    return dict(DEPRECATED_MODELS)
