"""欢乐斗地主 (``ddz3_happy``) and its 癞子场 (``ddz3_laizi``): call/rob, show, double, beans.

Rules (../shared/rules/ddz-happy.md, ddz-laizi.md; numbers are their rulings):

- One pack, 17 each and a 3-card kitty; seat ``i`` is followed by ``i + 1``.
- Pre-deal (phase ``ready``): each player in turn answers ``start`` or
  ``show-start`` (明牌开始, hand public all game, ×5).
- Deal (phase ``deal``): two decision points for every player not yet
  showing, after 8 and after 17 cards: ``show`` (发牌明牌) is ×4 at the
  first, ×3 at the second (Ruling 3), else ``no-show``. At the first point a
  player sees only his first 8 cards.
- Call (``call``): from the first player who showed, else from a random
  seat, each answers ``call`` or ``no-call``; the first call ends calling.
  Nobody calls: the first shower is landlord without robbing (Ruling 16),
  else the deal is void and redealt without fee or score (Ruling 22).
- Rob (``rob``, §2.2): every player after the caller who has not said
  no-call answers ``rob`` / ``no-rob`` once, in turn; if anyone robbed, the
  caller answers once more (Ruling 1). The last robber is landlord; each rob
  ×2 (a call is not a rob, Ruling 2).
- 黄金眼 (``eye P Q``): on his own call or rob turn a player with an item sees
  kitty positions P and Q (1–3) privately; at most twice a game (Ruling 15).
- 癞子场 only: the wild rank W is drawn uniformly from 3…2 once the landlord
  is fixed, before the kitty is shown (laizi Ruling 1), and announced.
- The kitty goes to the landlord, shown to all. Doubling (``double``): all
  three answer ``double`` / ``no-double``; the landlord may double only if all
  three balances exceed ``double_min_beans``, a farmer only if he and the
  landlord do (strict >, read when the window opens; Ruling 8).
- The landlord, if not yet showing, may ``show`` (×2) before his first lead
  (Rulings 4, 6). Then play as classic Dou Dizhu, the landlord leading.
- M = M0 × 2^robs × show factor (the largest, Ruling 5) × bomb factors ×
  2 for spring or anti-spring (Ruling 9). Happy: every bomb and the rocket
  ×2 (Ruling 10). Laizi: soft ×2, hard, pure-wild and rocket ×4 (laizi
  Ruling 7), points × 0.25 and capped at 10 000 (``beans.py``).
- Escape: ``@S escape`` by any seat at any time ends the game with the §4.4
  penalty: every bomb of the deal counts (Ruling 14; laizi Ruling 11).

House rules where the files are silent (docs/rulings.md, "欢乐斗地主 and 癞子场"):
decisions go in turn from one random seat (option ``first``), which also calls first
when nobody showed; hands and kitty have a dealt order (Golden Eye positions follow
it); doubling answers stay private until all three are in; a void deal is redealt
straight into the deal phase; escape before the deal is at the pre-start farmer rate,
later the provisional landlord (caller or last robber) pays the landlord rate.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from cardhall.cards import BIG_JOKER, RANK_CHARS, SMALL_JOKER, TWO, Card, card_rank, format_cards
from cardhall.games import beans
from cardhall.games.base import Action, Event, IllegalAction, Observation, Option
from cardhall.games.climbing import ClimbingGame, Layout, _parse_any, hand_text
from cardhall.games.ddz import common_options
from cardhall.rules import Play


class Phase(StrEnum):
    READY = "ready"
    DEAL = "deal"
    CALL = "call"
    ROB = "rob"
    DOUBLE = "double"
    SHOW = "show"
    PLAY = "play"
    OVER = "over"


#: The two answers of each set-up phase, the non-committal one first (platform §4 default).
ANSWERS = {
    Phase.READY: ("start", "show-start"),
    Phase.DEAL: ("no-show", "show"),
    Phase.CALL: ("no-call", "call"),
    Phase.ROB: ("no-rob", "rob"),
    Phase.DOUBLE: ("no-double", "double"),
    Phase.SHOW: ("no-show", "show"),
}
PROMPTS = {
    Phase.READY: "before the deal, answer start or show-start (明牌开始, ×5)",
    Phase.DEAL: "during the deal, answer show (发牌明牌) or no-show",
    Phase.CALL: "answer call (叫地主) or no-call (不叫)",
    Phase.ROB: "answer rob (抢地主) or no-rob (不抢)",
    Phase.DOUBLE: "answer double (加倍) or no-double (不加倍)",
    Phase.SHOW: "before your first lead, answer show (明牌, ×2) or no-show",
}
VERBS = {verb for pair in ANSWERS.values() for verb in pair} | {"eye", "escape"}
SHOW_START, SHOW_EARLY, SHOW_LATE, SHOW_LANDLORD = 5, 4, 3, 2
EARLY_CARDS, HAND = 8, 17
EYE_USES = 2
EYE_CHOICES = ("1 2", "1 3", "2 3")


# -- options ---------------------------------------------------------------------------


def _int(value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"a whole number of at least {low}, not {value!r}")
    return value


def _seat(value: Any) -> int | None:
    return None if value is None else _int(value, 0)


def _items(value: Any) -> int | list[int]:
    if isinstance(value, list | tuple):
        if len(value) != 3:
            raise ValueError(f"one count per seat (3), not {value!r}")
        return [_int(v, 0) for v in value]
    return _int(value, 0)


def _balances(value: Any) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise ValueError(f"one bean balance per seat (3), not {value!r}")
    return [_int(v, 0) for v in value]


def _wild(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip().upper().replace("10", "T")
    if len(text) != 1 or text not in RANK_CHARS[:TWO + 1]:
        raise ValueError(f"one rank from 3 to 2 (never a joker), not {value!r}")
    return text


def happy_options(laizi: bool = False) -> dict[str, Option]:
    common = common_options(3)
    options = {
        "deal": common["deal"],
        "landlord": Option(None, "a fixed landlord seat: no call or rob", (None, 0, 1, 2), _seat),
        "first": Option(None, "the seat that answers first (and calls first if nobody shows); "
                        "None: random", (None, 0, 1, 2), _seat),
        "golden_eye": Option(0, "黄金眼 items per player: one count for all, or one per seat",
                             None, _items),
        "M0": Option(1, "room initial multiplier (初始倍数)", None, lambda v: _int(v, 1)),
        "N": Option(None, "room coefficient (房间系数); beans are settled when set", None,
                    lambda v: None if v is None else _int(v, 1)),
        "A": Option(0, "house fee per player per game (系统回收)", None, lambda v: _int(v, 0)),
        "balances": Option(None, "each seat's beans at the start: doubling, floors, caps",
                           None, _balances),
        "double_min_beans": Option(0, "beans a player must exceed to double (加倍条件)", None,
                                   lambda v: _int(v, 0)),
    }
    if laizi:
        options["wild"] = Option(None, "a fixed wild rank 3…2; None: drawn after robbing",
                                 None, _wild)
    return options


def _in_text_order(text: str, cards: list[Card]) -> list[Card]:
    """``cards`` (a dealt hand) in the order the ``deal`` option wrote them."""
    tokens = _parse_any(text)
    rest = [c for c in cards if c not in tokens]
    out = []
    for token in tokens:
        card = token
        if token < 0:  # any card of rank -1 - token
            card = next(c for c in rest if card_rank(c) == -1 - token)
            rest.remove(card)
        out.append(card)
    return out


# -- the game --------------------------------------------------------------------------


class Happy(ClimbingGame):
    """欢乐斗地主: the set-up phases above, the shared play phase, §4 settlement."""

    layout = Layout(hand=HAND, kitty=3)
    ruleset = "ddz3_happy"
    #: Bomb ladder tier → (class, factor when played). Happy Ruling 10: the rocket is ×2.
    bomb_classes: ClassVar[dict[int, tuple[str, int]]] = {1: ("bomb", 2), 2: ("rocket", 2)}
    coefficient: ClassVar[Fraction] = Fraction(1)
    cap: ClassVar[int | None] = None

    def _start(self) -> None:
        items = self.options["golden_eye"]
        self.items: list[int] = list(items) if isinstance(items, list) else [items] * 3
        self.eye_uses = [0, 0, 0]
        #: Showing seats → show factor, in the order they showed (tests/games/hidden.py reads it).
        self.shown: dict[int, int] = {}
        self.wild: int | None = None
        self.queue: list[int] = []
        self.log.extend(self._new_deal(self.options["first"]))
        self.phase = Phase.READY
        self._ask(self._order(self.first))

    def _new_deal(self, first: int | None) -> list[Event]:
        events = self._deal()
        self.first = self.rng.randrange(3) if first is None else first
        self.dealt = 0  # cards each player has been dealt so far (what he may see)
        self.caller: int | None = None
        self.holder: int | None = None  # the provisional landlord while robbing
        self.auction: list[tuple[int, str]] = []
        self.robs = 0
        self.final_rob = False
        self.eligible: list[bool] | None = None
        self.doubled: dict[int, bool] = {}
        self.held: list[tuple[int, ...]] | None = None  # rank counts once the kitty is taken
        return [*events, {"type": "order", "first": self.first}]

    def _deal(self) -> list[Event]:
        events = super()._deal()
        given = self.options.get("deal")
        if given is not None and self.deals == 1:
            self.deal_order = [_in_text_order(t, h) for t, h in zip(given["hands"], self.hands,
                                                                    strict=True)]
            self.kitty_order = _in_text_order(given.get("kitty", ""), self.kitty)
        else:
            self.deal_order = [self.rng.sample(h, len(h)) for h in self.hands]
            self.kitty_order = self.rng.sample(self.kitty, len(self.kitty))
        return events

    def _order(self, start: int) -> list[int]:
        return [(start + i) % self.players for i in range(self.players)]

    def _ask(self, queue: list[int]) -> None:
        self.queue = queue
        self.to_act = queue[0]

    # -- actions -------------------------------------------------------------------------

    def _setup_actions(self) -> list[Action]:
        seat = self.to_act
        assert seat is not None
        verbs: tuple[str, ...] = ANSWERS[Phase(self.phase)]
        if self.phase == Phase.DOUBLE and self.eligible is not None and not self.eligible[seat]:
            verbs = verbs[:1]
        actions = [Action(v) for v in verbs]
        if self._eye_reason(seat) is None:
            actions.extend(Action("eye", arg) for arg in EYE_CHOICES)
        return actions

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb == "eye":
            chars = arg.replace(",", "").replace(" ", "")
            if len(chars) != 2 or len(set(chars)) != 2 or not set(chars) <= set("123"):
                raise IllegalAction("eye takes two different kitty positions from 1 to 3, "
                                    "e.g. eye 1 3")
            return Action("eye", " ".join(sorted(chars)))
        if verb in VERBS and not arg:
            return Action(verb)
        text = f"{verb} {arg}".strip()
        raise IllegalAction(f"{text!r} is not an action of {self.variant.name}; "
                            f"{PROMPTS.get(Phase(self.phase), 'play cards or pass')}")

    def _check(self, action: Action) -> str | None:
        if action.verb == "escape" and action.seat is None:
            return f"say which seat leaves: @{self.to_act} escape"
        return super()._check(action)

    def _check_out_of_turn(self, action: Action) -> str | None:
        if action.seat is None or not 0 <= action.seat < self.players:
            return f"there is no seat {action.seat} at this table"
        if action.verb != "escape":
            return f"only escape can be done out of turn, not {action.verb}"
        return None

    def _setup_check(self, action: Action) -> str | None:
        seat = self.to_act
        assert seat is not None
        phase = Phase(self.phase)
        if action.verb == "eye":
            return self._eye_reason(seat)
        if action.verb not in ANSWERS[phase]:
            return PROMPTS[phase]
        if action.verb == "double" and self.eligible is not None and not self.eligible[seat]:
            limit = self.options["double_min_beans"]
            who = "all three players" if seat == self.landlord else "you and the landlord"
            return f"you may not double: {who} must hold more than {limit} beans"
        return None

    def _eye_reason(self, seat: int) -> str | None:
        if self.phase not in (Phase.CALL, Phase.ROB):
            return "Golden Eye (黄金眼) is used only on your own call or rob turn"
        if self.items[seat] <= 0:
            return "you have no Golden Eye (黄金眼) item left"
        if self.eye_uses[seat] >= EYE_USES:
            return f"Golden Eye (黄金眼) can be used at most {EYE_USES} times a game"
        return None

    def _check_play(self, play: Play) -> str | None:
        action = self._play_action(play)
        if self._legal_by_text().get(action.text) == action:
            return None
        return super()._check_play(play)  # says why it is not legal

    def _apply(self, action: Action) -> list[Event]:
        if action.seat is None:
            return super()._apply(action)
        self._legal = None
        events = self._escape(action.seat)
        self.log.extend(events)
        return events

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        if action.verb == "eye":
            return self._use_eye(seat, action.arg)
        self.queue.pop(0)
        events: list[Event] = [{"type": action.verb, "seat": seat}]
        if action.verb in ("show", "show-start"):
            factor = {Phase.READY: SHOW_START, Phase.SHOW: SHOW_LANDLORD}.get(
                Phase(self.phase), SHOW_EARLY if self.dealt <= EARLY_CARDS else SHOW_LATE)
            self.shown[seat] = factor
            events[0]["factor"] = factor
        elif self.phase == Phase.CALL:
            events.extend(self._answer_call(seat, action.verb == "call"))
        elif self.phase == Phase.ROB:
            self.auction.append((seat, action.verb))
            if action.verb == "rob":
                self.robs += 1
                self.holder = seat
        elif self.phase == Phase.DOUBLE:
            self.doubled[seat] = action.verb == "double"
            events[0]["to"] = [seat]  # the window is simultaneous: answers stay private
        if self.queue:
            self.to_act = self.queue[0]
        else:
            events.extend(self._advance())
        return events

    def _use_eye(self, seat: int, arg: str) -> list[Event]:
        self.items[seat] -= 1
        self.eye_uses[seat] += 1
        positions = [int(p) for p in arg.split()]
        cards = [RANK_CHARS[card_rank(self.kitty_order[p - 1])] for p in positions]
        return [{"type": "eye", "to": [seat], "seat": seat, "positions": positions,
                 "cards": cards}]

    # -- phase transitions -----------------------------------------------------------------

    def _advance(self) -> list[Event]:
        """The current phase's last answer is in: enter the next phase."""
        phase = self.phase
        if phase == Phase.READY or (phase == Phase.DEAL and self.dealt == EARLY_CARDS):
            return self._deal_point(EARLY_CARDS if phase == Phase.READY else HAND)
        if phase == Phase.DEAL:
            return self._open_call()
        if phase == Phase.CALL:
            return self._nobody_called()
        if phase == Phase.ROB:
            if self.robs and not self.final_rob:
                assert self.caller is not None
                self.final_rob = True
                self._ask([self.caller])  # Ruling 1: the caller's one rob back
                return []
            assert self.holder is not None
            return self._fix_landlord(self.holder)
        landlord = self.landlord
        assert landlord is not None
        if phase == Phase.DOUBLE:
            doubled = [s for s in self._order(landlord) if self.doubled.get(s)]
            if landlord in self.shown:
                self._begin_play(landlord)
            else:
                self.phase = Phase.SHOW
                self._ask([landlord])
            return [{"type": "doubled", "seats": doubled}]
        assert phase == Phase.SHOW
        self._begin_play(landlord)
        return []

    def _deal_point(self, cards: int) -> list[Event]:
        self.phase = Phase.DEAL
        self.dealt = cards
        events: list[Event] = [{"type": "dealt", "cards": cards}]
        waiting = [s for s in self._order(self.first) if s not in self.shown]
        if not waiting:
            return events + self._advance()
        self._ask(waiting)
        return events

    def _open_call(self) -> list[Event]:
        fixed = self.options["landlord"]
        if fixed is not None and self.deals == 1:
            return self._fix_landlord(fixed)
        start = next(iter(self.shown), self.first)
        self.phase = Phase.CALL
        self._ask(self._order(start))
        return [{"type": "first-caller", "seat": start}]

    def _answer_call(self, seat: int, called: bool) -> list[Event]:
        self.auction.append((seat, "call" if called else "no-call"))
        if not called:
            return []
        self.caller = self.holder = seat
        said_no = {s for s, verb in self.auction if verb == "no-call"}
        robbers = [s for s in self._order(seat)[1:] if s not in said_no]
        if not robbers:
            return self._fix_landlord(seat)
        self.phase = Phase.ROB
        self._ask(robbers)
        return []

    def _nobody_called(self) -> list[Event]:
        if self.shown:
            return self._fix_landlord(next(iter(self.shown)))  # Ruling 16, no rob phase
        events: list[Event] = [{"type": "void"}, *self._new_deal(None)]
        return events + self._deal_point(EARLY_CARDS)

    def _fix_landlord(self, seat: int) -> list[Event]:
        self.landlord = seat
        self.side = [0 if s == seat else 1 for s in range(self.players)]
        events: list[Event] = [{"type": "landlord", "seat": seat, "robs": self.robs},
                               *self._before_kitty(),
                               {"type": "kitty", "cards": hand_text(self.kitty)}]
        self._give(seat, self.kitty)
        self.kitty = []
        self.held = list(self.counts)
        self.eligible = self._eligibility(seat)
        self.phase = Phase.DOUBLE
        self._ask(self._order(seat))
        return [*events, {"type": "doubling", "eligible": list(self.eligible)}]

    def _before_kitty(self) -> list[Event]:
        """Hook between robbing and the kitty (the laizi wild draw)."""
        return []

    def _eligibility(self, landlord: int) -> list[bool]:
        """§2.3, read when the window opens: strictly more than ``double_min_beans``."""
        balances = self.options["balances"]
        if balances is None:
            return [True] * self.players
        rich = [b > self.options["double_min_beans"] for b in balances]
        return [all(rich) if s == landlord else rich[s] and rich[landlord]
                for s in range(self.players)]

    # -- settlement ------------------------------------------------------------------------

    def multiplier(self, bombs: dict[str, int] | None = None, bomb_factor: int | None = None,
                   spring: str | None = None) -> dict[str, Any]:
        """M broken down by cause; bombs default to those played so far."""
        if bombs is None or bomb_factor is None:
            bombs, bomb_factor = self._played_bombs()
        show = max(self.shown.values(), default=1)
        spring_factor = 2 if spring else 1
        m0 = self.options["M0"]
        return {"M0": m0, "robs": self.robs, "rob_factor": 2 ** self.robs, "show": show,
                "bombs": bombs, "bomb_factor": bomb_factor, "spring": spring,
                "spring_factor": spring_factor,
                "M": m0 * 2 ** self.robs * show * bomb_factor * spring_factor}

    def _played_bombs(self) -> tuple[dict[str, int], int]:
        counts = {name: 0 for name, _ in self.bomb_classes.values()}
        factor = 1
        for play in self.bombs:
            name, f = self.bomb_classes[play.tier]
            counts[name] += 1
            factor *= f
        return counts, factor

    def _deal_bombs(self) -> tuple[dict[str, int], int]:
        """Escape (Ruling 14): every four held by one player after the kitty, and the rocket."""
        held = self.held or self.counts
        fours = sum(1 for c in held for r in range(TWO + 1) if c[r] == 4)
        rocket = sum(1 for c in held if c[SMALL_JOKER] and c[BIG_JOKER])
        return {"bomb": fours, "rocket": rocket}, 2 ** (fours + rocket)

    def _settle(self) -> dict[str, Any]:
        assert self.landlord is not None and self.winner is not None
        landlord = self.landlord
        spring = self.spring()
        bombs, factor = self._played_bombs()
        mult = self.multiplier(bombs, factor, spring)
        doubles = {s: 2 if self.doubled.get(s) else 1 for s in range(self.players)}
        pairs = beans.pair_points(mult["M"], doubles, landlord, self.coefficient, self.cap)
        uncapped = beans.pair_points(mult["M"], doubles, landlord, self.coefficient)
        landlord_wins = self.side[self.winner] == 0
        sign = 1 if landlord_wins else -1
        scores = [Fraction(0)] * self.players
        for farmer, x in pairs.items():
            scores[farmer] -= sign * x
            scores[landlord] += sign * x
        result: dict[str, Any] = {
            "scores": [beans.as_number(x) for x in scores],
            "winner": "landlord" if landlord_wins else "farmers",
            "landlord": landlord,
            "spring": spring,
            "multiplier": mult,
            "doubling": {"doubled": [s for s in range(self.players) if doubles[s] == 2],
                         "factors": [doubles[s] for s in range(self.players)]},
            "pairs": [{"farmer": f, "points": beans.as_number(x)} for f, x in pairs.items()],
            "coefficient": beans.as_number(self.coefficient),
            "capped": pairs != uncapped,
        }
        self._settle_extra(result)
        n = self.options["N"]
        if n is not None:
            result["beans"] = beans.settle(landlord, pairs, landlord_wins, n, self.options["A"],
                                           self.options["balances"]).to_json()
        return result

    def _settle_extra(self, result: dict[str, Any]) -> None:
        """Variant facts for the result (the laizi wild rank)."""

    def _escape(self, seat: int) -> list[Event]:
        """§4.4: the game ends at once; the escaper pays the penalty to the others."""
        provisional = self.landlord if self.landlord is not None else self.holder
        bombs, factor = self._deal_bombs()
        mult = self.multiplier(bombs, factor)
        if self.phase == Phase.READY:  # before the deal: platform §2.2's pre-start rate
            role, m_act = "farmer", 1
        else:
            role = "landlord" if seat == provisional else "farmer"
            m_act = mult["M"] // mult["M0"]
        p, x_esc = beans.escape_points(m_act, self.options["M0"], role, self.coefficient,
                                       self.cap)
        scores = [x_esc / 2] * self.players
        scores[seat] = -x_esc
        result: dict[str, Any] = {
            "scores": [beans.as_number(x) for x in scores], "escape": seat, "role": role,
            "M_act": m_act, "P": beans.as_number(p), "X_esc": beans.as_number(x_esc),
            "multiplier": mult, "landlord": self.landlord,
        }
        self._settle_extra(result)
        n = self.options["N"]
        if n is not None:
            result["beans"] = beans.settle_escape(seat, x_esc, self.players, n,
                                                  self.options["A"],
                                                  self.options["balances"]).to_json()
        self.phase = Phase.OVER
        self.to_act = None
        self.queue = []
        self._result = result
        return [{"type": "escape", "seat": seat}, {"type": "over", "result": result}]

    # -- views -----------------------------------------------------------------------------

    def _visible(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds as far as anyone may know (first 8 mid-deal)."""
        if self.dealt >= HAND:
            return self.hands[seat]
        return self.deal_order[seat][:self.dealt]

    def _observe_extra(self, seat: int, obs: Observation) -> None:
        if self.dealt < HAND:
            mine = self._visible(seat)
            obs["hand"], obs["cards"] = hand_text(mine), format_cards(mine)
            obs["counts"] = [self.dealt] * self.players
        obs["first"] = self.first
        obs["dealt"] = self.dealt
        obs["shown"] = [{"seat": s, "factor": f, "hand": hand_text(self._visible(s))}
                        for s, f in self.shown.items()]
        obs["auction"] = [[s, verb] for s, verb in self.auction]
        obs["caller"] = self.caller
        obs["robs"] = self.robs
        obs["multiplier"] = self.multiplier()
        window = self.phase == Phase.DOUBLE
        obs["doubling"] = {
            "eligible": None if self.eligible is None else list(self.eligible),
            "doubled": [s for s, d in self.doubled.items() if d and (s == seat or not window)],
        }
        obs["eye"] = {"items": self.items[seat], "uses": self.eye_uses[seat]}
        if self.landlord is not None or self.over:
            obs["kitty"] = hand_text(self.kitty_dealt)
        if self.wild is not None:
            obs["wild"] = RANK_CHARS[self.wild]


class Laizi(Happy):
    """癞子场: happy plus a wild rank drawn after robbing; laizi bomb classes and points."""

    ruleset = "ddz3_laizi"
    #: laizi §5 and Ruling 7: these factors replace the normal ×2.
    bomb_classes: ClassVar[dict[int, tuple[str, int]]] = {
        1: ("soft", 2), 2: ("hard", 4), 3: ("pure", 4), 4: ("rocket", 4)}
    coefficient: ClassVar[Fraction] = Fraction(1, 4)
    cap: ClassVar[int | None] = 10_000

    def _before_kitty(self) -> list[Event]:
        fixed = self.options["wild"]
        self.wild = RANK_CHARS.index(fixed) if fixed else self.rng.randrange(TWO + 1)
        self.rs = self.rs.with_options(wild=self.wild)
        return [{"type": "wild", "rank": RANK_CHARS[self.wild]}]

    def _deal_bombs(self) -> tuple[dict[str, int], int]:
        """Laizi Ruling 11: hard, pure-wild and rocket from the deal (×4); soft only if played."""
        held = self.held or self.counts
        wild = self.wild
        hard = sum(1 for c in held for r in range(TWO + 1) if c[r] == 4 and r != wild)
        pure = sum(1 for c in held if wild is not None and c[wild] == 4)
        rocket = sum(1 for c in held if c[SMALL_JOKER] and c[BIG_JOKER])
        soft = sum(1 for p in self.bombs if self.bomb_classes[p.tier][0] == "soft")
        return ({"soft": soft, "hard": hard, "pure": pure, "rocket": rocket},
                2 ** soft * 4 ** (hard + pure + rocket))

    def _settle_extra(self, result: dict[str, Any]) -> None:
        result["wild"] = None if self.wild is None else RANK_CHARS[self.wild]
