"""A selection that is no legal play is refused by the game, in the game's own terms, and
the table shows that sentence (issue 26: the page showed one guessed sentence for every
game, wrong in 找朋友, where the rule is follow suit or follow the pair). For a climbing
game, 保皇 and 找朋友: cards the page judges illegal are sent, the hall's `error` names
the rule, the table says it in the player's language, and nothing moves."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cardhall.games.reasons import render
from tests.web.helpers import enter_as_guest, play_until, quick_match, seq

#: The rules a refused selection may name, per variant (a card pick, not a wrong step).
RULES = {
    "ddz3": {"not_a_combination", "does_not_beat"},
    "baohuang": {"not_a_combination", "does_not_beat", "must_beat_each", "must_beat_kaopai",
                 "sixes_last", "not_legal_now"},
    "zhaopengyou": {"must_follow_suit", "must_follow_pair", "must_follow_tractor",
                    "must_play_all_suit", "wrong_count", "lead_mixes_suits"},
}


def errors(page: Page) -> list[dict[str, Any]]:
    """Every `error` message the page receives."""
    out: list[dict[str, Any]] = []

    def on_frame(payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "error":
            out.append(msg)

    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    return out


def illegal_selection(page: Page) -> bool:
    """Pick one card, then two (the first and last), until the page judges the selection
    no legal play; False (selection cleared) if every try was legal."""
    cards = page.locator(".hand .card")
    n = cards.count()
    for picks in [[i] for i in range(n)] + [[0, n - 1]]:
        page.keyboard.press("Escape")
        for i in picks:
            cards.nth(i).press("Space")  # by keyboard: no card above it in the fan gets the tap
        if page.locator("#play").get_attribute("data-legal") == "0":
            return True
    page.keyboard.press("Escape")
    return False


@pytest.mark.parametrize("variant", sorted(RULES))
def test_an_illegal_selection_says_the_games_rule(desktop: Page, variant: str) -> None:
    page = desktop
    said = errors(page)
    enter_as_guest(page)
    quick_match(page, f"{variant}-bots")

    def following(p: Page) -> bool:
        # Following a play (there is one on the table to beat or to follow) and the page
        # judges some selection illegal.
        return p.locator(".table[data-phase='play'] #play").count() > 0 \
            and p.locator(".pit .slot:not([data-stale]) .card").count() > 0 \
            and illegal_selection(p)

    play_until(page, following)
    before = seq(page)
    page.locator("#play").click()
    reason = page.locator(".controls .reason")
    expect(reason).not_to_be_empty()
    refusal = said[-1]
    assert refusal["code"] == "illegal" and refusal["reason"] in RULES[variant], refusal
    expect(reason).to_have_text(render(refusal["reason"], refusal["params"], "zh"))
    assert seq(page) == before  # nothing moved
    page.locator("#lang").click()  # the same refusal, said again in English
    assert illegal_selection(page)
    page.locator("#play").click()
    expect(reason).to_have_text(render(said[-1]["reason"], said[-1]["params"], "en"))
