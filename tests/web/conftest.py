"""The browser harness: a real ``cardhall serve`` and Debian's Chromium through Playwright.

One hall per test module (tests/server's ``start_hall``: a temporary SQLite file,
``<variant>-bots`` rooms whose bots fill at once, ``<variant>-humans`` rooms for
private tables). Chromium is the system's (/usr/bin/chromium, installed by
scripts/services.sh); Playwright's own download is never used. Every page made by
the fixtures is watched: a console error or an uncaught page error fails the test
at teardown, unless the test said beforehand that it expects it (``guard.allow``),
and so does anything the page's Content-Security-Policy refuses. Under that policy
``page.wait_for_function`` takes a function (``"() => window.x"``): a bare expression
is eval'd in the page, which the policy forbids.
"""

from __future__ import annotations

import faulthandler
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tests.server.conftest import HallProcess, running_hall

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}
PHONE_LANDSCAPE: dict[str, Any] = {**PHONE, "viewport": {"width": 844, "height": 390}}


WATCHDOG_SECONDS = 300


@pytest.fixture(autouse=True)
def watchdog() -> Iterator[None]:
    """A browser test that hangs (a page that never answers) ends the run with every
    thread's traceback instead of holding CI for its whole budget."""
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True, file=sys.stderr)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("webhall"))


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=CHROMIUM)
    try:
        yield b
    finally:
        b.close()


#: Run in every page before its own scripts (an init script, not subject to the CSP):
#: each violation of the page's CSP is kept in ``window.cspViolations`` and logged.
CSP_WATCH = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  const what = `${e.effectiveDirective} refused ${e.blockedURI || "inline"} at ${where}`;
  window.cspViolations.push(what);
  console.error(`CSP violation: ${what}`);
});
"""


@dataclass
class Guard:
    """Collects console errors and page errors; expected ones are allowed by pattern."""

    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def watch(self, page: Page) -> None:
        # Whatever the page's Content-Security-Policy refuses is an error too (Chromium
        # also logs one, but the event names the directive whatever the log's wording).
        page.add_init_script(CSP_WATCH)
        page.on("console", lambda m: m.type == "error" and self.errors.append(
            f"console: {m.text} at {m.location}"))
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


@pytest.fixture
def guard() -> Iterator[Guard]:
    g = Guard()
    yield g
    bad = g.unexpected()
    if bad:
        pytest.fail("errors in the browser:\n" + "\n".join(bad), pytrace=False)


PageMaker = Callable[..., Page]


@pytest.fixture
def new_page(browser: Browser, guard: Guard, web_hall: HallProcess) -> Iterator[PageMaker]:
    """new_page(DESKTOP | PHONE | PHONE_LANDSCAPE) → a page in a fresh context (own storage)."""
    contexts: list[BrowserContext] = []

    def make(kind: dict[str, Any] = DESKTOP) -> Page:
        ctx = browser.new_context(base_url=web_hall.url, **kind)
        ctx.set_default_timeout(20_000)
        contexts.append(ctx)
        page = ctx.new_page()
        guard.watch(page)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def desktop(new_page: PageMaker) -> Page:
    return new_page(DESKTOP)


@pytest.fixture
def phone(new_page: PageMaker) -> Page:
    return new_page(PHONE)


@pytest.fixture
def phone_landscape(new_page: PageMaker) -> Page:
    return new_page(PHONE_LANDSCAPE)


def shot(page: Page, name: str) -> Path:
    """Save a screenshot as build/screenshots/NAME.png (gitignored) and return its path;
    the table's effects are run to their end first (a play caught sliding in looked cut)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), animations="disabled")  # as it settles, not mid-way
    return path


_axe = Axe()


def axe_check(page: Page, context: str | None = None) -> None:
    """Run axe-core on the page; fail on any serious or critical violation."""
    results = _axe.run(page, context=context)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:5])
        for v in bad)
