"""What the orchestrator does next when an agent's output is not usable (004 §6, §8).

Conflicts: the higher rank's output stands; the lower-ranked agent re-runs once with the constraint;
a second failure ends the run in `error` / `conflict_unresolved`, recoverable, with both agents'
reasoning. Validation failures: one re-run with the errors attached, then `validation_failure`.
Timeouts: one retry with identical input, then `timeout` with the duration and the input's hash.
Upstream data missing: the upstream agent re-runs once, then `upstream_missing`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Literal

from gym.nutrition.checks import Conflict
from gym.nutrition.envelope import input_hash
from gym.nutrition.payloads.common import Agent
from gym.nutrition.payloads.control import ConflictDetail, ErrorType, PipelineErrorPayload

MAX_RERUNS = 1


@dataclass(frozen=True)
class Decision:
    """Re-run `agent` (with `constraint` attached), or stop with `error`."""

    action: Literal["rerun", "error"]
    agent: Agent
    constraint: str | None = None
    error: PipelineErrorPayload | None = None


def _error(run_id: uuid.UUID, agent: Agent, error_type: ErrorType, details: str, retries: int, *,
           recoverable: bool, **extra: Any) -> PipelineErrorPayload:
    return PipelineErrorPayload(error_type=error_type, failing_agent=agent, details=details[:4_000],
                                pipeline_run_id=run_id, recoverable=recoverable, retry_count=retries, **extra)


def on_conflict(conflicts: list[Conflict], *, reruns_done: int, run_id: uuid.UUID) -> Decision:
    """The highest-rank (lowest number) conflict decides who is authoritative; every conflict of the output goes
    into the constraint, highest rank first (one output may break a foods rule and a macro rule at once, and a
    re-run told only of one would break the other again)."""
    if not conflicts:
        raise ValueError("no conflict to resolve")
    rule = min(c.rule for c in conflicts)
    top = min(conflicts, key=lambda c: c.rule)
    lower, higher = top.overridden, top.authoritative
    broken = sorted((c for c in conflicts if c.overridden == lower), key=lambda c: c.rule)
    constraint = (f"Rule {rule}: {higher}'s output is authoritative. Re-submit so that: "
                  + "; ".join(c.message for c in broken) + ".")
    if reruns_done < MAX_RERUNS:
        return Decision("rerun", lower, constraint=constraint)
    reasoning = {
        higher: "Authoritative values: " + "; ".join(f"{c.field} = {c.expected}" for c in broken),
        lower: "Submitted after one constrained re-run: " + "; ".join(f"{c.field} = {c.actual}" for c in broken),
    }
    detail = ConflictDetail(rule=rule, authoritative_agent=higher, overridden_agent=lower, reasoning=reasoning)
    return Decision("error", lower, error=_error(run_id, lower, "conflict_unresolved", constraint, reruns_done,
                                                 recoverable=True, conflict=detail))


def on_invalid(agent: Agent, errors: list[dict[str, Any]], *, reruns_done: int, run_id: uuid.UUID) -> Decision:
    summary = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors[:20])
    if reruns_done < MAX_RERUNS:
        return Decision("rerun", agent, constraint=f"Your previous output failed validation: {summary}")
    return Decision("error", agent, error=_error(run_id, agent, "validation_failure", summary, reruns_done,
                                                 recoverable=True))


def on_timeout(agent: Agent, agent_input: Any, *, retries_done: int, timeout_ms: int, run_id: uuid.UUID,
               cause: str | None = None) -> Decision:
    """No answer in time (or none at all: `cause`, e.g. a spent budget or a failing provider). 004 §6 names
    no error type but `timeout` for an agent that does not respond, so both are `timeout`; the details say
    which it was."""
    if retries_done < MAX_RERUNS:
        return Decision("rerun", agent)  # identical input: no constraint
    details = (f"{agent} did not answer within {timeout_ms} ms, twice" if cause is None
               else f"{agent} gave no answer, twice: {cause}")
    return Decision("error", agent, error=_error(
        run_id, agent, "timeout", details, retries_done,
        recoverable=True, timeout_duration_ms=timeout_ms, input_hash=input_hash(agent_input)))


def on_upstream_missing(requester: Agent, upstream: Agent, missing: list[str], *, reruns_done: int,
                        run_id: uuid.UUID) -> Decision:
    fields = ", ".join(missing)
    if reruns_done < MAX_RERUNS:
        return Decision("rerun", upstream, constraint=f"{requester} needs these fields: {fields}")
    return Decision("error", upstream, error=_error(
        run_id, upstream, "upstream_missing", f"{upstream} still lacks {fields} for {requester}", reruns_done,
        recoverable=True))


def on_infeasible(agent: Agent, constraints: list[str], *, run_id: uuid.UUID, why: str) -> PipelineErrorPayload:
    """The member's food constraints leave no plan (NUTRITION.md): the run ends at once, not recoverable (a retry
    fails the same way), naming the constraints that conflict."""
    named = ", ".join(constraints) or "the food constraints"
    return _error(run_id, agent, "constraints_infeasible", f"These constraints conflict: {named}. {why}", 0,
                  recoverable=False)
