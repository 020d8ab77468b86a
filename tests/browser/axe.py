"""axe-core over a page as it is (the axe.min.js axe-playwright-python ships, injected once per page): its serious
and critical violations, each as (rule, impact, the first three nodes' selectors)."""

from __future__ import annotations

import importlib.resources

AXE_JS = (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text()


async def serious_violations(page) -> list[tuple[str, str, list]]:
    if not await page.evaluate("typeof window.axe !== 'undefined'"):
        await page.evaluate(AXE_JS)
    result = await page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
            if v["impact"] in ("serious", "critical")]
