"""Points and beans (欢乐豆) of the happy-family rooms: pure arithmetic, no game state.

The game modules work out *what happened* (the multiplier, who doubled, who
won or escaped); this module turns that into points and bean changes, and the
hall calls the same functions. Rules (../shared/rules/ddz-happy.md §4,
ddz-laizi.md §5, platform.md §6), step by step:

Points (happy §4.2, Ruling 7). Each farmer F plays one pair against the
landlord L: ``x(L,F) = 底分 × M × d_L × d_F`` with 底分 = 1 (Ruling 18) and
``d = 2`` for a player who doubled. The landlord's points are the sum of his
pairs, so the game is zero-sum. Laizi rooms multiply every pair by 0.25
(laizi Ruling 8) and, when the landlord's total passes 10 000, scale every
pair by ``10 000 / X_L`` (Ruling 9: the cap keeps the game zero-sum).
*House rule:* a scaled pair is rounded half up to a quarter point, the laizi
coefficient's own unit, so points stay exact binary fractions that sum to 0.

Beans (happy §4.3, Ruling 12), exact fractions until the last step:

1. pair amounts ``a = x × N``;
2. loser floor: nobody pays more than his balance; a short landlord's
   balance is shared by the farmers in proportion to their ``a``;
3. winner cap: nobody receives more than his own balance at the start; the
   loser pays correspondingly less;
4. integer beans: every pair rounded half up (laizi Ruling 10), the
   landlord's amount the sum of his pairs. *House rule:* when a floor or cap
   bound and rounding two exact halves up would pass it by one bean, the last
   pair gives that bean back, so the bound always holds;
5. the fee ``A`` from every player, never making a balance negative and never
   more than a winner's gross win (Ruling 11: net changes, house gets the fees).

Without balances (a points room, or the rule file's source example) there are
no floors or caps.

Escape (happy §4.4, Rulings 13–14; laizi Ruling 11): ``P`` is 20 / 10
(landlord / farmer) when ``M_act < 10``, else ``4 × M_act`` / ``2 × M_act``;
``X_esc = 底分 × M0 × P`` (× 0.25 and capped in laizi rooms). The escaper pays
``X_esc × N + A``; each other player receives ``floor(X_esc × N / 2)`` with no
fee, the odd bean going to the house. *House rule* (platform §6 "nobody goes
below 0"): the escaper pays at most his balance and each receiver gets at most
his own balance, the escaper paying correspondingly less. Larger tables
(platform §5) cut the penalty into one equal share per other player
(``settle_escape_shared``); points rooms pay it in points (``escape_shares``).

Two landlords (ddz-5p Ruling 6): ``two_landlord_beans`` takes the same steps
pair by pair, with the open landlord's odd bean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Any

Points = int | Fraction

#: Base score (底分), fixed at 1 (happy Ruling 18): stakes scale through M0 and N.
BASE = 1
#: The identity-coefficient-free escape rates of happy §4.4: (below 10, factor at 10+).
ESCAPE_RATES = {"landlord": (20, 4), "farmer": (10, 2)}
ESCAPE_THRESHOLD = 10


def round_half_up(x: Points) -> int:
    """Nearest integer, halves up (laizi Ruling 10); never banker's rounding."""
    return floor(Fraction(x) + Fraction(1, 2))


def to_quarter(x: Points) -> Fraction:
    """``x`` rounded half up to a multiple of 0.25 (the laizi coefficient's unit)."""
    return Fraction(round_half_up(Fraction(x) * 4), 4)


def as_number(x: Points) -> int | float:
    """JSON form of a point value: an int when whole, else its (exact binary) float."""
    q = Fraction(x)
    return q.numerator if q.denominator == 1 else float(q)


# -- points ----------------------------------------------------------------------------


def pair_points(multiplier: Points, doubles: Mapping[int, int], landlord: int,
                coefficient: Points = 1, cap: Points | None = None) -> dict[int, Fraction]:
    """Each farmer's pair ``x(L,F)`` (always ≥ 0; the winner decides its sign).

    ``doubles`` maps every seat to its doubling factor (1 or 2). With a ``cap``
    the pairs are scaled so that the landlord's sum is at most the cap.
    """
    d_l = doubles[landlord]
    pairs = {f: Fraction(BASE) * Fraction(multiplier) * d_l * d * Fraction(coefficient)
             for f, d in doubles.items() if f != landlord}
    total = sum(pairs.values(), Fraction(0))
    if cap is not None and total > cap:
        scale = Fraction(cap) / total
        pairs = {f: to_quarter(x * scale) for f, x in pairs.items()}
    return pairs


def escape_points(m_act: Points, m0: int, role: str, coefficient: Points = 1,
                  cap: Points | None = None) -> tuple[Fraction, Fraction]:
    """``(P, X_esc)`` of an escaper in ``role`` ("landlord" or "farmer")."""
    low, factor = ESCAPE_RATES[role]
    p = Fraction(low) if m_act < ESCAPE_THRESHOLD else factor * Fraction(m_act)
    x_esc = BASE * m0 * p * Fraction(coefficient)
    if cap is not None and x_esc > cap:
        x_esc = Fraction(cap)
    return p, x_esc


# -- beans -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Beans:
    """Bean changes of one game: ``changes[s] = gross[s] - fees[s]``; the house keeps ``house``."""

    changes: tuple[int, ...]
    gross: tuple[int, ...]
    fees: tuple[int, ...]
    house: int

    def to_json(self) -> dict[str, Any]:
        return {"changes": list(self.changes), "gross": list(self.gross),
                "fees": list(self.fees), "house": self.house}


def settle(landlord: int, pairs: Mapping[int, Points], landlord_wins: bool, n: int, a: int,
           balances: Sequence[int] | None = None) -> Beans:
    """Bean changes of a finished game (happy §4.3), from the points of each pair.

    ``pairs`` maps each farmer to ``x(L,F)`` ≥ 0; ``n`` is the room coefficient
    N, ``a`` the fee A, ``balances`` every seat's beans at the start (None: no
    floors, caps or fee limits).
    """
    farmers = list(pairs)
    seats = len(balances) if balances is not None else max([landlord, *farmers]) + 1
    amount = {f: Fraction(x) * n for f, x in pairs.items()}
    bound: int | None = None  # the landlord's floor or cap, when balances are known
    if balances is not None:
        bound = balances[landlord]
        if landlord_wins:
            amount = {f: min(x, Fraction(balances[f])) for f, x in amount.items()}
            amount = _scale_to(amount, bound)
        else:
            amount = _scale_to(amount, bound)
            amount = {f: min(x, Fraction(balances[f])) for f, x in amount.items()}
    paid = {f: round_half_up(x) for f, x in amount.items()}
    if bound is not None:
        for f in reversed(farmers):  # two exact halves rounded up: give one back
            if sum(paid.values()) > bound and paid[f] > 0:
                paid[f] -= 1
    sign = 1 if landlord_wins else -1
    gross = [0] * seats
    for f, beans in paid.items():
        gross[f] -= sign * beans
        gross[landlord] += sign * beans
    winners = {landlord} if landlord_wins else set(farmers)
    fees = [_fee(s in winners, gross[s], a, None if balances is None else balances[s])
            for s in range(seats)]
    return Beans(tuple(g - f for g, f in zip(gross, fees, strict=True)), tuple(gross),
                 tuple(fees), sum(fees))


def settle_escape(escaper: int, x_esc: Points, seats: int, n: int, a: int,
                  balances: Sequence[int] | None = None) -> Beans:
    """Bean changes when ``escaper`` leaves a running game (happy §4.4)."""
    return settle_escape_shared(escaper, x_esc, seats, n, a, balances, parts=2)


def settle_escape_shared(escaper: int, x_esc: Points, seats: int, n: int, a: int,
                         balances: Sequence[int] | None = None, *,
                         parts: int | None = None) -> Beans:
    """``settle_escape`` with the penalty cut into ``parts`` shares (default: one per other seat).

    happy §4.4 gives each of the two others ``floor(X_esc × N / 2)``; platform
    §5 gives the others of a larger table equal shares (5-player: a quarter
    each). The beans that do not divide go to the house, as the odd bean does.
    """
    owed = round_half_up(Fraction(x_esc) * n)
    if balances is not None:
        owed = min(owed, balances[escaper])
    share = owed // (seats - 1 if parts is None else parts)
    gross = [0] * seats
    for s in range(seats):
        if s != escaper:
            gross[s] = share if balances is None else min(share, balances[s])
    capped_away = sum(share - gross[s] for s in range(seats) if s != escaper)
    pays = owed - capped_away
    gross[escaper] = -pays
    fees = [0] * seats
    fees[escaper] = _fee(False, -pays, a, None if balances is None else balances[escaper])
    house = fees[escaper] + pays - sum(g for g in gross if g > 0)
    return Beans(tuple(g - f for g, f in zip(gross, fees, strict=True)), tuple(gross),
                 tuple(fees), house)


def escape_shares(x_esc: Points, seats: int, escaper: int,
                  unit: Points = 1) -> list[Fraction]:
    """Points of an escape in a points room: equal shares of ``X_esc``, zero-sum.

    Each other seat receives ``X_esc / (seats - 1)`` rounded down to a multiple
    of ``unit`` (the smallest point the game reports); the escaper pays what
    they receive, so the points sum to zero exactly (docs/rulings.md).
    """
    step = Fraction(unit)
    share = floor(Fraction(x_esc) / (seats - 1) / step) * step
    points = [share] * seats
    points[escaper] = -share * (seats - 1)
    return points


def _scale_to(amount: dict[int, Fraction], bound: int) -> dict[int, Fraction]:
    """Proportional shares of ``bound`` when the amounts add up to more (Ruling 12)."""
    total = sum(amount.values(), Fraction(0))
    if total <= bound:
        return amount
    return {f: x * bound / total for f, x in amount.items()}


def _fee(winner: bool, gross: int, a: int, balance: int | None) -> int:
    """The house fee: at most a winner's gross win, never more than a loser has left."""
    if winner:
        return max(0, min(a, gross))
    if balance is None:
        return a
    return max(0, min(a, balance + gross))


def two_landlord_beans(pairs: Mapping[tuple[int, int], Fraction], landlords_win: bool,
                       open_landlord: int, n: int, fee: int,
                       balances: Sequence[int] | None) -> Beans:
    """Beans of a two-landlord game, from each pair's points ``x(l, f)`` (Ruling 6).

    ``beans.settle`` handles one landlord (the single-landlord case uses it);
    here every farmer has a pair with each landlord. Same steps, same order:
    amounts ``x × N``; each loser's floor, then each winner's cap, sharing a
    shortfall among his pairs in proportion; then whole beans per pair, half
    up; then, where rounding passed a floor or cap, the last pair gives a bean
    back; then the fee.

    The one exception to "half up": a farmer whose pairs with both landlords
    are exact halves owes a whole number, and rounding both up would make him
    pay (or receive) a bean that nobody owes. One of his pairs rounds up, the
    other down, in favour of the open and the hidden landlord alternately,
    the open landlord first: the landlords' totals then differ by at most the
    one odd bean, and it goes to the open landlord (he receives it when the
    landlords win and keeps it when they lose).
    """
    amount = {pair: x * n for pair, x in pairs.items()}
    owed = {(lo, f): (f, lo) if landlords_win else (lo, f) for lo, f in pairs}  # payer, payee
    if balances is not None:
        for side in (0, 1):  # 0: the losers' floors, then 1: the winners' caps
            for seat, balance in enumerate(balances):
                mine = [pair for pair in amount if owed[pair][side] == seat]
                total = sum((amount[pair] for pair in mine), Fraction(0))
                if total > balance:
                    amount.update({pair: amount[pair] * balance / total for pair in mine})
    beans = {pair: round_half_up(a) for pair, a in amount.items()}
    hidden = next(lo for lo, _ in pairs if lo != open_landlord)
    half = Fraction(1, 2)
    split = [f for f in sorted({f for _, f in pairs})
             if amount[open_landlord, f] % 1 == half and amount[hidden, f] % 1 == half]
    for k, f in enumerate(split):
        favoured, other = (open_landlord, hidden) if k % 2 == 0 else (hidden, open_landlord)
        beans[other if landlords_win else favoured, f] -= 1
    if balances is not None:
        for side in (0, 1):
            for seat, balance in enumerate(balances):
                for pair in reversed([p for p in beans if owed[p][side] == seat]):
                    excess = sum(beans[p] for p in beans if owed[p][side] == seat) - balance
                    beans[pair] -= max(0, min(excess, beans[pair]))
    seats = len(balances) if balances is not None else 1 + max(max(pair) for pair in pairs)
    gross = [0] * seats
    for pair, amount_paid in beans.items():
        payer, payee = owed[pair]
        gross[payer] -= amount_paid
        gross[payee] += amount_paid
    winners = {payee for _, payee in owed.values()}
    fees = []
    for seat in range(seats):
        if seat in winners:
            room = gross[seat]  # a winner's fee never exceeds his gross win
        else:
            room = fee if balances is None else balances[seat] + gross[seat]
        fees.append(max(0, min(fee, room)))
    return Beans(tuple(g - f for g, f in zip(gross, fees, strict=True)), tuple(gross),
                 tuple(fees), sum(fees))
