"""The replay names each seat's last word in the phase it was said in: a bid's "pass"
is 不叫 while the cards are being played, not 不出 (issue 26: an earlier 不叫 was
relabelled). Frames from the hall's own replay code for a seeded game."""

from __future__ import annotations

from playwright.sync_api import Page

from cardhall.games import new_game
from cardhall.hall.domain.replays import frames


def test_a_bids_pass_is_not_relabelled_once_cards_are_played(desktop: Page) -> None:
    game = new_game("ddz3", seed=7)
    passer = game.to_act
    game.apply("pass", seat=passer)
    game.apply("bid 3", seat=game.to_act)  # the top bid: the landlord is known, play starts
    landlord = game.to_act
    game.apply(str(game.legal_actions(landlord)[-1]), seat=landlord)  # his lead
    steps = frames(game.record())
    at = len(steps) - 1
    assert steps[at]["phase"] == "play" and steps[at]["last"][passer] == "pass"
    desktop.goto("/")
    said = desktop.evaluate("""async ([steps, at, passer]) => {
        const { lastPhase } = await import("/screens/replay.js");
        const { actionEl } = await import("/screens/words.js");
        const game = { variant: "ddz3", frames: steps };
        const phase = lastPhase(game, at, passer);
        return [phase, actionEl("ddz3", phase, steps[at], steps[at].last[passer]).textContent];
    }""", [steps, at, passer])
    assert said == ["bid", "不叫"]
