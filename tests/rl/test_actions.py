"""The token tree spells exactly the game's legal actions, each as its canonical text;
找朋友's bury offers every seven cards of the hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardhall.games import GameState, new_game
from cardhall.rl import TOKENS, env
from cardhall.rl.actions import (
    CARD_AT,
    END_AT,
    BuryDecision,
    Decision,
    TokenError,
    bare,
    spell,
    tokens,
)
from tests.lanes import slow_for
from tests.rl.play import IDS


def spelled(decision: Decision) -> dict[tuple[int, ...], str]:
    """Every complete token sequence the masks allow, walked from the root."""
    out: dict[tuple[int, ...], str] = {}

    def walk(prefix: list[int]) -> None:
        for token in sorted(Decision(decision.actions, list(prefix)).legal()):
            probe = Decision(decision.actions, list(prefix))
            done = probe.choose(token)
            if done is not None:
                out[(*prefix, token)] = bare(done)
            else:
                walk([*prefix, token])

    walk([])
    return out


def states(name: str, seeds: int) -> list[tuple[GameState, int]]:
    """(state, acting seat) pairs along random games."""
    found = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = new_game(name, seed)
        while not state.over:
            seat = rng.choice(state.acting)
            found.append((state.clone(), seat))
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    return found


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "zhaopengyou", "ddz3_laizi"}))
def test_the_masks_spell_exactly_the_legal_actions(name: str) -> None:
    for state, seat in states(name, 2)[::3]:
        if name == "zhaopengyou" and state.phase == "bury":
            continue
        legal = {bare(a) for a in state.legal_actions(seat)}
        got = spelled(Decision.of(state, seat))
        assert set(got.values()) == legal
        for seq, text in got.items():
            assert spell(seq) == text or state.canonical(spell(seq), seat).endswith(text)


def test_tokens_of_a_few_texts() -> None:
    def names(text: str) -> list[str]:
        return [TOKENS[t] for t in tokens(text)]

    assert names("pass") == ["pass"]
    assert names("play 333+4") == ["play …", "3", "3", "3", "+", "4", "end"]
    assert names("play 3335=3333") == ["play …", "3", "3", "3", "5", "=", "3", "3", "3",
                                       "3", "end"]
    assert names("call-friend 2 Ad") == ["call-friend …", "#2", "Ad", "end"]
    assert names("call 7d") == ["call …", "7d", "end"]
    assert names("declare 2h 2h") == ["declare …", "2h", "2h", "end"]
    with pytest.raises(TokenError):
        tokens("fold")


def test_action_text_names_the_action_a_token_completes() -> None:
    e = env("ddz3")
    e.reset(seed=7)
    raw = e.unwrapped
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    named = {raw.action_text(agent, int(i)) for i in mask.nonzero()[0]}
    assert named == set(raw.legal_texts(agent))  # bids are one token each
    assert raw.action_text(agent, TOKENS.index("play …")) == "play …"  # not legal now
    with pytest.raises(ValueError, match="not a legal action"):
        raw.tokens_for(agent, "play 3")


def test_every_seven_cards_can_be_buried() -> None:
    state = new_game("zhaopengyou", 3)
    rng = random.Random(3)
    while state.phase != "bury":
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_act
    assert seat is not None
    hand = state.observe(seat)["hand"]
    for _ in range(20):
        pick = sorted(rng.sample(hand, 7), key=lambda c: CARD_AT[c])
        decision = BuryDecision.of(state, seat)
        done = None
        for token in [TOKENS.index("bury …"), *(CARD_AT[c] for c in pick), END_AT]:
            assert token in decision.legal()
            done = decision.choose(token)
        assert done is not None
        assert Counter(state.canonical(done, seat).split()[1:]) == Counter(pick)


@pytest.mark.parametrize("name", slow_for(IDS, {"baohuang", "zhaopengyou"}))
def test_whole_actions_by_their_features_and_tokens(name: str) -> None:
    """An agent that scores whole actions: ``action_features`` rows name each legal
    action's cards, and stepping ``tokens_for(text)`` takes exactly that action."""
    e = env(name)
    e.reset(seed=8)
    raw = e.unwrapped
    rng = random.Random(8)
    while not raw.game.over:
        agent = raw.agent_selection
        seat = raw.possible_agents.index(agent)
        texts, rows = raw.action_features(agent)
        assert rows.shape == (len(texts), raw.action_width)
        assert texts == [a.text for a in raw.game.legal_actions(seat)]
        for text, row in zip(texts, rows, strict=True):
            assert row[: raw.action_width - 2 * raw.layout.axis].sum() == 1
            arg = text.split(" ", 1)[1] if text.startswith("@") else text
            if arg.startswith(("play ", "declare ")):
                held = arg.split(" ", 1)[1].split("=")[0].replace("+", "")
                count = len(held.split()) if " " in held or name == "zhaopengyou" \
                    else len(held)
                width = raw.layout.axis
                assert row[-2 * width:-width].sum() == count, text
        text = rng.choice(texts)
        before = len(raw.game.actions)
        for token in raw.tokens_for(agent, text):
            assert raw.observe(agent)["action_mask"][token] == 1
            e.step(token)
        assert len(raw.game.actions) == before + 1
        assert raw.game.actions[-1] == text or raw.game.actions[-1].endswith(" " + text)
    with pytest.raises(ValueError, match="not to act"):
        raw.tokens_for("seat_0", "pass")
