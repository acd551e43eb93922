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

Bot seats have no account: they play with the room's stake bankroll
(``BOT_BANKROLL`` × the room's minimum, at least 100 000) and what they win
or lose is not recorded anywhere (docs/rulings.md, "The hall").
"""

from __future__ import annotations

from collections.abc import Sequence
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


def settle_points(points: Sequence[Any], n: int, a: int,
                  balances: Sequence[int]) -> list[int]:
    """Bean changes (fee included) for game points ``points`` in a room of ``N``, ``A``."""
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
    changes = []
    for s in seats:
        after_gross = balances[s] + gross[s]
        fee = min(a, max(after_gross, 0))
        if gross[s] > 0:
            fee = min(fee, gross[s])
        changes.append(gross[s] - fee)
    return changes


def game_beans(result: dict[str, Any], n: int, a: int, balances: Sequence[int]) -> list[int]:
    """Each seat's bean change for a finished game's ``Result``."""
    if result["ended"] in ("unscored", "dissolved"):
        return [0] * len(result["points"])
    if "beans" in result:
        return [int(b) for b in result["beans"]]
    return settle_points(result["points"], n, a, balances)
