"""A process loads the model provider's and the embedding provider's SDKs only when it uses them.

The Anthropic SDK's import alone is ~0.7 s of CPU, and Voyage's brings aiohttp and langchain-core: together they
were half of `import api.app` (2.8 s -> 1.4 s without them). Every `spotter` command, the offline demo and the
offline worker start without them; a model client or a Voyage embedder loads its SDK when it is built.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROVIDER_SDKS = ("anthropic", "voyageai", "aiohttp")


def _loaded_after(script: str) -> dict[str, bool]:
    probe = f"import json, sys\n{script}\nprint(json.dumps({{m: m in sys.modules for m in {PROVIDER_SDKS!r}}}))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_app_the_cli_and_the_worker_start_without_the_provider_sdks() -> None:
    loaded = _loaded_after("import api.app, api.cli, pipeline.worker, pipeline.model_agents, rag.embeddings")
    assert loaded == dict.fromkeys(PROVIDER_SDKS, False)


def test_a_model_client_loads_the_sdk_and_its_errors_are_classified_as_before() -> None:
    loaded = _loaded_after(
        "from agent.errors import classify, provider_errors\n"
        "assert provider_errors() == () and classify(ValueError()) == 'internal'\n"
        "from agent.model import AnthropicModel\n"
        "AnthropicModel(api_key='k')\n"
        "import anthropic, httpx\n"
        "request = httpx.Request('POST', 'http://model.test/v1/messages')\n"
        "overloaded = anthropic.APIStatusError('busy', response=httpx.Response(529, request=request), body=None)\n"
        "assert provider_errors() == (anthropic.APIError,)\n"
        "assert classify(overloaded) == 'provider_overloaded', classify(overloaded)\n"
        "assert classify(anthropic.APIConnectionError(request=request)) == 'provider_unavailable'\n"
        "from rag.embeddings import VoyageEmbedder\n"
        "VoyageEmbedder(api_key='k')")
    assert loaded == dict.fromkeys(PROVIDER_SDKS, True)
