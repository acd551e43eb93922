"""The browser client's figures: lobby interactive after navigation, 出牌 click to the play
shown on the table, and the size of the client's code and styles.

Used by tests/web/test_perf.py (which records them) and benchmarks/web_bench.py (which
prints them against the targets: lobby < 1 s, play < 100 ms median, size < 300 KB).
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
from importlib.resources import files
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from tests.web.helpers import enter_as_guest, open_lobby, quick_match, take_turn, wait_turn

#: web_bytes: every code and style file as it is (issue 12); web_bytes_gzip: the same and
#: the word catalogs (lang/*.json, loaded by every first visit) gzipped, as the hall sends
#: them (server/headers.py; issue 26 asks it of a first visit).
TARGETS = {"lobby_interactive_ms": 1000.0, "play_shown_median_ms": 100.0,
           "web_bytes": 300 * 1024, "web_bytes_gzip": 300 * 1024}
CODE_SUFFIXES = (".html", ".js", ".css")

# Click 出牌 inside the page and resolve at the first frame after the table shows the play
# (the seat's last play holds cards and the table's seq moved on).
PLAY_AND_TIME = """() => new Promise((resolve) => {
    const table = document.querySelector('.table');
    const old = table.dataset.seq;
    const shown = () => table.dataset.seq !== old
        && document.querySelector('.slot.pos-me .last .card');
    const t0 = performance.now();
    const obs = new MutationObserver(() => {
        if (!shown()) return;
        obs.disconnect();
        requestAnimationFrame(() => resolve(performance.now() - t0));
    });
    obs.observe(table, {childList: true, subtree: true, attributes: true});
    setTimeout(() => { obs.disconnect(); resolve(-1); }, 10000);  // refused or lost
    document.querySelector('#play').click();
})"""


def web_bytes() -> dict[str, int]:
    """Bytes of every code and style file the package serves under web/."""
    root = Path(str(files("cardhall") / "web"))
    return {str(p.relative_to(root)): p.stat().st_size for p in sorted(root.rglob("*"))
            if p.suffix in CODE_SUFFIXES}


def web_bytes_gzip() -> int:
    """The same files and the word catalogs gzipped one by one (level 6, as
    GZipMiddleware sends them)."""
    root = Path(str(files("cardhall") / "web"))
    sent = [p for p in sorted(root.rglob("*")) if p.suffix in CODE_SUFFIXES]
    sent += sorted((root / "lang").glob("*.json"))
    return sum(len(gzip.compress(p.read_bytes(), 6)) for p in sent)


def lobby_interactive_ms(page: Page, runs: int = 5) -> list[float]:
    """ms from navigation start until the lobby's rooms (with their buttons) are drawn."""
    enter_as_guest(page)
    out = []
    for _ in range(runs):
        open_lobby(page)
        page.wait_for_selector("body[data-interactive]")
        out.append(float(page.evaluate("Number(document.body.dataset.interactive)")))
    return out


def play_shown_ms(page: Page, room: str = "ddz3_happy-bots", plays: int = 15) -> list[float]:
    """Time 出牌 → shown for up to ``plays`` of the guest's plays (a hand or more).

    Set-up phases are answered with their first button; a play is made with the hint (or
    the smallest card when leading); a turn with no play is passed, untimed.
    """
    quick_match(page, room)
    out: list[float] = []
    while len(out) < plays:
        if wait_turn(page) == "settled":
            page.locator("#again").click()
            page.wait_for_selector(".table:not(:has(.settle))")
            continue
        controls = page.locator(".controls")
        if not controls.locator("#play").count():
            take_turn(page)  # a set-up answer (or nothing, if the window closed meanwhile)
            continue
        if controls.locator("#pass").count():
            controls.locator("#hint").click()
        else:
            page.locator(".hand .card").last.click()
        if controls.locator("#play").get_attribute("data-legal") != "1":
            before = page.locator(".table").get_attribute("data-seq")
            controls.locator("#pass").click()
            page.wait_for_function("old => document.querySelector('.settle') || "
                                   "document.querySelector('.table').dataset.seq !== old",
                                   arg=before)
            continue
        ms = float(page.evaluate(PLAY_AND_TIME))
        if ms < 0:
            raise AssertionError("出牌 was not shown within 10 s: "
                                 + page.locator(".controls .reason").inner_text())
        out.append(ms)
    return out


def figures(lobby: list[float], plays: list[float]) -> dict[str, Any]:
    sizes = web_bytes()
    return {
        "lobby_interactive_ms": round(statistics.median(lobby), 1),
        "lobby_runs_ms": [round(x, 1) for x in lobby],
        "play_shown_median_ms": round(statistics.median(plays), 1),
        "play_shown_max_ms": round(max(plays), 1),
        "plays_timed": len(plays),
        "web_bytes": sum(sizes.values()),
        "web_bytes_gzip": web_bytes_gzip(),
        "web_files": sizes,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "targets": TARGETS,
    }


def report(fig: dict[str, Any], out: Path) -> str:
    """Write the figures as JSON to ``out`` and return them as lines against the targets."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(fig, indent=2) + "\n")
    lines = [f"{k}: {fig[k]} (target < {TARGETS[k]})" for k in TARGETS]
    lines.append(f"load average: {fig['load_average']} (other work here distorts timings)")
    return "\n".join(lines)
