"""Who played with whom, and who won: a finished game's sides, read from its result.

A skill rating needs more than each seat's points: it needs the teams as they
turned out (the landlord against two or three farmers; 五人's open and hidden
landlords together; 找朋友's dealer with his friend, or alone when he called his
own card; 保皇's emperor with his guard, or alone in a 独保, 明 or 暗) and how the
teams finished. This module reads both from ``state.result()`` alone, as plain
data, so that a stored result rates the same as a live one and a rating system
outside cardhall can use it too.

- ``teams``: tuples of seats, every seat in exactly one; the seats' side at the
  end of the game, whatever each seat knew while playing.
- ``ranks``: one per team, 1 the best; equal ranks are a draw (保皇's hand where
  everyone scores 0).
- ``escaped``: the seat whose escape ended the game, else None. The game's
  result scores it against the escaper. Once the sides exist (the result's detail
  names the landlord), the teams are those sides, the escaper's ranked last: he
  ran from his side's game, and a rating must not make running cheaper than
  losing it. Before that (an escape while bidding), the escaper alone against all
  the others. What a rating does with it is the hall's ruling, not the game's.

A game that was not played to a score (``unscored``: every seat on 托管;
``dissolved``: no game at all) has no standing: ``standing`` returns None. A variant
registered elsewhere (``games.register``) without a ``side`` of its own is read as its
winners against the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: A variant's reader of the side a game was played against (``Variant.side``).
Side = Callable[[Mapping[str, Any]], list[int]]


@dataclass(frozen=True, slots=True)
class Standing:
    """A finished game's teams (seats) and each team's rank (1 best; equal: a draw)."""

    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    escaped: int | None = None

    def team_of(self, seat: int) -> int:
        """The index in ``teams`` of the team ``seat`` played for."""
        return next(i for i, team in enumerate(self.teams) if seat in team)

    def to_json(self) -> dict[str, Any]:
        return {"teams": [list(t) for t in self.teams], "ranks": list(self.ranks),
                "escaped": self.escaped}


def landlord(detail: Mapping[str, Any]) -> list[int]:
    """The Dou Dizhu variants whose result names one landlord."""
    return [int(detail["landlord"])]


def landlords(detail: Mapping[str, Any]) -> list[int]:
    """五人: the open landlord and the hidden one (one seat when he is single)."""
    return [int(s) for s in detail["landlords"]]


def dealer_side(detail: Mapping[str, Any]) -> list[int]:
    """找朋友: the dealer and his friend (the dealer alone when he called his own card);
    everyone else attacks."""
    return [s for s, role in enumerate(detail["roles"]) if role != "attacker"]


def royal_side(detail: Mapping[str, Any]) -> list[int]:
    """保皇: the emperor and his guard, 明保 or 暗保; the emperor alone in a 独保."""
    return [s for s, role in enumerate(detail["roles"]) if role != "rebel"]


def standing(result: Mapping[str, Any], side: Side | None) -> Standing | None:
    """The teams and ranks of a finished game (``games.view.Result``), its variant's
    ``side`` reading the sides (``games.standing`` passes the declaration's); None when
    the game was not scored (``unscored``, ``dissolved``)."""
    ended = result["ended"]
    players = len(result["points"])
    winners = {int(s) for s in result["winners"]}
    if ended in ("unscored", "dissolved"):
        return None
    if ended == "escape":
        return _escape(int(result["detail"]["escape"]), players, result["detail"], side)
    if side is None:
        return _by_winners(players, winners)
    seats = side(result["detail"])
    rest = [s for s in range(players) if s not in seats]
    return _ranked([tuple(sorted(seats)), tuple(rest)], winners, result["points"])


def _escape(seat: int, players: int, detail: Mapping[str, Any],
            side: Side | None) -> Standing:
    """An escape: his side's loss when the sides were dealt as he left (the side the
    variant reads from the detail, the escaper's team last), else he alone against
    everyone. A reader that finds no side yet (the landlord still None while bidding,
    a result without one) raises, as it would on any unfinished detail."""
    seats: list[int] | None = None
    if side is not None:
        try:
            seats = side(detail)
        except (KeyError, TypeError, ValueError):
            seats = None
    if not seats or len(set(seats)) >= players or not all(0 <= s < players for s in seats):
        others = tuple(s for s in range(players) if s != seat)
        return Standing((others, (seat,)), (1, 2), escaped=seat)
    mine = tuple(sorted(seats))
    rest = tuple(s for s in range(players) if s not in seats)
    if seat in mine:
        return Standing((rest, mine), (1, 2), escaped=seat)
    return Standing((mine, rest), (1, 2), escaped=seat)


def _by_winners(players: int, winners: set[int]) -> Standing:
    """A variant registered elsewhere, whose result this module cannot read sides from:
    the winners as one team against the rest; no winners (or no losers), a draw of
    every seat on its own."""
    rest = tuple(s for s in range(players) if s not in winners)
    if not winners or not rest:
        return Standing(tuple((s,) for s in range(players)), (1,) * players)
    return Standing((tuple(sorted(winners)), rest), (1, 2))


def _ranked(teams: Sequence[tuple[int, ...]], winners: set[int],
            points: Sequence[Any]) -> Standing:
    """Two teams ranked by the result: the one holding the winners first; no winners
    (everyone scored 0), a draw. Winners on both sides cannot happen in a team game; if
    they did, the points decide, so a malformed result never rates a loser up."""
    won = [bool(winners & set(team)) for team in teams]
    if not any(won):
        return Standing(tuple(teams), (1, 1))
    if all(won):
        totals = [sum(points[s] for s in team) for team in teams]
        first = 0 if totals[0] >= totals[1] else 1
    else:
        first = won.index(True)
    ranks = (1, 2) if first == 0 else (2, 1)
    return Standing(tuple(teams), ranks)


__all__ = ["Side", "Standing", "dealer_side", "landlord", "landlords", "royal_side",
           "standing"]
