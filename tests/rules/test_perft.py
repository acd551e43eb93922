"""Perft-style golden counts: legal leads and follows for fixed hands of every variant.

The numbers in ``perft.json`` were produced by ``perft_gen.py`` (whose ddz3
leads agree with RLCard's generator) and reviewed; any change in them is a
change in the rules engine's behaviour and must be deliberate.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.rules.variants import RULESETS

GOLDEN = json.loads(Path(__file__).with_name("perft.json").read_text())
CASES = [(name, i, row) for name, rows in GOLDEN.items() for i, row in enumerate(rows)]


def test_every_variant_has_a_dozen_positions() -> None:
    assert set(GOLDEN) == set(RULESETS)
    assert all(len(rows) == 12 for rows in GOLDEN.values())


@pytest.mark.parametrize(("name", "i", "row"), CASES, ids=[f"{n}-{i}" for n, i, _ in CASES])
def test_perft_counts(name: str, i: int, row: dict[str, object]) -> None:
    rs = RULESETS[name]
    hand = str(row["hand"])
    last = rs.parse_play(str(row["last"]))
    assert len(rs.moves(hand)) == row["leads"]
    assert len(rs.moves(hand, last)) == row["follows"]
