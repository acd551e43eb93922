"""Beans of a finished game (platform rule §6): ``X × N`` between the players, fee ``A``.

The games that settle beans themselves (欢乐, 癞子: they need the balances for
doubling and caps during the game) return them in ``result["beans"]``; for the
rest the hall applies the same rule to the game's points:

- each loser pays ``|X| × N``, at most his balance (nobody goes below 0);
- each winner receives ``X × N``, at most his own balance at the start;
- the side that would move more is scaled down to the other, in proportion,
  so beans stay zero-sum before the fee; rounding is half up, the remainder
  given to the largest shares first;
- the fee ``A`` is taken from every player, never below 0, and never more than
  a winner's gross win;
- an unscored, dissolved or void game moves nothing and takes no fee.

``game_split`` also says how much of each change is the fee: a settlement that
explains itself shows it (the ``settled`` message's ``fees``, docs/protocol.md).

Bot seats have no account: they play with the room's stake bankroll
(``BOT_BANKROLL`` × the room's minimum, at least 100 000) and what they win
or lose is not recorded anywhere (docs/rulings.md, "The hall").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

BOT_BANKROLL = 10


def bot_balance(min_beans: int) -> int:
    return max(100_000, BOT_BANKROLL * min_beans)


def _round_shares(shares: dict[int, Fraction], total: int) -> dict[int, int]:
    """Whole beans summing to ``total``, each share rounded, remainders to the largest."""
    out = {s: int(x) for s, x in shares.items()}
    rest = total - sum(out.values())
    for s in sorted(shares, key=lambda k: (-(shares[k] - int(shares[k])), k))[:max(rest, 0)]:
        out[s] += 1
    return out


@dataclass(frozen=True, slots=True)
class BeanSplit:
    """Each seat's bean change (fee included) and the fee taken in it, by seat."""

    changes: list[int]
    fees: list[int]


def settle_points(points: Sequence[Any], n: int, a: int,
                  balances: Sequence[int]) -> list[int]:
    """Bean changes (fee included) for game points ``points`` in a room of ``N``, ``A``."""
    return split_points(points, n, a, balances).changes


def split_points(points: Sequence[Any], n: int, a: int,
                 balances: Sequence[int]) -> BeanSplit:
    """``settle_points`` with the fee each seat paid."""
    seats = range(len(points))
    pay = {s: min(Fraction(-points[s]) * n, Fraction(balances[s]))
           for s in seats if points[s] < 0}
    win = {s: min(Fraction(points[s]) * n, Fraction(balances[s]))
           for s in seats if points[s] > 0}
    moved = min(sum(pay.values(), Fraction(0)), sum(win.values(), Fraction(0)))
    total = int(moved + Fraction(1, 2))  # half up
    gross = [0] * len(points)
    if total and pay and win:
        pay_total, win_total = sum(pay.values()), sum(win.values())
        for s, x in _round_shares({s: x * moved / pay_total for s, x in pay.items()},
                                  total).items():
            gross[s] -= x
        for s, x in _round_shares({s: x * moved / win_total for s, x in win.items()},
                                  total).items():
            gross[s] += x
    fees = []
    for s in seats:
        after_gross = balances[s] + gross[s]
        fee = min(a, max(after_gross, 0))
        if gross[s] > 0:
            fee = min(fee, gross[s])
        fees.append(fee)
    return BeanSplit([g - f for g, f in zip(gross, fees, strict=True)], fees)


def game_beans(result: dict[str, Any], n: int, a: int, balances: Sequence[int]) -> list[int]:
    """Each seat's bean change for a finished game's ``Result``."""
    return game_split(result, n, a, balances).changes


def game_split(result: dict[str, Any], n: int, a: int, balances: Sequence[int]) -> BeanSplit:
    """Each seat's bean change and fee for a finished game's ``Result``: the game's own
    (``result["beans"]``, its fees in ``detail["beans"]``) where it settles beans itself."""
    seats = len(result["points"])
    if result["ended"] in ("unscored", "dissolved"):
        return BeanSplit([0] * seats, [0] * seats)
    if "beans" in result:
        own = result["detail"].get("beans") or {}
        return BeanSplit([int(b) for b in result["beans"]],
                         [int(f) for f in own.get("fees", [0] * seats)])
    return split_points(result["points"], n, a, balances)
