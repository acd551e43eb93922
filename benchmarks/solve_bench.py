"""The two-hand endgame solver's time against issue 21's target: any position with up
to 10 cards a hand solved in under 1 s. Random positions of ``--cards`` cards a hand
dealt from one variant's deck (seeded), each solved by a fresh solver (no memo carried
over); prints the median and the worst time and the worst position, so it can be
looked at again. The comparison with doudizhu-resolver the issue also asks is not here
yet.

    .venv/bin/python benchmarks/solve_bench.py --variant ddz3 --cards 10 --positions 100
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from cardhall.cards import NUM_RANKS, format_ranks
from cardhall.rules import get
from cardhall.rules.solve import Solver

TARGET_S = 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="ddz3")
    parser.add_argument("--cards", type=int, default=10)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rs = get(args.variant)
    rng = random.Random(args.seed)
    pool = [r for r in range(NUM_RANKS) for _ in range(rs.limits[r])]
    times: list[tuple[float, str, str, bool]] = []
    for _ in range(args.positions):
        picked = rng.sample(pool, 2 * args.cards)
        me = format_ranks(sorted(picked[:args.cards]))
        them = format_ranks(sorted(picked[args.cards:]))
        start = time.perf_counter()
        verdict = Solver(rs).solve(me, them)
        times.append((time.perf_counter() - start, me, them, verdict.win))
    worst = max(times)
    median = statistics.median(t for t, *_ in times)
    wins = sum(w for *_, w in times)
    print(f"{args.variant}, {args.positions} positions of {args.cards} cards a hand "
          f"(seed {args.seed}; the side to move wins {wins}):")
    print(f"median {median * 1000:.1f} ms, worst {worst[0] * 1000:.1f} ms "
          f"({worst[1]} to move against {worst[2]}); target < {TARGET_S * 1000:.0f} ms: "
          f"{'met' if worst[0] < TARGET_S else 'NOT met'}")
    print(f"load average {[round(x, 2) for x in os.getloadavg()]}")


if __name__ == "__main__":
    main()
