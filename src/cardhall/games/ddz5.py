"""五人斗地主 (``ddz5``): five players, two packs, an open and a hidden landlord.

Rules (docs/rules/ddz5.md; rulings by number):

- Deal: two packs (108 cards), 21 to each seat, 3 hidden kitty cards. A random
  non-joker card among the 105 dealt cards is the revealed card (明牌, Ruling 1);
  its suit and rank are announced to all. Its holder is the open landlord (明地主):
  everyone knows him; he takes the kitty unseen by others (24 cards).
- The holder of the other copy (same suit and rank) is the hidden landlord
  (暗地主), known only to himself. If the open landlord holds both copies after
  taking the kitty (dealt both, or the other copy was in the kitty, Ruling 2), he
  is the only landlord: 1 against 4.
- Identity step (明确身份): the open and the hidden landlord answer ``reveal`` or
  ``decline`` together (``state.acting`` holds both, in any order). Nobody sees an
  answer until both have answered, and the view shows each seat only its own
  part in the step (``acting`` and ``to_act`` would name the hidden landlord).
  If either reveals, the hidden landlord becomes public, the stake doubles once,
  and the two landlords see each other's hands for the rest of the game. Single
  landlord (Ruling 3): only he is asked; ``reveal`` announces "single landlord"
  and doubles, ``decline`` keeps it secret until the end.
- Late reveal (Ruling 9): a hidden landlord who declined is revealed, without
  multiplier, when he plays the copy; from then on the landlords see each
  other's hands. Plays are written by rank, so the copy leaves his hand only with
  his last card of that rank (docs/rulings.md). A still-hidden landlord who goes
  out first is revealed too.
- Doubling (加倍): all five answer ``double`` or ``decline`` once, together, in any
  order; the answers are private until all five have answered. Room option
  ``double_min_beans`` (Ruling 11) needs more than that many beans for the player
  and for every player who is, as far as he knows, an opponent (docs/rulings.md:
  this keeps the legal actions from betraying the hidden landlord).
- Play: the open landlord leads; pass or beat; a round ends after four passes
  (the shared climbing play phase). The first player out ends the game and his
  side wins. Hand types and the bomb ladder are ``rules.get("ddz5")``.
- Score (§4, Rulings 4–8, 14): ``M = M0 × 2 (revealed in the identity step) ×
  2^(plays of 5-, 6-, 7-, 8-card bombs, 三王, 天王) × 2 (spring)``; 4-card bombs and
  双王 never double. Spring = the landlords win and no farmer played a card; there
  is no anti-spring. For every landlord ``l`` and farmer ``f``:
  ``x(l, f) = 底分 × M × d_l × d_f / L`` (d = 2 if doubled, L = number of
  landlords); ``X_l = Σ_f x``, ``X_f = Σ_l x``, winners +, losers −.
- Leaving (platform §5): the game ends at once; either landlord pays the
  landlord rate of happy §4.4, a farmer the farmer rate, and the four others share
  it equally (docs/rulings.md).

Room options: ``base`` (底分) and ``M0``, both 1 by default (Ruling 7); ``N``
(room coefficient), ``A`` (house fee) and ``balances`` settle beans as ddz-happy
§4.3 (floors, caps, fee; ``beans.settle`` for a single landlord,
``beans.two_landlord_beans``, with Ruling 6's odd bean, otherwise);
``double_min_beans`` as above. For scripted tests, duplicate deals and puzzles:
``deal`` (the cards), ``revealed`` (the revealed card, e.g. ``"Kd"``) and
``landlord`` (the open landlord's seat: which copy, when both are dealt). Expired
timers answer ``decline`` in both steps (Ruling 15, the platform's auto-play).

Scores are exact: ``/L`` makes halves, so a score is an int, or a float only
when it is a whole number of halves (exact in binary); ``pairs`` gives every
``x(l, f)`` the same way.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import Any

from cardhall.cards import SMALL_JOKER_CARD, Card, CardError, format_cards, parse_card
from cardhall.games import beans
from cardhall.games.base import Action, Event, IllegalAction, Observation, Option, excerpt
from cardhall.games.beans import as_number, settle, two_landlord_beans
from cardhall.games.climbing import ClimbingGame, cards_text, hand_text
from cardhall.games.ddz import common_options, count_bombs
from cardhall.games.errors import BadSetup, Illegal, NotInWindow, NotYourTurn, Unreadable, clip
from cardhall.games.view import multiplier
from cardhall.rules import Play

PLAYERS = 5
REVEAL, DECLINE, DOUBLE = Action("reveal"), Action("decline"), Action("double")
#: The first tier of the ddz5 ladder that doubles: 5-card bombs (4-card 1, 双王 2).
DOUBLING_TIER = 3
#: A held doubling bomb (escape): five of a rank, or three jokers (三王, 天王).
BOMB_LEAST, JOKER_BOMB = 5, 3
#: Points of ddz5 are reported to the quarter at most (halves from /L; escape shares).
POINT_UNIT = Fraction(1, 4)

__all__ = ["FivePlayer", "Phase", "options", "two_landlord_beans"]


class Phase(StrEnum):
    START = "start"
    IDENTITY = "identity"
    DOUBLE = "double"
    PLAY = "play"
    OVER = "over"


#: Phases in which the rules have several players answer at once (answers stay private).
SIMULTANEOUS = (Phase.IDENTITY, Phase.DOUBLE)


# -- options -------------------------------------------------------------------------------


def _card_or_none(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"one suited card such as 'Kd', not {value!r}")
    try:
        card = parse_card(value)
    except CardError as exc:
        raise ValueError(str(exc)) from None
    if card >= SMALL_JOKER_CARD:
        raise ValueError("the revealed card is never a joker (Ruling 1)")
    return format_cards([card])


def _whole(value: Any, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"a whole number of at least {least}, not {value!r}")
    return value


def _balances_or_none(value: Any) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != PLAYERS:
        raise ValueError(f"{PLAYERS} bean balances, one per seat, not {value!r}")
    return [_whole(v, 0) for v in value]


def options() -> dict[str, Option]:
    return {
        "deal": common_options(PLAYERS)["deal"],
        "revealed": Option(None, "the revealed card, a suited card such as 'Th' (default: "
                           "random among the dealt non-joker cards)", None, _card_or_none,
                           kind="text", help_zh="明牌（带花色的一张非王牌，如 Th；默认随机）"),
        "landlord": Option(None, "the open landlord's seat; he must hold the revealed card",
                           (None, *range(PLAYERS)), common_options(PLAYERS)["landlord"].convert,
                           kind="seat", help_zh="明地主的座位（须持有明牌）"),
        "base": Option(1, "底分, the base score (Ruling 7)", None, lambda v: _whole(v, 1),
                       kind="int", help_zh="底分", minimum=1),
        "M0": Option(1, "the room's initial multiplier (初始倍数, Ruling 7)", None,
                     lambda v: _whole(v, 1), kind="int", help_zh="初始倍数", minimum=1),
        "N": Option(None, "room coefficient (房间系数); beans are settled when set", None,
                    lambda v: None if v is None else _whole(v, 1), kind="int",
                    help_zh="房间系数（设置后结算欢乐豆）", minimum=1),
        "A": Option(0, "house fee per player per game (系统回收)", None, lambda v: _whole(v, 0),
                    kind="int", help_zh="每人每局系统回收", minimum=0),
        "balances": Option(None, "each seat's beans at the start: doubling, floors, caps", None,
                           _balances_or_none, help_zh="每家开局时的欢乐豆（加倍条件、封顶、保底）"),
        "double_min_beans": Option(None, "beans a player and his possible opponents must "
                                   "exceed to double (Ruling 11; None: no condition)", None,
                                   lambda v: None if v is None else _whole(v, 0), kind="int",
                                   help_zh="加倍所需的欢乐豆（自己和可能的对手都须超过）",
                                   minimum=0),
    }


# -- the game ------------------------------------------------------------------------------


class FivePlayer(ClimbingGame):
    """五人斗地主: roles from the revealed card, two simultaneous steps, then the shared play."""

    phases = Phase

    def _start(self) -> None:
        self.phase = Phase.START
        self.revealed_card: Card = -1
        self.hidden: int | None = None  # the hidden landlord's seat; None: single landlord
        #: How the landlord side became public: "identity" or "copy"; None while secret.
        self.reveal_how: str | None = None
        #: Seats that see one another's hands: the two landlords once revealed.
        self.shown_to: set[int] = set()
        self.answers: dict[int, str] = {}  # identity step: seat → "reveal" / "decline"
        self.doubled: dict[int, bool] = {}  # doubling step: seat → doubled?
        self.held: list[Any] = []  # each hand once the kitty is taken (escape bombs)
        self.log.extend(self._deal())
        self.log.extend(self._assign_roles())

    @property
    def single(self) -> bool:
        return self.hidden is None

    @property
    def open_landlord(self) -> int:
        assert self.landlord is not None
        return self.landlord

    def landlords(self) -> list[int]:
        return [self.open_landlord] if self.hidden is None else [self.open_landlord, self.hidden]

    def _pick_revealed(self) -> tuple[int, Card]:
        """One dealt non-joker card at random (Ruling 1), narrowed by the options."""
        want, seat = self.options["revealed"], self.options["landlord"]
        dealt = [(s, c) for s, hand in enumerate(self.hands) for c in hand
                 if c < SMALL_JOKER_CARD]
        if want is not None:
            card = parse_card(want)
            dealt = [(s, c) for s, c in dealt if c == card]
        if seat is not None:
            dealt = [(s, c) for s, c in dealt if s == seat]
        if not dealt:
            where = "" if seat is None else f" by seat {seat}"
            raise BadSetup("card_not_dealt", f"no {want or 'non-joker card'} is dealt{where}: "
                           "the revealed card is one of the 105 dealt cards",
                           card=want or "", seat=-1 if seat is None else seat)
        return dealt[self.rng.randrange(len(dealt))]

    def _assign_roles(self) -> list[Event]:
        """Announce the card, give the open landlord the kitty, tell the hidden one."""
        seat, card = self._pick_revealed()
        self.revealed_card, self.landlord = card, seat
        self.marked = {card}  # the copy leaves a hand last among its rank
        events: list[Event] = [
            {"type": "revealed-card", "card": format_cards([card]), "landlord": seat},
            {"type": "kitty", "to": [seat], "cards": format_cards(self.kitty)},
            {"type": "kitty-taken", "seat": seat, "count": len(self.kitty)},
        ]
        self._give(seat, self.kitty)
        self.kitty = []
        self.held = list(self.counts)
        others = [s for s, hand in enumerate(self.hands) if s != seat and card in hand]
        if others:
            self.hidden = others[0]
            events.append({"type": "role", "to": [self.hidden], "role": "hidden landlord"})
        else:
            events.append({"type": "role", "to": [seat], "role": "single landlord"})
        self.side = [0 if s in self.landlords() else 1 for s in range(PLAYERS)]
        self.phase, self.to_act = Phase.IDENTITY, seat
        return events

    # -- the identity and doubling steps: several seats answer at once -----------------

    def _owing(self) -> list[int]:
        """The seats still to answer the open step, the open landlord first."""
        if self.phase == Phase.IDENTITY:
            return [s for s in self.landlords() if s not in self.answers]
        first = self.open_landlord
        order = [(first + k) % PLAYERS for k in range(PLAYERS)]
        return [s for s in order if s not in self.doubled]

    def _acting(self) -> list[int]:
        return self._owing() if self.phase in SIMULTANEOUS else super()._acting()

    def _answers_for(self, seat: int) -> list[Action]:
        if self.phase == Phase.IDENTITY:
            return [REVEAL, DECLINE]
        return [DECLINE] if self._double_block(seat) else [DOUBLE, DECLINE]

    def _setup_actions(self) -> list[Action]:
        assert self.to_act is not None
        return self._answers_for(self.to_act)

    def _legal_for(self, seat: int) -> list[Action]:
        return self._answers_for(seat) if self.phase in SIMULTANEOUS else []

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb in ("reveal", "decline", "double") and not arg:
            return Action(verb)
        raise Unreadable("unknown_action", f"{excerpt(f'{verb} {arg}'.strip())} is not an "
                         "action of ddz5: reveal, decline, double, play CARDS or pass",
                         text=clip(f"{verb} {arg}".strip()),
                         allowed=["reveal", "decline", "double", "play CARDS", "pass"])

    def _setup_check(self, action: Action) -> IllegalAction | None:
        seat = self.to_act if action.seat is None else action.seat
        assert seat is not None
        if self.phase == Phase.IDENTITY:
            if action.verb not in ("reveal", "decline"):
                return NotInWindow("wrong_step", "in the identity step, reveal or decline",
                                   phase=str(self.phase), text=clip(action.text),
                                   allowed=["reveal", "decline"])
            return None
        if action.verb not in ("double", "decline"):
            return NotInWindow("wrong_step", "in the doubling step, double or decline",
                               phase=str(self.phase), text=clip(action.text),
                               allowed=["double", "decline"])
        return self._double_block(seat) if action.verb == "double" else None

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act if action.seat is None else action.seat
        assert seat is not None
        if self.phase == Phase.IDENTITY:
            return self._answer_identity(seat, action.verb)
        return self._answer_double(seat, action.verb == "double")

    def _resolve(self, action: Action | str, seat: int | None) -> Action:
        """Refusals in the identity step never say who else may answer (the hidden landlord)."""
        try:
            return super()._resolve(action, seat)
        except NotYourTurn:
            if self.phase != Phase.IDENTITY:
                raise
            act = self._coerce(action)
            who = act.seat if act.seat is not None else seat
            # NotInWindow, not NotYourTurn: the wire's code stays ``illegal`` as it was,
            # and the seat's own window (one answer, landlords only) is what is closed.
            raise NotInWindow("no_identity_answer", f"seat {who} has no identity answer to "
                              "give now (only the landlords answer, each once)",
                              seat=-1 if who is None else who) from None

    def _answer_identity(self, seat: int, answer: str) -> list[Event]:
        self.answers[seat] = answer
        events: list[Event] = [{"type": "identity-answer", "to": [seat], "answer": answer}]
        owing = self._owing()
        if owing:
            self.to_act = owing[0]
            return events
        asked = self.landlords()
        by = [s for s in asked if self.answers[s] == "reveal"]
        public: Event = {"type": "identity", "revealed": bool(by)}
        if by:
            self.reveal_how = "identity"
            public["by"] = by
            if self.hidden is None:
                public["single"] = True
            else:
                public["hidden_landlord"] = self.hidden
                self.shown_to = set(asked)
        events.append(public)
        self.phase, self.to_act = Phase.DOUBLE, self.open_landlord
        return events

    def _answer_double(self, seat: int, double: bool) -> list[Event]:
        self.doubled[seat] = double
        events: list[Event] = [{"type": "double-answer", "to": [seat], "double": double}]
        owing = self._owing()
        if owing:
            self.to_act = owing[0]
            return events
        events.append({"type": "doubling",
                       "doubled": [s for s in range(PLAYERS) if self.doubled[s]]})
        self._begin_play(self.open_landlord)
        return events

    def _knows_sides(self, seat: int) -> bool:
        """Whether ``seat`` knows every player's side (the hidden landlord always does)."""
        return (self.reveal_how is not None or self.over or seat == self.hidden
                or (seat == self.landlord and self.single))

    def _double_block(self, seat: int) -> IllegalAction | None:
        """Ruling 11's bean threshold; None when ``seat`` may double.

        The opponents checked are those ``seat`` knows to be, or cannot rule
        out as, opponents: a farmer who does not know the hidden landlord
        checks everyone, so his legal actions cannot tell him who it is.
        """
        least, balances = self.options["double_min_beans"], self.options["balances"]
        if least is None or balances is None:
            return None
        if self._knows_sides(seat):
            rivals = [s for s in range(PLAYERS) if self.side[s] != self.side[seat]]
        else:
            rivals = [s for s in range(PLAYERS) if s != seat]
        short = [s for s in (seat, *rivals) if balances[s] <= least]
        if not short:
            return None
        who = f"seat {short[0]} holds" if len(short) == 1 else \
            f"seats {', '.join(map(str, short))} hold"
        return Illegal("double_needs_beans", f"doubling needs more than {least} beans for "
                       f"you and every possible opponent; {who} too few", least=least,
                       seats=short)

    # -- play ------------------------------------------------------------------------------

    def doubles(self, play: Play) -> bool:
        """5-, 6-, 7-, 8-card bombs, 三王 and 天王 double; 4-card bombs and 双王 never (R14)."""
        return play.tier >= DOUBLING_TIER

    def _on_play(self, seat: int, play: Play, cards: list[Card]) -> list[Event]:
        """Late reveal: the still-hidden landlord plays the copy (Ruling 9).

        Going out means playing every card, the copy too, so a still-hidden
        landlord who goes out first is revealed by this same rule.
        """
        if self.reveal_how is not None or seat != self.hidden or self.revealed_card not in cards:
            return []
        self.reveal_how = "copy"
        self.shown_to = set(self.landlords())
        return [{"type": "reveal", "seat": seat, "how": "copy"}]

    # -- settlement ------------------------------------------------------------------------

    def multiplier(self) -> dict[str, Any]:
        """M broken down by cause; ``spring`` is known only once the game is over."""
        big = [p.text for p in self.bombs if self.doubles(p)]
        reveal = 2 if self.reveal_how == "identity" else 1
        spring = "spring" if self.over and self.spring() == "spring" else None
        m0: int = self.options["M0"]
        bomb_factor, spring_factor = 2 ** len(big), 2 if spring else 1
        return {"M0": m0, "reveal": self.reveal_how == "identity", "reveal_factor": reveal,
                "bombs": len(big), "bomb_plays": big, "bomb_factor": bomb_factor,
                "spring": spring, "spring_factor": spring_factor,
                "M": m0 * reveal * bomb_factor * spring_factor}

    def _multiplier_causes(self) -> dict[str, Any]:
        m = self.multiplier()
        return dict(multiplier({"M0": m["M0"], "reveal": m["reveal_factor"],
                                "bombs": m["bomb_factor"], "spring": m["spring_factor"]}))

    def _settle(self) -> dict[str, Any]:
        assert self.winner is not None
        lords = self.landlords()
        farmers = [s for s in range(PLAYERS) if s not in lords]
        mult = self.multiplier()
        d = [2 if self.doubled[s] else 1 for s in range(PLAYERS)]
        stake = self.options["base"] * mult["M"]
        pairs = {(lo, f): Fraction(stake * d[lo] * d[f], len(lords))
                 for lo in lords for f in farmers}
        lords_win = self.side[self.winner] == 0
        sign = 1 if lords_win else -1
        scores = [Fraction(0)] * PLAYERS
        for (lo, f), x in pairs.items():
            scores[lo] += sign * x
            scores[f] -= sign * x
        detail: dict[str, Any] = {
            "winner": "landlords" if lords_win else "farmers",
            "out": self.winner,
            "landlord": self.landlord,
            "hidden_landlord": self.hidden,
            "landlords": lords,
            "single": self.single,
            "revealed": self.reveal_how,
            "revealed_card": format_cards([self.revealed_card]),
            "spring": mult["spring"],
            "M": mult["M"],
            "bombs": mult["bombs"],
            "bomb_plays": mult["bomb_plays"],
            "doubling": {"doubled": [s for s in range(PLAYERS) if d[s] == 2], "factors": d},
            "pairs": [{"landlord": lo, "farmer": f, "points": as_number(x)}
                      for (lo, f), x in pairs.items()],
        }
        n, fee, balances = (self.options[k] for k in ("N", "A", "balances"))
        changes = None if n is None else [0] * PLAYERS  # all on 托管: unscored, no beans
        if n is not None and not self.all_auto():
            if self.hidden is None:
                bean = settle(self.open_landlord, {f: x for (_, f), x in pairs.items()},
                              lords_win, n, fee, balances)
            else:
                bean = two_landlord_beans(pairs, lords_win, self.open_landlord, n, fee,
                                          balances)
            detail["beans"] = bean.to_json()
            changes = list(bean.changes)
        winners = [s for s in range(PLAYERS) if (self.side[s] == 0) is lords_win]
        return self._outcome(detail, winners, [as_number(x) for x in scores], beans=changes)

    def _escape(self, seat: int) -> list[Event]:
        """platform §5: landlord rate for either landlord, farmer rate for farmers (happy
        §4.4); ``M_act`` counts the doubling bombs held once the kitty was taken and the
        identity step's ×2 if it is public; the four others share ``X_esc`` equally."""
        role = "landlord" if self.side[seat] == 0 else "farmer"
        m0: int = self.options["M0"]
        bombs = sum(count_bombs(c, BOMB_LEAST, JOKER_BOMB) for c in self.held)
        reveal = 2 if self.reveal_how == "identity" else 1
        m_act = reveal * 2 ** bombs
        p, _ = beans.escape_points(m_act, m0, role)
        x_esc = self.options["base"] * m0 * p
        points = beans.escape_shares(x_esc, PLAYERS, seat, POINT_UNIT)
        detail: dict[str, Any] = {
            "escape": seat, "role": role, "phase": str(self.phase), "M_act": m_act,
            "P": as_number(p), "X_esc": as_number(x_esc), "held_bombs": bombs,
            "landlord": self.landlord, "hidden_landlord": self.hidden,
            "landlords": self.landlords(), "single": self.single, "revealed": self.reveal_how,
            "revealed_card": format_cards([self.revealed_card])}
        n, changes = self.options["N"], None
        if n is not None:
            bean = beans.settle_escape_shared(seat, x_esc, PLAYERS, n, self.options["A"],
                                              self.options["balances"])
            detail["beans"] = bean.to_json()
            changes = list(bean.changes)
        result = self.outcome(
            ended="escape", winners=[s for s in range(PLAYERS) if s != seat],
            points=[as_number(x) for x in points], detail=detail, beans=changes,
            multiplier=dict(multiplier({"M0": m0, "reveal": reveal, "bombs": 2 ** bombs})))
        return [{"type": "escape", "seat": seat, "role": role}, *self._end_with(result)]

    # -- views -----------------------------------------------------------------------------

    def observe(self, seat: int) -> Observation:
        """In the identity step a seat sees only its own part: who else answers (and who
        has answered) would name the hidden landlord (docs/rulings.md)."""
        view = super().observe(seat)
        if self.phase == Phase.IDENTITY:
            mine = seat in self.acting
            view["acting"] = [seat] if mine else []
            view["to_act"] = seat if mine else None
        return view

    def _view_roles(self, seat: int) -> list[str | None]:
        """What ``seat`` knows: the open landlord and itself; everyone once the sides are
        known to it (the hidden landlord is None to the others until revealed)."""
        if self._knows_sides(seat):
            return ["landlord" if self.side[s] == 0 else "farmer" for s in range(PLAYERS)]
        roles: list[str | None] = [None] * PLAYERS
        roles[self.open_landlord] = "landlord"
        roles[seat] = "landlord" if self.side[seat] == 0 else "farmer"
        return roles

    def _last_text(self, seat: int, action: Action) -> str | None:
        return action.at(None).text if self.phase == Phase.PLAY else None

    def _view_last(self, seat: int) -> list[str | None]:
        """Plays as played; a step's answers only once the step is closed, a hidden
        landlord's identity answer only to those who know him, one's own always."""
        out = list(self.last)
        for s in range(PLAYERS):
            if out[s] is not None:
                continue
            if s in self.doubled and (s == seat or self.phase != Phase.DOUBLE):
                out[s] = "double" if self.doubled[s] else "decline"
            elif s in self.answers and (s == seat or (
                    self.phase != Phase.IDENTITY
                    and (s == self.open_landlord or self._knows_sides(seat)))):
                out[s] = self.answers[s]
        return out

    def _observe_extra(self, seat: int, obs: Observation) -> None:
        over = self.over
        knows = self._knows_sides(seat)
        obs["revealed_card"] = format_cards([self.revealed_card])
        obs["role"] = ("farmer" if self.side[seat] else "hidden landlord" if seat == self.hidden
                       else "single landlord" if self.single else "open landlord")
        obs["landlords"] = self.landlords() if knows else [self.open_landlord]
        obs["hidden_landlord"] = self.hidden if knows else None
        obs["single_landlord"] = self.single if knows or self.side[seat] == 0 else None
        obs["revealed"] = self.reveal_how
        if seat in self.shown_to and not over:
            mate = next(s for s in self.shown_to if s != seat)
            obs["partner"] = {"seat": mate, "hand": hand_text(self.hands[mate]),
                              "cards": format_cards(self.hands[mate])}
        if seat == self.landlord or over:
            obs["kitty"] = hand_text(self.kitty_dealt)
            obs["kitty_cards"] = cards_text(self.kitty_dealt)  # with suits, to draw
        window = self.phase == Phase.DOUBLE
        obs["doubling"] = {  # as in ddz3_happy: others' answers only once all have answered
            "eligible": self._double_block(seat) is None,
            "answer": self.doubled.get(seat),
            "doubled": [s for s in range(PLAYERS)  # seat order: the answers' order is no one's
                        if self.doubled.get(s) and (s == seat or not window)]}
        obs["identity_answer"] = self.answers.get(seat)
        obs["bombs"] = len(self.bombs)
        obs["multiplier"] = self.multiplier()
