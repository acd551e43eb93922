"""癞子 legal lists, hashed, equal the ones the engine listed before its fast paths.

The order and texts of legal actions are behaviour (random and 托管 bots pick
by position, golden games record texts), and every field of a wild play is
read by someone (``as`` texts, bomb tiers, the plays index), so the digest
covers each action's text and its play's every field, in order, at every
position of seeded random games: leads with one to four wild cards (a dealt
hand holds QQQQ at W = Q), follows, bombs of every class. The digest was
computed by the engine as it was before the wildcard generator was made
cheaper (main at f915c39).
"""

from __future__ import annotations

import hashlib
import random

from cardhall.games import GameState, new_game

GAMES = 40
#: A deal where seat 0 holds QQQQ (four wild cards at W = Q) and pairs of 4 … 7, J, 2.
DEAL = {"hands": ["QQQQ 3 44 55 66 77 JJ 22", "888 9 X D 34567 TTT KK A",
                  "33 4 5 6 7 8 999 T J KK AA 2"], "kitty": "J A 2"}
DIGEST = "2e15765585884b830020279960b979fe0fa10b9910574b0d5c51880d631ab0f9"


def _digest(games: int) -> tuple[str, int]:
    h = hashlib.sha256()
    positions = 0
    states: list[GameState] = [new_game("ddz3_laizi", seed=1000 + g) for g in range(games)]
    states += [new_game("ddz3_laizi", seed=g, options={"deal": DEAL, "first": 0, "wild": w})
               for g, w in enumerate("QQQQ72J5")]
    for g, state in enumerate(states):
        rng = random.Random(g)
        while not state.over:
            legal = state.legal_actions()
            positions += 1
            for a in legal:
                p = a.play
                fields = () if p is None else (p.kind, p.key, p.length, p.main, p.kickers, p.tier,
                                               p.subkey, p.as_main, p.as_kickers)
                h.update(f"{a.text}|{fields}\n".encode())
            h.update(b"--\n")
            state.apply(rng.choice(legal))
    return h.hexdigest(), positions


def test_laizi_legal_lists_unchanged() -> None:
    digest, positions = _digest(GAMES)
    assert positions > 1000
    assert digest == DIGEST
