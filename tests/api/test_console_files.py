"""The console's files from memory answer exactly as Litestar's local file system does, and an edit shows at once."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from litestar import Litestar
from litestar.static_files import create_static_files_router

from api.app import CONSOLE_DIR
from api.console_files import ConsoleFiles
from core.i18n import LOCALES_DIR

PATHS = ["/console", "/console/", "/console/index.html", "/console/app.js", "/console/styles.css",
         "/console/nutrition.html", "/console/locales/he.json", "/console/locales/", "/console/missing.js",
         "/console/locales/xx.json", "/console/../pyproject.toml", "/console/%2e%2e/app.py", "/console/app.js/"]


def _app(file_system: object | None, console: Path = CONSOLE_DIR, locales: Path = LOCALES_DIR) -> Litestar:
    extra = {} if file_system is None else {"file_system": file_system}
    return Litestar(route_handlers=[
        create_static_files_router("/console/locales", [locales], name="console-locales", **extra),
        create_static_files_router("/console", [console], html_mode=True, name="console", **extra)])


def _answer(response: httpx.Response) -> tuple[int, dict[str, str], bytes]:
    headers = {k: v for k, v in response.headers.items() if k != "date"}
    if "allow" in headers:  # a set's order in Litestar, which can differ between two apps
        headers["allow"] = ", ".join(sorted(headers["allow"].split(", ")))
    return response.status_code, headers, response.content


@pytest.mark.parametrize("method", ["GET", "HEAD"])
async def test_every_path_answers_as_the_local_file_system_does(method: str) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=_app(None)), base_url="http://t") as disk, \
            httpx.AsyncClient(transport=httpx.ASGITransport(app=_app(ConsoleFiles())), base_url="http://t") as mine:
        statuses = set()
        for path in PATHS:
            expected = _answer(await disk.request(method, path))
            assert _answer(await mine.request(method, path)) == expected, path
            assert _answer(await mine.request(method, path)) == expected, f"{path}, read again from memory"
            statuses.add(expected[0])
    assert {200, 404} <= statuses, statuses  # the paths reach files, directories' index pages and misses


@pytest.mark.parametrize("path", ["/console/%00", "/console/a%00b.js", "/console/locales/%00.json",
                                  "/console/" + "a" * 5000, "/console/app.js/x"])
async def test_a_path_no_file_can_have_is_not_found(path: str) -> None:
    """Litestar's local file system answered 500 to these (ValueError, ENAMETOOLONG from the stat)."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=_app(ConsoleFiles())), base_url="http://t") as mine:
        response = await mine.get(path)
    assert response.status_code == 404, response.text


async def test_an_edited_file_is_served_as_soon_as_it_is_saved(tmp_path: Path) -> None:
    console, locales = tmp_path / "console", tmp_path / "locales"
    console.mkdir(), locales.mkdir()
    script = console / "app.js"
    script.write_text("one();")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=_app(ConsoleFiles(), console, locales)),
                                 base_url="http://t") as client:
        first = await client.get("/console/app.js")
        script.write_text("the second version();")
        os.utime(script, ns=(script.stat().st_mtime_ns + 1_000_000_000,) * 2)
        second = await client.get("/console/app.js")
        script.unlink()
        gone = await client.get("/console/app.js")
    assert (first.status_code, first.text) == (200, "one();")
    assert (second.status_code, second.text) == (200, "the second version();")
    assert second.headers["content-length"] == str(len("the second version();"))
    assert gone.status_code == 404


async def test_only_reading_is_allowed() -> None:
    with pytest.raises(PermissionError):
        await ConsoleFiles().open(CONSOLE_DIR / "app.js", mode="wb")


async def test_the_app_serves_its_console_with_them(client: httpx.AsyncClient) -> None:
    """The app's two routers use them: a script is served, and a NUL in a path is a 404 rather than a 500."""
    script = await client.get("/console/app.js")
    assert script.status_code == 200 and script.content == (CONSOLE_DIR / "app.js").read_bytes()
    assert script.headers["content-type"].startswith("text/javascript")
    locale = await client.get("/console/locales/he.json")
    assert locale.status_code == 200 and locale.json() == json.loads((LOCALES_DIR / "he.json").read_text())
    for path in ("/console/%00", "/console/locales/%00.json"):
        assert (await client.get(path)).status_code == 404, path
