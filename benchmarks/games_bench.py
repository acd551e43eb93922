"""Whole-game speed: uniformly random games per second, cardhall against its peers.

    python benchmarks/games_bench.py [--games 300] [--seed 0]

Every decision of every game, bidding included, is a uniform choice from the
engine's own list of legal actions, as in ``peers.rlcard_random_games`` and
``peers.openspiel_random_games``. RLCard is timed twice: through ``env.step``
(what RLCard users pay: it also encodes a numpy observation each step) and
through its game object alone; it has no bidding. cardhall's ``ddz3`` is
compared against both and against OpenSpiel's C++ engine; every other
variant's rate is printed for docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers

from cardhall.games import VARIANTS, new_game


def cardhall_random_games(name: str, games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(games):
        state = new_game(name, seed=seed + i)
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    ours = cardhall_random_games("ddz3", args.games, args.seed)
    print(f"ddz3 random games, {args.games} each; peers: rlcard {peers._version('rlcard')}, "
          f"open_spiel {peers._version('open_spiel')}")
    print(f"  cardhall ddz3        {ours:8.1f} games/s")
    for label, rate in (
        ("rlcard env.step", peers.rlcard_random_games(args.games, args.seed)),
        ("rlcard game only", peers.rlcard_random_games(args.games, args.seed, engine_only=True)),
        ("openspiel (C++)", peers.openspiel_random_games(args.games * 10, args.seed)),
    ):
        if rate is None:
            print(f"  {label:20} not installed (pip install '.[bench]')")
        else:
            print(f"  {label:20} {rate:8.1f} games/s   cardhall / peer = {ours / rate:.2f}x")
    print("every variant (random games per second):")
    for name in VARIANTS:
        rate = cardhall_random_games(name, max(args.games // 3, 20), args.seed)
        print(f"  {name:12} {rate:8.1f}")


if __name__ == "__main__":
    main()
