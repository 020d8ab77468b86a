"""Run the suite: build the template once, then each task K times, each try in a fresh copy, N tries at once.

A try: copy the template, add the task's setup rows, resolve the task's names against the copy, build the agent
on the copy (the shared model client, registry and embedder), let the simulated person talk to it until they
are done, settle any nutrition run the tools started, diff the copy against the template, grade, write the
transcript, drop the copy.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import time
import traceback
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text

from agent.composition import build_agent, build_model
from agent.costs import PriceBook
from agent.model import AnthropicModel, ModelClient
from agent.observability import Observability
from core.database import Database
from core.settings import Settings
from evals import answers, nutrition, setup, snapshot
from evals.conversation import Conversation, who_is
from evals.grader import Evidence, Execution, grade
from evals.gym_copies import GymCopies, Template, dsn
from evals.progress import Progress
from evals.reference import ReferenceModel, expand
from evals.report import TryResult, compare, family_rows, latest_results, read_results, write_results
from evals.tasks import Check, Expectation, Step, Task, Unchanged
from evals.transcript import Transcript
from evals.users import ModelUser, ScriptedUser, SimulatedUser
from evals.values import Resolver
from rag.embeddings import Embedder, build_embedder
from tools.catalog import build_registry

SPECIAL_MODELS = ("offline", "reference")
ModelFactory = Callable[[Task, list[Step], str], ModelClient | None]


@dataclass(frozen=True)
class EvalConfig:
    model: str  # offline | reference | a Claude model id
    k: int = 1
    tasks: str | None = None
    concurrency: int = 2
    user: str = "auto"  # auto | scripted | model
    user_model: str | None = None  # default: SUMMARIZER_MODEL
    out_root: Path = Path(".spotter/evals")
    compare: Path | None = None
    index: bool = True  # build the template's search index (the product's ambient context and search use it)
    try_timeout: float = 600.0


@dataclass(frozen=True)
class Gym:
    """A seeded template, the copies made of it, and its rows (the baseline every try is compared with)."""

    copies: GymCopies
    template: Template
    base: snapshot.Snapshot


def new_run_id(at: datetime) -> str:
    return f"{at:%Y%m%d%H%M%S}_{uuid.uuid4().hex[:4]}"


async def build_gym(server_url: str, instant: datetime, *, index: Embedder | None = None,
                    run_id: str | None = None) -> Gym:
    """The demo gym seeded at `instant` as a template database on the server `server_url` points at."""
    copies = GymCopies(server_url, run_id or new_run_id(instant))
    template = await copies.build_template(instant, seed_extra=nutrition.seed_template, index=index)
    return Gym(copies, template, await snapshot.take(dsn(template.url), keep_rows=True))


@dataclass
class RunOutcome:
    header: dict[str, Any]
    results: list[TryResult]
    out_dir: Path
    compared_with: Path | None
    regressions: dict[str, str]


@dataclass(frozen=True)
class Resolved:
    """A task with its `@` names resolved against one try's database."""

    steps: list[Step]
    expect: tuple[Expectation, ...]
    unchanged: tuple[Unchanged, ...]
    checks: tuple[Check, ...]


class Suite:
    def __init__(self, settings: Settings, config: EvalConfig, *, redis: Any, tasks: Sequence[Task],
                 model_factory: ModelFactory | None = None, log: Callable[[str], None] = print) -> None:
        if config.k < 1 or config.concurrency < 1:
            raise ValueError("--k and --concurrency are at least 1")
        self.config, self.redis, self.tasks, self.log = config, redis, list(tasks), log
        self.model_factory = model_factory
        provider = "offline" if config.model == "offline" else "anthropic"
        agent_model = settings.agent_model if config.model in SPECIAL_MODELS else config.model
        self.settings = settings.model_copy(update={"agent_model_provider": provider, "agent_model": agent_model,
                                                    "agent_titles": False})
        self.prices = PriceBook(self.settings.model_prices)
        self.prices.check_models(self.settings.agent_model, self.user_model_name)
        self.shared_model: ModelClient | None = None if config.model == "reference" else build_model(self.settings)
        if config.model not in SPECIAL_MODELS and not self.settings.anthropic_api_key:
            raise ValueError(f"--model {config.model} needs ANTHROPIC_API_KEY (or use --model offline)")
        if config.user == "model" and not self.settings.anthropic_api_key:
            raise ValueError("--user model needs ANTHROPIC_API_KEY: the summarizer model plays the person")
        self.user_client: ModelClient | None = None  # the person's model client, made on first use
        self.registry = build_registry()
        self.embedder: Embedder = build_embedder(self.settings)
        self.observability = Observability()
        started = datetime.now(UTC)
        slug = re.sub(r"[^a-z0-9]+", "_", config.model.lower()).strip("_")[:12]
        self.out_dir = config.out_root / f"{started:%Y%m%d-%H%M%S}-{slug}"
        self.started = started

    @property
    def user_model_name(self) -> str:
        return self.config.user_model or self.settings.summarizer_model

    def uses_model_user(self, task: Task) -> bool:
        """The summarizer model plays the person when a Claude model is under test (a key is set), unless
        `--user scripted`; the offline and reference models talk to the task's scripted turns."""
        if self.config.user != "auto":
            return self.config.user == "model"
        return self.config.model not in SPECIAL_MODELS

    # ---- the run ------------------------------------------------------------------------------------------

    async def run(self, gym: Gym | None = None) -> RunOutcome:
        """Every task K times; on `gym` when given (it stays), else on a template built (and dropped) here."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        (self.out_dir / "transcripts").mkdir(exist_ok=True)
        t0 = time.monotonic()
        own = gym is None
        try:
            if gym is None:
                self.log(f"building the demo gym template (seeded at {self.started:%Y-%m-%d %H:%M} UTC)…")
                assert self.settings.database_url
                gym = await build_gym(self.settings.database_url, self.started,
                                      index=self.embedder if self.config.index else None)
                self.log(f"template ready in {time.monotonic() - t0:.0f}s; {len(self.tasks)} task(s) × "
                         f"{self.config.k} tries, {self.config.concurrency} at once")
            results = await self._all(gym)
        finally:
            if own and gym is not None:
                await gym.copies.drop_all()
            for client in {id(c): c for c in (self.shared_model, self.user_client) if c is not None}.values():
                close = getattr(client, "close", None)
                if close is not None:
                    await close()
        template = gym.template
        header = {"model": self.config.model, "k": self.config.k, "started": self.started.isoformat(),
                  "seeded_at": template.instant.isoformat(), "reference_date": template.facts["reference_date"],
                  "user": self.config.user, "user_model": self.user_model_name, "tasks": len(self.tasks),
                  "seconds": round(time.monotonic() - t0, 1), "filter": self.config.tasks}
        previous = self.config.compare or latest_results(self.out_dir.parent, self.config.model,
                                                         exclude=self.out_dir / "results.jsonl")
        regressions: dict[str, str] = {}
        if previous is not None and previous.exists():
            regressions = compare(read_results(previous)[1], results)
        write_results(self.out_dir / "results.jsonl", header, results, family_rows(results, self.config.k))
        return RunOutcome(header, results, self.out_dir, previous, regressions)

    async def _all(self, gym: Gym) -> list[TryResult]:
        gate = asyncio.Semaphore(self.config.concurrency)
        progress = Progress(len(self.tasks) * self.config.k)
        jobs = [(task, n) for task in self.tasks for n in range(1, self.config.k + 1)]

        async def one(task: Task, attempt: int) -> TryResult:
            async with gate:
                result = await self.attempt(task, attempt, gym)
            progress.advance(result.passed, f"{task.id} #{attempt}")
            return result

        return list(await asyncio.gather(*(one(task, n) for task, n in jobs)))

    # ---- one try ------------------------------------------------------------------------------------------

    async def attempt(self, task: Task, attempt: int, gym: Gym) -> TryResult:
        began = time.monotonic()
        url = await gym.copies.copy(f"{task.id}_{attempt}")
        db = nutrition.try_database(url)
        transcript = Transcript()
        result = TryResult(task.id, task.family, attempt, "error", [])
        try:
            async with asyncio.timeout(self.config.try_timeout):
                result = await self._attempt(task, attempt, db, url, gym, transcript)
        except Exception as exc:  # a broken task or a crash: an error, with where it happened
            where = traceback.extract_tb(exc.__traceback__)[-1]
            result.failures = [f"error: {type(exc).__name__}: {str(exc)[:300]} "
                               f"({Path(where.filename).name}:{where.lineno})"]
        finally:
            await db.dispose()
            await gym.copies.drop(url)
        result.seconds = round(time.monotonic() - began, 2)
        self._usage(result, transcript)
        result.transcript = self._write_transcript(task, attempt, transcript, result)
        return result

    async def _attempt(self, task: Task, attempt: int, db: Database, url: str, gym: Gym,
                       transcript: Transcript) -> TryResult:
        base = gym.base
        if task.setup:
            async with db.owner() as session:
                steps = await Resolver(session, datetime.now(UTC)).resolve(list(task.setup))
            await setup.apply(db, steps)
            base = await snapshot.take(dsn(url), keep_rows=True)
        now = datetime.now(UTC)
        async with db.owner() as session:
            resolver = Resolver(session, now)
            resolved = await self._resolve(task, resolver)
            expected = await self._expected(task, session, now)
        model = self._model(task, resolved.steps, expected.shown() if expected else "")
        agent = build_agent(self.settings.model_copy(update={"database_url": url}), db, self.redis,
                            observability=self.observability, titles=False, rag_worker=False, model=model,
                            registry=self.registry, embedder=self.embedder)
        who = await who_is(db, task.login)
        user = self._user(task)
        conversation = Conversation(agent, task, who, user)
        conversation.transcript = transcript
        async with nutrition.worker(db):  # the runs a tool starts move on while the conversation goes on
            await conversation.run()
        if isinstance(user, ModelUser):
            transcript.user_usage, transcript.user_cost_usd_micros = user.usage, user.cost_usd_micros
        changes = await snapshot.changes(base, dsn(url))
        graded = dataclasses.replace(task, expect=resolved.expect, unchanged=resolved.unchanged, checks=resolved.checks)
        async with db.owner() as session:
            expected = await self._expected(task, session, datetime.now(UTC))
            executions = [Execution(f"{r.router}__{r.action}", r.status, r.confirm, r.kind) for r in (
                await session.execute(text("SELECT router, action, status, confirm, kind FROM ai_tool_executions "
                                           "ORDER BY created_at"))).all()]
            failures = await grade(graded, Evidence(changes=changes, session=session, params=resolver.params(),
                                                    executions=executions, agent_text=transcript.agent_text(),
                                                    expected=expected))
        status = "error" if transcript.errors else "fail" if failures else "pass"
        if transcript.errors:
            failures = [f"the conversation failed: {', '.join(transcript.errors)}", *failures]
        if failures and task.known:
            failures.append(f"(known gap: {task.known})")
        return TryResult(task.id, task.family, attempt, status, failures, extra={"known": task.known} if task.known else {})

    async def _resolve(self, task: Task, resolver: Resolver) -> Resolved:
        steps = [Step(call=s.call, input=await resolver.resolve(dict(s.input)), say=s.say)
                 for s in expand(task.reference, task.persona)]
        expect = [dataclasses.replace(e, where=await resolver.resolve(dict(e.where)),
                                      set=await resolver.resolve(dict(e.set))) for e in task.expect]
        unchanged = [Unchanged(u.table, await resolver.resolve(dict(u.where))) for u in task.unchanged]
        checks = [dataclasses.replace(c, equals=await resolver.resolve(c.equals)) for c in task.checks]
        return Resolved(steps, tuple(expect), tuple(unchanged), tuple(checks))

    @staticmethod
    async def _expected(task: Task, session: Any, now: datetime) -> answers.Expected | None:
        if task.answer is None:
            return None
        found = (await answers.expected_answer(session, now, task.answer.fn, dict(task.answer.args))
                 if task.answer.fn else answers.Expected())
        return answers.with_texts(found, task.answer.text)

    def _model(self, task: Task, steps: list[Step], shown: str) -> ModelClient:
        if self.model_factory is not None:
            made = self.model_factory(task, steps, shown)
            if made is not None:
                return made
        if self.config.model == "reference":
            return ReferenceModel(steps, shown)
        assert self.shared_model is not None
        return self.shared_model

    def _user(self, task: Task) -> SimulatedUser:
        if self.uses_model_user(task):
            if self.user_client is None:
                shared = self.shared_model
                self.user_client = shared if isinstance(shared, AnthropicModel) else build_model(
                    self.settings.model_copy(update={"agent_model_provider": "anthropic"}))
            return ModelUser(task, self.user_client, self.user_model_name, self.prices)
        return ScriptedUser(task)

    @staticmethod
    def _usage(result: TryResult, t: Transcript) -> None:
        result.input_tokens, result.output_tokens = t.usage.input_tokens, t.usage.output_tokens
        result.cache_read_tokens, result.cache_creation_tokens = t.usage.cache_read_tokens, t.usage.cache_creation_tokens
        result.cost_usd_micros, result.user_cost_usd_micros = t.cost_usd_micros, t.user_cost_usd_micros
        result.round_trips, result.model_calls = t.round_trips, t.model_calls

    def _write_transcript(self, task: Task, attempt: int, transcript: Transcript, result: TryResult) -> str:
        stem = self.out_dir / "transcripts" / f"{task.id}-{attempt}"
        stem.with_suffix(".json").write_text(json.dumps(
            {"task": task.id, "attempt": attempt, "status": result.status, "failures": result.failures,
             **transcript.as_json()}, ensure_ascii=False, indent=1, default=str))
        stem.with_suffix(".md").write_text(transcript.as_markdown(f"{task.id} #{attempt} — {task.about or task.family}",
                                                                  result.failures))
        return str(stem.with_suffix(".md"))


async def run_suite(settings: Settings, config: EvalConfig, *, redis: Any, tasks: Sequence[Task],
                    model_factory: ModelFactory | None = None, gym: Gym | None = None,
                    log: Callable[[str], None] = print) -> RunOutcome:
    suite = Suite(settings, config, redis=redis, tasks=tasks, model_factory=model_factory, log=log)
    return await suite.run(gym)

