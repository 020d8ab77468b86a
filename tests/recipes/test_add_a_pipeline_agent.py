"""docs/recipes/add-a-pipeline-agent.md, done: its steps applied to a copy of the repository add a tiny HYDRATOR after
COACH; a run in a fresh database migrated by that copy walks the new state with the offline agents and stores the
new agent's envelope; the copy differs from the repository in exactly the files the recipe lists."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

from alembic.script import ScriptDirectory

from core import migrations
from core.embedded import EmbeddedPostgres
from tests.gym.nutrition import samples

ROOT = Path(__file__).resolve().parents[2]
RECIPE = ROOT / "docs" / "recipes" / "add-a-pipeline-agent.md"
COPIED = ("core", "gym", "rag", "tools", "agent", "pipeline", "api", "migrations", "locales")

SCHEMA = '''"""HYDRATOR -> USER (`hydration_plan`): the day's water and when to drink it."""

from __future__ import annotations

from pydantic import Field

from gym.nutrition.payloads.common import Payload, Short


class HydrationPlan(Payload):
    daily_litres: float = Field(gt=0, le=10)
    reminders: list[Short] = Field(min_length=1, max_length=12)
'''
OFFLINE = '''"""Deterministic HYDRATOR for the offline provider: SCIENTIST's hydration target, spread over the day."""

from __future__ import annotations

from typing import Any


def hydrator(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    litres = inputs["macro_targets"]["hydration_L"]
    return {"daily_litres": litres, "reminders": ["On waking", "With every meal", "Around training"]}
'''
MIGRATION = '''"""The HYDRATOR agent: its state and its name in the nutrition tables' check constraints.

Revision ID: {revision}
Revises: {down}
"""

from alembic import op

revision = "{revision}"
down_revision = "{down}"
branch_labels = None
depends_on = None

STATES = ("intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
          "chef_processing", "coach_processing", "output_ready", "paused_physician", "error")
AGENTS = ("INTAKE", "SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH", "PHYSICIAN", "USER", "ORCHESTRATOR")


def _checks(states: tuple[str, ...], agents: tuple[str, ...]) -> None:
    listed = lambda values: ", ".join(f"'{{v}}'" for v in values)  # noqa: E731
    for table, name, sql in (
            ("nutrition_runs", "state", f"state IN ({{listed(states)}})"),
            ("nutrition_runs", "previous_state", f"previous_state IS NULL OR previous_state IN ({{listed(states)}})"),
            ("nutrition_messages", "from_agent", f"from_agent IN ({{listed(agents)}})"),
            ("nutrition_messages", "to_agent", f"to_agent IN ({{listed(agents)}})")):
        op.drop_constraint(name, table, type_="check")
        op.create_check_constraint(name, table, sql)


def upgrade() -> None:
    _checks((*STATES, "hydrator_processing"), (*AGENTS, "HYDRATOR"))


def downgrade() -> None:
    _checks(STATES, AGENTS)
'''
DRIVE = '''
import asyncio, json, sys, uuid
from datetime import date

from sqlalchemy import text

from core import migrations
from core.database import Database
from gym import members
from gym.nutrition import runs
from gym.nutrition.payloads.intake import IntakeData
from pipeline.driver import Driver
from pipeline.offline import OfflineAgents


async def main(url: str, intake: dict) -> None:
    db = Database(url, pool_size=2)
    org_id = uuid.uuid4()
    async with db.owner() as session:
        await session.execute(text("INSERT INTO organizations (id, name, slug, tier, timezone) "
                                   "VALUES (:id, 'Recipe Gym', :slug, 'pro', 'UTC')"), {"id": org_id, "slug": org_id.hex})
    async with db.scope(org_id=org_id) as session:
        member = await members.create_member(session, org_id, first_name="Dani", joined_at=date(2026, 1, 5))
        run = await runs.start_run(session, org_id, member_id=member.id, intake=IntakeData.model_validate(intake),
                                   created_by=None)
    state = await Driver(db, OfflineAgents()).run_until_rest(org_id, run.id)
    async with db.scope(org_id=org_id) as session:
        run = await runs.get_run(session, org_id, run.id)
        stored = await runs.messages(session, run)
        events = list(await runs.events_after(session, run))
    print(json.dumps({"where": sys.modules["pipeline.driver"].__file__, "state": state, "last": run.last_completed_agent,
                      "states": [e.data["to"] for e in events if e.kind == "state"],
                      "messages": [[m.from_agent, m.to_agent, m.data_type, m.payload] for m in stored]}))
    await db.dispose()


migrations.upgrade(sys.argv[1])
asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
'''


def _insert_after(path: Path, anchor: str, text: str) -> None:
    source = path.read_text()
    assert source.count(anchor) == 1, f"{path}: the recipe's anchor {anchor!r} is not one place"
    path.write_text(source.replace(anchor, anchor + text))


def _replace(path: Path, old: str, new: str) -> None:
    source = path.read_text()
    assert source.count(old) == 1, f"{path}: {old!r} is not one place"
    path.write_text(source.replace(old, new))


def _add_words(path: Path, words: dict[str, str]) -> None:
    data = json.loads(path.read_text())
    enum = data["console"]["nutrition"]["enum"]
    for key, word in words.items():
        group, name = key.split(".")
        enum[group][name] = word
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def follow_the_recipe(repo: Path) -> None:
    """The recipe's steps 1-10, in its order, for HYDRATOR after COACH."""
    payloads = repo / "gym" / "nutrition" / "payloads"
    (payloads / "hydration.py").write_text(SCHEMA)  # 1
    for literal in ("Agent", "Recipient", "Requester", "Sender"):  # 2
        _replace(payloads / "common.py", f'{literal} = Literal["INTAKE", ', f'{literal} = Literal["HYDRATOR", "INTAKE", ')
    init = payloads / "__init__.py"  # 3
    _insert_after(init, "from gym.nutrition.payloads.feedback import AdjustmentResult, WeeklyCheckin\n",
                  "from gym.nutrition.payloads.hydration import HydrationPlan\n")
    _insert_after(init, '    "training_program": TrainingProgram,\n', '    "hydration_plan": HydrationPlan,\n')
    _replace(init, '"CHEF", "COACH")\n_AGENTS', '"CHEF", "COACH", "HYDRATOR")\n_AGENTS')
    _insert_after(init, '    "training_program": frozenset({("COACH", "USER")}),\n',
                  '    "hydration_plan": frozenset({("HYDRATOR", "USER")}),\n')
    _replace(init, '"COACH": "training_program", ', '"COACH": "training_program", "HYDRATOR": "hydration_plan", ')
    states = repo / "gym" / "nutrition" / "states.py"  # 4
    _insert_after(states, '    COACH_PROCESSING = "coach_processing"\n', '    HYDRATOR_PROCESSING = "hydrator_processing"\n')
    _replace(states, '"CHEF", "COACH"]', '"CHEF", "COACH", "HYDRATOR"]')
    driver = repo / "pipeline" / "driver.py"  # 5
    _replace(driver, '"COACH": "USER"}', '"COACH": "USER", "HYDRATOR": "USER"}')
    _replace(driver, '"COACH": ("training_input",)}', '"COACH": ("training_input",), "HYDRATOR": ("macro_targets",)}')
    _insert_after(repo / "pipeline" / "model_agents.py", "ROLES = {\n",  # 6
                  '    "HYDRATOR": "You are the HYDRATOR. Turn SCIENTIST\'s macro_targets into a hydration_plan: its '
                  'hydration_L as daily_litres, and when to drink.",\n')
    offline = repo / "pipeline" / "offline"  # 7
    (offline / "hydration.py").write_text(OFFLINE)
    _insert_after(offline / "__init__.py", "from pipeline.offline.coach import coach\n",
                  "from pipeline.offline.hydration import hydrator\n")
    _replace(offline / "__init__.py", '"COACH": coach, ', '"COACH": coach, "HYDRATOR": hydrator, ')
    versions = repo / "migrations" / "versions"  # 8
    head = ScriptDirectory.from_config(migrations.alembic_config("postgresql://unused")).get_current_head()
    assert head is not None
    number = int(head.split("_")[0]) + 1
    revision = f"{number:04d}_hydrator_agent"
    (versions / f"{revision}.py").write_text(MIGRATION.format(revision=revision, down=head))
    for language, (state, agent, data_type) in {  # 9
            "en": ("Hydration", "Hydrator", "hydration plan"),
            "he": ("שתייה", "יועץ שתייה", "תוכנית שתייה"),
            "ru": ("Питьевой режим", "Консультант по воде", "план питья")}.items():
        _add_words(repo / "locales" / f"{language}.json", {"state.hydrator_processing": state,
                                                            "agent.HYDRATOR": agent, "dataType.hydration_plan": data_type})
    _replace(repo / "api" / "console" / "nutrition.js", "'chef_processing', 'coach_processing'];",  # 10
             "'chef_processing', 'coach_processing', 'hydrator_processing'];")


def _fingerprints(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for top in COPIED for p in (root / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def _listed_files(recipe: str) -> set[str]:
    """The recipe's "Files it touches" list, `<next>_<agent>` placeholders as patterns."""
    section = recipe.split("## Files it touches", 1)[1].split("\n## ", 1)[0]
    return {re.sub(r"\s*\(new\)$", "", line[2:].strip()) for line in section.splitlines() if line.startswith("- ")}


def _named(path: str, listed: set[str]) -> bool:
    return any(re.fullmatch(re.escape(entry).replace(re.escape("<next>_<agent>"), r"\d{4}_[a-z]+"), path)
               for entry in listed)


def test_the_recipe_adds_an_agent_a_run_walks_touching_only_its_files(tmp_path: Path,
                                                                       embedded_pg: EmbeddedPostgres) -> None:
    repo = tmp_path / "repo"
    for top in COPIED:
        shutil.copytree(ROOT / top, repo / top, ignore=shutil.ignore_patterns("__pycache__"))
    before = _fingerprints(repo)
    follow_the_recipe(repo)
    after = _fingerprints(repo)
    touched = {path for path in after if before.get(path) != after[path]}
    listed = _listed_files(RECIPE.read_text())
    assert touched and all(_named(path, listed) for path in touched), sorted(touched)
    assert all(any(_named(path, {entry}) for path in touched) for entry in listed), "a listed file the recipe skips"

    url = embedded_pg.ensure_database(f"recipe_{uuid.uuid4().hex[:10]}")
    env = {**os.environ, "PYTHONPATH": str(repo), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", DRIVE, url, samples.intake().model_dump_json()], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["where"] == str(repo / "pipeline" / "driver.py")  # the copy ran, not the repository
    assert result["state"] == "output_ready" and result["last"] == "HYDRATOR"
    assert result["states"][-3:] == ["coach_processing", "hydrator_processing", "output_ready"]
    from_agent, to_agent, data_type, payload = result["messages"][-1]
    assert (from_agent, to_agent, data_type) == ("HYDRATOR", "USER", "hydration_plan")
    targets = next(m[3] for m in result["messages"] if m[2] == "macro_targets")
    assert payload["daily_litres"] == targets["hydration_L"]
