"""Browser-test fixtures: Debian's Chromium driven by Playwright against the real app and the fake model.

Every test here is skipped, with the reason, when the `playwright` package or the Chromium binary is
missing (no browser is ever downloaded). Each test gets a fresh browser context (own localStorage) and
leaves a screenshot in test-artifacts/screenshots/<test-name>.png, of the viewport when it passed and of the
whole page when it failed.
"""

from __future__ import annotations

import contextlib
import importlib
import re
import shutil
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import text

from api.app import create_app
from gym.demo.seed import DANI_MEMBER_ID, seed_demo
from gym.demo.tenancy import HARBOR, clerk_id_for
from pipeline.demo import seed_finished_run
from tests.browser.waits import TIMEOUT_MS
from tests.factories import TestOrg, TestUser
from tests.servers import ThreadedServer

# Debian's old headless shell when installed (.ci/run installs it): the same Blink and V8 as Chromium without the
# browser's UI layers, a fifth less CPU per test than `chromium --headless` (bench/README.md); Chromium otherwise.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.exists() else Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# Chromium grants a visible page's screen wake lock by default; the headless shell denies it unless granted, as
# a browser whose user allowed it does (the member app's timer keeps the screen awake).
GRANTED = ["screen-wake-lock"]
HERE = Path(__file__).resolve().parent


def unavailable() -> str | None:
    """Why browser tests cannot run here, or None when they can."""
    try:
        importlib.import_module("playwright.async_api")
    except ImportError:
        return "browser tests need the `playwright` Python package (pip install playwright)"
    if shutil.which(CHROMIUM) is None:
        return (f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium-headless-shell, or chromium); "
                "none is downloaded")
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip this folder's tests before any server starts when no browser can run."""
    mine = [item for item in items if HERE in Path(item.path).resolve().parents]
    reason = unavailable() if mine else None
    for item in mine if reason else ():
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Attach the page's console output to a failed test's report."""
    report = yield
    if report.failed:
        item.browser_failed = True  # the teardown's screenshot is then of the whole page
    lines = getattr(item, "browser_console", None)
    if report.when == "call" and report.failed and lines:
        report.sections.append(("browser console", "\n".join(lines)))
    return report


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[object]:
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    from playwright.async_api import async_playwright, expect

    expect.set_options(timeout=TIMEOUT_MS)
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        await chromium.close()


@dataclass
class Console:
    """One browser tab on the staff console, signed in as `user` of `org`."""

    page: object
    base_url: str
    org: TestOrg
    user: TestUser

    async def open(self) -> Console:
        """Sign in through the URL fragment and wait for the composer and the first usage snapshot."""
        await self.page.goto(f"{self.base_url}/console/#token={self.user.token}")
        await self.page.get_by_test_id("composer").wait_for(state="visible")
        await self.page.locator('[data-testid="usage-amount"]').wait_for(state="visible")
        return self

    async def send(self, message: str) -> None:
        await self.page.get_by_test_id("composer").fill(message)
        await self.page.get_by_test_id("send").click()

    def card(self, tool_use_id: str):
        return self.page.locator(f'[data-testid="tool-card"][data-tool-use-id="{tool_use_id}"]')

    def assistant_text(self, text: str):
        return self.page.get_by_test_id("assistant-text").filter(has_text=text)


async def teardown_screenshot(tab: object, request: pytest.FixtureRequest) -> None:
    """What the page showed when the test ended: the viewport, or the whole page when the test failed (a whole
    page's screenshot re-lays the page out at its full height: 0.4 s of Chromium's CPU per test, a sixth of a
    browser test's, for a picture only a failure needs)."""
    await tab.screenshot(path=str(_screenshot_path(request.config.rootpath, request.node.name)),
                         full_page=getattr(request.node, "browser_failed", False))


def _screenshot_path(root: Path, test_name: str) -> Path:
    folder = root / "test-artifacts" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', test_name)}.png"


@pytest.fixture
async def page(browser, server, request: pytest.FixtureRequest) -> AsyncIterator[object]:
    """A fresh English browser context; screenshot afterwards; uncaught page errors fail the test."""
    async with watched_page(browser, server, request, locale="en-US", viewport={"width": 1280, "height": 860},
                            what="in the console page") as (tab, _):
        yield tab


@pytest.fixture
async def console(page, server, factory) -> Console:
    """The console signed in as the owner of a fresh pro org."""
    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner", name="Maya Owner")
    return await Console(page, server.url, org, owner).open()


@pytest.fixture
def open_console(page, server):
    """Sign in to the console as any user: `await open_console(org, user)`."""

    async def _open(org: TestOrg, user: TestUser) -> Console:
        return await Console(page, server.url, org, user).open()

    return _open


@pytest.fixture(scope="module")
def offline_server(app_settings) -> Iterator[ThreadedServer]:
    """The real app, but with the deterministic offline model instead of an LLM."""
    srv = ThreadedServer(create_app(app_settings.model_copy(update={"agent_model_provider": "offline"}))).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
async def demo_gym(db) -> TestOrg:
    """Harbor Strength as `seed_demo` writes it, in the worker's shared test database (its own orgs), seeded when a
    module that uses it starts. Every user of the demo gym seeds it first (this fixture, `harbor_owner`, the seed
    and relevance tests), so what a module changed in it is rewritten by the next one that reads it."""
    await seed_demo(db)
    return TestOrg(HARBOR.id, HARBOR.name, HARBOR.tier, HARBOR.timezone)


@pytest.fixture
async def harbor_owner(db, dev_keys) -> TestUser:
    """Harbor Strength as `seed_demo` writes it, with Dani's finished run; its owner."""
    await seed_demo(db)
    await seed_finished_run(db, HARBOR.id, DANI_MEMBER_ID)
    return await harbor_user(db, dev_keys, "owner@harbor.test", "owner")


async def harbor_user(db, dev_keys, email: str, role: str) -> TestUser:
    """A seeded demo user of Harbor Strength (`seed_demo` must have run), signed in with a dev token."""
    clerk_id = clerk_id_for(email)
    async with db.owner() as session:
        user_id = await session.scalar(text("SELECT id FROM users WHERE clerk_id = :c"), {"c": clerk_id})
    assert user_id is not None
    return TestUser(user_id, email, clerk_id, dev_keys.sign(sub=clerk_id, email=email), role)


@contextlib.asynccontextmanager
async def watched_page(browser, server, request, *, locale: str, viewport: dict, what: str,
                       permissions: list[str] | tuple[str, ...] = (), init_script: str | None = None,
                       ) -> AsyncIterator[tuple[object, list[str]]]:
    """A fresh context and page (touch on a phone-wide viewport): its console lines and uncaught errors go to a
    failed test's report, its screenshot is taken at teardown, and an uncaught error fails the test (`what` says
    where: "in the member app"). Yields the page and its console lines (a test may add its own)."""
    context = await browser.new_context(locale=locale, viewport=viewport, base_url=server.url,
                                        has_touch=viewport["width"] < 600, permissions=list(permissions))
    context.set_default_timeout(TIMEOUT_MS)
    if init_script:
        await context.add_init_script(init_script)
    page = await context.new_page()
    errors: list[str] = []
    lines: list[str] = []
    request.node.browser_console = lines
    page.on("console", lambda msg: lines.append(f"[{msg.type}] {msg.text}"))
    page.on("pageerror", lambda err: (errors.append(str(err)), lines.append(f"[pageerror] {err}")))
    yield page, lines
    try:
        await teardown_screenshot(page, request)
    finally:
        await context.close()
    if errors:
        pytest.fail(f"uncaught errors {what}:\n" + "\n".join(errors))
