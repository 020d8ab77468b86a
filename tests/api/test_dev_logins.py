"""Issue 27 item 9, the roles a newcomer can find: in dev auth, GET /dev/logins lists the demo's logins with a
token each (the console's "Sign in as" switcher) and `spotter dev-token` prints the console URL that signs in."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from gym.demo.tenancy import DEMO_LOGINS, seed_demo_tenancy

REPO = Path(__file__).resolve().parents[2]


async def test_dev_logins_lists_the_demo_logins_with_tokens_that_sign_in_as_them(client, factory, db) -> None:
    async with db.owner() as session:
        await seed_demo_tenancy(session)
    assert (await client.get("/dev/logins")).status_code == 401  # only to a signed-in caller
    someone = await factory.user()
    response = await client.get("/dev/logins", headers=someone.headers)
    assert response.status_code == 200
    items = {item["email"]: item for item in response.json()["items"]}
    assert set(items) == {login.email for login in DEMO_LOGINS}
    desk = items["desk@harbor.test"]
    assert (desk["name"], desk["role"], desk["orgName"]) == ("Eli Desk", "front_desk", "Harbor Strength")
    me = await client.get("/me", headers={"authorization": f"Bearer {desk['token']}"})
    assert me.status_code == 200 and me.json()["email"] == "desk@harbor.test"


async def test_dev_token_prints_the_console_url_then_the_token(factory, embedded_pg, data_dir) -> None:
    user = await factory.user()
    env = {**os.environ, "APP_ENV": "test", "AUTH_MODE": "dev", "DATABASE_URL": embedded_pg.url(),
           "DATA_DIR": str(data_dir), "SENTRY_DSN": "", "POSTHOG_API_KEY": "", "LOG_LEVEL": "warning"}
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "api.cli", "dev-token", "--email",
                                                    user.email, "--url", "http://127.0.0.1:8010/"],
                                   cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    token = lines[-1]
    assert lines[0] == f"console: http://127.0.0.1:8010/console/#token={token}"
    assert token.count(".") == 2  # a JWT
