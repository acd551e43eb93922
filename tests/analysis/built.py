"""A built 二人斗地主 game with a forced win seen and missed, for the analysis tests.

Seat 0 is the landlord. Every 3 is in his hand, so when, at the end, he holds
D 3 3 against the farmer's one card, every card the farmer may hold beats a 3:
``play D`` (or ``play 33``) wins whatever that card is, ``play 3`` loses whatever it
is. He plays ``play 3``.
"""

from __future__ import annotations

from typing import Any

DEAL = {"hands": ["D3333TTTJJJQQQKKKAAA", "X6789TJQKA4455667722"], "kitty": "888",
        "dead": "44556799922"}
ACTIONS = ["play TTTJJJQQQKKK", "pass", "play AAA+33", "pass", "play 8", "play 2", "pass",
           "play 6789TJQKA", "pass", "play 556677", "pass", "play 2", "pass", "play 44",
           "play 88", "pass", "play 3", "play X"]
#: The ply of the blunder (``play 3``), and the moves that win there.
BLUNDER_PLY = 16
WINNING = {"play D", "play 33"}


def record() -> dict[str, Any]:
    return {"variant": "ddz2", "version": 2, "seed": 0, "actions": list(ACTIONS),
            "options": {"deal": DEAL, "first": None, "landlord": 0, "contract": 1,
                        "spring": False}}
