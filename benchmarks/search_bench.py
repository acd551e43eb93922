"""The split search on its two loops: the C loop (``bots/split/_search.c``) against the Python one.

A planning decision is split searches, so their cost is the bot's; the two loops
find the same worths, and this measures what the C one saves: the worth of
every seat's dealt hand (with the kitty where there is one) of seeded deals,
each search from an empty memo with the step tables built (as a bid is),
timed on this thread's CPU clock, and the ratio of the two.

    python benchmarks/search_bench.py
    python benchmarks/search_bench.py --deals 50 --variants ddz_emperor,ddz4
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cardhall import rules
from cardhall.bots.split import native
from cardhall.bots.split.hands import Planner

VARIANTS = ("ddz2", "ddz3", "ddz4", "ddz5", "ddz3_laizi", "ddz_emperor", "baohuang")
#: Cards dealt to a seat that takes the kitty (the longest hand a bid searches).
HAND = {"ddz2": 20, "ddz3": 20, "ddz4": 33, "ddz5": 26, "ddz3_laizi": 20, "ddz_emperor": 40,
        "baohuang": 33}


def hands(variant: str, deals: int, seed: int) -> list[list[int]]:
    rs = rules.get(variant)
    rng = random.Random(seed)
    deck = [r for r, n in enumerate(rs.limits) for _ in range(n)]
    out = []
    for _ in range(deals):
        rng.shuffle(deck)
        counts = [0] * len(rs.limits)
        for r in deck[:HAND[variant]]:
            counts[r] += 1
        out.append(counts)
    return out


def times(variant: str, dealt: list[list[int]], c_loop: bool) -> tuple[list[float], list[float]]:
    """Seconds per search, and the worths found."""
    rs = rules.get(variant)
    Planner(rs, native=c_loop).warm()
    spent, worths = [], []
    for counts in dealt:
        planner = Planner(rs, native=c_loop)
        start = time.thread_time()
        worths.append(planner.worth(counts))
        spent.append(time.thread_time() - start)
    return spent, worths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    if not native.BUILT:
        raise SystemExit("the C loop is not built (pip install -e . with a C compiler at hand)")
    print(f"ms per search of a dealt hand (cpu clock), {args.deals} deals per variant "
          f"(seed {args.seed}), each from an empty memo")
    print("| variant | cards | Python median | Python max | C median | C max | C / Python |")
    print("|---|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        dealt = hands(variant, args.deals, args.seed)
        slow, slow_worths = times(variant, dealt, False)
        fast, fast_worths = times(variant, dealt, True)
        if slow_worths != fast_worths:
            raise SystemExit(f"{variant}: the two loops found different worths")
        ratio = sum(slow) / sum(fast)
        print(f"| {variant} | {HAND[variant]} | {statistics.median(slow) * 1000:.2f} | "
              f"{max(slow) * 1000:.2f} | {statistics.median(fast) * 1000:.3f} | "
              f"{max(fast) * 1000:.3f} | {ratio:.0f}x faster |", flush=True)


if __name__ == "__main__":
    main()
