"""Settlement of 欢乐斗地主 and its 癞子场: the multiplier, the natural end, the escape.

Rules (../shared/rules/ddz-happy.md §4, ddz-laizi.md §5; numbers are their rulings):

- M = M0 × 2^robs × show factor (the largest, Ruling 5) × bomb factors ×
  2 for spring or anti-spring (Ruling 9). Happy: every bomb and the rocket
  ×2 (Ruling 10). Laizi: soft ×2, hard, pure-wild and rocket ×4 (laizi
  Ruling 7), points × 0.25 and capped at 10 000 (``beans.py``).
- A natural end settles each farmer's pair with the landlord (§4.2) and, in a
  bean room (option ``N``), the beans (§4.3). A natural end with every seat on
  托管 is not scored (platform §4): no points, no beans, no fee.
- Escape (§4.4, base ``@S leave``): the game ends at once; every bomb of the
  deal counts (Ruling 14; laizi Ruling 11), the leaver pays the others.

The ``Result`` (``games.view.Result``) names the winners by seat, the points
per seat and the beans per seat (bean rooms); its ``detail`` keeps this
game's own settlement words (scores, pairs, doubling, the multiplier broken
down by count, the bean changes with gross, fees and house).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from cardhall.cards import BIG_JOKER, RANK_CHARS, SMALL_JOKER, TWO
from cardhall.games import beans
from cardhall.games.climbing import ClimbingGame
from cardhall.games.view import multiplier as multiplier_of

UNSCORED = ("every seat was on 托管 at the natural end (platform §4, 不予计分): "
            "no points, no beans, no fee")


class HappyScoring(ClimbingGame):
    """The stake and the settlement; ``happy.Happy`` supplies the set-up phases that feed it."""

    #: Bomb ladder tier → (class, factor when played). Happy Ruling 10: the rocket is ×2.
    bomb_classes: ClassVar[dict[int, tuple[str, int]]] = {1: ("bomb", 2), 2: ("rocket", 2)}
    coefficient: ClassVar[Fraction] = Fraction(1)
    cap: ClassVar[int | None] = None

    robs: int
    shown: dict[int, int]
    doubled: dict[int, bool]
    holder: int | None
    held: list[tuple[int, ...]] | None
    wild: int | None
    escaped: int | None
    queue: list[int]

    # -- the multiplier --------------------------------------------------------------

    def multiplier(self, bombs: dict[str, int] | None = None,
                   spring: str | None = None) -> dict[str, Any]:
        """M broken down by cause (the detail's words); bombs default to those played so far."""
        if bombs is None:
            bombs = self._played_bombs()
        show = max(self.shown.values(), default=1)
        spring_factor = 2 if spring else 1
        bomb_factor = self._bomb_factor(bombs)
        m0 = self.options["M0"]
        return {"M0": m0, "robs": self.robs, "rob_factor": 2 ** self.robs, "show": show,
                "bombs": bombs, "bomb_factor": bomb_factor, "spring": spring,
                "spring_factor": spring_factor,
                "M": m0 * 2 ** self.robs * show * bomb_factor * spring_factor}

    def _class_factors(self) -> dict[str, int]:
        return {name: f for name, f in self.bomb_classes.values()}

    def _bomb_factor(self, bombs: dict[str, int]) -> int:
        factor = 1
        for name, f in self._class_factors().items():
            factor *= f ** bombs.get(name, 0)
        return factor

    def _multiplier_causes(self) -> dict[str, Any]:
        """``games.view.Multiplier``: M0, robs, show, each bomb class, spring; total = M.

        After an escape the bombs are those of the deal (Ruling 14), as the penalty counts them.
        """
        escaped = self.escaped is not None
        bombs = self._deal_bombs() if escaped else self._played_bombs()
        spring = None if escaped else self.spring()
        causes: dict[str, int | float] = {"M0": self.options["M0"], "robs": 2 ** self.robs,
                                  "show": max(self.shown.values(), default=1)}
        for name, f in self._class_factors().items():
            causes[name] = f ** bombs.get(name, 0)
        causes["spring"] = 2 if spring else 1
        return dict(multiplier_of(causes))

    def _played_bombs(self) -> dict[str, int]:
        counts = {name: 0 for name, _ in self.bomb_classes.values()}
        for play in self.bombs:
            counts[self.bomb_classes[play.tier][0]] += 1
        return counts

    def _deal_bombs(self) -> dict[str, int]:
        """Escape (Ruling 14): every four held by one player after the kitty, and the rocket."""
        held = self.held or self.counts
        fours = sum(1 for c in held for r in range(TWO + 1) if c[r] == 4)
        rocket = sum(1 for c in held if c[SMALL_JOKER] and c[BIG_JOKER])
        return {"bomb": fours, "rocket": rocket}

    # -- the natural end ---------------------------------------------------------------

    def _settle(self) -> dict[str, Any]:
        assert self.landlord is not None and self.winner is not None
        landlord = self.landlord
        spring = self.spring()
        mult = self.multiplier(self._played_bombs(), spring)
        doubles = {s: 2 if self.doubled.get(s) else 1 for s in range(self.players)}
        pairs = beans.pair_points(mult["M"], doubles, landlord, self.coefficient, self.cap)
        uncapped = beans.pair_points(mult["M"], doubles, landlord, self.coefficient)
        landlord_wins = self.side[self.winner] == 0
        unscored = self.all_auto()
        if unscored:
            pairs = {f: Fraction(0) for f in pairs}
        sign = 1 if landlord_wins else -1
        scores = [Fraction(0)] * self.players
        for farmer, x in pairs.items():
            scores[farmer] -= sign * x
            scores[landlord] += sign * x
        detail: dict[str, Any] = {
            "scores": [beans.as_number(x) for x in scores],
            "winner": "landlord" if landlord_wins else "farmers",
            "landlord": landlord,
            "spring": spring,
            "multiplier": mult,
            "doubling": {"doubled": [s for s in range(self.players) if doubles[s] == 2],
                         "factors": [doubles[s] for s in range(self.players)]},
            "pairs": [{"farmer": f, "points": beans.as_number(x)} for f, x in pairs.items()],
            "coefficient": beans.as_number(self.coefficient),
            "capped": not unscored and pairs != uncapped,
        }
        if unscored:
            detail["unscored"] = UNSCORED
        self._settle_extra(detail)
        changes = None
        n = self.options["N"]
        if n is not None:
            settled = (beans.Beans((0,) * 3, (0,) * 3, (0,) * 3, 0) if unscored else
                       beans.settle(landlord, pairs, landlord_wins, n, self.options["A"],
                                    self.options["balances"]))
            detail["beans"] = settled.to_json()
            changes = list(settled.changes)
        winners = [landlord] if landlord_wins else [s for s in range(self.players)
                                                    if s != landlord]
        return self._outcome(detail, winners, detail["scores"], "finished", changes)

    def _settle_extra(self, detail: dict[str, Any]) -> None:
        """Variant facts for the result (the laizi wild rank)."""

    # -- escape ------------------------------------------------------------------------

    def _escape(self, seat: int) -> list[dict[str, Any]]:
        """§4.4: the game ends at once; the escaper pays the penalty to the others.

        Called by base for ``@S leave`` and ``@S leave forced`` (``leave_policy = "escape"``).
        Before the deal (``ready``) the pre-start farmer rate applies (platform §2.2); later
        the landlord, or while robbing the provisional landlord, pays the landlord rate.
        """
        self.escaped = seat
        provisional = self.landlord if self.landlord is not None else self.holder
        mult = self.multiplier(self._deal_bombs())
        if self.phase == "ready":
            role, m_act = "farmer", 1
        else:
            role = "landlord" if seat == provisional else "farmer"
            m_act = mult["M"] // mult["M0"]
        p, x_esc = beans.escape_points(m_act, self.options["M0"], role, self.coefficient,
                                       self.cap)
        scores = [x_esc / 2] * self.players
        scores[seat] = -x_esc
        detail: dict[str, Any] = {
            "scores": [beans.as_number(x) for x in scores], "escape": seat, "role": role,
            "M_act": m_act, "P": beans.as_number(p), "X_esc": beans.as_number(x_esc),
            "multiplier": mult, "landlord": self.landlord,
        }
        self._settle_extra(detail)
        changes = None
        n = self.options["N"]
        if n is not None:
            settled = beans.settle_escape(seat, x_esc, self.players, n, self.options["A"],
                                          self.options["balances"])
            detail["beans"] = settled.to_json()
            changes = list(settled.changes)
        self.phase = "over"
        self.to_act = None
        self.queue = []
        others = [s for s in range(self.players) if s != seat]
        self._result = self._outcome(detail, others, detail["scores"], "escape", changes)
        return [{"type": "over", "result": self._result}]


class LaiziScoring(HappyScoring):
    """癞子场's bomb classes and their factors, the 0.25 coefficient and the 10 000 cap."""

    #: laizi §5 and Ruling 7: these factors replace the normal ×2.
    bomb_classes: ClassVar[dict[int, tuple[str, int]]] = {
        1: ("soft", 2), 2: ("hard", 4), 3: ("pure", 4), 4: ("rocket", 4)}
    coefficient: ClassVar[Fraction] = Fraction(1, 4)
    cap: ClassVar[int | None] = 10_000

    def _deal_bombs(self) -> dict[str, int]:
        """Laizi Ruling 11: hard, pure-wild and rocket from the deal (×4); soft only if played."""
        held = self.held or self.counts
        wild = self.wild
        hard = sum(1 for c in held for r in range(TWO + 1) if c[r] == 4 and r != wild)
        pure = sum(1 for c in held if wild is not None and c[wild] == 4)
        rocket = sum(1 for c in held if c[SMALL_JOKER] and c[BIG_JOKER])
        soft = sum(1 for p in self.bombs if self.bomb_classes[p.tier][0] == "soft")
        return {"soft": soft, "hard": hard, "pure": pure, "rocket": rocket}

    def _settle_extra(self, detail: dict[str, Any]) -> None:
        detail["wild"] = None if self.wild is None else RANK_CHARS[self.wild]
