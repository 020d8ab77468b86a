"""The `spotter` command line: serve, migrate, worker, seed-demo, dev-token, demo, reindex, snapshot, eval."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from core.settings import Settings, SettingsError, load_settings


def _settings() -> Settings:
    try:
        return load_settings()
    except SettingsError as exc:
        print(f"spotter: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def cmd_migrate(args: argparse.Namespace) -> int:
    from core import migrations
    from core.embedded import embedded_services

    with embedded_services(_settings(), redis=False) as settings:
        assert settings.database_url
        migrations.upgrade(settings.database_url)
    print("migrated to head")
    return 0


async def _seed(settings: Settings, members: int | None, *, reset: bool) -> dict | None:
    """Seed the demo gym if it is not there yet (or `reset`); None when it was kept as it is."""
    from sqlalchemy import text

    from core.database import Database
    from gym.demo.seed import DANI_MEMBER_ID, seed_demo
    from gym.demo.tenancy import HARBOR
    from pipeline.demo import seed_finished_run

    assert settings.database_url
    db = Database(settings.database_url)
    try:
        if not reset:
            async with db.owner() as session:
                if await session.scalar(text("SELECT 1 FROM organizations WHERE id = :id"), {"id": HARBOR.id}):
                    return None
        summary = await seed_demo(db, members)
        summary["nutrition_run"] = (await seed_finished_run(db, HARBOR.id, DANI_MEMBER_ID))["state"]
        return summary
    finally:
        await db.dispose()


KEPT = "demo gym kept as it is (`spotter seed-demo --reset` regenerates it)"


def cmd_seed_demo(args: argparse.Namespace) -> int:
    from core.embedded import embedded_services

    with embedded_services(_settings(), redis=False) as settings:
        summary = asyncio.run(_seed(settings, args.members, reset=args.reset))
    print(f"demo gym seeded: {summary}" if summary is not None else KEPT)
    return 0


async def _token_for(settings: Settings, email: str, ttl: int, *, mcp: bool = False) -> tuple[str, list[str]] | None:
    """The user's dev token (issued for the MCP server with `mcp`) and the ids of the orgs they are staff of."""
    from sqlalchemy import text

    from api.auth import DevKeys
    from core.database import Database
    from core.tenancy import STAFF_ROLES

    assert settings.database_url
    db = Database(settings.database_url)
    try:
        async with db.owner() as session:
            clerk_id = await session.scalar(text("SELECT clerk_id FROM users WHERE lower(email) = lower(:e)"),
                                            {"e": email})
            orgs = (await session.scalars(text(
                "SELECT m.org_id::text FROM memberships m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = "
                "lower(:e) AND m.status = 'active' AND m.role = ANY(:roles) ORDER BY m.created_at"),
                {"e": email, "roles": sorted(STAFF_ROLES)})).all()
    finally:
        await db.dispose()
    if clerk_id is None:
        return None
    token = DevKeys(settings.data_dir).sign(sub=clerk_id, email=email, ttl_seconds=ttl,
                                            audience=settings.mcp_audience if mcp else None)
    return token, list(orgs)


def cmd_dev_token(args: argparse.Namespace) -> int:
    from core.embedded import embedded_services

    settings = _settings()
    if settings.auth_mode != "dev":
        print("spotter: dev-token needs AUTH_MODE=dev", file=sys.stderr)
        return 2
    with embedded_services(settings, redis=False) as resolved:
        found = asyncio.run(_token_for(resolved, args.email, args.ttl, mcp=args.mcp))
    if found is None:
        print(f"spotter: no user with email {args.email} (run `spotter seed-demo`?)", file=sys.stderr)
        return 2
    token, orgs = found
    base = _console_base(settings, args.url)
    if args.mcp:  # a token issued for the MCP server, and the server's address in each of the user's gyms
        for org in orgs:
            print(f"mcp: {base}/organizations/{org}/mcp")
    else:
        print(f"console: {base}/console/#token={token}")
    print(token)
    return 0


def _console_base(settings: Settings, url: str | None) -> str:
    """Where the console is: --url, else the running demo's address (its instance lock), else the default."""
    from core.instance_lock import InstanceLock

    if url:
        return url.rstrip("/")
    holder = InstanceLock(settings.data_dir, "demo").holder() or {}
    return str(holder.get("url") or "http://127.0.0.1:8000").rstrip("/")


def _serve(settings: Settings, host: str, port: int, banner: str | None = None) -> None:
    import uvicorn

    from api.app import create_app

    app = create_app(settings)
    if banner:
        print(banner, flush=True)
    # log_config=None: uvicorn's records go through our logging set-up (and its exception scrubbing)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, log_config=None)


def cmd_serve(args: argparse.Namespace) -> int:
    from core.embedded import embedded_services

    with embedded_services(_settings()) as settings:
        _serve(settings, args.host, args.port,
               banner=f"Spotter listening on http://{args.host}:{args.port}  (health: /health, API docs: /schema)\n"
                      "Get a dev token: spotter dev-token --email owner@harbor.test")
    return 0


def demo_banner(base: str, *, model: str, token: str, seeded: bool, pid: int) -> str:
    """What `spotter demo` prints once it serves; its last line is `console: <URL>`, as the README says (the URL
    signs in as the demo's owner)."""
    return (f"Spotter demo on {base}  (model: {model})\n"
            f"  health:   {base}/health\n  API docs: {base}/schema\n"
            f"  token:    {token}\n"
            f"  {'demo gym seeded' if seeded else KEPT}\n"
            f"  stop:     Ctrl-C (or `kill {pid}`) stops the server and its embedded Postgres and Redis\n"
            f"  logs:     quiet; `spotter demo --verbose` shows every request\n\n"
            f"console: {base}/console/#token={token}")


def cmd_demo(args: argparse.Namespace) -> int:
    """One demo per data dir: a second run says where the first one is and touches nothing."""
    from core import migrations
    from core.embedded import embedded_services
    from core.instance_lock import InstanceLock

    configured = _settings()
    if configured.agent_model_provider == "anthropic" and not configured.anthropic_api_key:
        # the newcomer's demo needs no key
        configured = configured.model_copy(update={"agent_model_provider": "offline"})
    if configured.agent_titles is None:  # the demo names its conversations (the offline model: a short phrase)
        configured = configured.model_copy(update={"agent_titles": True})
    if not args.verbose and "LOG_LEVEL" not in os.environ:
        # a quiet terminal: request logs would push the console URL out of view (--verbose brings them back)
        configured = configured.model_copy(update={"log_level": "warning"})
    base = f"http://{args.host}:{args.port}"
    lock = InstanceLock(configured.data_dir, "demo")
    holder = lock.acquire(url=base)
    if holder is not None:
        where = holder.get("url", "an unknown address")
        print(f"spotter: the demo is already running on {where} (pid {holder.get('pid', '?')}, data in "
              f"{configured.data_dir}); open that one, or stop it (Ctrl-C in its terminal, or "
              f"`kill {holder.get('pid', '<pid>')}`) first", file=sys.stderr)
        return 1
    try:
        with embedded_services(configured) as settings:
            assert settings.database_url
            migrations.upgrade(settings.database_url)
            seeded = asyncio.run(_seed(settings, args.members, reset=False))
            found = asyncio.run(_token_for(settings, "owner@harbor.test", 12 * 3600))
            assert found is not None, "the demo seed signs in as its owner"
            token, _orgs = found
            _serve(settings, args.host, args.port, banner=demo_banner(
                base, model=_model_label(settings), token=token, seeded=seeded is not None, pid=os.getpid()))
    finally:
        lock.release()
    return 0


async def _snapshot(settings: Settings) -> dict:
    from agent.observability import build_observability
    from agent.storage_snapshot import storage_snapshot
    from core.database import Database

    assert settings.database_url
    db = Database(settings.database_url)
    observability = build_observability(settings)
    try:
        return await storage_snapshot(db, observability)
    finally:
        observability.close()
        await db.dispose()


def cmd_snapshot(args: argparse.Namespace) -> int:
    """Emit agent.storage.snapshot; stdout gets exactly one JSON line (logs go to stderr), for cron."""
    import contextlib
    import json

    from core.embedded import embedded_services
    from core.logging import configure_logging

    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        settings = _settings()
        configure_logging(settings.log_level)
        with embedded_services(settings, redis=False) as resolved:
            fields = asyncio.run(_snapshot(resolved))
    print(json.dumps({"event": "agent.storage.snapshot", **fields}, separators=(",", ":")), file=out, flush=True)
    return 0


def _model_label(settings: Settings) -> str:
    if settings.agent_model_provider == "offline":
        return "offline demo model, not an LLM; set ANTHROPIC_API_KEY for Claude"
    return settings.agent_model


async def _reindex(settings: Settings, org: str | None, force: bool) -> dict:
    import dataclasses
    import uuid

    from sqlalchemy import text

    from core.database import Database
    from rag.embeddings import build_embedder
    from rag.index import reindex_org

    assert settings.database_url
    db = Database(settings.database_url, pool_size=2)
    embedder = build_embedder(settings)
    try:
        if org:
            org_ids = [uuid.UUID(org)]
        else:
            async with db.owner() as session:
                org_ids = list((await session.scalars(text("SELECT id FROM organizations ORDER BY id"))).all())
        results = {str(org_id): dataclasses.asdict(await reindex_org(db, embedder, org_id, force=force))
                   for org_id in org_ids}
    finally:
        await db.dispose()
    return {"model": embedder.model, "dims": embedder.dims, "orgs": results}


def cmd_reindex(args: argparse.Namespace) -> int:
    """Rebuild the RAG index (one org or all) with the active embedder; prints a JSON summary."""
    import contextlib
    import json

    from core.embedded import embedded_services

    out = sys.stdout
    with contextlib.redirect_stdout(sys.stderr), embedded_services(_settings(), redis=False) as settings:
        summary = asyncio.run(_reindex(settings, args.org, args.force))  # progress logs go to stderr
    print(json.dumps(summary, indent=2), file=out)
    failed = sum(r["failed"] for r in summary["orgs"].values())
    return 1 if failed else 0


def cmd_worker(args: argparse.Namespace) -> int:
    """Drive nutrition-pipeline runs in this process (`spotter serve` also runs one worker in-process)."""
    from core.embedded import embedded_services
    from pipeline.model_agents import uses_model
    from pipeline.worker import serve as serve_worker

    wanted = _settings()  # model-backed agents meter against the cap: they need Redis (embedded if unset)
    with embedded_services(wanted, redis=uses_model(wanted)) as settings:
        assert settings.database_url
        asyncio.run(serve_worker(settings, heartbeat_s=args.heartbeat))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Run the evaluation suite (evals/) against a fresh copy of the demo gym per try; prints the tables."""
    from pathlib import Path

    from core import migrations
    from core.embedded import embedded_services
    from core.logging import configure_logging
    from evals.command import EvalArgs, eval_command

    configured = _settings()
    # the tables on stdout; the engine's own logs (a line per turn) only from warnings up, on stderr, unless asked
    configure_logging(configured.log_level if "LOG_LEVEL" in os.environ else "warning", stream=sys.stderr)
    with embedded_services(configured) as settings:
        assert settings.database_url
        migrations.upgrade(settings.database_url)  # the server's own database; the template gets its own copy
        return asyncio.run(eval_command(settings, EvalArgs(
            model=args.model, k=args.k, tasks=args.tasks, concurrency=args.concurrency, user=args.user,
            user_model=args.user_model, compare=Path(args.compare) if args.compare else None,
            no_index=args.no_index, fail_under=args.fail_under, out=Path(args.out) if args.out else None)))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spotter", description="Spotter staff copilot service")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(fn=cmd_serve)
    sub.add_parser("migrate", help="alembic upgrade head").set_defaults(fn=cmd_migrate)
    worker = sub.add_parser("worker", help="run a worker process: nutrition runs, messages to members, freezes")
    worker.add_argument("--heartbeat", type=float, default=30.0, help="seconds before a silent job is re-picked")
    worker.set_defaults(fn=cmd_worker)
    seed = sub.add_parser("seed-demo", help="create the demo gym unless it exists (--reset regenerates it)")
    seed.add_argument("--members", type=int, default=None)
    seed.add_argument("--reset", action="store_true", help="regenerate the demo gym, discarding changes to it")
    seed.set_defaults(fn=cmd_seed_demo)
    token = sub.add_parser("dev-token", help="print the console URL that signs in as E, then the token alone")
    token.add_argument("--email", required=True)
    token.add_argument("--ttl", type=int, default=8 * 3600)
    token.add_argument("--url", default=None, help="the server's address (default: the running demo's, else "
                                                     "http://127.0.0.1:8000)")
    token.add_argument("--mcp", action="store_true", help="a token for the MCP server (its audience), printed after "
                                                          "the MCP address of each of the user's gyms")
    token.set_defaults(fn=cmd_dev_token)
    demo = sub.add_parser("demo", help="migrate, seed, serve, print the console URL")
    demo.add_argument("--host", default="127.0.0.1")
    demo.add_argument("--port", type=int, default=8000)
    demo.add_argument("--members", type=int, default=None)
    demo.add_argument("--verbose", action="store_true", help="log every request (default: warnings only)")
    demo.set_defaults(fn=cmd_demo)
    reindex = sub.add_parser("reindex", help="rebuild the RAG index with the active embedder")
    reindex.add_argument("--org", default=None, help="one organization id (default: every org)")
    reindex.add_argument("--force", action="store_true", help="re-embed documents whose text did not change")
    reindex.set_defaults(fn=cmd_reindex)
    sub.add_parser("snapshot", help="emit the storage snapshot (rows and bytes per table) as one JSON line") \
        .set_defaults(fn=cmd_snapshot)
    evaluate = sub.add_parser("eval", help="run the evaluation suite (evals/tasks) and print pass^k, cost per task")
    evaluate.add_argument("--model", default=None,
                          help="a Claude model id, `offline` (the rule-based demo model) or `reference` (each task's "
                               "scripted right answer); default AGENT_MODEL with a key, else offline")
    evaluate.add_argument("--k", type=int, default=1, help="tries per task (pass^k)")
    evaluate.add_argument("--tasks", default=None, help="families, family prefixes (staff) or task ids, comma-separated")
    evaluate.add_argument("--concurrency", type=int, default=2, help="tries at once")
    evaluate.add_argument("--user", choices=("auto", "scripted", "model"), default="auto",
                          help="the simulated person: the task's scripted turns, or the summarizer model playing the "
                               "task's instructions (auto: the model when a Claude model is under test)")
    evaluate.add_argument("--user-model", default=None, help="the simulated person's model (default SUMMARIZER_MODEL)")
    evaluate.add_argument("--compare", default=None,
                          help="a previous results.jsonl (default: the newest run of the same model)")
    evaluate.add_argument("--no-index", action="store_true", help="skip building the template's search index")
    evaluate.add_argument("--fail-under", type=float, default=None, help="exit 1 when pass^1 is below this (0..1)")
    evaluate.add_argument("--out", default=None, help="where runs are written (default DATA_DIR/evals)")
    evaluate.set_defaults(fn=cmd_eval)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.fn(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C: the embedded servers were already stopped on the way out
        return 128 + 2

