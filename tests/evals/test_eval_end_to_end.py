"""An eval run with the Anthropic provider against the fake server, end to end: the simulated person is the
summarizer model (it approves a confirmation, picks a candidate, writes a second message and stops), the agent
is the agent model, both over the real SDK; results, costs and transcripts land in the run's folder."""

from __future__ import annotations

import json

import pytest

from evals.report import pass_hat_k, read_results
from tests.evals.conftest import ALL_TASKS, run_with_fake

TASKS = [ALL_TASKS[name] for name in ("delete-murph", "find-saar-pick-levi", "swap-second-exercise")]


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


async def test_a_model_user_and_a_model_agent_run_every_kind_of_turn(app_settings, fake_model, eval_gym,
                                                                      tmp_path) -> None:
    outcome = await run_with_fake(app_settings, fake_model, eval_gym, TASKS, tmp_path, user="model")

    assert [(r.task, r.status, r.failures) for r in outcome.results] == [(t.id, "pass", []) for t in TASKS]
    people = [r.body for r in fake_model.requests if r.body["system"][0]["text"].startswith("You play a person")]
    assert {r["model"] for r in people} == {app_settings.summarizer_model}
    decided = {t["name"] for r in people for t in r.get("tools", [])}
    assert decided == {"decide", "pick"}  # a confirmation and a pick were put to the simulated person
    second = [r for r in people if not r.get("tools") and "You: give me a quick chest workout" in
              r["messages"][-1]["content"]]
    assert second, "the simulated person wrote the trainer task's second message from the conversation"
    for result in outcome.results:
        assert result.cost_usd_micros > 0 and result.user_cost_usd_micros > 0 and result.round_trips >= 3
    swap = json.loads((outcome.out_dir / "transcripts" / "swap-second-exercise-1.json").read_text())
    assert [e["text"] for e in swap["entries"] if e["who"] == "user"] == [
        "give me a quick chest workout", "swap the second exercise"]

    header, tries = read_results(outcome.out_dir / "results.jsonl")
    assert header["model"] == app_settings.agent_model and header["user"] == "model"
    assert [t.task for t in tries] == [t.id for t in TASKS]


def test_pass_hat_k_is_tau_bench_s_estimator() -> None:
    """pass^k = C(c, k) / C(n, k): every one of k tries drawn from n must succeed."""
    assert pass_hat_k(4, 4, 4) == 1.0
    assert pass_hat_k(3, 4, 1) == 0.75
    assert pass_hat_k(3, 4, 2) == 0.5  # C(3,2)/C(4,2) = 3/6
    assert pass_hat_k(3, 4, 4) == 0.0
    with pytest.raises(ValueError):
        pass_hat_k(1, 1, 2)
