"""The exact solver for open-hand endgames (残局) of the climbing games: three hands.

A landlord against two farmers who cooperate: the farmers win when either of them goes
out first, the landlord when he does. The hands play in turn, HAND_TO_MOVE → OTHER_HAND →
THIRD_HAND → HAND_TO_MOVE; a play stands until the two other hands have passed in a row,
and then whoever made it leads. So a position is the three hands, the play to beat and
who made it: the hand just before the one to move, or (after one pass) the hand after it.

Issue 21's interface names no landlord, so the convention (docs/rulings.md, "The endgame
solver") is that the hand to move is the landlord unless told (``landlord=2`` or ``3``,
``--landlord N``): the usual 残局 puts the solver's user in the landlord's seat, leading.
``last`` is the play of THIRD_HAND, the hand before the one to move.

The search is the two-hand solver's (rules/solve.py, whose ``solve`` answers three
hands too) with one more seat: minimax over
the rule set's own moves, the side to move winning if some action leaves a position its
side wins. It is memoised on the position seen from the hand to move (its hand, the next
two, the play to beat, whether one pass has followed it, where the landlord sits), so
the three rotations of the table share nothing they need not. Three hands branch far
more than two (each play can be answered, or passed, by two hands), so ``MAX_CARDS``
bounds a hand: beyond it the answer could take minutes (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from cardhall.cards import NUM_RANKS
from cardhall.rules.plays import Play
from cardhall.rules.ruleset import Cards, RuleError, RuleSet
from cardhall.rules.verdict import Counts, Verdict, action_text, without

#: The hands as the command line numbers them (``--landlord N``).
HAND_TO_MOVE, OTHER_HAND, THIRD_HAND = 1, 2, 3
#: The most cards a hand may hold for a three-hand position. Measured on random ddz3
#: positions (docs/performance.md): at 7 cards a hand the median is a few hundredths of
#: a second and the worst a few seconds; at 8 the worst passed 15 s.
MAX_CARDS = 7


class ThreeHandSolver:
    """One rule set's three-hand positions, memoised across calls. ``limit`` bounds the
    memo (past it, the least recently used positions go), so a stranger's position
    cannot make it grow without end; ``max_cards`` bounds the hands it accepts."""

    def __init__(self, rs: RuleSet, limit: int = 1_000_000, max_cards: int = MAX_CARDS) -> None:
        self.rs = rs
        self.max_cards = max_cards
        self._wins = lru_cache(maxsize=limit)(self._search)
        # The hands searched are the checked ones less plays, so a plain ladder rule set's
        # moves come straight from its generator, without checking the hand again (a
        # quarter of the time); wild and 保皇 rule sets go through ``moves``.
        self._moves: Callable[[Counts, Play | None], list[Play]] = rs.moves
        if rs.comparison == "ladder" and rs.wild is None:
            gen = rs.gen
            self._moves = lambda counts, last: gen.plays(gen.codes(counts, last))

    def solve(self, to_move: Cards, other: Cards, third: Cards, last: Play | None = None,
              landlord: int = HAND_TO_MOVE) -> Verdict:
        """Whether the side of ``to_move`` wins, and a winning action. ``to_move`` leads,
        or answers ``last``, played by ``third``; ``landlord`` is 1, 2 or 3."""
        hands = self._checked(to_move, other, third, last, landlord)
        me, a, b = hands
        lord = landlord - 1
        for action in self._actions(me, last, False, lord):
            if self._takes(me, a, b, last, False, lord, action):
                return Verdict(True, "pass" if action is None else action_text(action))
        return Verdict(False, None)

    def wins(self, me: Counts, a: Counts, b: Counts, last: Play | None, passed: bool,
             lord: int) -> bool:
        """Whether the side of the hand holding ``me`` wins, to move, in the search's own
        terms (``_search``: ``passed`` when ``last`` was made by ``a`` and ``b`` passed;
        ``lord`` 0, 1 or 2 from the hand to move). For a caller that walks a game move by
        move (a puzzle), which meets the one-pass positions ``solve`` does not take;
        the hands are not checked."""
        return self._wins(me, a, b, last, passed, lord)

    def _checked(self, to_move: Cards, other: Cards, third: Cards, last: Play | None,
                 landlord: int) -> tuple[Counts, Counts, Counts]:
        if landlord not in (HAND_TO_MOVE, OTHER_HAND, THIRD_HAND):
            raise RuleError(f"the landlord is hand 1, 2 or 3 (the hand to move first), "
                            f"not {landlord}")
        hands = (self.rs.hand(to_move), self.rs.hand(other), self.rs.hand(third))
        if not all(any(h) for h in hands):
            raise RuleError("all three hands must hold cards: a hand with none has gone out")
        biggest = max(sum(h) for h in hands)
        if biggest > self.max_cards:
            raise RuleError(f"three hands are solved up to {self.max_cards} cards a hand "
                            f"(got {biggest}): beyond that the search may take minutes")
        together = [sum(h[r] for h in hands) for r in range(NUM_RANKS)]
        for rank in last.cards if last is not None else ():
            together[rank] += 1
        try:
            self.rs.hand(together)
        except RuleError as exc:
            raise RuleError(f"the hands and the play hold more cards than the deck: {exc}") \
                from None
        return hands

    def _actions(self, me: Counts, last: Play | None, passed: bool,
                 lord: int) -> Sequence[Play | None]:
        """The plays, most cards first (going out, or leaving little to answer, is found
        early), and the pass (None) when answering: first when the play to beat is a
        partner's, which is usually best left standing. The verdict does not depend on
        the order, only the time to find it."""
        plays = sorted(self._moves(me, last), key=lambda p: -p.size)
        if last is None:
            return plays
        maker = 1 if passed else 2  # who made the play: the hand after me, or before me
        if lord not in (0, maker):  # I am a farmer, and so is the maker: my partner
            return [None, *plays]
        return [*plays, None]

    def _takes(self, me: Counts, a: Counts, b: Counts, last: Play | None, passed: bool,
               lord: int, action: Play | None) -> bool:
        """Whether ``action`` (None: pass) wins for the side of the hand holding ``me``.
        The next hand (``a``) is on the same side only when both are farmers."""
        if action is None:
            assert last is not None
            nxt = (self._wins(a, b, me, None, False, (lord - 1) % 3) if passed
                   else self._wins(a, b, me, last, True, (lord - 1) % 3))
        else:
            rest = without(me, action)
            if not any(rest):
                return True
            nxt = self._wins(a, b, rest, action, False, (lord - 1) % 3)
        return nxt if lord == 2 else not nxt

    def _search(self, me: Counts, a: Counts, b: Counts, last: Play | None, passed: bool,
                lord: int) -> bool:
        """Whether the side of the hand holding ``me`` wins, to move; ``a`` and ``b`` hold
        the next hands in turn. ``last`` is the play to beat (None: a lead), made by the
        hand before (``b``), or after one pass (``passed``) by ``a``. ``lord`` is where
        the landlord sits: 0 this hand, 1 ``a``, 2 ``b``."""
        wins, after, same = self._wins, (lord - 1) % 3, lord == 2
        for action in self._actions(me, last, passed, lord):  # _takes, inlined: the hot loop
            if action is None:
                nxt = (wins(a, b, me, None, False, after) if passed
                       else wins(a, b, me, last, True, after))
            else:
                rest = without(me, action)
                if not any(rest):
                    return True
                nxt = wins(a, b, rest, action, False, after)
            if nxt == same:
                return True
        return False
