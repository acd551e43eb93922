"""The client's figures, measured in the browser and recorded in build/web-perf.json.

Timings are reported, not asserted (they depend on the machine's load); the size budget
is asserted: the client's own code and styles stay under 300 KB uncompressed.
"""

from __future__ import annotations

from playwright.sync_api import Page

from tests.web.conftest import ROOT
from tests.web.perf import TARGETS, figures, lobby_interactive_ms, play_shown_ms, report


def test_lobby_and_play_timings_and_the_size_budget(desktop: Page) -> None:
    lobby = lobby_interactive_ms(desktop)
    plays = play_shown_ms(desktop)
    fig = figures(lobby, plays)
    print("\n" + report(fig, ROOT / "build" / "web-perf.json"))
    assert all(x > 0 for x in lobby + plays)
    assert fig["web_bytes"] < TARGETS["web_bytes"]
    assert fig["web_bytes_gzip"] < TARGETS["web_bytes_gzip"]
