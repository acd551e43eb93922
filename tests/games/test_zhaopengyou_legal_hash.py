"""找朋友's legal lists and bot games, hashed, equal what the engine gave before its follow
generation was bounded (issue 25).

Lists are behaviour: bots and 托管 pick from them, a long list goes out as a view's
``plays`` index and an incomplete one is a seeded sample. So the digest covers, at every
position of seeded games, each listed text in order, the view's ``legal_complete`` and
``plays`` index, the verdict of ``check`` on a few unlisted plays, and every event; the
games are random ones whose leaders also try random throws (the long follows), and bot
games (planning against 托管). The digests were computed by the engine as it was before
the change (main at 2760a27); the random one again when the bury's view and a lead's
that lists fewer leads than ``check`` takes turned ``legal_complete: false`` (issue 23):
with those flags read as true it gives the old digest (d1ad345d…): nothing else moved.
"""

from __future__ import annotations

import hashlib
import json
import random

from cardhall import bots
from cardhall.cards import SUIT_CHARS, format_cards
from cardhall.games import new_game
from cardhall.games.zhaopengyou import ZhaoPengyou
from tests.games.test_zhaopengyou import make_deal

RANDOM_GAMES = 20
BOT_GAMES = 6
RANDOM_DIGEST = "cafc5e9e95ec076cdf13533ddfcabc5800e9ba428b2ac927b351115098ef31d9"
BOT_DIGEST = "5fb222e60d0fb94ece6d6ae9419e21ee63e95a605e54d58d9e4229d5bac348bb"


def _throw_deal(g: int) -> ZhaoPengyou:
    """Seat 0 deals holding the top ``n`` cards of a side suit (a throw that holds) and leads
    them all; seat 1 declares ♠ with 2s 2s. The followers then answer long throws."""
    rng = random.Random(g)
    suit = rng.choice("hcd")
    n = rng.randint(6, 22)
    top = [f"{r}{suit}" for r in "AKQJT9876543" for _ in range(3)][:n]
    state = new_game("zhaopengyou", seed=g, options={
        "deal": make_deal({0: " ".join(top), 1: "2s 2s"}, "", seed=g), "dealer": 0})
    assert isinstance(state, ZhaoPengyou)
    for text in ["pass", "declare 2s 2s", "pass", "pass", "pass", "pass", "pass"]:
        state.apply(text)
    state.apply(state.legal_actions()[0])  # the default burial
    state.apply("call-friend 1 D")
    ctx = state.ctx
    assert ctx is not None
    group = SUIT_CHARS.index(suit)
    state.apply(f"play {format_cards(c for c in state.hands[0] if ctx.group[c] == group)}")
    return state


def _random_digest(games: int) -> tuple[str, int]:
    h = hashlib.sha256()
    positions = 0
    for g in range(games):
        state = new_game("zhaopengyou", seed=g) if g % 2 else _throw_deal(g)
        assert isinstance(state, ZhaoPengyou)
        rng = random.Random(g)
        while not state.over:
            seat, ctx = state.to_act, state.ctx
            assert seat is not None
            legal = state.legal_actions()
            positions += 1
            view = state.observe(seat)
            h.update(json.dumps([a.text for a in legal]).encode())
            h.update(json.dumps([view.get("legal_complete"), view.get("plays")],
                                sort_keys=True).encode())
            if state.phase == "play" and ctx is not None:
                hand = state.hands[seat]
                size = 1 if state.lead is None else state.lead.size
                for _ in range(3):
                    tried = sorted(rng.sample(hand, min(size, len(hand))))
                    h.update(str(state.check(f"play {format_cards(tried)}")).encode())
                if state.lead is None and rng.random() < 0.4:
                    group = ctx.group[rng.choice(hand)]
                    suit = [c for c in hand if ctx.group[c] == group]
                    tried = sorted(rng.sample(suit, rng.randint(1, len(suit))))
                    h.update(json.dumps(state.apply(f"play {format_cards(tried)}")).encode())
                    continue
            h.update(json.dumps(state.apply(rng.choice(legal))).encode())
        h.update(json.dumps(state.result(), sort_keys=True).encode())
    return h.hexdigest(), positions


def _bot_digest(games: int) -> tuple[str, int]:
    h = hashlib.sha256()
    positions = 0
    for g in range(games):
        state = new_game("zhaopengyou", seed=100 + g)
        players = [bots.make("planning" if s % 2 else "tuoguan", "zhaopengyou", s, seed=g)
                   for s in range(5)]
        while not state.over:
            seat = state.to_act
            assert seat is not None
            action = players[seat].act(state.observe(seat))
            positions += 1
            h.update(action.encode())
            h.update(json.dumps(state.apply(action)).encode())
        h.update(json.dumps(state.result(), sort_keys=True).encode())
    return h.hexdigest(), positions


def test_random_games_unchanged() -> None:
    digest, positions = _random_digest(RANDOM_GAMES)
    assert positions > 300
    assert digest == RANDOM_DIGEST


def test_bot_games_unchanged() -> None:
    digest, positions = _bot_digest(BOT_GAMES)
    assert positions > 100
    assert digest == BOT_DIGEST
