"""找朋友 settlement and matches: attackers' points, 扣底, levels, the next dealer, many hands.

Rules (docs/rules/zhaopengyou.md §5, Rulings 1–3, 11, 12, 16):

- Attackers' points P = points in the tricks the attackers won, by the teams
  as they stand at the end (the friend applied retroactively, Ruling 11), plus
  扣底: if an attacker won the last trick, the kitty's points ×
  2^(1 + pairs the winning play contains) (Ruling 12, ``trick.bottom_multiplier``).
- P < 120: the dealer side holds and each of its players rises
  ``3 − floor(P/40)`` levels; P ≥ 120: the dealer steps down and each attacker
  rises ``floor((P − 120)/40)`` (Rulings 1, 2). Everyone moves from his own
  level and stops at A; a dealer at A whose side holds passes A and wins the
  match (Ruling 3).
- Next dealer: the same if his side held; else his 下家, skipping the friend
  (not when the dealer was his own friend, Ruling 16). The new dealer's level is
  the next hand's level rank.

**Scores** (docs/rulings.md, 找朋友): levels are not zero-sum, so the hall and
the simulator get a zero-sum settlement beside them. The stake ``s`` counts the
40-point bands between P and the 120-point line, the band P is in included:
``3 − floor(P/40)`` (1–3) when the dealer side holds, ``floor((P − 120)/40) + 1``
when it steps down. Each attacker loses (holds) or wins (steps down) ``s``; the
friend wins or loses ``s``, the dealer the rest (``2s`` against three
attackers, ``4s`` alone against four).

A hand that ends with every seat on 托管 is not scored (platform §4): no
points, and no level moves either (``unscored``); the table then dissolves, so
its match ends there without a winner.

A hand starts from a match position — the options ``levels`` and ``dealer``
(``options()`` below) — and ``Match`` plays hands one after another, carrying
them; ``Match.record()`` and ``replay_match`` keep and rebuild a whole match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardhall.cards import Card, format_cards
from cardhall.games.base import IllegalAction, Option, seat_or_none
from cardhall.games.errors import BadSetup, NotInWindow
from cardhall.games.rng import Rng
from cardhall.rules.trick import LEVEL_CHARS, bottom_multiplier, pairs_in, points

if TYPE_CHECKING:
    from cardhall.games.base import GameState

PLAYERS = 5
ACE = LEVEL_CHARS.index("A")
#: The attackers' points at which the dealer steps down, and the width of a band.
STAND_DOWN, BAND = 120, 40


def level_gain(p: int) -> int:
    """Levels the winning side's players rise for attackers' points ``p`` (§5 table)."""
    return 3 - p // BAND if p < STAND_DOWN else (p - STAND_DOWN) // BAND


def stake(p: int) -> int:
    """The zero-sum settlement unit: bands between ``p`` and the 120 line, its own included."""
    return 3 - p // BAND if p < STAND_DOWN else (p - STAND_DOWN) // BAND + 1


def next_dealer(dealer: int, friend: int | None, holds: bool) -> int:
    """Same dealer if his side held; else his 下家, skipping the friend (Ruling 16)."""
    if holds:
        return dealer
    seat = (dealer + 1) % PLAYERS
    if friend is not None and friend != dealer and seat == friend:
        seat = (seat + 1) % PLAYERS
    return seat


def settle(*, dealer: int, friend: int | None, levels: Sequence[int], won: Sequence[int],
           kitty: Sequence[Card], last_winner: int, last_play: Sequence[Card],
           call: str) -> dict[str, Any]:
    """The settlement of one hand; ``won`` is each seat's points in tricks it won."""
    side = {dealer} if friend is None else {dealer, friend}
    attackers = [s for s in range(PLAYERS) if s not in side]
    trick_points = sum(won[s] for s in attackers)
    kitty_points = points(kitty)
    captured = last_winner in attackers
    multiplier = bottom_multiplier(last_play) if captured else 0
    p = trick_points + kitty_points * multiplier
    holds = p < STAND_DOWN
    gain = level_gain(p)
    after = list(levels)
    match_winner = None
    for seat in (sorted(side) if holds else attackers):
        if holds and seat == dealer and levels[seat] == ACE:
            match_winner = seat  # the only way past A (Ruling 3)
        after[seat] = min(ACE, levels[seat] + gain)
    unit = stake(p) * (1 if holds else -1)
    scores = [-unit] * PLAYERS
    if friend is not None and friend != dealer:
        scores[friend] = unit
    scores[dealer] = unit * (len(attackers) - (len(side) - 1))
    nxt = next_dealer(dealer, friend, holds)
    roles = ["dealer" if s == dealer else "friend" if s in side else "attacker"
             for s in range(PLAYERS)]
    return {
        "scores": scores,
        "roles": roles,
        "winner": "dealer side" if holds else "attackers",
        "dealer": dealer,
        "friend": friend,
        "friend_call": call,
        "attackers": attackers,
        "trick_points": list(won),
        "attacker_trick_points": trick_points,
        "kitty": format_cards(kitty),
        "kitty_points": kitty_points,
        "bottom": {"winner": last_winner, "captured": captured,
                   "pairs": pairs_in(last_play) if captured else 0,
                   "multiplier": multiplier, "points": kitty_points * multiplier},
        "attacker_points": p,
        "holds": holds,
        "level_gain": gain,
        "levels_before": [LEVEL_CHARS[v] for v in levels],
        "levels_after": [LEVEL_CHARS[v] for v in after],
        "next_dealer": nxt,
        "next_level": LEVEL_CHARS[after[nxt]],
        "match_winner": match_winner,
        "multiplier": {"stake": stake(p), "bottom": multiplier},
    }


def unscored(detail: dict[str, Any]) -> dict[str, Any]:
    """An all-托管 hand's settlement words: what happened, and that nothing moves."""
    return {**detail, "unscored": True, "level_gain": 0,
            "levels_after": list(detail["levels_before"]),
            "next_dealer": detail["dealer"],
            "next_level": detail["levels_before"][detail["dealer"]], "match_winner": None}


# -- options: the match position a hand starts from ----------------------------------------


def _levels(value: Any) -> list[str]:
    """Five levels, one per seat: ``["2", "10", "A", …]`` or ``"2TA22"``."""
    items = list(value) if isinstance(value, str) and len(value) <= PLAYERS else value
    if not isinstance(items, list | tuple) or len(items) != PLAYERS:
        shown = repr(value)[:40]
        raise ValueError(f"{PLAYERS} levels, one per seat (2 … 10, J, Q, K, A), not {shown}")
    out = []
    for item in items:
        text = str(item).strip().upper()[:3]
        text = "T" if text == "10" else text
        if len(text) != 1 or text not in LEVEL_CHARS:
            raise ValueError(f"a level is 2 … 10, J, Q, K or A, not {repr(item)[:20]}")
        out.append(text)
    return out


def options() -> dict[str, Option]:
    seats = (None, *range(PLAYERS))
    return {
        "levels": Option(["2"] * PLAYERS, "each seat's level (2 … A), carried through a match",
                         None, _levels, kind="text",
                         help_zh="每位玩家各自的级别（2 … A），整场比赛中延续；如 \"2TA22\""),
        "dealer": Option(None, "the dealer (None: a match's first hand, the last declarer deals)",
                         seats, seat_or_none, kind="seat",
                         help_zh="庄家（空：一场比赛的第一局，由最后翻主者坐庄）"),
        "first": Option(None, "who opens the first hand's declaration window (None: drawn "
                        "from the seed; a later hand's window opens at its dealer)",
                        seats, seat_or_none, kind="seat",
                        help_zh="第一局翻主时第一个被询问的座位（空：由种子抽取；之后各局从庄家开始）"),
        "deal": Option(None, 'the cards, every one suited: {"hands": [5 texts of 31 cards], '
                       '"kitty": 7 cards}', kind="deal",
                       help_zh="指定发牌（每张牌须带花色）：5 手各 31 张，底牌 7 张"),
    }


#: What ``Match.record()`` writes and ``replay_match`` reads; bumped when either changes.
MATCH_RECORD = "zhaopengyou-match"
MATCH_VERSION = 1


class Match:
    """Hands of 找朋友 one after another, every player's level and the dealer carried.

    Each hand is an ordinary game (``new_game("zhaopengyou", …)``) started with
    the options ``levels`` and ``dealer`` of the match position (the first hand
    also with ``first``), so any hand can also be replayed or studied alone.
    Hand seeds are drawn from the match seed with ``games.rng.Rng``. The match
    ends when a dealer at A holds (Ruling 3), or when the table dissolves: a
    seat on 托管 at the end of a hand (platform §4).

        >>> match = Match(seed=1)
        >>> str(match.hand.phase)
        'declare'
        >>> replay_match(match.record()).record() == match.record()
        True
    """

    def __init__(self, seed: int = 0, levels: Sequence[str] | None = None,
                 dealer: int | None = None, first: int | None = None) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadSetup("bad_seed", f"a match seed is an integer, not {repr(seed)[:40]}")
        self.seed = seed
        self.start_levels: list[str] = list(levels) if levels is not None else ["2"] * PLAYERS
        self.start_dealer = dealer
        self.first = first
        self.levels = list(self.start_levels)
        self.dealer = dealer
        self.hands: list[GameState] = []
        self._seeds = Rng(seed)
        self._start()

    @property
    def hand(self) -> GameState:
        """The hand being played (or the last one, once the match is over)."""
        return self.hands[-1]

    @property
    def winner(self) -> int | None:
        """The seat that passed A, once the match is over."""
        result = self.hand.result()
        return None if result is None else result["detail"]["match_winner"]

    @property
    def dissolved(self) -> bool:
        """The last hand ended with a seat on 托管: the table breaks up (platform §4)."""
        result = self.hand.result()
        return result is not None and bool(result["dissolve"])

    @property
    def over(self) -> bool:
        return self.winner is not None or self.dissolved

    def _start(self) -> None:
        from cardhall.games import new_game  # noqa: PLC0415 (the registry imports this module)
        options: dict[str, Any] = {"levels": self.levels, "dealer": self.dealer}
        if not self.hands and self.first is not None:
            options["first"] = self.first
        self.hands.append(new_game("zhaopengyou", self._seeds.below(2**32), options))

    def next_hand(self) -> GameState:
        """Start the next hand from the last one's levels and next dealer."""
        result = self.hand.result()
        if result is None:
            raise NotInWindow("hand_not_over", "the hand is still being played")
        detail = result["detail"]
        if detail["match_winner"] is not None:
            raise NotInWindow("match_over", f"the match is over: seat "
                              f"{detail['match_winner']} passed A")
        if result["dissolve"]:
            raise NotInWindow("match_over", "the match is over: the table dissolved (a seat "
                              "was on 托管 at the end of the hand)")
        self.levels, self.dealer = list(detail["levels_after"]), detail["next_dealer"]
        self._start()
        return self.hand

    def record(self) -> dict[str, Any]:
        """The match position it started from, its seed and every hand's record in order."""
        return {"record": MATCH_RECORD, "version": MATCH_VERSION, "seed": self.seed,
                "levels": list(self.start_levels), "dealer": self.start_dealer,
                "first": self.first, "hands": [h.record() for h in self.hands]}


def replay_match(record: Mapping[str, Any]) -> Match:
    """Rebuild a match from ``Match.record()``: the same hands, seeds and actions, in order.

    Each hand must be the one the match deals at that point (same variant
    version, seed and options); a record of another version is refused.
    """
    if not isinstance(record, Mapping) or record.get("record") != MATCH_RECORD:
        raise BadSetup("bad_record", f"a match record says record: {MATCH_RECORD!r}")
    if record.get("version") != MATCH_VERSION:
        raise BadSetup("record_version", f"this is a 找朋友 match record of version "
                       f"{repr(record.get('version'))[:20]}; this cardhall replays "
                       f"version {MATCH_VERSION}", variant=MATCH_RECORD,
                       version=repr(record.get("version"))[:20], plays=MATCH_VERSION)
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise BadSetup("bad_record", "a match record holds its hands' records, at least one")
    try:
        match = Match(record["seed"], record.get("levels"), record.get("dealer"),
                      record.get("first"))
    except KeyError:
        raise BadSetup("bad_record", "a match record needs its seed") from None
    for number, hand in enumerate(hands, 1):
        if number > 1:
            try:
                match.next_hand()
            except IllegalAction as exc:
                raise BadSetup("bad_record", f"match record hand {number}: {exc}") from None
        _replay_hand(match.hand, hand, number)
    return match


def _replay_hand(state: GameState, hand: Any, number: int) -> None:
    where = f"match record hand {number}"
    if not isinstance(hand, Mapping):
        raise BadSetup("bad_record", f"{where} is not a record")
    expected = state.record()
    for key in ("variant", "version", "seed", "options"):
        if hand.get(key) != expected[key]:
            raise BadSetup("bad_record", f"{where}: its {key} is not the one this match "
                           "deals there")
    actions = hand.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise BadSetup("bad_record", f"{where}: actions are a list of action texts")
    for i, text in enumerate(actions, 1):
        try:
            state.apply(text)
        except IllegalAction as exc:
            raise BadSetup("record_action", f"{where}, action {i} ({text[:40]!r}): {exc}",
                           number=i, cause=exc.reason) from None
