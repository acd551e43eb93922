"""欢乐斗地主 (``ddz3_happy``) and its 癞子场 (``ddz3_laizi``): call/rob, show, double, beans.

Rules (docs/rules/ddz3_happy.md, ddz-laizi.md; numbers are their rulings):

- One pack, 17 each and a 3-card kitty; seat ``i`` is followed by ``i + 1``.
- Pre-deal (phase ``ready``): every player answers ``start`` or
  ``show-start`` (明牌开始, hand public all game, ×5), all three at once.
- Deal (phase ``deal``): two decision points for every player not yet
  showing, after 8 and after 17 cards, answered at once ("any player not yet
  showing may act"): ``show`` (发牌明牌) is ×4 at the first, ×3 at the second
  (Ruling 3), else ``no-show``. At the first point a player sees only his
  first 8 cards.
- Call (``call``): from the first player who showed (the first answer
  received, Ruling 20), else from a random seat, each answers ``call`` or
  ``no-call`` in turn; the first call ends calling. Nobody calls: the first
  shower is landlord without robbing (Ruling 16), else the deal is void and
  redealt without fee or score (Ruling 22).
- Rob (``rob``, §2.2): every player after the caller who has not said
  no-call answers ``rob`` / ``no-rob`` once, in turn; if anyone robbed, the
  caller answers once more (Ruling 1). The last robber is landlord; each rob
  ×2 (a call is not a rob, Ruling 2).
- 黄金眼 (``eye P Q``): on his own call or rob turn a player with an item sees
  kitty positions P and Q (1–3) privately; at most twice a game (Ruling 15).
- 癞子场 only: the wild rank W is drawn uniformly from 3…2 once the landlord
  is fixed, before the kitty is shown (laizi Ruling 1), and announced; option
  ``wild`` fixes it.
- The kitty goes to the landlord, shown to all. Doubling (``double``): all
  three answer ``double`` / ``no-double`` at once, in any order (§2 phase 6,
  "必须等待其他玩家进行完相关操作"); the landlord may double only if all three
  balances exceed ``double_min_beans``, a farmer only if he and the landlord
  do (strict >, read when the window opens; Ruling 8).
- The landlord, if not yet showing, may ``show`` (×2) before his first lead
  (Rulings 4, 6). Then play as classic Dou Dizhu, the landlord leading.
- Settlement, escape (``@S leave``) and the multiplier: ``happy_score``.

In a window answered at once every answer is written with its seat
(``@1 double``) and ``acting`` lists the seats still to answer, ``to_act``
first. House rules where the files are silent (docs/rulings.md, "欢乐斗地主 and
癞子场"): the call starts from one random seat (option ``first``) when nobody
showed, which also orders the seats still to answer; hands and kitty have a
dealt order (Golden Eye positions follow it); doubling answers stay private
until all three are in; a void deal is redealt straight into the deal phase.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from cardhall.cards import (
    RANK_CHARS,
    TWO,
    Card,
    CardError,
    card_rank,
    format_card,
)
from cardhall.games.base import Action, Event, IllegalAction, Observation, Option, excerpt
from cardhall.games.climbing import cards_text, hand_text
from cardhall.games.deal import parse_mixed
from cardhall.games.errors import Illegal, NotInWindow, Unreadable, clip
from cardhall.games.happy_score import HappyScoring, LaiziScoring
from cardhall.rules import Play, RuleError


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
#: The windows every seat still to answer answers at once (docs/rulings.md).
TOGETHER = frozenset({Phase.READY, Phase.DEAL, Phase.DOUBLE})
VERBS = {verb for pair in ANSWERS.values() for verb in pair} | {"eye"}
SHOW_START, SHOW_EARLY, SHOW_LATE, SHOW_LANDLORD = 5, 4, 3, 2
EARLY_CARDS, HAND = 8, 17
EYE_USES = 2
EYE_CHOICES = ("1 2", "1 3", "2 3")
WILD_RANKS = tuple(RANK_CHARS[:TWO + 1])
#: Texts this long are quoted in reasons as they are; longer ones by ``excerpt``.
SHORT_TEXT = 40


# -- options ---------------------------------------------------------------------------


def _int(value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"a whole number of at least {low}, not {excerpt(repr(value))}")
    return value


def _seat(value: Any) -> int | None:
    return None if value is None else _int(value, 0)


def _items(value: Any) -> int | list[int]:
    if isinstance(value, list | tuple):
        if len(value) != 3:
            raise ValueError(f"one count per seat (3), not {excerpt(repr(value))}")
        return [_int(v, 0) for v in value]
    return _int(value, 0)


def _balances(value: Any) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise ValueError(f"one bean balance per seat (3), not {excerpt(repr(value))}")
    return [_int(v, 0) for v in value]


def _wild(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip().upper().replace("10", "T")
    if len(text) != 1 or text not in WILD_RANKS:
        raise ValueError(f"one rank from 3 to 2 (never a joker), not {excerpt(repr(value))}")
    return text


def happy_options(laizi: bool = False) -> dict[str, Option]:
    seats = (None, 0, 1, 2)
    options = {
        "deal": Option(None, "the cards: {hands: [3 × 17], kitty: 3}; suited (Ts) or bare (T) "
                       "cards, mixed freely; the text order is the dealt order", kind="deal",
                       help_zh="指定发牌：{hands: [每家17张], kitty: 3张底牌}，可带花色（Ts）"
                       "或只写点数（T）；书写顺序即发牌顺序"),
        "landlord": Option(None, "a fixed landlord seat: no call or rob", seats, _seat,
                           kind="seat", help_zh="指定地主座位：不叫不抢"),
        "first": Option(None, "the seat that calls first if nobody shows, and orders the "
                        "seats still to answer; None: random", seats, _seat, kind="seat",
                        help_zh="无人明牌时首先叫地主的座位（也是应答顺序的起点）；空：随机"),
        "golden_eye": Option(0, "黄金眼 items per player: one count for all, or one per seat",
                             None, _items, kind="int", minimum=0,
                             help_zh="每位玩家的黄金眼道具数：一个数（所有人）或每座一个"),
        "M0": Option(1, "room initial multiplier (初始倍数)", None, lambda v: _int(v, 1),
                     kind="int", minimum=1, help_zh="房间初始倍数"),
        "N": Option(None, "room coefficient (房间系数); beans are settled when set", None,
                    lambda v: None if v is None else _int(v, 1), kind="int", minimum=1,
                    help_zh="房间系数；设置后按欢乐豆结算"),
        "A": Option(0, "house fee per player per game (系统回收)", None, lambda v: _int(v, 0),
                    kind="int", minimum=0, help_zh="每局每人系统回收的欢乐豆"),
        "balances": Option(None, "each seat's beans at the start (3 numbers): doubling, "
                           "floors, caps", None, _balances, kind="text",
                           help_zh="每座开局时的欢乐豆（3个数）：用于加倍条件、输赢上下限"),
        "double_min_beans": Option(0, "beans a player must exceed to double (加倍条件)", None,
                                   lambda v: _int(v, 0), kind="int", minimum=0,
                                   help_zh="加倍条件：欢乐豆须超过此数"),
    }
    if laizi:
        options["wild"] = Option(None, "a fixed wild rank 3…2; None: drawn after robbing",
                                 (None, *WILD_RANKS), _wild, kind="choice",
                                 help_zh="指定癞子点数（3…2）；空：抢地主后随机翻出")
    return options


def _in_text_order(text: str, cards: list[Card]) -> list[Card]:
    """``cards`` (a dealt hand) in the order the ``deal`` option wrote them."""
    tokens = parse_mixed(text)  # already checked against the deck by the deal itself
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


class Happy(HappyScoring):
    """欢乐斗地主: the set-up phases above, the shared play phase, §4 settlement."""

    phases = Phase

    def _start(self) -> None:
        items = self.options["golden_eye"]
        self.items: list[int] = list(items) if isinstance(items, list) else [items] * 3
        self.eye_uses = [0, 0, 0]
        #: Showing seats → show factor, in the order they showed (tests/games/hidden.py reads it).
        self.shown = {}
        self.wild = None
        self.escaped = None
        self.queue = []
        self.log.extend(self._new_deal(self.options["first"]))
        self.phase = Phase.READY
        self._ask(self._order(self.first))

    def _new_deal(self, first: int | None) -> list[Event]:
        events = self._deal()
        self.first = self.rng.randrange(3) if first is None else first
        self.dealt = 0  # cards each player has been dealt so far (what he may see)
        self.caller: int | None = None
        self.holder = None  # the provisional landlord while robbing
        self.auction: list[tuple[int, str]] = []
        self.robs = 0
        self.final_rob = False
        self.eligible: list[bool] | None = None
        self.doubled = {}
        self.held = None  # rank counts once the kitty is taken
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

    # -- who answers -----------------------------------------------------------------------

    def _acting(self) -> list[int]:
        if self.phase in TOGETHER:
            return list(self.queue)
        return super()._acting()

    def _legal_for(self, seat: int) -> list[Action]:
        return self._answers(seat) if self.phase in TOGETHER else []

    def _setup_actions(self) -> list[Action]:
        assert self.to_act is not None
        return self._answers(self.to_act)

    def _answers(self, seat: int) -> list[Action]:
        verbs: tuple[str, ...] = ANSWERS[Phase(self.phase)]
        if self.phase == Phase.DOUBLE and self.eligible is not None and not self.eligible[seat]:
            verbs = verbs[:1]
        actions = [Action(v) for v in verbs]
        if self._eye_reason(seat) is None:
            actions.extend(Action("eye", arg) for arg in EYE_CHOICES)
        return actions

    # -- reading and checking ----------------------------------------------------------------

    def _known(self, text: str) -> Action | None:
        """The listed action by text, only once listed: a 癞子 lead has thousands of plays,
        and junk must be refused without building them."""
        return super()._known(text) if self._legal is not None else None

    def _check_play(self, play: Play) -> IllegalAction | None:
        """Cheap reasons first (cards not held, does not beat); the legal list decides, or,
        for a wild play when none is listed yet, the reading itself.

        ``play`` is a reading of its cards (``RuleSet.parse_play`` classifies them: a
        handful of readings, whatever the hand), and every reading of held cards that
        beats the play to beat is one the 癞子 generator lists, with the same text
        (tests/games/test_laizi_check.py): a 癞子 lead lists 10 000+ plays, which a
        table must not build to judge one (issue 25).
        """
        reason = self._play_refusal(play)
        if reason is not None:
            return reason
        if self._legal is None and self.rs.wild is not None:
            return None
        action = self._play_action(play)
        if self._legal_by_text().get(action.text) == action:
            return None
        return Illegal("not_legal_now", f"{play.text} is not a legal play now", play=play.text)

    def _reading_order(self, found: set[str], seat: int | None) -> dict[str, int]:
        """A wild play's readings (one set of cards) ordered as the plays of those cards
        alone list them, which is their order in the hand's list (the generator walks
        the same codes, fewer of them: tests/games/test_laizi_check.py), when the hand's
        10 000+ plays are not listed yet."""
        if self._legal is not None or self.rs.wild is None or self.phase != "play":
            return super()._reading_order(found, seat)
        arg = next(iter(found)).partition(" ")[2]
        cards = self.rs.hand(arg.partition("=")[0].replace("+", ""))
        last = None if self.trick is None else self.trick[1]
        return {"play " + text: i for i, text in enumerate(self.rs.spelt_moves(cards, last)[1])}

    def _parse(self, verb: str, arg: str) -> Action:
        if verb == "play":
            try:
                play = self.rs.parse_play(arg)
            except (RuleError, CardError) as exc:  # a rule's reason quotes the text in full
                short = len(arg) <= SHORT_TEXT
                raise self._unplayable(arg, str(exc) if short else
                                       f"{excerpt(arg)} is not a play of {self.variant.name}",
                                       exc) from None
            return self._play_action(play)
        return super()._parse(verb, arg)

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb == "eye":
            chars = arg.replace(",", "").replace(" ", "")
            if len(chars) != 2 or len(set(chars)) != 2 or not set(chars) <= set("123"):
                raise Unreadable("bad_eye", "eye takes two different kitty positions from 1 "
                                 "to 3, e.g. eye 1 3", text=clip(arg))
            return Action("eye", " ".join(sorted(chars)))
        if verb in VERBS and not arg:
            return Action(verb)
        text = f"{verb} {arg}".strip()
        prompt = PROMPTS.get(Phase(self.phase), "play cards or pass")
        allowed = list(ANSWERS.get(Phase(self.phase), ("play CARDS", "pass")))
        raise Unreadable("unknown_action", f"{excerpt(text)} is not an action of "
                         f"{self.variant.name}; {prompt}", text=clip(text), allowed=allowed)

    def _setup_check(self, action: Action) -> IllegalAction | None:
        seat = self.to_act if action.seat is None else action.seat
        assert seat is not None
        phase = Phase(self.phase)
        if action.verb == "eye":
            return self._eye_reason(seat)
        if action.verb not in ANSWERS[phase]:
            return NotInWindow("wrong_step", PROMPTS[phase], phase=str(phase),
                               text=clip(action.text), allowed=list(ANSWERS[phase]))
        if action.verb == "double" and self.eligible is not None and not self.eligible[seat]:
            limit = self.options["double_min_beans"]
            who = "all three players" if seat == self.landlord else "you and the landlord"
            return Illegal("double_needs_beans", f"you may not double: {who} must hold more "
                           f"than {limit} beans", least=limit)
        return None

    def _eye_reason(self, seat: int) -> IllegalAction | None:
        if self.phase not in (Phase.CALL, Phase.ROB):
            return NotInWindow("eye_not_now", "Golden Eye (黄金眼) is used only on your own "
                               "call or rob turn", phase=str(self.phase))
        if self.items[seat] <= 0:
            return Illegal("no_eye_left", "you have no Golden Eye (黄金眼) item left")
        if self.eye_uses[seat] >= EYE_USES:
            return Illegal("eye_used_up", f"Golden Eye (黄金眼) can be used at most "
                           f"{EYE_USES} times a game", uses=EYE_USES)
        return None

    # -- applying ------------------------------------------------------------------------------

    def _last_text(self, seat: int, action: Action) -> str | None:
        if action.verb == "eye":  # §2.4: the others are not told; the bubble stays as it was
            return self.last[seat]
        return super()._last_text(seat, action)

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act if action.seat is None else action.seat
        assert seat is not None
        if action.verb == "eye":
            return self._use_eye(seat, action.arg)
        self.queue.remove(seat)
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
            events[0]["to"] = [seat]  # answered at once: private until all are in
        if self.queue:
            self.to_act = self.queue[0]
        else:
            events.extend(self._advance())
        return events

    def _use_eye(self, seat: int, arg: str) -> list[Event]:
        positions = [int(p) for p in arg.split()]
        cards = [RANK_CHARS[card_rank(self.kitty_order[p - 1])] for p in positions]
        self.items[seat] -= 1
        self.eye_uses[seat] += 1
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
        self.last = [None] * self.players  # a new window: nobody has answered it yet
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

    # -- views -----------------------------------------------------------------------------

    def _visible(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds as far as anyone may know (first 8 mid-deal)."""
        if self.dealt >= HAND:
            return self.hands[seat]
        return self.deal_order[seat][:self.dealt]

    def _view_hand(self, seat: int) -> list[str]:
        return [format_card(c) for c in sorted(self._visible(seat))]

    def _view_counts(self) -> list[int]:
        if self.dealt < HAND:
            return [self.dealt] * self.players
        return super()._view_counts()

    def _view_last(self, seat: int) -> list[str | None]:
        """Doubling answers are private until the window closes (each seat sees its own)."""
        last = list(self.last)
        if self.phase == Phase.DOUBLE:
            last = [text if s == seat else None for s, text in enumerate(last)]
        return last

    def _observe_extra(self, seat: int, obs: Observation) -> None:
        obs["first"] = self.first
        obs["dealt"] = self.dealt
        obs["shown"] = [{"seat": s, "factor": f, "hand": hand_text(self._visible(s))}
                        for s, f in self.shown.items()]
        obs["auction"] = [[s, verb] for s, verb in self.auction]
        obs["caller"] = self.caller
        obs["robs"] = self.robs
        window = self.phase == Phase.DOUBLE
        obs["doubling"] = {
            "eligible": None if self.eligible is None else list(self.eligible),
            "doubled": [s for s in range(self.players)
                        if self.doubled.get(s) and (s == seat or not window)],
        }
        obs["eye"] = {"items": self.items[seat], "uses": self.eye_uses[seat]}
        if self.landlord is not None or self.over:
            obs["kitty"] = hand_text(self.kitty_dealt)
            obs["kitty_cards"] = cards_text(self.kitty_dealt)  # with suits, to draw
        if self.wild is not None:
            obs["wild"] = RANK_CHARS[self.wild]


class Laizi(LaiziScoring, Happy):
    """癞子场: happy plus a wild rank drawn after robbing; laizi bomb classes and points."""


    def _before_kitty(self) -> list[Event]:
        fixed = self.options["wild"]
        self.wild = RANK_CHARS.index(fixed) if fixed else self.rng.randrange(TWO + 1)
        self.rs = self.rs.with_options(wild=self.wild)
        return [{"type": "wild", "rank": RANK_CHARS[self.wild]}]
