"""How big a view gets: the largest ``observe(seat)`` JSON per variant against 16 KB.

A live hall sends every seat its view after every change of its table, so a
view's size is bandwidth and a phone's parse time. This plays seeded random
games (every decision a uniform choice from ``legal_actions()``), takes every
seat's view after every action, and prints per variant the views measured,
the median and the largest size, where the largest was (phase, legal actions
offered, whether plays were indexed), and PASS/FAIL against the target.

    .venv/bin/python benchmarks/view_bench.py --games 40
    .venv/bin/python benchmarks/view_bench.py --games 200 --variants ddz3_laizi baohuang
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from cardhall.games import VARIANTS, new_game

TARGET = 16 * 1024


def measure(name: str, games: int, seed: int) -> dict[str, object]:
    sizes: list[int] = []
    worst: tuple[int, str, int, bool] = (0, "", 0, False)
    for g in range(games):
        state = new_game(name, seed=seed + g)
        rng = random.Random(seed + g)
        while True:
            for seat in range(state.players):
                view = state.observe(seat)
                size = len(json.dumps(view, ensure_ascii=False).encode())
                sizes.append(size)
                if size > worst[0]:
                    worst = (size, str(view["phase"]), len(view["legal"]), "plays" in view)
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()))
    return {"views": len(sizes), "median": statistics.median(sizes), "max": worst[0],
            "phase": worst[1], "legal": worst[2], "indexed": worst[3]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="*", default=sorted(VARIANTS))
    args = parser.parse_args()
    print(f"{'variant':<12} {'views':>7} {'median B':>9} {'max B':>7}  where the largest was")
    failed = False
    for name in args.variants:
        m = measure(name, args.games, args.seed)
        ok = int(str(m["max"])) < TARGET
        failed |= not ok
        where = f"{m['phase']}, {m['legal']} listed{', plays indexed' if m['indexed'] else ''}"
        print(f"{name:<12} {m['views']:>7} {m['median']:>9.0f} {m['max']:>7}  {where}  "
              f"{'PASS' if ok else 'FAIL'} (< {TARGET})")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
