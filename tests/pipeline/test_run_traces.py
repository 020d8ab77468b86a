"""A nutrition run's agents as spans (issue 28): each version of a run is one trace whose root is
`invoke_agent nutrition_pipeline` and whose children are its agents' `invoke_agent {AGENT}` spans, with ids every
worker derives from the run alike; a check-in that re-runs agents starts the next version's trace."""

from __future__ import annotations

from datetime import date

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from agent.tracing import ForcedIds, Tracing, derived_ids
from gym import members
from gym.nutrition import lifecycle, runs
from pipeline.driver import Driver
from pipeline.offline import OfflineAgents
from tests.gym.nutrition import samples


def _tracing() -> tuple[Tracing, InMemorySpanExporter]:
    memory = InMemorySpanExporter()
    provider = TracerProvider(id_generator=ForcedIds())
    provider.add_span_processor(SimpleSpanProcessor(memory))
    return Tracing(provider), memory


async def test_each_run_version_is_one_trace_of_its_agents(db, factory) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
        run = await runs.start_run(session, org.id, member_id=member.id, intake=samples.intake(), created_by=None)
    tracing, memory = _tracing()
    driver = Driver(db, OfflineAgents(), tracing=tracing)
    assert await driver.run_until_rest(org.id, run.id) == "output_ready"
    assert await driver.run_until_rest(org.id, run.id) == "output_ready"  # rested: no second root span
    first = memory.get_finished_spans()
    trace_id, root_id = derived_ids("nutrition-run", str(run.id), 1)
    [root] = [s for s in first if s.parent is None]
    assert (root.name, root.context.trace_id, root.context.span_id) == ("invoke_agent nutrition_pipeline",
                                                                         trace_id, root_id)
    agents = [s.attributes["gen_ai.agent.name"] for s in sorted(first, key=lambda s: s.start_time)
              if s is not root]
    assert agents == ["SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]
    assert all(s.context.trace_id == trace_id and s.parent.span_id == root_id for s in first if s is not root)
    assert all(s.attributes["spotter.org_id"] == str(org.id) for s in first)
    assert root.start_time <= min(s.start_time for s in first)

    memory.clear()
    async with db.scope(org_id=org.id) as session:  # luteal: DIETITIAN and CHEF re-run (version 2)
        out = await lifecycle.submit_checkin(session, org.id, run.id, {"weight_kg": 56.4, "waist_cm": 68.5,
                                                                       "hip_cm": 92.5, "cycle_phase": "luteal"})
    assert out.needs_worker and out.version == 2
    assert await driver.run_until_rest(org.id, run.id) == "output_ready"
    second = memory.get_finished_spans()
    v2_trace, v2_root = derived_ids("nutrition-run", str(run.id), 2)
    assert {s.context.trace_id for s in second} == {v2_trace} != {trace_id}
    ran = [s.attributes["gen_ai.agent.name"] for s in second if s.parent is not None]
    assert "DIETITIAN" in ran and "CHEF" in ran and all(s.parent.span_id == v2_root for s in second
                                                        if s.parent is not None)
