"""Peer-engine timings: RLCard and OpenSpiel Dou Dizhu, measured on our positions.

cardhall's speed claims only mean something next to the engines people already use. Each
public function returns None when its peer is not installed, so the benchmark still runs
without the optional ``bench`` extras. Cards are in OUR notation, ranks ``3456789TJQKA2XD``
(X small, D big joker); conversion to a peer's notation happens outside the timed loops.

OpenSpiel only holds legal game states, so a hand to LEAD must have 20 cards (the landlord
after bidding) and a hand to FOLLOW 17 (a peasant answering the landlord's opening play).
``sample_positions`` builds exactly those shapes so every engine is timed on the same work.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

RANKS = "3456789TJQKA2XD"
_RLCARD = str.maketrans({"X": "B", "D": "R"})  # RLCard: B = black (small), R = red (big) joker
_OPENSPIEL_JOKER = {"X": "(BWJ)", "D": "(CJ)"}  # OpenSpiel's FormatSingleHand joker spelling
_DEAL_BASE = 51  # OpenSpiel: chance actions 0..50 pick the face-up card, 51 + card deals a card


def _sort(cards: str) -> str:
    """Sort by rank: both peers look up plays in canonical low-to-high order."""
    if any(c not in RANKS for c in cards):
        raise ValueError(f"bad card string {cards!r}; use {RANKS}")
    return "".join(sorted(cards, key=RANKS.index))


def _peer(module: str) -> Any:
    """Import an optional peer, or None if absent; via importlib so mypy sees plain Any."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _time_us(fn: Callable[..., object], args: Sequence[tuple[Any, ...]], repeat: int) -> float:
    """Mean microseconds per ``fn(*a)``, after one untimed warm-up pass (caches, lazy init)."""
    for a in args:
        fn(*a)
    start = time.perf_counter_ns()
    for _ in range(repeat):
        for a in args:
            fn(*a)
    return (time.perf_counter_ns() - start) / 1000 / (repeat * len(args))


def sample_positions(n: int, seed: int) -> tuple[list[str], list[str], list[str]]:
    """Deal ``n`` random 54-card deals; return (lead_hands, follow_hands, lasts).

    lead_hands[i] is the 20-card landlord hand, follow_hands[i] a 17-card peasant hand of the
    same deal, and lasts[i] a random single or pair drawn from the other 37 cards, so the last
    play never needs more than the deck's 4 copies (or 1 joker) of a rank.
    """
    rng = random.Random(seed)
    deck = [r for r in RANKS[:13] for _ in range(4)] + ["X", "D"]
    leads, follows, lasts = [], [], []
    for _ in range(n):
        rng.shuffle(deck)
        rest = Counter(deck[:20] + deck[37:])
        plays = sorted(rest) + sorted(r * 2 for r, k in rest.items() if k >= 2)
        leads.append(_sort("".join(deck[:20])))
        follows.append(_sort("".join(deck[20:37])))
        lasts.append(rng.choice(plays))
    return leads, follows, lasts


def rlcard_movegen(
    hands: list[str], lasts: list[str], repeat: int, *, follow_hands: list[str] | None = None
) -> dict[str, float] | None:
    """Time RLCard's own legal-move functions, exactly the ones its game calls.

    "lead": ``DoudizhuJudger.playable_cards_from_hand``. RLCard runs it once per player at
    deal time and afterwards only prunes that set as cards leave the hand, so this is its
    whole from-scratch lead generation. "follow": ``get_gt_cards``, which
    ``DoudizhuPlayer.available_actions`` calls: it walks RLCard's precomputed play table for
    the last play's type (plus bombs and rocket) and keeps those above it that the hand
    contains. ``follow_hands`` defaults to ``hands``. "*_moves" are mean play counts, passes
    excluded, to cross-check move sets against ours.
    """
    mods = [_peer(f"rlcard.games.{m}") for m in ("base", "doudizhu.player", "doudizhu.judger")]
    if None in mods:
        return None
    card, new_player = mods[0].Card, mods[1].DoudizhuPlayer
    lead_fn, get_gt_cards = mods[2].DoudizhuJudger.playable_cards_from_hand, mods[1].get_gt_cards

    def player(pid: int, cards: str) -> Any:
        p = new_player(pid, None)
        p.set_current_hand(
            [card({"X": "BJ", "D": "RJ"}[c], "") if c in "XD" else card("S", c) for c in cards]
        )
        return p

    leads = [(_sort(h).translate(_RLCARD),) for h in hands]
    follows = []
    for h, last in zip(follow_hands or hands, lasts, strict=True):
        prev = player(0, "")
        prev.played_cards = _sort(last).translate(_RLCARD)
        follows.append((player(1, _sort(h)), prev))
    return {
        "lead": _time_us(lead_fn, leads, repeat),
        "follow": _time_us(get_gt_cards, follows, repeat),
        "lead_moves": sum(len(lead_fn(*a)) for a in leads) / len(leads),
        "follow_moves": sum(len(get_gt_cards(*a)) - 1 for a in follows) / len(follows),
    }


def _openspiel_state(game: Any, hands: Sequence[str], leftover: str) -> Any:
    """Deal ``hands`` to players 0-2 (17 cards each), ``leftover`` as the 3 kitty cards.

    Face-up position 0 makes player 0 the first bidder; player 0 then bids 3, which ends
    the auction at once, so player 0 is landlord with 20 cards and must lead.
    """
    copies = Counter[str]()
    ids: list[list[int]] = []
    for cards in [*hands, leftover]:
        row = []
        for c in cards:
            row.append({"X": 52, "D": 53}.get(c, copies[c] * 13 + RANKS.index(c)))
            copies[c] += 1
        ids.append(row)
    state = game.new_initial_state()
    state.apply_action(0)
    for d in range(51):
        state.apply_action(_DEAL_BASE + ids[d % 3][d // 3])
    state.apply_action(max(state.legal_actions()))  # "Bid 3"
    return state


def _openspiel_str(cards: str) -> str:
    return "".join(_OPENSPIEL_JOKER.get(c, c) for c in _sort(cards))


def _rest(*used: str) -> str:
    """All cards of the 54-card deck not in ``used``, low to high."""
    left = Counter({r: 4 for r in RANKS[:13]} | {"X": 1, "D": 1})
    left.subtract(Counter("".join(used)))
    if min(left.values()) < 0:
        raise ValueError(f"more copies than the deck holds in {used}")
    return "".join(r * left[r] for r in RANKS)


def _split_filler(last: str, pool: str, k: int) -> tuple[str, str]:
    """Pick ``k`` cards of ``pool`` to fill a hand holding ``last``; return (filler, unused).

    Cards that would complete four of a rank in ``last`` go last: OpenSpiel generates no
    chain starting at a rank the hand holds four of, so such filler could hide ``last``.
    """
    held = Counter(last)
    safe: list[str] = []
    risky: list[str] = []
    for c in pool:
        held[c] += 1
        (safe if c not in last or held[c] < 4 else risky).append(c)
    order = safe + risky
    return "".join(order[:k]), "".join(order[k:])


def openspiel_movegen(
    hands: list[str], lasts: list[str], repeat: int, *, follow_hands: list[str] | None = None
) -> dict[str, float] | None:
    """Time ``state.legal_actions()`` of pyspiel's "dou_dizhu" on exactly the given positions.

    States are built by driving the chance nodes to deal chosen cards and the auction so the
    wanted player acts (see ``_openspiel_state``). "lead": the landlord holding hands[i] (must
    be 20 cards) right after winning the bid. "follow": the landlord (holding lasts[i] plus
    filler) opens with lasts[i] and the next player, holding follow_hands[i] (must be 17
    cards), is to move. No legal OpenSpiel state has a 20-card hand facing a play, hence the
    separate ``follow_hands`` (default ``hands``). Timings include pybind's conversion of the
    C++ action vector to a Python list, which every Python caller pays.

    OpenSpiel's move set differs from RLCard's: it has no four-with-two plays at all, and
    (dou_dizhu_utils.cc, SearchChainOnlyActions) no solo/pair/trio chain whose lowest rank
    the hand holds four of. So its "*_moves" are lower and its work per call is less.
    """
    if (pyspiel := _peer("pyspiel")) is None:
        return None

    game = pyspiel.load_game("dou_dizhu")
    leads = []
    for h in map(_sort, hands):
        if len(h) != 20:
            raise ValueError(f"OpenSpiel lead hands need 20 cards, got {h!r}")
        rest = _rest(h)
        leads.append((_openspiel_state(game, (h[:17], rest[:17], rest[17:]), h[17:]),))
    follows = []
    for h, last in zip(map(_sort, follow_hands or hands), map(_sort, lasts), strict=True):
        if len(h) != 17:
            raise ValueError(f"OpenSpiel follow hands need 17 cards, got {h!r}")
        filler, other = _split_filler(last, _rest(h, last), 20 - len(last))
        landlord = _sort(last + filler)
        state = _openspiel_state(game, (landlord[:17], h, other), landlord[17:])
        want = "Played cards " + _openspiel_str(last)
        for a in state.legal_actions():
            if state.child(a).observation_string(0).split("\n")[1] == want:
                state.apply_action(a)
                break
        else:
            raise ValueError(f"{last!r} is not a play under OpenSpiel's rules")
        if not state.observation_string(1).startswith("My hand " + _openspiel_str(h) + "\n"):
            raise AssertionError(f"OpenSpiel follow state does not hold {h!r}")
        follows.append((state,))
    fn = pyspiel.State.legal_actions
    return {
        "lead": _time_us(fn, leads, repeat),
        "follow": _time_us(fn, follows, repeat),
        "lead_moves": sum(len(fn(*a)) for a in leads) / len(leads),
        "follow_moves": sum(len(fn(*a)) - 1 for a in follows) / len(follows),
    }


def rlcard_random_games(n: int, seed: int, *, engine_only: bool = False) -> float | None:
    """Games/s of uniform-random self-play through ``rlcard.make("doudizhu")``.

    Default drives ``env.step``, which is what RLCard users pay: it also encodes the numpy
    observation (790/901 floats) every step. ``engine_only=True`` steps ``env.game`` with raw
    action strings, isolating rules + move generation. RLCard has no auction: player 0 is
    always the landlord. Actions are sorted before the random choice because RLCard returns
    them in set order, which varies with PYTHONHASHSEED.
    """
    if (rlcard := _peer("rlcard")) is None:
        return None

    env = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)
    start = time.perf_counter()
    if engine_only:
        game = env.game
        for _ in range(n):
            game.init_game()
            while not game.is_over():
                game.step(rng.choice(sorted(game.state["actions"])))
    else:
        for _ in range(n):
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(rng.choice(sorted(state["legal_actions"])))
    return n / (time.perf_counter() - start)


def openspiel_random_games(n: int, seed: int) -> float | None:
    """Games/s of uniform-random play of pyspiel "dou_dizhu", deal and auction included.

    Chance outcomes in this game are uniform, so a uniform pick among them is the true deal
    distribution. Games where all three players pass the auction (about 1 in 64) end at once
    with zero payoff; they are counted like any other game, as OpenSpiel counts them.
    """
    if (pyspiel := _peer("pyspiel")) is None:
        return None

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return n / (time.perf_counter() - start)


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def main() -> None:
    """Print peer versions, movegen µs per call, and random-game throughput."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"rlcard {_version('rlcard')}, open_spiel {_version('open_spiel')}")
    leads, follows, lasts = sample_positions(args.hands, args.seed)
    for name, movegen in (("rlcard", rlcard_movegen), ("openspiel", openspiel_movegen)):
        res = movegen(leads, lasts, args.repeat, follow_hands=follows)
        if res is None:
            print(f"{name:9} movegen: not installed")
            continue
        print(
            f"{name:9} lead {res['lead']:9.1f} us/call ({res['lead_moves']:.1f} plays)"
            f"   follow {res['follow']:8.1f} us/call ({res['follow_moves']:.2f} plays)"
        )
    games: list[tuple[str, Callable[[], float | None]]] = [
        ("rlcard env.step", lambda: rlcard_random_games(args.games, args.seed)),
        ("rlcard engine", lambda: rlcard_random_games(args.games, args.seed, engine_only=True)),
        ("openspiel", lambda: openspiel_random_games(args.games, args.seed)),
    ]
    for name, run in games:
        rate = run()
        print(f"{name:15} " + ("not installed" if rate is None else f"{rate:8.1f} games/s"))


if __name__ == "__main__":
    main()
