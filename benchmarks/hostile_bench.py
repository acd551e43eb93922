"""How much a hostile action costs to refuse: microseconds per kilobyte of input.

A server reads every action a client sends; a refusal must cost next to nothing
however large or strange the input (target: well under 1 ms per KB). This times
``check`` on junk of 1 KB, 100 KB and 1 MB behind every verb a game knows, and
on hand-built ``Action`` objects with huge arguments, at a few positions of a
seeded game of every variant, and prints the worst time per KB and the longest
reason given.

    .venv/bin/python benchmarks/hostile_bench.py
"""

from __future__ import annotations

import argparse
import random
import time

from cardhall.games import VARIANTS, Action, GameState, new_game

VERBS = ("play", "pass", "bid", "declare", "bury", "call-friend", "eye", "take", "double",
         "show", "rob", "cede", "call", "@1", "@1 auto", "@1 leave", "")
SIZES = (1 << 10, 100 << 10, 1 << 20)
TARGET_US_PER_KB = 1000.0


def positions(name: str, seed: int) -> list[GameState]:
    state = new_game(name, seed=seed)
    rng = random.Random(seed)
    out = []
    for step in range(400):
        if state.over:
            break
        if step in (0, 5, 20, 60):
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="*", default=sorted(VARIANTS))
    args = parser.parse_args()
    print(f"{'variant':<12} {'checks':>6} {'worst µs/KB':>12} {'longest reason':>15}")
    failed = False
    for name in args.variants:
        worst, longest, checks = 0.0, 0, 0
        for state in positions(name, 3):
            for size in SIZES:
                for verb in VERBS:
                    junk = "3" * size if verb != "declare" else "5s" * (size // 2)
                    for attempt in (f"{verb} {junk}", Action(verb or "play", junk)):
                        start = time.perf_counter()
                        reason = state.check(attempt)
                        spent = (time.perf_counter() - start) * 1e6 / (size / 1024)
                        assert reason is not None, f"{name}: accepted {verb} junk"
                        worst, longest = max(worst, spent), max(longest, len(reason))
                        checks += 1
        ok = worst < TARGET_US_PER_KB
        failed |= not ok
        print(f"{name:<12} {checks:>6} {worst:>12.3f} {longest:>15}  "
              f"{'PASS' if ok else 'FAIL'} (< {TARGET_US_PER_KB:.0f} µs/KB)")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
