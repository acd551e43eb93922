"""Duplicate-deal matches between two bots: ``cardhall arena VARIANT --bots A,B``.

Luck of the deal swamps skill in a few hundred games of Dou Dizhu, so every
deal is played twice with the sides swapped, as in duplicate bridge: first
bot A holds the landlord's seats and B the others, then B holds the
landlord's seats on the very same cards and A the others. Whatever the cards
were worth, both bots had them once. The landlord's seat rotates from deal to
deal (deal ``i`` puts it at seat ``i mod players``), so no seat position
favours either bot.

A game's deal is fixed by its seed (the same seed deals the same cards,
flags the same first bidder, reveals the same card), so both games of a deal
use one seed. With ``fixed_landlord`` the landlord is also fixed by the
``landlord`` option and bidding is skipped, for peers that cannot bid; the
landlord's side is read from the roles the seats' own views give at the start
(五人斗地主's hidden landlord knows he is on it). In 找朋友 it fixes the dealer
instead (``--fixed-landlord`` is the ``dealer`` option there: the hand is then
played as a later hand of a match, the others still take part in choosing
trump), bot A sitting at the dealer's seat, then B. Without it the bots bid:
bot A sits alone at the rotating seat and B at the others, then the reverse;
but where the deal itself gives the roles (五人斗地主: the revealed card names
the landlord and his hidden partner) there is no bidding to leave open, and
the sides are seated as dealt, labelled by the side each seat played:
"landlord" (the landlord's side) and "farmers".

A bot's result in a game is the sum of its seats' points (the game's
``Result``): games are zero-sum,
so bot A's total is minus bot B's, and A wins the game when its total is
positive (a draw at zero, e.g. a dissolved table, counts half). The win
rate's 95% interval is over deals, not games: the two games of a deal share
their cards and are not independent, so each deal's mean is one observation
(normal approximation, clipped to [0, 1]); each side's rate, one game per
deal, uses the Wilson interval.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from cardhall import bots
from cardhall.bots.view import TEAMS, team
from cardhall.cards import format_cards
from cardhall.games import GameState, new_game, variant
from cardhall.games.errors import BadSetup
from cardhall.sim import play_out

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Game:
    """One game of a duplicate pair, from bot A's point of view."""

    deal: int
    #: Bot A's side: "landlord" / "farmers" (sides fixed or dealt) or "alone" / "others"
    #: (bidding).
    side: str
    score: float
    #: 1 win, 0 loss, 0.5 draw (zero total) or abandoned.
    win: float
    abandoned: bool = False
    #: Bot A's seats, and every seat's cards as dealt (the duplicate check).
    seats: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (draws count half a win)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): normal interval of a mean of values in [0, 1], clipped.

    With fewer than two values, or none varying, the sample says nothing of
    the spread; the interval then falls back to Wilson's on the same total.
    """
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 1.0
    mean = sum(values) / n
    if n < 2:
        return (mean, *wilson(mean * n, n, z))
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    if var == 0:
        return (mean, *wilson(mean * n, n, z))
    half = z * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def landlord_side(state: GameState) -> list[int] | None:
    """Seats on the side of the fixed landlord (or 找朋友's dealer) at the start, if roles
    are fixed: every seat whose own view gives it a role on that seat's team (五人斗地主's
    hidden landlord knows he is one). None while no seat has a role (bidding)."""
    own = [team(state.observe(s)["roles"][s]) for s in range(state.players)]
    lead = next((s for s, t in enumerate(own) if t == TEAMS["landlord"]), None)
    if lead is None:
        return None
    return [s for s, t in enumerate(own) if t == own[lead]]


def fixed_option(name: str) -> str | None:
    """The option that fixes the seat every deal is built around: the landlord, or 找朋友's
    dealer (who then only chooses trump with the others, Ruling 4), if the variant has one."""
    options = variant(name).options
    return next((key for key in ("landlord", "dealer") if key in options), None)


def play_deal(name: str, names: tuple[str, str], deal: int, seed: int,
              fixed_landlord: bool = False, house: dict[str, Any] | None = None) -> list[Game]:
    """Both games of deal ``deal``: bot A on the first side, then bot B on it.

    ``house`` holds the table's options (保皇's mode, 烤牌, …) for every game.
    """
    players = variant(name).players
    seat = deal % players
    game_seed = seed + deal
    key = fixed_option(name)
    options: dict[str, Any] = dict(house or {})
    if fixed_landlord and key:
        options[key] = seat
    out = []
    for swap in (0, 1):
        state = new_game(name, seed=game_seed, options=options)
        zones = state.zones()
        cards = tuple(format_cards(zones[f"hand{s}"]) for s in range(players))
        first = landlord_side(state)  # the fixed landlord's side, or the side as dealt
        if first is not None:
            labels = ("dealer", "others") if key == "dealer" else ("landlord", "farmers")
        else:
            first, labels = [seat], ("alone", "others")
        on_first = names[swap]
        other = names[1 - swap]
        seating = [on_first if s in first else other for s in range(players)]
        team = [bots.make(b, name, s, game_seed) for s, b in enumerate(seating)]
        finished = play_out(state, team)
        a_seats = [s for s in range(players) if (s in first) == (swap == 0)]
        result = state.result()
        points = result["points"] if finished and result is not None else [0] * players
        total = float(sum(points[s] for s in a_seats))
        win = 1.0 if total > 0 else 0.0 if total < 0 else 0.5
        out.append(Game(deal, labels[swap], total, win, not finished, tuple(a_seats), cards))
    return out


def _play_deal_args(args: tuple[str, tuple[str, str], int, int, bool, dict[str, Any]]
                    ) -> list[Game]:
    return play_deal(*args)


def run(name: str, names: Sequence[str], deals: int, seed: int = 0,
        fixed_landlord: bool = False, jobs: int = 1,
        options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``deals`` duplicate deals and summarise them (JSON-able); ``options`` are the
    table's house options, checked before any deal is played."""
    if len(names) != 2:
        raise bots.BotError("the arena seats two bots: --bots A,B")
    if deals < 1:
        raise BadSetup("bad_option", "an arena needs at least one deal", option="deals")
    variant(name)  # an unknown variant fails here, with its message
    if fixed_landlord and fixed_option(name) is None:
        raise BadSetup("bad_option", f"{name} has no fixed landlord or dealer option: play it "
                       "without --fixed-landlord", option="fixed_landlord")
    house = dict(options or {})
    new_game(name, seed=seed, options=house)  # a bad option fails here, with its message
    pair = (names[0], names[1])
    for bot_name in pair:  # fail early on an unknown bot or a variant it cannot play
        bots.make(bot_name, name, 0, seed)
    start = time.perf_counter()
    tasks = [(name, pair, d, seed, fixed_landlord, house) for d in range(deals)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            games = [g for pair_games in pool.map(_play_deal_args, tasks, chunksize=4)
                     for g in pair_games]
    else:
        games = [g for task in tasks for g in _play_deal_args(task)]
    summary = summarise(games, pair)
    summary.update(variant=name, options=house, deals=deals, seed=seed,
                   fixed_landlord=fixed_landlord,
                   seconds=round(time.perf_counter() - start, 1))
    return summary


def summarise(games: Sequence[Game], names: tuple[str, str]) -> dict[str, Any]:
    """Win rates with intervals and points per game, per bot and per side."""
    per_deal: dict[int, list[Game]] = {}
    for g in games:
        per_deal.setdefault(g.deal, []).append(g)
    a, b = names if names[0] != names[1] else (f"{names[0]} #1", f"{names[1]} #2")
    deal_means = [sum(g.win for g in gs) / len(gs) for gs in per_deal.values()]
    mean, low, high = mean_interval(deal_means)
    points = sum(g.score for g in games) / len(games) if games else 0.0
    sides: dict[str, dict[str, Any]] = {}
    for label in dict.fromkeys(g.side for g in games):
        mine = [g for g in games if g.side == label]
        wins = sum(g.win for g in mine)
        lo, hi = wilson(wins, len(mine))
        sides[label] = {"games": len(mine), "win_rate": _r(wins / len(mine)),
                        "ci95": [_r(lo), _r(hi)],
                        "points_per_game": _r(sum(g.score for g in mine) / len(mine))}
    return {
        "bots": [a, b],  # a bot playing itself is named twice, as #1 (first side first) and #2
        "games": len(games),
        "abandoned": sum(1 for g in games if g.abandoned),
        "draws": sum(1 for g in games if g.win == 0.5),
        "results": {
            a: {"win_rate": _r(mean), "ci95": [_r(low), _r(high)],
                "points_per_game": _r(points), "by_side": sides},
            b: {"win_rate": _r(1 - mean), "ci95": [_r(1 - high), _r(1 - low)],
                "points_per_game": _r(-points)},
        },
    }


def _r(x: float) -> float:
    return round(x, 4)


def describe(summary: dict[str, Any]) -> str:
    """The summary as a few lines for people."""
    a, b = summary["bots"]
    ra, rb = summary["results"][a], summary["results"][b]
    fixed = f"fixed {fixed_option(summary['variant'])}"
    mode = fixed if summary["fixed_landlord"] else "with bidding"
    if summary.get("options"):
        mode += ", " + ", ".join(f"{k}={v}" for k, v in summary["options"].items())
    lines = [f"{summary['variant']}: {a} vs {b}, {summary['deals']} duplicate deals "
             f"({summary['games']} games, {mode}), seed {summary['seed']}, "
             f"{summary['seconds']} s"]
    for name, row in ((a, ra), (b, rb)):
        lo, hi = row["ci95"]
        lines.append(f"  {name:12} win rate {row['win_rate']:.3f}  95% [{lo:.3f}, {hi:.3f}]  "
                     f"points/game {row['points_per_game']:+.3f}")
    for label, row in ra["by_side"].items():
        lo, hi = row["ci95"]
        lines.append(f"    {a} as {label:8} {row['win_rate']:.3f}  95% [{lo:.3f}, {hi:.3f}]  "
                     f"points/game {row['points_per_game']:+.3f}  ({row['games']} games)")
    if summary["abandoned"] or summary["draws"]:
        lines.append(f"  draws {summary['draws']}, abandoned {summary['abandoned']}")
    return "\n".join(lines)
