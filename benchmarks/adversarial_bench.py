"""The slowest engine calls a hostile deal or text can cause: every variant, worst case.

A table's event loop waits for the engine on every move, so one position that
takes seconds to list or judge holds the whole table (issue 25: a 找朋友 throw
of 31 cards used never to return). Random play (``legal_bench.py``) measures the
tail of ordinary games; this measures the worst this search can find, against
``TARGET_MS`` for every call:

- **crafted deals**: the acting seat holds a hand built to have the most plays —
  long chains (every rank as evenly as the deck allows), most bombs (whole ranks
  and the jokers), all four wild cards with chains (癞子, every wild rank), the
  biggest 找朋友 throws (a whole hand of one suit, of trumps, spread pairs) and
  their followers. Each deal is played on by seeded random moves, and every
  position of its first ``--moves`` is measured.
- **random search**: ``--games`` seeded random games per variant; the
  ``--keep`` slowest positions of them (by ``legal_actions``) are measured.
- **hostile texts**: at a play position, ``check``, ``canonical`` and ``readings``
  of a 1 MiB text, of ``play`` with 200 cards and of a text of card characters as
  long as an action may be.

At each position, on fresh copies of the state (the engine caches what it
lists): ``legal_actions()``, ``check`` of a listed action and ``check`` of an
illegal play (random cards of the hand that the engine refuses); each the
slowest of ``--repeat`` runs. Per variant the worst of each is printed with
where it was found, PASS if all are under ``TARGET_MS``; the exit status is 1
if any variant fails.

    python benchmarks/adversarial_bench.py
    python benchmarks/adversarial_bench.py --variants zhaopengyou --games 40 --moves 60
    python benchmarks/adversarial_bench.py --clock cpu     # on a machine shared with others
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from cardhall.cards import RANK_CHARS, deck, format_cards, format_ranks, parse_cards
from cardhall.games import VARIANTS, GameState, new_game
from cardhall.games.base import MAX_ACTION_TEXT
from cardhall.games.variant import Variant
from cardhall.rules import RuleSet
from cardhall.rules.trick import Trumps
from cardhall.sim import MAX_ACTIONS

TARGET_MS = 50.0
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
Start = tuple[str, int, dict[str, Any]]  # (label, seed, options)


# -- crafted deals -----------------------------------------------------------------------


def _climbing_deal(variant: str, probe: Any, hand: list[int],
                   rng: random.Random) -> dict[str, Any]:
    """Seat 0 holds ``hand`` (ranks); the rest of the deck is shuffled to the other seats,
    the kitty and the cards out of play."""
    rest = Counter({r: n for r, n in enumerate(probe.rs.limits)})
    rest.subtract(hand)
    pool = sorted(rest.elements())
    rng.shuffle(pool)
    size = probe.layout.hand
    hands = [format_ranks(sorted(hand))]
    for _ in range(1, probe.players):
        hands.append(format_ranks(sorted(pool[:size])))
        pool = pool[size:]
    kitty = getattr(probe.layout, "kitty", 0)
    deal: dict[str, Any] = {"hands": hands}
    if variant != "baohuang":
        deal["kitty"] = format_ranks(sorted(pool[:kitty]))
        if pool[kitty:]:
            deal["dead"] = format_ranks(sorted(pool[kitty:]))
    return deal


def _spread(limits: tuple[int, ...], ranks: list[int], size: int, cap: int = 99) -> list[int]:
    """``size`` cards over ``ranks`` as evenly as the deck allows (the longest chains), at
    most ``cap`` of a rank."""
    hand: list[int] = []
    left = {r: min(limits[r], cap) for r in ranks}
    while len(hand) < size and any(left.values()):
        for r in ranks:
            if left[r] and len(hand) < size:
                hand.append(r)
                left[r] -= 1
    return hand


def _bombs(limits: tuple[int, ...], size: int) -> list[int]:
    """Jokers, then whole ranks from the top: the most bombs a hand can hold."""
    hand = [14] * limits[14] + [13] * limits[13]
    for r in range(12, -1, -1):
        take = min(limits[r], size - len(hand))
        hand += [r] * take
    return hand[:size]


def climbing_starts(variant: str, seeds: int) -> Iterator[Start]:
    probe: Any = new_game(variant, seed=0)
    limits, size = probe.rs.limits, probe.layout.hand
    plain = [r for r in range(13) if limits[r]]
    hands: list[tuple[str, list[int], dict[str, Any]]] = [
        ("chains", _spread(limits, plain[:-1], size), {}),  # no 2s: they break chains
        ("chains+2s", _spread(limits, plain, size), {}),
        ("bombs", _bombs(limits, size), {}),
        ("pairs", _spread(limits, plain[:-1], min(size, 2 * len(plain))), {}),
        ("airplanes", [*_spread(limits, plain[:-1], size - 4, cap=3), 12, 13, 14, plain[0]],
         {}),
        ("quads", [*_spread(limits, plain[:-1], size - 2, cap=4), 13, 14], {}),
    ]
    if variant == "ddz3_laizi":
        for wild in range(13):
            chain = [r for r in plain[:-1] if r != wild]
            body = [wild] * 4 + _spread(limits, chain, size - 4)
            hands.append((f"4 wild {RANK_CHARS[wild]}", body[:size],
                           {"wild": RANK_CHARS[wild]}))
    for label, crafted, extra in hands:
        held = Counter(crafted)
        left = tuple(n - held[r] for r, n in enumerate(limits))
        hand = (crafted + _spread(left, plain, size - len(crafted)))[:size]  # topped up
        if variant == "baohuang" and 14 not in hand:
            hand[-1] = 14  # the emperor card (a big joker) makes seat 0 the emperor
        for seed in range(seeds):
            deal = _climbing_deal(variant, probe, hand, random.Random(seed))
            options: dict[str, Any] = {**extra, "deal": deal}
            if variant == "baohuang":
                options["emperor_card"] = 0
            else:
                options["landlord"] = 0
            yield f"{label} seed {seed}", seed, options


def _zpy_deal(spec: dict[int, str], seed: int) -> dict[str, Any]:
    """A three-pack deal with the cards ``spec`` names per seat, the rest shuffled in."""
    pool = Counter(deck(3))
    parts = {s: list(parse_cards(spec.get(s, ""))) for s in range(5)}
    parts[5] = []
    for cards in parts.values():
        pool.subtract(cards)
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    for where, size in [*((s, 31) for s in range(5)), (5, 7)]:
        while len(parts[where]) < size:
            parts[where].append(rest.pop())
    return {"hands": [format_cards(parts[s]) for s in range(5)], "kitty": format_cards(parts[5])}


#: 找朋友 throws that hold (the leader holds every higher card), seat 0 the dealer at level 2,
#: and the window that makes the trump: (label, seat 0's cards, other seats, answers).
ZPY_THROWS = [
    ("31 diamonds", "Ad Ad Ad Kd Kd Kd Qd Qd Qd Jd Jd Jd Td Td Td 9d 9d 9d 8d 8d 8d 7d 7d 7d "
     "6d 6d 6d 5d 5d 4d 4d", {1: "2s 2s"}, ["pass", "declare 2s 2s"]),
    ("31 trumps", "D D D X X X 2s 2s 2s 2h 2h 2h 2c 2c 2c 2d 2d 2d As As As Ks Ks Ks Qs Qs Qs "
     "Js Js Js Ts", {}, ["declare 2s"]),
    ("spread pairs", "Ah Ah Qh Qh Th Th 8h 8h Kh Kh Jh Jh 9h 9h",
     {1: "7h 7h 6h 6h 5h 5h 4h 4h 3h 3h", 3: "2s 2s"}, ["pass", "pass", "pass",
                                                      "declare 2s 2s"]),
    ("tractors + singles", "Ac Ac Ac Kc Kc Kc Qc Qc Qc Jc Jc Tc Tc 9c 9c",
     {2: "8c 8c 7c 7c 6c 6c 5c 5c 4c 4c 3c 3c", 1: "2s 2s"}, ["pass", "declare 2s 2s"]),
]


def zhaopengyou_starts(seeds: int) -> Iterator[Start]:
    for label, mine, others, window in ZPY_THROWS:
        for seed in range(seeds):
            deal = _zpy_deal({0: mine, **others}, seed)
            yield f"{label} seed {seed}", seed, {"deal": deal, "dealer": 0,
                                                 "_script": (mine, window)}


def _zpy_open(state: GameState, script: tuple[str, list[str]]) -> None:
    """Close the window, bury what the kitty gave, call, and throw the crafted cards."""
    mine, window = script
    for text in window:
        state.apply(text)
    while state.to_act is not None and getattr(state, "phase", "") == "declare":
        state.apply("pass")
    kept = Counter(parse_cards(mine))
    spare = sorted((Counter(state.hands[0]) - kept).elements())[:7]  # type: ignore[attr-defined]
    state.apply(f"bury {format_cards(spare)}")
    state.apply("call-friend 3 D")
    thrown = [c for c in parse_cards(mine) if c in state.hands[0]]  # type: ignore[attr-defined]
    state.apply(f"play {format_cards(thrown)}")


# -- measuring ---------------------------------------------------------------------------


@dataclass
class Worst:
    ms: float = 0.0
    where: str = ""

    def see(self, ms: float, where: str) -> None:
        if ms > self.ms:
            self.ms, self.where = ms, where


def _fresh(state: GameState) -> GameState:
    """The same position with nothing listed or judged yet: a deep copy that shares the
    immutable rule sets, trump contexts and variant (with their memos, which copying would
    multiply: the first run of a call still meets a crafted hand's memo entries cold)."""
    shared = (RuleSet, Trumps, Variant)
    memo: dict[int, Any] = {id(v): v for v in vars(state).values() if isinstance(v, shared)}
    fresh = copy.deepcopy(state, memo)
    fresh._changed()
    return fresh


def _timed(state: GameState, call: Callable[[GameState], object], repeat: int,
           clock: Callable[[], float]) -> float:
    """The slowest ms of ``call`` on ``repeat`` fresh copies of ``state`` (the first run
    meets the generators' memos cold, as a crafted hand does)."""
    times = []
    for _ in range(repeat):
        fresh = _fresh(state)
        start = clock()
        call(fresh)
        times.append(clock() - start)
    return max(times) * 1000


def _illegal(state: GameState, rng: random.Random) -> str | None:
    """A play of the acting seat's cards that the engine refuses, if one is found."""
    seat = state.to_act
    assert seat is not None
    hand = state.observe(seat).get("hand") or []
    probe = _fresh(state)
    for _ in range(30):
        if not hand:
            return None
        cards = rng.sample(hand, rng.randint(1, min(len(hand), 12)))
        text = "play " + " ".join(cards)
        if probe.check(text) is not None:
            return text
    return None


def measure(state: GameState, where: str, worst: dict[str, Worst], rng: random.Random,
            repeat: int, clock: Callable[[], float]) -> None:
    worst["legal"].see(_timed(state, lambda s: s.legal_actions(), repeat, clock), where)
    legal = _fresh(state).legal_actions()
    if legal:
        text = rng.choice(legal).text
        worst["check legal"].see(_timed(state, lambda s: s.check(text), repeat, clock), where)
    bad = _illegal(state, rng)
    if bad is not None:
        worst["check illegal"].see(_timed(state, lambda s: s.check(bad), repeat, clock),
                                   f"{where}: {bad[:40]}")


def hostile_texts(state: GameState, variant: str, worst: dict[str, Worst], repeat: int,
                  clock: Callable[[], float]) -> None:
    """check, canonical and readings of texts no client should send."""
    chars = "3456789TJQKA2XD" if variant != "zhaopengyou" else "3s 4h 5c 6d Ks "
    texts = {"1 MiB": "play " + "3" * (1 << 20),
             "200 cards": "play " + " ".join(["3s", "4h", "5c", "6d", "Ks"] * 40),
             "max length": ("play " + chars * 40)[:MAX_ACTION_TEXT]}
    for label, text in texts.items():
        def calls(s: GameState, text: str = text) -> None:
            if s.check(text) is None:  # canonical raises what check returns
                s.canonical(text)
            s.readings(text)
        worst["hostile text"].see(_timed(state, calls, repeat, clock), label)


def starts(variant: str, seeds: int) -> Iterator[Start]:
    if variant == "zhaopengyou":
        yield from zhaopengyou_starts(seeds)
    else:
        yield from climbing_starts(variant, seeds)


def run_variant(variant: str, args: argparse.Namespace,
                clock: Callable[[], float]) -> dict[str, Worst]:
    worst = {k: Worst() for k in ("legal", "check legal", "check illegal", "hostile text")}
    rng = random.Random(args.seed)
    texts_done = False
    for label, seed, options in starts(variant, args.deals):
        script = options.pop("_script", None)
        state = new_game(variant, seed=seed, options=options)
        if script is not None:
            _zpy_open(state, script)
        moves = random.Random(seed)
        for move in range(args.moves):
            if state.over or state.to_act is None:
                break
            measure(state, f"{label} move {move}", worst, rng, args.repeat, clock)
            if not texts_done and getattr(state, "phase", "play") == "play":
                hostile_texts(state, variant, worst, args.repeat, clock)
                texts_done = True
            state.apply(moves.choice(state.legal_actions()))
    # random search: the slowest positions of seeded random games, measured again
    found: list[tuple[float, int, int]] = []
    for g in range(args.games):
        state = new_game(variant, seed=args.seed + g)
        moves = random.Random(g)
        for move in range(MAX_ACTIONS):
            if state.over:
                break
            start = clock()
            legal = state.legal_actions()
            found.append((clock() - start, g, move))
            state.apply(moves.choice(legal))
    for _, g, move in sorted(found, reverse=True)[:args.keep]:
        state = new_game(variant, seed=args.seed + g)
        moves = random.Random(g)
        for _ in range(move):
            state.apply(moves.choice(state.legal_actions()))
        measure(state, f"random game {g} move {move}", worst, rng, args.repeat, clock)
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--deals", type=int, default=3, help="seeds per crafted hand")
    parser.add_argument("--moves", type=int, default=30, help="positions per crafted deal")
    parser.add_argument("--games", type=int, default=20, help="random games searched")
    parser.add_argument("--keep", type=int, default=10, help="slowest random positions kept")
    parser.add_argument("--repeat", type=int, default=3, help="runs per call (the slowest counts)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="wall")
    parser.add_argument("--verbose", action="store_true", help="where each worst was found")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    print(f"worst ms per call ({args.clock} clock, slowest of {args.repeat} runs); "
          f"{args.deals} deals per crafted hand, {args.moves} moves each, {args.games} random "
          f"games (slowest {args.keep} kept); target < {TARGET_MS:g} ms")
    print("| variant | legal_actions | check (legal) | check (illegal) | hostile text | "
          "verdict | slowest position |")
    print("|---|---|---|---|---|---|---|")
    failed = 0
    for variant in args.variants.split(","):
        worst = run_variant(variant, args, clock)
        top = max(worst.values(), key=lambda w: w.ms)
        verdict = "PASS" if top.ms < TARGET_MS else "FAIL"
        failed += verdict == "FAIL"
        cells = " | ".join(f"{w.ms:.1f}" for w in worst.values())
        print(f"| {variant} | {cells} | {verdict} | {top.where} |", flush=True)
        if args.verbose:
            for kind, w in worst.items():
                print(f"    {kind}: {w.ms:.1f} ms at {w.where}", file=sys.stderr)
    print(f"{failed} variant(s) over target" if failed else "all within target")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
