"""The endgame solvers' times against issue 21's targets, and the comparison with
doudizhu-resolver the issue asks for.

Two hands: any position with up to 10 cards a hand solved in under 1 s. Random positions
of ``--cards`` cards a hand dealt from one variant's deck (seeded), each solved by a fresh
solver (no memo carried over); prints the median and the worst time and the worst
position, so it can be looked at again. Three hands (rules/solve3.py, a landlord leading
against two farmers): the same for ``--three-cards`` cards a hand, up to its limit of 7.

doudizhu-resolver (the ``bench`` extra; skipped, saying so, when it is not installed):
both verdicts on the same random ddz3 positions, the side to move leading, the agreement
and the time ratio. Its own move lists take 0.1–0.2 s a hand, so it is timed as it comes
on small positions (``--plain-cards``) and compared at more cards with its search over
the same lists looked up in its own table (benchmarks/resolver_peer.py, checked against
its functions). Its rules differ from ddz3's in three places (resolver_peer.py): the
positions where they may matter are counted apart, and each disagreement is traced to
the difference behind it by making that one difference cardhall's and solving again.

    .venv/bin/python benchmarks/solve_bench.py --variant ddz3 --cards 10 --positions 100
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import types
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from cardhall.cards import NUM_RANKS, SMALL_JOKER, format_ranks
from cardhall.rules import RuleSet, get
from cardhall.rules.solve import Solver
from cardhall.rules.solve3 import ThreeHandSolver

sys.path.insert(0, str(Path(__file__).resolve().parent))
import resolver_peer

TARGET_S = 1.0
Position = tuple[str, str]
#: Positions where a rule of doudizhu-resolver's changes the verdict: kicker pairs of one
#: rank (it goes out with 4444+5555 or 333444+5555) and a bomb over the rocket. Its third
#: difference, the rocket as two kickers, cannot change a two-hand verdict alone: the
#: rocket wins its trick, and what it would have carried is then led.
DIFFERING: tuple[Position, ...] = (("44445555", "6666"), ("3334445555", "6666"),
                                   ("48888TAA", "347777XD"))


def deal(rng: random.Random, rs: RuleSet, sizes: tuple[int, ...]) -> list[str]:
    pool = [r for r in range(NUM_RANKS) for _ in range(rs.limits[r])]
    picked = rng.sample(pool, sum(sizes))
    hands = []
    for size in sizes:
        hands.append(format_ranks(sorted(picked[:size])))
        picked = picked[size:]
    return hands


def timed(solve: Callable[[], bool]) -> tuple[float, bool]:
    start = time.perf_counter()
    win = solve()
    return time.perf_counter() - start, win


def two_hands(rs: RuleSet, cards: int, positions: int, seed: int) -> None:
    rng = random.Random(seed)
    times: list[tuple[float, str, str, bool]] = []
    for _ in range(positions):
        me, them = deal(rng, rs, (cards, cards))
        took, win = timed(lambda me=me, them=them: Solver(rs).solve(me, them).win)
        times.append((took, me, them, win))
    worst = max(times)
    median = statistics.median(t for t, *_ in times)
    wins = sum(w for *_, w in times)
    print(f"{rs.name}, {positions} positions of {cards} cards a hand "
          f"(seed {seed}; the side to move wins {wins}):")
    print(f"median {median * 1000:.1f} ms, worst {worst[0] * 1000:.1f} ms "
          f"({worst[1]} to move against {worst[2]}); target < {TARGET_S * 1000:.0f} ms: "
          f"{'met' if worst[0] < TARGET_S else 'NOT met'}")


def three_hands(rs: RuleSet, sizes: list[int], positions: int, seed: int) -> None:
    print(f"\nThree hands ({rs.name}, the landlord to move and leading; a fresh solver "
          f"for each position; seed {seed}):")
    for cards in sizes:
        rng = random.Random(seed)
        times: list[tuple[float, list[str], bool]] = []
        for _ in range(positions):
            hands = deal(rng, rs, (cards, cards, cards))
            took, win = timed(lambda h=hands: ThreeHandSolver(rs).solve(*h).win)
            times.append((took, hands, win))
        worst = max(times, key=lambda t: t[0])
        median = statistics.median(t for t, *_ in times)
        print(f"  {cards} cards a hand, {positions} positions (the landlord wins "
              f"{sum(w for *_, w in times)}): median {median * 1000:.1f} ms, worst "
              f"{worst[0] * 1000:.1f} ms ({' / '.join(worst[1])})")


def may_differ(position: Position) -> bool:
    """Whether a rule where doudizhu-resolver differs may come into play: a hand holds the
    rocket (bombs over it, the two jokers as kickers), or four of a rank and 8 cards or
    more (kicker pairs of one rank: 4444+5555, 333444+5555)."""
    for hand in position:
        if "X" in hand and "D" in hand:
            return True
        if len(hand) >= 8 and any(hand.count(c) == 4 for c in set(hand)):
            return True
    return False


def rich(rng: random.Random, cards: int) -> Position:
    """A position where the rules differ often: the rocket in one hand, four of a rank
    in each, the rest dealt at random."""
    hands: list[list[int]] = [[], []]
    rest = [r for r in range(SMALL_JOKER) for _ in range(4)]
    hands[rng.randrange(2)] += [SMALL_JOKER, SMALL_JOKER + 1]
    for hand in hands:
        four = rng.choice([r for r in range(SMALL_JOKER) if rest.count(r) == 4])
        hand.extend([four] * 4)
        for _ in range(4):
            rest.remove(four)
    rng.shuffle(rest)
    for hand in hands:
        while len(hand) < cards:
            hand.append(rest.pop())
    return format_ranks(sorted(hands[0])), format_ranks(sorted(hands[1]))


class Comparison:
    """Both engines on the same positions; each disagreement traced to a difference."""

    def __init__(self, dr: types.ModuleType, rs: RuleSet) -> None:
        self.dr, self.rs = dr, rs
        self.rules = resolver_peer.Rules(dr)
        self.aligned = {d: resolver_peer.Rules(dr, frozenset([d]))
                        for d in resolver_peer.DIFFERENCES}
        self.all_aligned = resolver_peer.Rules(dr, frozenset(resolver_peer.DIFFERENCES))
        self.causes: dict[str, int] = {}
        self.lines: list[str] = []

    def theirs(self, position: Position, rules: resolver_peer.Rules | None) -> bool:
        if rules is None:
            return resolver_peer.verdict(self.dr, *position)
        with rules.installed():
            return resolver_peer.verdict(self.dr, *position)

    def run(self, title: str, positions: list[Position],
            rules: resolver_peer.Rules | None) -> None:
        ours_s = theirs_s = 0.0
        agree: dict[bool, list[int]] = {False: [0, 0], True: [0, 0]}
        for position in positions:
            took, ours = timed(lambda p=position: Solver(self.rs).solve(*p).win)
            ours_s += took
            took, theirs = timed(lambda p=position: self.theirs(p, rules))
            theirs_s += took
            tally = agree[may_differ(position)]
            tally[0] += ours == theirs
            tally[1] += 1
            if ours != theirs:
                self.explain(position, ours, theirs)
        same = agree[False][0] + agree[True][0]
        print(f"  {title}: {len(positions)} positions, the same verdict on {same} "
              f"(where no rule differs: {agree[False][0]}/{agree[False][1]}; where one "
              f"may: {agree[True][0]}/{agree[True][1]}); cardhall {ours_s:.2f} s, "
              f"doudizhu-resolver {theirs_s:.2f} s: {theirs_s / max(ours_s, 1e-9):.0f}x")
        for line in self.lines:
            print(line)
        self.lines.clear()

    def explain(self, position: Position, ours: bool, theirs: bool) -> None:
        causes = [d for d, rules in self.aligned.items() if self.theirs(position, rules) == ours]
        if not causes:
            causes = (["several differences together"]
                      if self.theirs(position, self.all_aligned) == ours
                      else ["unexplained"])
        for cause in causes:
            self.causes[cause] = self.causes.get(cause, 0) + 1
        self.lines.append(f"    {position[0]} to move against {position[1]}: cardhall "
              f"{'win' if ours else 'loss'}, doudizhu-resolver {'win' if theirs else 'loss'}"
              f"; the same once made cardhall's: {', '.join(causes)}")


def compare(args: argparse.Namespace) -> None:
    dr = resolver_peer.load()
    if dr is None:
        print("\ndoudizhu-resolver is not installed (pip install '.[bench]'): comparison "
              "skipped")
        return
    rs = get("ddz3")
    print(f"\ndoudizhu-resolver {metadata.version('doudizhu_resolver')} against cardhall "
          f"(ddz3, two hands, the side to move leading; seed {args.seed}):")
    rng = random.Random(args.seed)
    hands = [deal(rng, rs, (10,))[0] for _ in range(10)]
    print(f"  its move lists looked up in its table: the same as its own functions' on "
          f"{resolver_peer.check_lists(dr, hands)}/10 hands of 10 cards")
    cmp = Comparison(dr, rs)
    plain = [(a, b) for a, b in (deal(rng, rs, (args.plain_cards,) * 2)
                                 for _ in range(args.plain_positions))]
    cmp.run(f"{args.plain_cards} cards a hand, its own move lists", plain, None)
    spread = [(a, b) for a, b in (deal(rng, rs, (args.compare_cards,) * 2)
                                  for _ in range(args.compare_positions))]
    cmp.run(f"{args.compare_cards} cards a hand, its search on looked-up lists", spread,
            cmp.rules)
    loaded = [rich(rng, args.rich_cards) for _ in range(args.rich_positions)]
    cmp.run(f"{args.rich_cards} cards a hand with the rocket and a four in each hand, "
            "looked-up lists", loaded, cmp.rules)
    cmp.run("hand-picked positions where a rule differs, looked-up lists",
            list(DIFFERING), cmp.rules)
    print("  disagreements above by the rule behind them: "
          + (", ".join(f"{k} {v}" for k, v in sorted(cmp.causes.items())) or "none"))
    print("  (bomb_rocket: it lets a bomb beat the rocket; rocket_kickers: it spends both "
          "jokers as kickers; equal_pairs: its kicker pairs may repeat a rank; ddz3 allows "
          "none of these. benchmarks/resolver_peer.py)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="ddz3")
    parser.add_argument("--cards", type=int, default=10)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--three-cards", default="5,6,7",
                        help="three hands: cards a hand, comma-separated")
    parser.add_argument("--three-positions", type=int, default=30)
    parser.add_argument("--plain-cards", type=int, default=3)
    parser.add_argument("--plain-positions", type=int, default=5)
    parser.add_argument("--compare-cards", type=int, default=6)
    parser.add_argument("--compare-positions", type=int, default=300,
                        help="0 skips the comparison with doudizhu-resolver")
    parser.add_argument("--rich-cards", type=int, default=8)
    parser.add_argument("--rich-positions", type=int, default=60)
    args = parser.parse_args()
    rs = get(args.variant)
    two_hands(rs, args.cards, args.positions, args.seed)
    sizes = [int(n) for n in args.three_cards.split(",") if n]
    if sizes and args.three_positions:
        three_hands(rs, sizes, args.three_positions, args.seed)
    if args.compare_positions:
        compare(args)
    print(f"load average {[round(x, 2) for x in os.getloadavg()]}")


if __name__ == "__main__":
    main()
