"""Hand evaluation for the climbing games: split a hand into the fewest, strongest plays.

A hand is worth what it costs to play out (``splits``). Every play it will take
costs a turn (``TURN``), and each play is worth more or less by how likely it is to win its
trick: a low single is a liability, a bomb is a trick won for free. The best
split of a hand is the one of highest total worth; a bot compares moves by the
worth of the hand each leaves behind.

Why a search rather than a greedy split (bombs first, then trios, then chains,
as RLCard's rule agent does): the greedy order is wrong often enough to matter
(``345678`` + ``88`` keeps more as a straight and a pair than as a trio and
singles), and the right split depends on which trios can carry which low
cards. The search is a memoised recursion over rank counts, highest rank
first: the highest card still in hand belongs to some play that ends there
(a chain always ends at its top rank), so trying each such play and recursing
visits every split, and the memo makes the hands a game visits again (each
candidate move leaves a near copy of the hand) nearly free.

Kickers are what make a split non-additive: a trio that carries a low single
saves that single's whole turn. Going from the top down, a trio is met before
the low cards it would carry, so it may open kicker *slots*; a lower single,
pair or trio may then ride in an open slot for almost nothing instead of
being a play of its own (a higher one rides ahead, as a debt the trio
repays). Slots are part of the memo key (a handful of small counters), and a
split counts only if every slot is filled: a plane carries all its wings or
none.
Which main parts open which slots comes from the rule set's own declarations
(``top_moves``: the moves at each top rank), so the same code splits every
variant: 斗帝主's fours carrying a trio and a pair, the two-pack games' pair-only
kickers, 保皇's sets of any size.

Hands are packed into one int, ``FIELD`` bits per rank, so that taking a play
out is one subtraction and a memo key is one int. A state whose kicker debts
the rest of the hand cannot repay is ruled out before it is expanded
(``dead``). The same search runs from the 3s up as well (``mirror``: the
ranks packed in reverse), for the hands low plays leave.

Wild cards (癞子) stand for whatever rank helps most: each one is tried at
every useful rank in turn, greedily, on top of the natural split.

Effort is capped (``limit``): a decision may expand only so many new search
states, because a live table waits on it (the benchmark's target is 5 ms at
the 99th percentile) and a two-pack hand with kickers can need tens of
thousands. Past the cap a state is valued by a greedy split (``_rough``: the
play covering most cards first, no branching), kept apart from the exact
memo so that exact answers stay exact. The cap counts states, not time, and
each bot owns its planner, so a game replayed with the same seeds gets the
same decisions.

The loop itself also exists in C (``_search.c``, built at install where a C
compiler is at hand): the same states, sums and ties, ten times faster and more
(``benchmarks/search_bench.py``), since one search of a dealt 斗帝主 hand costs
10-30 ms in Python and a live table's budget is 5 ms a decision. The Python
loop stays the reference, the fallback and the one capped decisions run; tests
hold the two to the same values and splits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardhall.bots.split import native as native_loop
from cardhall.bots.split.dead import Dead
from cardhall.bots.split.moves import Move, as_kicker, attach
from cardhall.bots.split.native import Links, Store
from cardhall.bots.split.packed import (
    BIT_PLANES,
    FIELD,
    FIELD_LIMIT,
    GUARD,
    HAND_MASK,
    KINDS,
    MASK,
    MAX_SLOTS,
    OFFSET,
    OWED,
    SLOT_BITS,
    SLOT_INFO,
    SLOT_MASK,
    SLOT_SHIFT,
    card_count,
    owed,
    pack,
    settled,
    slot_info,
    slots_ok,
)
from cardhall.bots.split.splits import Plan
from cardhall.bots.split.steps import Family, Step, families
from cardhall.bots.split.top_moves import TopMoves
from cardhall.cards import ACE, NUM_RANKS, TWO, Rank
from cardhall.rules import RuleSet

if TYPE_CHECKING:
    from cardhall.bots.split._search import Core, Steps

#: Memo entries kept per planner before the memo is cleared (bounded memory, ~40 MB).
MEMO_LIMIT = 200_000
#: No effort cap (the search bot's rollouts and the tests): every state is searched.
UNLIMITED = 1 << 62
_NO = float("-inf")
#: Bits of a path link that number the move taken; the state it leads to sits above.
LINK_BITS = 20


class Planner(TopMoves):
    """The split search for one rule set; shared by every bot of that variant."""

    #: Key suffix of the move tables shared per rule set (``mirror``'s planner has its own).
    tables = ""
    #: Whether ranks are packed in reverse (``mirror``: the search goes from the 3s up).
    mirrored = False

    def __init__(self, rs: RuleSet, native: bool | None = None) -> None:
        """``native``: run the C loop (None: where it is built, see ``native.NATIVE``)."""
        self.rs = rs
        #: New states the current decision may still expand (see ``limit``).
        self._left = UNLIMITED
        self._capped = False
        #: Greedy values of states met past the cap, and of states whose search met one.
        self._rough_memo: dict[int, tuple[float, int, int]] = {}
        #: How many times the cap has cut a search short (to tell exact values from rough).
        self._cuts = 0
        self.sets = rs.comparison == "sets"
        #: Kicker group sizes some pattern takes; slot kind ``k`` holds groups of ``k + 1``.
        self.kicker_sizes: set[int] = set()
        #: (width, chain?) → the slot options of that main part, per chain unit.
        self._carriers: dict[tuple[int, bool], list[tuple[int, ...]]] = {}
        self._read_kickers(rs)
        #: Rules out states whose kicker debts the rest cannot repay (see ``dead``).
        self._dead = Dead(self._carriers, max(rs.limits))
        #: Slot counters → their debt tests (``Dead``'s cache; None: nothing owed).
        self._dead_tests = self._dead.tests
        key = rs.name + self.tables
        self._moves: dict[tuple[Rank, int], list[Move]] = _MOVES.setdefault(key, {})
        self._greedy: dict[tuple[Rank, int], list[Move]] = _GREEDY.setdefault(key, {})
        #: (top rank << FIELD | count held) → the search loop's steps there.
        self._steps: dict[int, tuple[Family, ...]] = _STEPS.setdefault(key, {})
        #: state → worth, and state → its path link (the number of the move taken, and above
        #: ``LINK_BITS`` the state it leads to; none where no move is taken, see ``_entry``):
        #: plain numbers, never a tuple. A tuple is tracked by the garbage collector from
        #: the moment it is made until the collector's first pass over it, so a tuple per
        #: state counted towards every collection: over 30 斗帝主 games with planning bots,
        #: 1,100 young collections and 7 full ones (up to 24 ms each, inside a decision);
        #: 136 and 1 with plain numbers, and a sixth less time in all.
        self._memo: Store = {}
        self._path: Links = {}
        self._numbered: list[Move] = _NUMBERED.setdefault(key, [])
        self._numbers: dict[int, int] = _NUMBERS.setdefault(key, {})
        self._empty_slots = sum(OFFSET << (SLOT_BITS * k) for k in range(KINDS))
        # A rank "deep enough" to carry holds at least the narrowest carrier's width; adding
        # (32 - width) to each count sets its guard bit exactly then (see _repayable).
        widths = [w for (w, _chain) in self._carriers] or [FIELD_LIMIT]
        self._deep_add = sum((FIELD_LIMIT - min(widths)) << (FIELD * self.position(r))
                             for r in range(TWO + 1))
        self._slots_per_rank = max((sum(o) for opts in self._carriers.values() for o in opts),
                                   default=0)
        use = native_loop.NATIVE if native is None else native
        self._core = self._native_core() if use else None

    def _native_core(self, plain: Core | None = None, fields: int = 0) -> Core:
        """The C loop over this planner's tables; its memo becomes ``_memo`` and ``_path``.

        ``plain`` and ``fields``: states with none of the ``fields`` bits set are
        valued by that core's search (``relaxed``).
        """
        core = native_loop.core(
            self._native_steps, (FIELD, NUM_RANKS, SLOT_BITS, OFFSET, MAX_SLOTS, KINDS,
                                 LINK_BITS),
            HAND_MASK, GUARD, self._deep_add, BIT_PLANES, self._dead.adders,
            self._empty_slots, self._slots_per_rank, plain, fields, self.mirrored)
        self._memo, self._path = native_loop.views(core)
        return core

    def warm(self) -> None:
        """Build the loop's steps at every top rank and count now, once per rule set.

        They are shared by every planner of the rule set (converted, by every C
        loop too); built as the search first meets each, they cost the decisions
        of a process's first games up to ten milliseconds more each.
        """
        key = self.rs.name + self.tables + self.warm_tables
        if key in _WARM:
            return
        for r in range(NUM_RANKS):
            for have in range(1, self.rs.limits[r] + 1):
                table = self._warm_at(self.position(r), have)
                if native_loop.NATIVE:
                    native_loop.converted(table)
        _WARM.add(key)

    #: Which of its tables ``warm`` builds (``_warm_at``), named for ``_WARM``.
    warm_tables = ""

    def _warm_at(self, top: Rank, have: int) -> tuple[Family, ...]:
        """The table ``warm`` builds at ``top`` and ``have``: the loop's own steps."""
        return self._steps_at(top, have)

    def _native_steps(self, top: Rank, have: int) -> Steps:
        """``_steps_at`` converted for the C loop, once per table for the whole process."""
        return native_loop.converted(self._steps_at(top, have))

    def position(self, r: Rank) -> int:
        """Where rank ``r`` sits in a packed hand (the search takes the highest first)."""
        return NUM_RANKS - 1 - r if self.mirrored else r

    def _pack(self, counts: Sequence[int]) -> int:
        return pack(counts[::-1] if self.mirrored else counts)

    # -- the search ------------------------------------------------------------------

    def worth(self, counts: Sequence[int]) -> float:
        """Total worth of the best split of ``counts`` (rank counts, no wild cards)."""
        return self._solve(self._pack(counts) | (self._empty_slots << SLOT_SHIFT))

    def worth_packed(self, h: int) -> float:
        """``worth`` of a hand already packed with ``pack``."""
        return self._solve(h | (self._empty_slots << SLOT_SHIFT))

    def limit(self, states: int | None) -> None:
        """Cap the new states the searches from here on may expand (None: no cap).

        A bot sets it at each decision; the rough values of the last capped
        decision are dropped, since the next one has a budget of its own.
        """
        self._left = UNLIMITED if states is None else states
        self._capped = states is not None
        self._rough_memo.clear()

    @property
    def fast(self) -> bool:
        """Whether searches run in the C loop now (built, asked for, and no cap this decision).

        Then a search costs so little that the bounds which save searches in
        Python (``Policy._scored``, ``wild_worth``) cost more than they save.
        """
        return self._core is not None and not self._capped

    @property
    def capped(self) -> bool:
        """Whether the current decision has a cap (``limit``)."""
        return self._capped

    @property
    def spent(self) -> bool:
        """Whether the cap is reached: from here on splits are greedy ones."""
        return self._left <= 0

    def _solve(self, state: int) -> float:
        core = self._core
        if core is not None and not self._capped:
            return core.solve(state)
        hit = self._memo.get(state)
        if hit is not None:
            return hit
        return self._expand(state)

    def _expand(self, state: int) -> float:
        """``_solve`` of a state not in the memo (the loop below looks there first)."""
        memo = self._memo
        if self._rough_memo:
            rough = self._rough_memo.get(state)
            if rough is not None:
                self._cuts += 1  # a rough value: what is built on it is rough too
                return rough[0]
        h = state & HAND_MASK
        slots = state >> SLOT_SHIFT
        if slots != self._empty_slots and self._dead_tests.get(slots, True) \
                and self._dead.hopeless(h, slots):
            memo[state] = _NO  # what the search below would find, without it
            return _NO
        if self._left <= 0:
            return self._rough(state)
        self._left -= 1
        cuts = self._cuts
        if not h:
            value = 0.0 if settled(slots) else _NO
            memo[state] = value
            return value
        top = (h.bit_length() - 1) // FIELD
        have = (h >> (FIELD * top)) & MASK
        best, choice, follow, first = _NO, -1, 0, -1
        expand, look, shifted = self._expand, memo.get, slots << SLOT_SHIFT
        held = h | GUARD
        guard = GUARD
        slot_infos = SLOT_INFO
        deep_add, per_rank = self._deep_add, self._slots_per_rank
        cards = -1  # the hand's card count, counted once if a slot check needs it
        # The loop is the search's whole cost: plain tuples, memo hits without a call, the
        # slot checks of ``_repayable`` inline, and a family of nested plays left at the
        # first one not in hand (``steps``); ties go to the play first in table order.
        fams = self._steps.get(top << FIELD | have)
        for family in fams if fams is not None else self._steps_at(top, have):
            for delta, group in family:
                if (held - delta) & guard != guard:
                    break  # this play is not in hand, nor any after it in the family
                rest = h - delta
                for worth, opens, unit, ride_worth, move, kicker, size, index in group:
                    opened = shifted  # the slot counters of the state it leads to, in place
                    if opens:
                        info = slot_infos.get(slots + opens) or slot_info(slots + opens)
                        if info[0]:
                            opened = (slots + opens) << SLOT_SHIFT
                            if info[2]:
                                if cards < 0:
                                    cards = card_count(h)
                                if info[2] > cards - size:
                                    opened = -1
                            if info[1] and opened >= 0 and \
                                    info[1] > ((rest + deep_add) & guard).bit_count() * per_rank:
                                opened = -1
                    if opened >= 0:
                        nxt = rest | opened
                        hit = look(nxt)
                        value = worth + (hit if hit is not None else expand(nxt))
                        if value > best or (value == best and index < first):
                            best, choice, follow, first = value, move, nxt, index
                    if kicker < 0:
                        continue  # a pair or trio rides only as the last of its rank
                    left = slots - unit
                    info = slot_infos.get(left) or slot_info(left)
                    if not info[0]:
                        continue
                    if info[2]:
                        if cards < 0:
                            cards = card_count(h)
                        if info[2] > cards - size:
                            continue
                    if info[1] and info[1] > ((rest + deep_add) & guard).bit_count() * per_rank:
                        continue
                    nxt = rest | (left << SLOT_SHIFT)
                    hit = look(nxt)
                    value = ride_worth + (hit if hit is not None else expand(nxt))
                    if value > best or (value == best and index + 1 < first):
                        best, choice, follow, first = value, kicker, nxt, index + 1
        if self._cuts != cuts:
            self._rough_memo[state] = (best, choice, follow)
            return best
        if len(memo) > MEMO_LIMIT:
            memo.clear()
            self._path.clear()
        memo[state] = best
        if choice >= 0:
            self._path[state] = follow << LINK_BITS | choice
        return best

    def _steps_at(self, top: Rank, have: int) -> tuple[Family, ...]:
        """``_moves_at`` unpacked for the search loop (cached in ``_steps``; see ``_build``)."""
        found = self._steps.get(top << FIELD | have)
        if found is None:
            found = self._steps[top << FIELD | have] = self._build(top, have, False)
        return found

    def _build(self, top: Rank, have: int, any_count: bool) -> tuple[Family, ...]:
        """The loop's steps at ``top``: each move and its riding form, if it may ride.

        A pair or trio rides only as the last of its rank (K4: one per rank), or, with
        ``any_count``, at any count (``relaxed``). Grouped in families of nested plays
        (``steps``); each step's index is twice its move's place in ``_moves_at`` (its
        riding form: one more), the order ties are broken in.
        """
        deltas: list[int] = []
        out: list[Step] = []
        for i, move in enumerate(self._moves_at(top, have)):
            kicker, unit, ride_worth = -1, 0, 0.0
            if move.rides in (1, have) or (move.rides and any_count):
                riding = as_kicker(move, move.rides - 1)
                kicker, ride_worth = self._number(riding), riding.worth
                unit = 1 << (SLOT_BITS * (move.rides - 1))
            deltas.append(move.delta)
            out.append((move.worth, move.opens, unit, ride_worth, self._number(move), kicker,
                        len(move.group.main), 2 * i))
        return families(deltas, out)

    def _number(self, move: Move) -> int:
        """The move's number in ``_numbered`` (memo entries name moves by number)."""
        found = self._numbers.get(id(move))
        if found is None:
            if len(self._numbered) >> LINK_BITS:
                raise OverflowError(f"{self.rs.name}: more moves than a path link numbers")
            found = self._numbers[id(move)] = len(self._numbered)
            self._numbered.append(move)  # kept alive: its id stays its own
        return found

    def _rough(self, state: int) -> float:
        """A state past the cap: the first feasible play in greedy order, no branching.

        Greedy order (``_greedy_at``) puts the plays that save most turns first,
        so the first split found is a fair one; a play that leaves the slots
        unfillable (-inf) is backed out of, and the next tried.
        """
        self._cuts += 1
        hit = self._rough_memo.get(state)
        if hit is not None:
            return hit[0]
        exact = self._memo.get(state)
        if exact is not None:
            return exact
        h = state & HAND_MASK
        slots = state >> SLOT_SHIFT
        if not h:
            value = 0.0 if settled(slots) else _NO
            self._rough_memo[state] = (value, -1, 0)
            return value
        top = (h.bit_length() - 1) // FIELD
        have = (h >> (FIELD * top)) & MASK
        for move in self._greedy_at(top, have):
            if ((h | GUARD) - move.delta) & GUARD != GUARD:
                continue
            rest = h - move.delta
            if move.rides < 0:  # the same cards riding in a slot (see _greedy_at)
                if have != len(move.group.main) and len(move.group.main) > 1:
                    continue
                kind_index = -move.rides - 1
                opened = slots - (1 << (SLOT_BITS * kind_index))
                if (opened >> (SLOT_BITS * kind_index)) & SLOT_MASK < OFFSET - MAX_SLOTS:
                    continue
            else:
                opened = slots + move.opens
                if move.opens and not slots_ok(opened):
                    continue
            if opened != slots and not self._repayable(rest, opened):
                continue
            nxt = rest | (opened << SLOT_SHIFT)
            value = self._rough(nxt)
            if value > _NO:
                value += move.worth
                self._rough_memo[state] = (value, self._number(move), nxt)
                return value
        self._rough_memo[state] = (_NO, -1, 0)
        return _NO

    def _repayable(self, rest: int, slots: int) -> bool:
        """Whether the open slots and the kickers riding ahead can all still be matched.

        Going top down, a high single may ride on a trio still to come
        (``33345`` is ``333+4`` and ``5``): that is a debt on the slot counters,
        allowed only while the rest of the hand has enough ranks deep enough
        to open that many slots; and open slots need that many cards left to
        fill them. These bounds are what keep the search small.
        """
        entry = OWED.get(slots)
        if entry is None:
            entry = OWED[slots] = owed(slots)
        debt, supply = entry
        if supply and supply > card_count(rest):
            return False
        if not debt:
            return True
        deep = ((rest + self._deep_add) & GUARD).bit_count()
        return debt <= deep * self._slots_per_rank

    def plan(self, counts: Sequence[int]) -> Plan:
        """The best split itself, kickers attached to their carriers."""
        state = self._pack(counts) | (self._empty_slots << SLOT_SHIFT)
        worth = self._solve(state)
        picked: list[Move] = []
        while True:
            entry = self._entry(state)
            if entry is None:
                self._solve(state)
                entry = self._entry(state)
                assert entry is not None
            if entry[1] < 0:
                break
            picked.append(self._numbered[entry[1]])
            state = entry[2]
        return Plan(worth, tuple(attach(picked)))

    def _entry(self, state: int) -> tuple[float, int, int] | None:
        """(worth, number of the move taken or -1, the state it leads to), if searched."""
        value = self._memo.get(state)
        if value is None:
            return self._rough_memo.get(state)
        link = self._path.get(state)
        if link is None:
            return value, -1, 0
        return value, link & ((1 << LINK_BITS) - 1), link >> LINK_BITS

    # -- wild cards ------------------------------------------------------------------

    def worth_wild(self, counts: Sequence[int], wild: Rank | None) -> float:
        """Worth with the wild cards of rank ``wild`` each standing where it helps most."""
        if wild is None or not counts[wild]:
            return self.worth(counts)
        base = list(counts)
        spare = base[wild]
        base[wild] = 0
        packed = self._pack(base) | (self._empty_slots << SLOT_SHIFT)
        if self.fast:
            assert self._core is not None
            return self._core.worth_wild(packed, spare, wild, self.rs.limits)
        limits = self.rs.limits
        for _ in range(spare):
            best, best_rank = _NO, wild
            for r in range(TWO + 1):
                if base[r] >= limits[r] or not _useful(base, r):
                    continue
                if self._left <= 0 and not base[r]:
                    continue  # past the cap, each try is a greedy split: held ranks only
                value = self._solve(packed + (1 << (FIELD * self.position(r))))
                if value > best:
                    best, best_rank = value, r
            base[best_rank] += 1
            packed += 1 << (FIELD * self.position(best_rank))
        return self._solve(packed) + 0.5 * spare


def _useful(counts: Sequence[int], r: Rank) -> bool:
    """A wild card only helps at a rank held already or next to one (a chain's gap)."""
    if counts[r]:
        return True
    return (r > 0 and counts[r - 1] > 0) or (r < ACE and counts[r + 1] > 0)


#: Move tables per rule set name, shared by every planner of it (they depend on the rules
#: alone); the memo is each planner's own.
_MOVES: dict[str, dict[tuple[Rank, int], list[Move]]] = {}
_GREEDY: dict[str, dict[tuple[Rank, int], list[Move]]] = {}
_STEPS: dict[str, dict[int, tuple[Family, ...]]] = {}
_NUMBERED: dict[str, list[Move]] = {}
_NUMBERS: dict[str, dict[int, int]] = {}
_PLANNERS: dict[str, Planner] = {}
#: Rule set names (with ``tables``) whose steps are all built (``warm``).
_WARM: set[str] = set()


def planner(rs: RuleSet) -> Planner:
    """A planner of a rule set shared by its callers (tests, calibration; no effort cap).

    Bots build their own (``Planner(rs)``): a shared memo would make a capped
    decision depend on what other games searched before.
    """
    found = _PLANNERS.get(rs.name)
    if found is None:
        found = _PLANNERS[rs.name] = Planner(rs)
    return found
