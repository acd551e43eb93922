"""How long the bots take to decide: median and 90th percentile per variant.

One 2-core server must host many bot-filled tables, so a bot's decision time
is a budget. This plays seeded games with the measured bot at every seat (the
search bot at one seat, planning bots at the others: its rollouts are the
expensive part) and times every call to ``act``; play decisions and set-up
decisions are reported apart, since a set-up answer is nearly free, and for
the search bot the decisions it searched (the others are forced: going out,
a partner's trick, a single legal answer).

    python benchmarks/bots_bench.py --bot planning --games 20
    python benchmarks/bots_bench.py --bot search --games 4 --variants ddz3
"""

from __future__ import annotations

import argparse
import statistics
import time

from cardhall import bots
from cardhall.games import VARIANTS, new_game
from cardhall.sim import MAX_ACTIONS


def measure(name: str, variant: str, games: int, seed: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"play": [], "setup": [], "searched": []}
    for g in range(games):
        state = new_game(variant, seed=seed + g)
        seats = [bots.make(name if (s == g % state.players or name == "planning")
                           else "planning", variant, s, seed + g)
                 for s in range(state.players)]
        timed = {s for s in range(state.players) if seats[s].name == name}
        for _ in range(MAX_ACTIONS):
            if state.over:
                break
            seat = state.to_act
            assert seat is not None
            obs = state.observe(seat)
            start = time.perf_counter()
            answer = seats[seat].act(obs)
            elapsed = time.perf_counter() - start
            if seat in timed:
                times["play" if state.phase == "play" else "setup"].append(elapsed)
                if getattr(seats[seat], "last_rollouts", 0):
                    times["searched"].append(elapsed)
            state.apply(answer)
    return times


def _ms(xs: list[float], q: float) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    value = statistics.median(xs) if q == 0.5 else xs[min(len(xs) - 1, int(q * len(xs)))]
    return f"{value * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="planning")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    print(f"{args.bot}: ms per decision (median / p90), {args.games} games per variant")
    print("| variant | play decisions | median | p90 | set-up median | searched | median |")
    print("|---|---|---|---|---|---|---|")
    for variant in args.variants.split(","):
        t = measure(args.bot, variant, args.games, args.seed)
        print(f"| {variant} | {len(t['play'])} | {_ms(t['play'], 0.5)} | {_ms(t['play'], 0.9)} "
              f"| {_ms(t['setup'], 0.5)} | {len(t['searched'])} | {_ms(t['searched'], 0.5)} |",
              flush=True)


if __name__ == "__main__":
    main()
