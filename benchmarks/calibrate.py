"""Calibrate the planning bot's set-up decisions: where a hand's rating ranks, how it wins.

Each climbing variant declares (``ratings=Ratings(median, spread)`` in its
``Variant``, src/cardhall/games/__init__.py) the median and spread of the
rating (``setup.rating``) of hands as dealt (as the seat sees them at its
first decision); the bot bids, calls, robs and doubles when its hand ranks
high enough among them. This prints those declarations:

    python benchmarks/calibrate.py --hands 3000

With ``--fit N`` it also plays N deals per variant with each seat as a fixed
landlord (保皇: the emperor card's seat, always accepting) and planning bots
everywhere, and fits the landlord side's win rate against the rating,
``p = 1 / (1 + exp(-(rating - a) / b))``: how much the rating says about the
outcome (a large ``b`` means little).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from typing import Any

from cardhall import bots, sim
from cardhall.bots import setup
from cardhall.bots.split.hands import planner
from cardhall.bots.view import ranks_of, rule_set, team
from cardhall.cards import card_rank, to_counts
from cardhall.games import VARIANTS, new_game
from cardhall.sim import play_out


def fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Logistic regression of outcome on rating by Newton's method: (a, b) as in setup.py.

    Ratings are standardised first so that the steps are well scaled whatever
    the variant's hand size.
    """
    n = len(points)
    mean = sum(x for x, _ in points) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x, _ in points) / n) or 1.0
    w0, w1 = 0.0, 0.0
    for _ in range(30):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for x, y in points:
            u = (x - mean) / sd
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, w0 + w1 * u))))
            v = p * (1 - p) + 1e-9
            g0, g1 = g0 + y - p, g1 + (y - p) * u
            h00, h01, h11 = h00 + v, h01 + v * u, h11 + v * u * u
        det = h00 * h11 - h01 * h01
        if det <= 0:
            break
        w0 += (h11 * g0 - h01 * g1) / det
        w1 += (h00 * g1 - h01 * g0) / det
    b = sd / w1 if w1 else float("inf")
    return mean - w0 * b, b


def measure(name: str, deals: int, seed: int) -> list[tuple[float, float]]:
    """(rating of the dealt hand, 1 if its seat's side won as landlord / emperor)."""
    points = []
    players = VARIANTS[name].players
    fixed = "emperor_card" if name == "baohuang" else "landlord"
    for d in range(deals):
        for seat in range(players):
            options: dict[str, Any] = {fixed: seat}
            try:
                state = new_game(name, seed=seed + d, options=options)
            except ValueError:
                continue  # 保皇: this seat was dealt no big joker to be the emperor card
            hand = to_counts(card_rank(c) for c in state.zones()[f"hand{seat}"])
            obs = state.observe(seat)
            rated = setup.rating(hand, planner(rule_set(obs)))
            seats = [bots.make("planning", name, s, seed + d) for s in range(players)]
            if not play_out(state, seats):
                continue
            result = state.result()
            if result is None or result["ended"] in ("dissolved", "unscored"):
                continue
            # The landlord's (emperor's) side, by each seat's role as its own view names it.
            ours = [s for s, role in enumerate(sim.roles(state)) if team(role) == 0]
            if not ours:
                continue
            points.append((rated, 1.0 if ours[0] in result["winners"] else 0.0))
    return points


def ratings(name: str, hands: int, seed: int) -> list[float]:
    """Ratings of ``hands`` hands as their seats first see them (no play needed)."""
    out: list[float] = []
    deal = 0
    while len(out) < hands:
        state = new_game(name, seed=seed + deal)
        deal += 1
        for seat in range(state.players):
            obs = state.observe(seat)
            ranks = ranks_of(obs["hand"]) or tuple(
                card_rank(c) for c in state.zones()[f"hand{seat}"])
            out.append(setup.rating(to_counts(ranks), planner(rule_set(obs))))
    return out[:hands]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--fit", type=int, default=0, metavar="DEALS")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--variants", default=",".join(
        v.id for v in VARIANTS.values() if v.family == "climbing"))
    args = parser.parse_args()
    setup.WANT["accept"] = 0.0  # 保皇: the calibrated seat always takes the throne
    for name in args.variants.split(","):
        start = time.perf_counter()
        values = sorted(ratings(name, args.hands, args.seed))
        median = statistics.median(values)
        spread = statistics.pstdev(values) * math.sqrt(3) / math.pi
        note = f"{len(values)} hands"
        if args.fit:
            points = measure(name, args.fit, args.seed)
            a, b = fit(points)
            rate = sum(y for _, y in points) / len(points)
            note += f"; fit a={a:.1f} b={b:.1f} over {len(points)} games, landlord {rate:.3f}"
        print(f"    {name}: ratings=Ratings({median:.1f}, {spread:.1f}),  # {note}, "
              f"{time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
