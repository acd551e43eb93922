"""Write ``perft.json``: legal lead and follow counts for fixed hands of every variant.

    python -m tests.rules.perft_gen

Run it only when a rule changes on purpose, and review the diff. For ``ddz3``
the counts are cross-checked against RLCard's generator when it is installed
(``pip install '.[bench]'``): both must list the same plays.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from cardhall.cards import format_ranks
from tests.rules.variants import RULESETS, counts_of, deck_ranks, full_text, hand_size

HANDS_PER_VARIANT = 12
PATH = Path(__file__).with_name("perft.json")


def positions() -> dict[str, list[dict[str, object]]]:
    out: dict[str, list[dict[str, object]]] = {}
    for name, rs in RULESETS.items():
        rng = random.Random(name)
        rows = []
        while len(rows) < HANDS_PER_VARIANT:
            cards = deck_ranks(rs)
            rng.shuffle(cards)
            size = hand_size(rs)
            hand, other = counts_of(cards[:size]), counts_of(cards[size:2 * size])
            other_leads = rs.moves(other)
            last = other_leads[rng.randrange(len(other_leads))]
            rows.append({
                "hand": format_ranks(cards[:size]),
                "last": full_text(last),
                "leads": len(rs.moves(hand)),
                "follows": len(rs.moves(hand, last)),
            })
        out[name] = rows
    return out


def check_against_rlcard(rows: list[dict[str, object]]) -> None:
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger  # noqa: PLC0415 (optional peer)
    except ImportError:
        print("RLCard not installed: ddz3 counts not cross-checked")
        return
    rlcard = str.maketrans({"X": "B", "D": "R"})
    for row in rows:
        hand = str(row["hand"]).translate(rlcard)
        peer = DoudizhuJudger.playable_cards_from_hand(hand)
        assert len(peer) == row["leads"], (row, len(peer))
    print(f"ddz3 lead counts agree with RLCard on {len(rows)} hands")


def main() -> None:
    data = positions()
    check_against_rlcard(data["ddz3"])
    PATH.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
