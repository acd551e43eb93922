"""Rules-engine speed: cardhall against RLCard and OpenSpiel, in one run, as ratios.

    python benchmarks/rules_bench.py [--hands 300] [--repeat 5] [--seed 0]

Every engine is timed on the same positions (``peers.sample_positions`` shape):
a fresh 20-card landlord hand to lead, and the next player's 17-card hand to
follow the landlord's opening play, drawn uniformly from that hand's legal
leads (four-with-two excluded, since OpenSpiel has no such play). Each
position is timed ``repeat`` times after one warm-up pass, for every engine
alike, so caches that an engine keeps across calls count for all of them.

cardhall is timed twice: the fast path bots use (``rs.gen.codes``: plays as
ints) and the readable API (``rs.moves``: ``Play`` objects). Two-pack leads
(4-player, 5-player, 斗帝主, 保皇) have no peer; their absolute times are
printed against the 1 ms target. Peers not installed (``pip install
'.[bench]'``) are reported as such and the ratios omitted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers

from cardhall import rules
from cardhall.cards import card_rank, deck, format_ranks
from cardhall.rules import Play

PEER_KINDS_MISSING = ("four_single", "four_pair")


def _time_us(fn: Callable[..., object], args: Sequence[tuple[Any, ...]], repeat: int) -> float:
    for a in args:
        fn(*a)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter_ns()
        for a in args:
            fn(*a)
        best = min(best, (time.perf_counter_ns() - start) / 1000 / len(args))
    return best


def positions(n: int, seed: int) -> tuple[list[str], list[str], list[Play]]:
    """(lead hands, follow hands, lasts): lasts are legal leads of the lead hand."""
    ddz = rules.get("ddz3")
    rng = random.Random(seed)
    cards = list(format_ranks(range(13)) * 4 + "XD")
    leads, follows, lasts = [], [], []
    for _ in range(n):
        rng.shuffle(cards)
        lead, follow = "".join(cards[:20]), "".join(cards[20:37])
        options = [p for p in ddz.moves(lead) if p.kind not in PEER_KINDS_MISSING]
        leads.append(peers._sort(lead))
        follows.append(peers._sort(follow))
        lasts.append(rng.choice(options))
    return leads, follows, lasts


def cardhall_movegen(leads: list[str], follows: list[str], lasts: list[Play],
                     repeat: int) -> dict[str, float]:
    ddz = rules.get("ddz3")
    lead_hands = [(ddz.hand(h),) for h in leads]
    follow_args = [(ddz.hand(h), p) for h, p in zip(follows, lasts, strict=True)]
    texts = [(p.text,) for p in lasts]
    return {
        "lead codes": _time_us(ddz.gen.codes, lead_hands, repeat),
        "lead plays": _time_us(ddz.moves, lead_hands, repeat),
        "follow codes": _time_us(ddz.gen.codes, follow_args, repeat),
        "follow plays": _time_us(ddz.moves, follow_args, repeat),
        "classify": _time_us(ddz.classify, texts, repeat),
        "classify counts": _time_us(ddz.classify, [(ddz.hand(t),) for (t,) in texts], repeat),
        "lead moves": sum(len(ddz.moves(*a)) for a in lead_hands) / len(lead_hands),
        "follow moves": sum(len(ddz.moves(*a)) for a in follow_args) / len(follow_args),
    }


def two_pack_leads(n: int, seed: int, repeat: int) -> dict[str, tuple[float, float]]:
    """µs per lead and mean leads from fresh hands of every two- and four-pack variant."""
    sizes = {"ddz4": 33, "ddz5": 24, "ddz_emperor": 40, "baohuang": 34}
    out = {}
    for name, size in sizes.items():
        rs = rules.get(name)
        rng = random.Random(seed)
        full = list(deck(rs.packs, rs.absent))
        hands = []
        for _ in range(n):
            rng.shuffle(full)
            hands.append((rs.hand(format_ranks(card_rank(c) for c in full[:size])),))
        fn = rs.gen.codes if rs.comparison == "ladder" else rs.moves
        out[name] = (_time_us(fn, hands, repeat),
                     sum(len(rs.moves(*h)) for h in hands) / len(hands))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    leads, follows, lasts = positions(args.hands, args.seed)
    ours = cardhall_movegen(leads, follows, lasts, args.repeat)
    print(f"3-player Dou Dizhu, {args.hands} positions, best of {args.repeat} passes; "
          f"peers: rlcard {peers._version('rlcard')}, open_spiel {peers._version('open_spiel')}")
    print(f"cardhall  lead {ours['lead codes']:7.1f} µs (codes) "
          f"{ours['lead plays']:7.1f} µs (plays)  follow {ours['follow codes']:6.2f} µs (codes) "
          f"{ours['follow plays']:6.2f} µs (plays)"
          f"  [{ours['lead moves']:.1f} / {ours['follow moves']:.2f} moves]")
    print(f"cardhall  classify {ours['classify']:.2f} µs per call from text, "
          f"{ours['classify counts']:.2f} µs from a rank-count tuple (every reading out)")
    rlcard_types = peers._peer("rlcard.games.doudizhu.utils")
    if rlcard_types is not None:
        table = rlcard_types.CARD_TYPE[0]
        keys = [(peers._sort(p.text.replace("+", "")).translate(peers._RLCARD),) for p in lasts]
        us = _time_us(table.get, keys, args.repeat)
        print(f"rlcard    classify {us:.2f} µs per call (a lookup in its precomputed type table; "
              f"cardhall counts / rlcard = {ours['classify counts'] / us:.1f}x slower)")
    for name, fn in (("rlcard", peers.rlcard_movegen), ("openspiel", peers.openspiel_movegen)):
        last_cards = [peers._sort(p.text.replace("+", "")) for p in lasts]
        res = fn(leads, last_cards, args.repeat, follow_hands=follows)
        if res is None:
            print(f"{name:9} not installed (pip install '.[bench]')")
            continue
        print(f"{name:9} lead {res['lead']:7.1f} µs  follow {res['follow']:6.2f} µs"
              f"  [{res['lead_moves']:.1f} / {res['follow_moves']:.2f} moves]")
        print(f"{'':9} ratio (peer time / cardhall time): "
              f"lead {res['lead'] / ours['lead codes']:.1f}x codes, "
              f"{res['lead'] / ours['lead plays']:.1f}x plays; "
              f"follow {res['follow'] / ours['follow codes']:.1f}x codes, "
              f"{res['follow'] / ours['follow plays']:.1f}x plays")
    print("two-pack and four-pack leads from fresh hands (target < 1000 µs):")
    for name, (us, count) in two_pack_leads(min(args.hands, 200), args.seed, args.repeat).items():
        print(f"  {name:12} {us:8.1f} µs per lead  [{count:.1f} moves]")


if __name__ == "__main__":
    main()
