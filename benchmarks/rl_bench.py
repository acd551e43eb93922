"""Environment speed: random masked play through ``cardhall.rl.env``, against RLCard's env.

    python benchmarks/rl_bench.py [--games 400] [--rounds 10] [--seed 0] [--variants ddz3,...]

Each agent samples a legal token from its ``action_mask`` with a seeded numpy Generator
and steps it, through the AEC loop a researcher writes (``last()``, ``step``), with the
wrappers ``env()`` puts on. RLCard's Dou Dizhu (``rlcard.make("doudizhu")``) plays
uniformly random legal actions through ``env.step`` in the same run.

The two count steps differently. A cardhall step is a *token*: a play is several
(``play …``, its cards, ``end``), a word such as ``pass`` or ``bid 3`` one. An RLCard step
is a whole action. So three rates are printed: tokens/s (cardhall's env steps), actions/s
(game actions completed per second; RLCard's steps) and games/s. The comparison that
means something is on actions/s and games/s; tokens/s is what ``step`` costs. cardhall's
ddz3 also bids, which RLCard's game does not (player 0 is always its landlord).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers

from cardhall.games import VARIANTS
from cardhall.rl import env


@dataclass
class Rate:
    """One run: how many games, actions and tokens in how many seconds."""

    games: int
    actions: int
    tokens: int
    seconds: float

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.games + other.games, self.actions + other.actions,
                    self.tokens + other.tokens, self.seconds + other.seconds)

    def per_s(self, what: str) -> float:
        return float(getattr(self, what)) / self.seconds


def cardhall_random_play(name: str, games: int, seed: int) -> Rate:
    """``games`` games of ``name`` with uniformly random legal tokens (seeded)."""
    e = env(name)
    raw = e.unwrapped
    rng = np.random.default_rng(seed)
    actions = steps = 0
    start = time.perf_counter()
    for i in range(games):
        e.reset(seed=seed + i)
        while True:
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                break
            decision = raw.decision
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            actions += raw.decision is not decision  # a new decision: an action was taken
    seconds = time.perf_counter() - start
    return Rate(games, actions, steps, seconds)


def rlcard_random_play(games: int, seed: int) -> Rate | None:
    """RLCard's ``env.step`` with uniformly random legal actions (``peers.rlcard_random_games``
    counting steps too); None when RLCard is not installed."""
    if (rlcard := peers._peer("rlcard")) is None:
        return None
    e = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state, _ = e.reset()
        while not e.is_over():
            state, _ = e.step(rng.choice(sorted(state["legal_actions"])))
            steps += 1
    seconds = time.perf_counter() - start
    return Rate(games, steps, steps, seconds)


def head_to_head(games: int, seed: int, rounds: int) -> tuple[Rate, Rate | None]:
    """cardhall's ddz3 and RLCard in alternating rounds, so that a busy machine slows
    both alike (one long run each would give the later one the other's weather)."""
    ours, theirs = Rate(0, 0, 0, 0.0), Rate(0, 0, 0, 0.0)
    step = max(games // rounds, 1)
    for r in range(0, games, step):
        ours += cardhall_random_play("ddz3", min(step, games - r), seed + r)
        peer = rlcard_random_play(min(step, games - r), seed + r)
        if peer is None:
            return ours, None
        theirs += peer
    return ours, theirs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games of ddz3 and of RLCard")
    ap.add_argument("--rounds", type=int, default=10,
                    help="ddz3 and RLCard alternate in this many rounds")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help="comma-separated; each but ddz3 plays max(games // 4, 5) games")
    args = ap.parse_args()
    print(f"random masked play, {args.games} games of ddz3 and of RLCard in {args.rounds} "
          f"alternating rounds; peer: rlcard {peers._version('rlcard')}")
    print(f"  {'':18} {'tokens/s':>10} {'actions/s':>10} {'games/s':>9} {'tok/act':>7}")
    ddz3, theirs = head_to_head(args.games, args.seed, args.rounds)
    if theirs is None:
        print(f"  {'rlcard doudizhu':18} not installed (pip install '.[bench]')")
    else:
        print(f"  {'rlcard doudizhu':18} {theirs.per_s('tokens'):10.0f} "
              f"{theirs.per_s('actions'):10.0f} {theirs.per_s('games'):9.1f} {1.0:7.2f}")
    for name in args.variants.split(","):
        ours = ddz3 if name == "ddz3" else cardhall_random_play(
            name, max(args.games // 4, 5), args.seed)
        line = (f"  {name:18} {ours.per_s('tokens'):10.0f} {ours.per_s('actions'):10.0f} "
                f"{ours.per_s('games'):9.1f} {ours.tokens / ours.actions:7.2f}")
        if theirs is not None and name == "ddz3":
            acts = ours.per_s("actions") / theirs.per_s("actions")
            line += (f"   vs rlcard: actions/s {acts:.2f}x, "
                     f"games/s {ours.per_s('games') / theirs.per_s('games'):.2f}x")
        print(line)


if __name__ == "__main__":
    main()
