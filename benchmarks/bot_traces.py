"""Hashes of seeded bot games: the same code plays the same games, whichever loop is built.

Every variant is played by each bot that plays it, at every seat, on seeded
deals (``sim.seat_bots``, ``sim.play_out``: the bots see only their seats'
views), and the action sequence of each game is hashed. A refactoring that
keeps every decision keeps every hash; so does the split search's C loop
against its Python reference (``CARDHALL_PURE_PYTHON=1``), since it is an
accelerator only. The sampling bot's wall-clock safety net is lifted here
(``seconds``) so that its sample budget alone decides, as it does on an idle
machine; ``planning-capped`` is the planning bot with a cap on the split-search
states of a decision (``PlanningBot.states``), which counts work, not time.

    python benchmarks/bot_traces.py                      # one hash per variant and bot
    python benchmarks/bot_traces.py --games 3 --out traces.json
    CARDHALL_PURE_PYTHON=1 python benchmarks/bot_traces.py --check traces.json

(``tests/bots/test_either_loop.py`` runs it on both loops.)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from typing import Any

from cardhall import bots
from cardhall.bots.split import native
from cardhall.games import VARIANTS, new_game
from cardhall.sim import play_out

#: The bots whose decisions the traces pin (rlcard-rule needs RLCard, and plays ddz3 only).
BOTS = ("planning", "sampling", "tuoguan", "random", "planning-capped")
#: The sampling bot without its wall-clock cap: its sample count alone is its budget.
OPTIONS: dict[str, dict[str, Any]] = {"sampling": {"seconds": float("inf"), "samples": 8}}
#: The registered names of the bots named otherwise here (the sampling bot is ``search``).
NAMES = {"sampling": "search", "planning-capped": "planning"}
#: Split-search states a decision of ``planning-capped`` may expand.
CAPPED_STATES = 400


def seat(bot: str, variant: str, at: int, seed: int) -> bots.Bot:
    made = bots.make(NAMES.get(bot, bot), variant, at, seed, **OPTIONS.get(bot, {}))
    if bot == "planning-capped":
        assert isinstance(made, bots.PlanningBot)
        made.states = CAPPED_STATES
    return made


def trace(variant: str, bot: str, seed: int) -> list[str]:
    """The actions of one seeded game of ``variant`` with ``bot`` at every seat."""
    state = new_game(variant, seed=seed)
    play_out(state, [seat(bot, variant, at, seed) for at in range(state.players)])
    return [str(a) for a in state.actions]


def digest(variant: str, bot: str, games: int, seed: int) -> str:
    h = hashlib.sha256()
    for g in range(games):
        for action in trace(variant, bot, seed + g):
            h.update(action.encode())
            h.update(b"\n")
        h.update(b"--\n")
    return h.hexdigest()[:16]


def hashes(games: int, seed: int, variants: list[str], names: list[str]) -> dict[str, str]:
    out = {}
    for variant in variants:
        for bot in names:
            start = time.perf_counter()
            out[f"{variant}/{bot}"] = digest(variant, bot, games, seed)
            print(f"{variant}/{bot}: {out[f'{variant}/{bot}']} "
                  f"({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--bots", default=",".join(BOTS))
    ap.add_argument("--out", help="write the hashes here (JSON)")
    ap.add_argument("--check", help="compare with the hashes written there")
    args = ap.parse_args()
    print(f"loop: {'C' if native.NATIVE else 'Python'}", file=sys.stderr)
    found = hashes(args.games, args.seed, args.variants.split(","), args.bots.split(","))
    print(json.dumps(found, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(found, f, indent=1)
    if args.check:
        with open(args.check) as f:
            want = json.load(f)
        differ = [k for k in found if want.get(k) != found[k]]
        print("identical" if not differ else f"differ: {', '.join(differ)}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
