"""``GameState.readings``: every legal action a text may mean (docs/contract.md).

A client that sends bare cards (the browser judging a selection from the ``plays``
diagram) learns from it how they may read, to let the player choose. Scripted deals:
a 癞子 game with 9 wild where the landlord (seat 0) leads 33399955JJKKAA2XD + 8TQ,
and a classic ddz3 game whose landlord leads 33344455566678899TJQ.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable

import pytest

from cardhall.games import VARIANTS, GameState, new_game
from tests.games.deals import WILD_LEAD
from tests.games.test_ddz_bidding import classic


def laizi_lead() -> GameState:
    """The 癞子 game at the landlord's first lead (every earlier window answered no)."""
    state = new_game("ddz3_laizi", seed=1, options=WILD_LEAD)
    while state.phase != "play":
        state.apply(state.legal_actions()[0])
    assert state.to_act == 0
    return state


def classic_lead() -> GameState:
    return classic({0: "33344455566678899TJQ"})


LAIZI_CASES = [
    # the rules refuse the bare cards: two trios with a pair, either made by the wild 9
    ("play 3599", ["play 399+5=333+5", "play 599+3=555+3"]),
    # apply would take the soft bomb it prefers; 三带一 is legal too
    ("play 3339", ["play 333+9=333+9", "play 3339=3333"]),
    ("play 333+9", ["play 333+9=333+9"]),  # + names the kicker: one reading
    ("play 3339=3333", ["play 3339=3333"]),  # = names what the wild card stands for
    ("@0 play 3599", ["play 399+5=333+5", "play 599+3=555+3"]),  # the seat's own @
    ("play 55", ["play 55"]),  # unambiguous: one
    ("play 3338", ["play 333+8"]),  # one, canonical
    ("play 4444", []),  # not held
    ("play 35", []),  # no play
    ("pass", []),  # the leader must play
    ("bid 3", []),  # no action of this phase
    ("play", []),
    ("play 33x", []),  # no cards
    ("@1 play 55", []),  # another seat's
    ("play " + "3" * 300, []),  # over the 256-character cap: not read
]


@pytest.mark.parametrize(("text", "want"), LAIZI_CASES)
def test_laizi_readings(text: str, want: list[str]) -> None:
    state = laizi_lead()
    before = state.record()
    assert state.readings(text, seat=0) == want
    assert state.readings(text) == want  # the seat defaults to to_act
    assert all(state.check(t, 0) is None for t in want)
    assert state.record() == before  # nothing changed


@pytest.mark.parametrize(("text", "want"), [
    ("play 333444555666", ["play 333444555666", "play 333444555+666", "play 444555666+333"]),
    ("play 33344456", ["play 333444+56"]),
    ("play 333444+56", ["play 333444+56"]),
    ("play 33334", []),
])
def test_classic_readings(text: str, want: list[str]) -> None:
    assert classic_lead().readings(text) == want


def test_junk_has_no_readings_and_lists_no_plays() -> None:
    """Hostile text costs a parse, not the 2 234 plays of the wild lead."""
    state = laizi_lead()
    state._changed()  # forget the listed plays
    for bad in ("play 3" * 40, "play 4444", "play 35", "play 3Z", "x" * 10_000, "play ===+"):
        assert state.readings(bad) == []
    assert state._legal is None


def test_a_seat_not_acting_has_no_readings() -> None:
    assert laizi_lead().readings("play 3599", seat=1) == []


def test_a_follow_offers_only_the_readings_that_beat() -> None:
    """On 555+33 the farmer's 4 4 6 6 9 reads as 444+66 (too low) or 666+44: only the
    latter; the bare cards are refused by the rules (two readings), the reading taken."""
    state = laizi_lead()
    state.apply("play 559+33=555+33")
    assert state.to_act == 1
    assert state.check("play 44669") is not None
    assert state.readings("play 44669") == ["play 669+44=666+44"]
    state.apply("play 669+44=666+44")


@pytest.mark.parametrize(("lead", "least"), [pytest.param(laizi_lead, 400, marks=pytest.mark.slow),
                                              (classic_lead, 1)])
def test_every_listed_play_is_a_reading_of_its_cards(lead: Callable[[], GameState],
                                                     least: int) -> None:
    """For every set of cards the legal list plays, the readings of the bare cards are
    exactly the listed texts taking them, in the listed order (what a client with the
    whole list shows)."""
    state = lead()
    by_cards: dict[str, list[str]] = defaultdict(list)
    for action in state.legal_actions():
        if action.verb == "play":
            by_cards["".join(sorted(action.arg.split("=")[0].replace("+", "")))].append(
                action.text)
    several = 0
    for cards, texts in by_cards.items():
        assert state.readings(f"play {cards}") == texts, cards
        several += len(texts) > 1
    assert several >= least  # cards with several readings


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_legal_action_is_among_its_own_readings(variant: str) -> None:
    """In every variant, along a random game: each legal action (a sample) is, as the
    record writes it (``@S`` in a window), one of the readings of its own text, and every
    reading is legal."""
    state = new_game(variant, seed=3)
    rng = random.Random(3)
    checked = 0
    while not state.over and checked < 300:
        legal = state.legal_actions()
        for action in rng.sample(legal, min(8, len(legal))):
            readings = state.readings(action.text)
            assert state.canonical(action) in readings, (action.text, readings)
            assert all(state.check(t) is None for t in readings)
            checked += 1
        state.apply(rng.choice(legal))
    assert checked >= 50
