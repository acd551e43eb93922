"""Train a small DouZero-style agent for 斗地主 (ddz3) on the CPU, then play it against
``random`` in the duplicate arena (docs/rl.md, "Training example").

    pip install -e '.[rl,train]'          # here: pip install torch==2.13.0 first (CPU build)
    python examples/train_ddz3.py --seconds 180

The agent (``cardhall.rl.dmc``) scores every legal whole action with one small network,
plays self-play games epsilon-greedily and learns each decision's value from the game's
final points (Deep Monte-Carlo). The arena then seats it as a bot: each deal is played
twice with the sides swapped, so the luck of the cards cancels. The untrained network
is measured the same way first, so the difference is what training did.
"""

from __future__ import annotations

import argparse
import sys

import torch

from cardhall import arena
from cardhall.rl import dmc


def evaluate(agent: dmc.Agent, deals: int, seed: int, fixed_landlord: bool) -> dict[str, object]:
    with dmc.registered(agent) as name:
        return arena.run("ddz3", [name, "random"], deals, seed, fixed_landlord)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=180.0, help="training time")
    parser.add_argument("--decisions", type=int, help="stop after this many decisions instead")
    parser.add_argument("--seed", type=int, default=0, help="the network's and self-play's seed")
    parser.add_argument("--objective", choices=sorted(dmc.OBJECTIVES), default="adp",
                        help="adp: learn the points; wp: learn only win or loss")
    parser.add_argument("--deals", type=int, default=500, help="duplicate deals vs random")
    parser.add_argument("--eval-seed", type=int, default=1000,
                        help="the arena's deals (apart from the training games')")
    parser.add_argument("--fixed-landlord", action="store_true",
                        help="evaluate with the landlord fixed (no bidding)")
    parser.add_argument("--save", default="ddz3_dmc.pt", help="where the agent is saved")
    parser.add_argument("--load", help="evaluate this saved agent instead of training")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # small batches: more threads only contend

    if args.load:
        agent = dmc.Agent.load(args.load)
    else:
        before = dmc.Agent.new("ddz3", seed=args.seed)
        print("untrained:\n" + arena.describe(
            evaluate(before, args.deals, args.eval_seed, args.fixed_landlord)), flush=True)

        def log(s: dmc.Stats) -> None:
            recent = s.losses[-100:]
            print(f"{s.seconds:6.0f} s  {s.episodes:6} games  {s.decisions:7} decisions  "
                  f"{s.updates:5} updates  loss {sum(recent) / len(recent):.3f}", flush=True)

        seconds = None if args.decisions else args.seconds
        agent, stats = dmc.train("ddz3", decisions=args.decisions, seconds=seconds,
                                 seed=args.seed, objective=args.objective, log=log,
                                 log_every=250)
        print(f"trained: {stats.episodes} games, {stats.decisions} decisions, "
              f"{stats.updates} updates in {stats.seconds:.0f} s "
              f"({stats.decisions / stats.seconds:.0f} decisions/s)")
        agent.save(args.save)
        print(f"saved to {args.save}")
    print("trained:\n" + arena.describe(
        evaluate(agent, args.deals, args.eval_seed, args.fixed_landlord)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
