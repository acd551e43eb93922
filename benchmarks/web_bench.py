"""The browser client's speed and size against the targets of issue 12.

Starts its own ``cardhall serve`` (temporary SQLite file, rooms whose bots fill at
once), drives Debian's Chromium (/usr/bin/chromium) through Playwright, and prints:
the lobby interactive after navigation (median of 5, target < 1 s), a click on 出牌 to
the play shown on the table (median, target < 100 ms) and the client's code and style
bytes (target < 300 KB); the figures also go to build/web-perf.json. Loopback only.
Timings include the machine's other load: the load average is printed with them.

    .venv/bin/python benchmarks/web_bench.py --plays 30
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.server.conftest import start_hall  # noqa: E402
from tests.web.conftest import CHROMIUM, DESKTOP  # noqa: E402
from tests.web.perf import figures, lobby_interactive_ms, play_shown_ms, report  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plays", type=int, default=30, help="plays to time (default 30)")
    ap.add_argument("--lobby-runs", type=int, default=5)
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "web-perf.json")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        hall = start_hall(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                page = browser.new_context(base_url=hall.url, **DESKTOP).new_page()
                page.set_default_timeout(30_000)
                lobby = lobby_interactive_ms(page, args.lobby_runs)
                plays = play_shown_ms(page, plays=args.plays)
                browser.close()
        finally:
            hall.stop()
    print(report(figures(lobby, plays), args.out))


if __name__ == "__main__":
    main()
