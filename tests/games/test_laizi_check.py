"""癞子 ``check``/``canonical``/``readings`` judge a text without listing the hand's plays.

A 癞子 lead lists 10 000+ plays; a table must judge one without building them
all (issue 25). When nothing is listed yet, ``check`` reads the given cards
(their readings, ``RuleSet.parse_play``) and tests the reading against the hand
and the play to beat. These tests hold it to the verdicts of the legal list: at
every position of seeded random games and of crafted deals holding all four
wild cards, for listed texts, readings of random held cards, bare cards, cards
not held and junk, a state that has listed nothing answers exactly what the
same state answers once it has listed every play (the reason text included).
"""

from __future__ import annotations

import copy
import gc
import random
from collections import Counter
from typing import Any

import pytest

from cardhall.cards import RANK_CHARS, format_ranks
from cardhall.games import GameState, new_game
from cardhall.games.base import IllegalAction
from cardhall.rules import RuleSet
from cardhall.rules.plays import Play


def _four_wild(wild: int, seed: int) -> dict[str, Any]:
    """A deal where seat 0 holds all four wild cards and pairs along the chain ranks
    (the adversarial bench's crafted lead), the rest shuffled to the others."""
    chain = [r for r in range(12) if r != wild]
    hand = [wild] * 4 + sorted([*chain, *chain])[:13]
    rest = Counter({r: 4 for r in range(13)} | {13: 1, 14: 1})
    rest.subtract(hand)
    pool = sorted(rest.elements())
    random.Random(seed).shuffle(pool)
    return {"hands": [format_ranks(sorted(hand)), format_ranks(sorted(pool[:17])),
                      format_ranks(sorted(pool[17:34]))], "kitty": format_ranks(pool[34:])}


def _fresh(state: GameState) -> GameState:
    """The same position with nothing listed, sharing the (immutable) rule set."""
    memo: dict[int, Any] = {id(v): v for v in vars(state).values() if isinstance(v, RuleSet)}
    fresh = copy.deepcopy(state, memo)
    fresh._changed()
    return fresh


def _verdict(state: GameState, text: str) -> tuple[str | None, str, list[str]]:
    try:
        canonical = state.canonical(text)
    except IllegalAction as exc:
        canonical = f"refused: {exc}"
    return state.check(text), canonical, state.readings(text)


def _texts(state: GameState, rng: random.Random) -> list[str]:
    """Texts to judge at a play position: listed plays, readings of held cards (full texts
    and bare cards), cards partly not held, junk."""
    seat = state.to_act
    assert seat is not None
    listed = [a.text for a in _fresh(state).legal_actions()]
    texts = rng.sample(listed, min(6, len(listed)))
    hand = [r for r, n in enumerate(state.counts[seat]) for _ in range(n)]  # type: ignore[attr-defined]
    rs: RuleSet = state.rs  # type: ignore[attr-defined]
    for _ in range(8):
        cards = sorted(rng.sample(hand, rng.randint(1, min(len(hand), 12))))
        texts.append("play " + format_ranks(cards))
        for p in rs.classify(format_ranks(cards)):
            texts.append("play " + p.text + (f"={p.as_text}" if p.as_text else ""))
    deck = [r for r, n in enumerate(rs.limits) for _ in range(n)]
    for _ in range(3):
        cards = sorted(rng.sample(deck, rng.randint(1, 8)))
        texts.append("play " + format_ranks(cards))
    texts += ["play 3=4", "play 33+=44", "play", "play ZZ", "pass", "play 3456=3333"]
    return texts


def _compare(state: GameState, rng: random.Random, seen: Counter[str]) -> None:
    listed = _fresh(state)
    listed.legal_actions()
    for text in _texts(state, rng):
        fresh = _fresh(state)
        got = _verdict(fresh, text)
        assert fresh._legal is None, text  # type: ignore[attr-defined]
        assert got == _verdict(listed, text), text
        if got[0] is None and text.startswith("play"):  # apply plays the listed reading
            assert fresh.parse_action(text).play == listed.parse_action(text).play, text
        seen["legal" if got[0] is None else "illegal"] += 1


def _play_on(state: GameState, rng: random.Random, seen: Counter[str]) -> None:
    while not state.over:
        if state.phase == "play":
            _compare(state, rng, seen)
            seen["positions"] += 1
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.slow
def test_check_without_listing_matches_the_list_in_random_games() -> None:
    seen: Counter[str] = Counter()
    for g in range(12):
        _play_on(new_game("ddz3_laizi", seed=7000 + g), random.Random(g), seen)
    assert seen["positions"] > 300 and seen["legal"] > 1000 and seen["illegal"] > 1000


@pytest.mark.slow
@pytest.mark.parametrize("wild", range(0, 13, 3))
def test_check_without_listing_matches_the_list_with_four_wild_cards(wild: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(2):
        options = {"deal": _four_wild(wild, seed), "landlord": 0, "wild": RANK_CHARS[wild]}
        _play_on(new_game("ddz3_laizi", seed=seed, options=options), random.Random(seed), seen)
    assert seen["positions"] > 10 and seen["legal"] > 50


def test_a_wild_lead_is_judged_without_building_its_list() -> None:
    """A 20-card lead with four wild cards (9 904 plays): its longest play, the pure bomb,
    cards with several readings and cards not held, each judged with nothing listed."""
    state = new_game("ddz3_laizi", seed=1, options={"deal": _four_wild(0, 1), "landlord": 0,
                                                     "wild": "3"})
    while state.phase != "play":
        state.apply(state.legal_actions()[0])
    fresh = _fresh(state)
    longest = "play 333445566677888+399TJ=444555666777888+399TJ"
    assert fresh.check(longest) is None
    assert fresh.canonical("play 3333") == "play 3333=3333"
    assert fresh.readings("play 33445") == ["play 344+35=444+55", "play 335+44=555+44"]
    assert fresh.check("play KKKK") == "you do not hold KKKK (missing KKKK)"
    assert fresh._legal is None  # type: ignore[attr-defined]
    play: Play | None = fresh.parse_action("play 3333").play
    assert play is not None and play.tier == 3  # pure
    assert longest in {a.text for a in fresh.legal_actions()}


def test_a_wild_list_is_built_with_the_collector_paused() -> None:
    """At most one collection (once the collector is on again) while a 9 904-play lead is
    listed, where dozens ran before; the collector is left as it was found."""
    state = new_game("ddz3_laizi", seed=1, options={"deal": _four_wild(0, 1), "landlord": 0,
                                                     "wild": "3"})
    while state.phase != "play":
        state.apply(state.legal_actions()[0])
    fresh = _fresh(state)
    runs: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            runs.append(info["generation"])

    assert gc.isenabled()
    gc.callbacks.append(seen)
    try:
        assert len(fresh.legal_actions()) == 9904
    finally:
        gc.callbacks.remove(seen)
    assert len(runs) <= 1, runs
    assert gc.isenabled()
    gc.disable()
    try:
        _fresh(state).legal_actions()
        assert not gc.isenabled()
    finally:
        gc.enable()
