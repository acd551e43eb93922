"""保皇 (``baohuang``): five players, four packs without 3/4/5, the emperor and his guard.

Rules (../shared/rules/baohuang.md; numbers are its rulings):

- Deck and deal: four packs without 3, 4, 5 (168 cards, Ruling 1), dealt one at
  a time from seat ``first`` (option; the leftmost seat 0 in a first game, the
  previous emperor afterwards) clockwise, seat ``i`` → ``i + 1``: 34, 34, 34,
  33, 33 in deal order (Ruling 2). One big joker is the emperor card (皇牌); in
  simple mode one small joker is the guard card (侍卫牌). In play both are
  ordinary jokers.
- Emperor selection (phase ``emperor``): the emperor card's holder answers
  ``accept`` or ``cede``; ceding passes it to his 上家 (seat − 1). Simple mode
  (贴2): from the second decision on, a decliner attaches one 2 (else his
  highest non-joker card) and passes it with everything received; the
  accepter keeps them (Ruling 3); ten declines (two laps) redeal (Ruling 4).
  Classic: no tribute; after one lap the first holder must accept.
- Guard and solo (phase ``guard``, one window): the emperor, classic: ``call
  7s`` (a suited card he holds 3 of: the 4th copy's holder is the guard; all
  4: 暗独保, Ruling 6: never a joker) or ``solo`` (明独保); a first holder
  forced to accept who can call nothing may ``redeal`` (Ruling 5). Simple: the
  guard card's holder is the guard; holding it himself the emperor answers
  ``hidden-solo`` (暗独保) or ``solo`` (明独保, declaring it), else ``no-solo``.
  With option ``qiangdu`` the four others answer ``rob-solo`` / ``no`` in the
  same window; the emperor's own solo has priority, else the robber nearest
  him in the 上家 direction becomes emperor with 明独保 (Ruling 7) and leads
  (Ruling 20).
- Disclosure (``disclose``): the guard answers ``open`` (明保, ×2) or
  ``hidden`` (暗保). Rebellion (``rebellion``, simple mode): the four
  non-emperors answer ``rebel`` / ``no``; two or more rebels reveal the guard
  (or the solo) and, if the rebels win, ×2 (Ruling 9).
- Play: the emperor leads; hands are sets and joker-hung sets compared card by
  card (``rules.get("baohuang")``; options ``kaopai`` 烤牌 and ``bie6`` 憋6).
  A player who empties his hand leaves the rotation; when all others pass on
  his last hand the next active player leads (Ruling 16). Play stops once the
  score is fixed (Ruling 10): 明独保 at the first player out; 暗独保 when the
  emperor is out or two others are; else when emperor and guard are both out
  or only they remain. Scores by finishing order: ``baohuang_score``.
- Leaving: ``@S quit`` (any seat, any time) puts S on 托管 for the rest of the
  hand and costs −40 points kept by nobody (Ruling 18, platform §5), reported
  in ``result()["penalties"]``; ``scores`` stay the zero-sum game score. If
  every seat is on 托管 at the end the hand is not scored (platform §4).

House rules where the file is silent (docs/rulings.md, 保皇): the cards in
transit with the emperor card are public; a marked card (emperor card, guard
card, the called card) counts as played when its holder plays his last card of
that rank (its holder's last copy, for the called card); window answers stay
private until every answer is in, and during disclosure only the guard sees
that it is his turn; the phantom disclosure of a hidden solo; a forced holder's
redeal yields to a successful rob; no rebellion once the royal side is public;
a ``deal`` option may leave cards out of play (puzzles).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from cardhall.cards import (
    BIG_JOKER_CARD,
    SIX,
    SMALL_JOKER,
    SMALL_JOKER_CARD,
    TWO,
    Card,
    CardError,
    card_rank,
    format_card,
    format_cards,
    parse_card,
)
from cardhall.games.baohuang_score import EMPEROR, GUARD, HIDDEN_SOLO, OPEN_SOLO, REBEL, settle
from cardhall.games.base import (
    Action,
    Event,
    IllegalAction,
    Observation,
    Option,
    flag,
    seat_or_none,
)
from cardhall.games.climbing import ClimbingGame, Layout, _parse_any
from cardhall.rules import Play
from cardhall.rules import get as get_rules

PLAYERS = 5
#: Cards per seat in deal order from the first seat (Ruling 2).
SIZES = (34, 34, 34, 33, 33)
CLASSIC_LAP = 5  # declines after which the first holder must accept
SIMPLE_LAPS = 10  # declines after which the hand is redealt (Ruling 4)
QUIT_PENALTY = -40


class Phase(StrEnum):
    EMPEROR = "emperor"
    GUARD = "guard"
    DISCLOSE = "disclose"
    REBELLION = "rebellion"
    PLAY = "play"
    OVER = "over"


ACCEPT, CEDE, SOLO = Action("accept"), Action("cede"), Action("solo")
HIDDEN_SOLO_ACT, NO_SOLO, REDEAL = Action("hidden-solo"), Action("no-solo"), Action("redeal")
ROB, NO = Action("rob-solo"), Action("no")
OPEN, HIDDEN, REBEL_ACT = Action("open"), Action("hidden"), Action("rebel")
VERBS = ("accept", "cede", "solo", "hidden-solo", "no-solo", "redeal", "rob-solo", "no",
         "open", "hidden", "rebel", "quit")
PROMPTS = {
    Phase.EMPEROR: "you hold the emperor card: accept (当皇帝) or cede (让位) it to your 上家",
    Phase.DISCLOSE: "you are the guard: open (明保, all scores ×2) or hidden (暗保)",
    Phase.REBELLION: "rebel (造反) or no",
}


def options() -> dict[str, Option]:
    seats = tuple(range(PLAYERS))
    return {
        "mode": Option("classic", "classic (经典: call a guard by three cards) or simple "
                       "(简明: fixed guard card, 贴2, 造反)", ("classic", "simple"), str),
        "kaopai": Option(False, "烤牌: extra jokers may beat a hand holding a joker",
                         (False, True), flag),
        "bie6": Option(False, "憋6: sixes only as the last hand, all at once", (False, True),
                       flag),
        "qiangdu": Option(False, "抢独: the others may rob the solo", (False, True), flag),
        "first": Option(0, "the seat dealt first (the previous emperor after a first game)",
                        seats, seat_or_none),
        "deal": Option(None, "the cards: {hands: [five texts]}; cards left out are out of play"),
        "emperor_card": Option(None, "the seat dealt the emperor card (it must hold a big joker)",
                               (None, *seats), seat_or_none),
        "guard_card": Option(None, "simple mode: the seat dealt the guard card (a small joker)",
                             (None, *seats), seat_or_none),
    }


class Baohuang(ClimbingGame):
    """保皇 on the shared climbing play phase, with players going out one by one."""

    layout = Layout(hand=34, kitty=0)
    ruleset = "baohuang"

    # -- dealing and the emperor card -------------------------------------------------------

    def _start(self) -> None:
        self.mode: str = self.options["mode"]
        self.rs = get_rules(self.ruleset, kaopai=self.options["kaopai"],
                            bie6=self.options["bie6"])
        self.auto: list[int] = []  # seats on 托管 after quitting, in order
        self.penalties = [0] * PLAYERS
        self.log.extend(self._new_deal())

    def _new_deal(self) -> list[Event]:
        """Deal, reset everything of the previous deal, hand the emperor card to its holder."""
        self.holder = self.origin = 0  # who holds the emperor card now / was dealt it
        self.declines = 0
        self.forced = False
        self.pile: list[Card] = []  # the emperor card and tribute in transit (public)
        self.sword: int | None = None  # simple: the guard card's holder
        self.emperor: int | None = None
        self.guard: int | None = None
        self.solo: str | None = None
        self.robbed = False
        self.called: Card | None = None
        self.queue: list[int] = []
        self.answers: dict[int, str] = {}
        self.robbers: list[int] = []
        self.open_guard = False
        #: How the royal side became public: open-solo, open-guard, card, rebellion, robs.
        self.known: str | None = None
        self.rebels: list[int] = []
        self.rebellion = False
        self.place: list[int | None] = [None] * PLAYERS
        self.out: list[int] = []
        self.marked = set()
        self.trick, self.passes, self.plays_made = None, 0, [0] * PLAYERS
        events = self._deal()
        first = self.deals == 1
        self.holder = self.origin = self._pick(BIG_JOKER_CARD, "emperor_card" if first else None)
        if self.mode == "simple":
            self.sword = self._pick(SMALL_JOKER_CARD, "guard_card" if first else None)
            events.append({"type": "guard-card", "to": [self.sword]})
        self.phase, self.to_act = Phase.EMPEROR, self.holder
        events.append({"type": "emperor-card", "seat": self.holder})
        return events

    def _deal(self) -> list[Event]:
        """One card at a time from seat ``first``, clockwise; or the ``deal`` option once."""
        self.deals += 1
        given = self.options["deal"]
        if given is not None and self.deals == 1:
            hands, dead = self._given(given)
        else:
            cards = self.deck_cards()
            self.rng.shuffle(cards)
            hands = [[] for _ in range(PLAYERS)]
            for i, c in enumerate(cards):
                hands[(self.options["first"] + i) % PLAYERS].append(c)
            dead = []
        self.hands = [sorted(h) for h in hands]
        self.counts = [self._count(h) for h in self.hands]
        self.dead, self.kitty, self.played = sorted(dead), [], []
        return [{"type": "deal", "deal": self.deals, "first": self.options["first"]}]

    def _given(self, given: Any) -> tuple[list[list[Card]], list[Card]]:
        """Hands from text (suited, or ranks for any card of that rank); the rest is dead."""
        if not isinstance(given, dict) or not isinstance(given.get("hands"), list) or \
                len(given["hands"]) != PLAYERS or \
                not all(isinstance(t, str) for t in given["hands"]):
            raise IllegalAction('option deal must be {"hands": [five card texts]}')
        pool = self.deck_cards()
        hands: list[list[Card]] = []
        for text in given["hands"]:
            try:
                wanted = _parse_any(text)
            except CardError as exc:
                raise IllegalAction(f"option deal: {exc}") from None
            hand = []
            for c in sorted(wanted, key=lambda c: c < 0):  # suited cards first
                match = next((d for d in pool if card_rank(d) == -1 - c), None) if c < 0 \
                    else (c if c in pool else None)
                if match is None:
                    raise IllegalAction("option deal: more cards than the deck holds")
                pool.remove(match)
                hand.append(match)
            if not hand:
                raise IllegalAction("option deal: every seat needs at least one card")
            hands.append(hand)
        return hands, pool

    def _pick(self, card: Card, option: str | None) -> int:
        """The seat dealt the marked copy of ``card``: one physical copy drawn from the seed."""
        holders = [s for s in range(PLAYERS) for c in self.hands[s] if c == card]
        fixed = None if option is None else self.options[option]
        name = "emperor card (a big joker)" if card == BIG_JOKER_CARD else \
            "guard card (a small joker)"
        if fixed is not None:
            if fixed not in holders:
                raise IllegalAction(f"option {option}: seat {fixed} is dealt no {name}")
            return int(fixed)
        if not holders:
            raise IllegalAction(f"option deal: somebody must be dealt the {name}")
        return holders[self.rng.randrange(len(holders))]

    # -- set-up decisions ------------------------------------------------------------------

    def _callable(self, seat: int) -> list[Card]:
        """Suited cards of which ``seat`` holds 3 or 4 identical copies, in rank order."""
        hand = self.hands[seat]
        return sorted({c for c in hand if c < SMALL_JOKER_CARD and hand.count(c) >= 3})

    def _setup_actions(self) -> list[Action]:
        seat = self.to_act
        assert seat is not None
        if self.phase == Phase.EMPEROR:
            return [ACCEPT] if self.forced else [ACCEPT, CEDE]
        if self.phase == Phase.GUARD:
            if seat != self.emperor:
                return [ROB, NO]
            if self.mode == "simple":
                return [HIDDEN_SOLO_ACT, SOLO] if self.sword == seat else [NO_SOLO]
            calls = [Action("call", format_card(c)) for c in self._callable(seat)]
            return [*calls, SOLO, *([REDEAL] if self.forced and not calls else [])]
        if self.phase == Phase.DISCLOSE:
            return [HIDDEN] if self.solo is not None else [OPEN, HIDDEN]
        return [REBEL_ACT, NO]

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb == "call" and arg:
            try:
                return Action("call", format_card(parse_card(arg)))
            except CardError as exc:
                raise IllegalAction(f"call takes one suited card such as 7s: {exc}") from None
        if verb in VERBS and not arg:
            return Action(verb)
        raise IllegalAction(f"{f'{verb} {arg}'.strip()!r} is not an action of 保皇 "
                            f"(accept, cede, call 7s, solo, hidden-solo, no-solo, redeal, "
                            f"rob-solo, no, open, hidden, rebel, @SEAT quit, play CARDS, pass)")

    def _check(self, action: Action) -> str | None:
        if action.verb == "quit" and action.seat is None:
            return "say which seat leaves: @SEAT quit (e.g. @2 quit)"
        return super()._check(action)

    def _check_out_of_turn(self, action: Action) -> str | None:
        seat = action.seat
        if seat is None or not 0 <= seat < PLAYERS:
            return f"there is no seat {seat} at this table"
        if action.verb != "quit":
            return f"only quit can be done out of turn, not {action.verb}"
        if seat in self.auto:
            return f"seat {seat} has already left the game (it is on 托管)"
        return None

    def _setup_check(self, action: Action) -> str | None:
        seat, verb = self.to_act, action.verb
        assert seat is not None
        phase = Phase(self.phase)
        if phase == Phase.EMPEROR:
            if verb == "cede" and self.forced:
                return "after a full lap the first holder must accept the emperor card (classic)"
            return None if verb in ("accept", "cede") else PROMPTS[phase]
        if phase == Phase.GUARD:
            if seat != self.emperor:
                return None if verb in ("rob-solo", "no") else "抢独: answer rob-solo or no"
            return self._emperor_block(seat, action)
        if phase == Phase.DISCLOSE:
            if verb == "open" and self.solo is not None:
                return "you are your own guard (暗独保): there is no guard to open"
            return None if verb in ("open", "hidden") else PROMPTS[phase]
        return None if verb in ("rebel", "no") else PROMPTS[phase]

    def _emperor_block(self, seat: int, action: Action) -> str | None:
        """Why the emperor may not answer ``action`` in the guard window (None: he may)."""
        verb = action.verb
        if self.mode == "simple":
            mine = self.sword == seat
            if verb in ("solo", "hidden-solo"):
                return None if mine else ("you do not hold the guard card: its holder is your "
                                          "guard (no-solo)")
            if verb == "no-solo":
                return None if not mine else ("you hold the guard card yourself: hidden-solo "
                                              "(暗独保) or solo (明独保)")
            return "simple mode: no-solo, or with the guard card in hand hidden-solo or solo"
        if verb == "call":
            card = parse_card(action.arg)
            if card >= SMALL_JOKER_CARD:
                return "only a suited card (6 … 2) can be called: jokers have no suit (Ruling 6)"
            n = self.hands[seat].count(card)
            if n < 3:
                return (f"you hold {n} × {action.arg}: a guard call needs 3 identical cards "
                        "(all 4 for 暗独保)")
            return None
        if verb == "solo":
            return None
        if verb == "redeal":
            if not self.forced:
                return "only a first holder forced to accept may ask for a redeal (Ruling 5)"
            if self._callable(seat):
                return "you can call a guard: a redeal is only for who cannot (Ruling 5)"
            return None
        return "call a card you hold three of (e.g. call 7s), or solo (明独保)"

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        if self.phase == Phase.EMPEROR:
            return self._accept(seat) if action.verb == "accept" else self._cede(seat)
        self.answers[seat] = action.text
        self.queue.pop(0)
        events: list[Event] = [{"type": "answer", "to": [seat], "phase": str(self.phase),
                                "answer": action.text}]
        if self.queue:
            self.to_act = self.queue[0]
            return events
        if self.phase == Phase.GUARD:
            return events + self._close_guard_window()
        if self.phase == Phase.DISCLOSE:
            return events + self._disclose(action.verb == "open")
        return events + self._close_rebellion()

    def _accept(self, seat: int) -> list[Event]:
        self.emperor = seat  # ``forced`` stays: Ruling 5's redeal is for that emperor only
        self._give(seat, self.pile)
        events: list[Event] = [{"type": "accept", "seat": seat,
                                "received": format_cards(self.pile)}]
        self.pile = []
        self.queue = [seat]
        if self.options["qiangdu"]:
            self.queue += [(seat - k) % PLAYERS for k in range(1, PLAYERS)]
        self.answers = {}
        self.phase, self.to_act = Phase.GUARD, seat
        return events

    def _cede(self, seat: int) -> list[Event]:
        """让位: the emperor card (and in simple mode the tribute) goes to the 上家."""
        nxt = (seat - 1) % PLAYERS
        event: Event = {"type": "cede", "seat": seat, "holder": nxt}
        if self.declines == 0:
            self.pile.append(self._take(seat, BIG_JOKER_CARD))
        elif self.mode == "simple":
            ranks = [card_rank(c) for c in self.hands[seat] if c < SMALL_JOKER_CARD]
            if ranks:  # only a puzzle deal can leave a hand of jokers alone
                rank = TWO if TWO in ranks else max(ranks)
                card = min(c for c in self.hands[seat] if card_rank(c) == rank)
                self.pile.append(self._take(seat, card))
                event["tribute"] = format_card(card)
        self.declines += 1
        if self.mode == "simple" and self.declines >= SIMPLE_LAPS:
            return [event, *self._redeal("two laps without an emperor (Ruling 4)")]
        self.forced = self.mode == "classic" and self.declines >= CLASSIC_LAP
        self.holder = self.to_act = nxt
        return [event]

    def _take(self, seat: int, card: Card) -> Card:
        self.hands[seat].remove(card)
        self.counts[seat] = self._count(self.hands[seat])
        return card

    def _redeal(self, reason: str) -> list[Event]:
        for hand in self.hands:  # every card back in the pack, then a fresh deal
            hand.clear()
        self.pile = []
        return [{"type": "redeal", "reason": reason}, *self._new_deal()]

    def _close_guard_window(self) -> list[Event]:
        """Resolve the emperor's choice and any robs (Ruling 7), then announce (phase 4)."""
        emperor = self.emperor
        assert emperor is not None
        choice = self.answers[emperor]
        solo = OPEN_SOLO if choice == "solo" else HIDDEN_SOLO if choice == "hidden-solo" else None
        if choice.startswith("call "):
            self.called = parse_card(choice[5:])
            holders = [s for s in range(PLAYERS) if s != emperor and self.called in self.hands[s]]
            self.guard = holders[0] if holders else emperor
            solo = HIDDEN_SOLO if self.guard == emperor else None
            self.marked = {self.called}
        elif self.mode == "simple":
            self.guard = self.sword if solo is None else emperor
        events: list[Event] = []
        if self.options["qiangdu"]:
            order = [(emperor - k) % PLAYERS for k in range(1, PLAYERS)]
            self.robbers = [s for s in order if self.answers.get(s) == "rob-solo"]
            winner = self.robbers[0] if self.robbers and solo is None else None
            events.append({"type": "rob-solo", "robbers": self.robbers, "winner": winner})
            if winner is not None:  # the robber plays 明独保; everyone else is a rebel
                self.emperor = self.guard = winner
                self.solo, self.robbed, self.known, self.called = OPEN_SOLO, True, "open-solo", None
                self.marked = set()
                events.append({"type": "open-solo", "seat": winner, "robbed": True})
                self._begin_play(winner)
                return events
        if choice == "redeal":
            return events + self._redeal("the emperor cannot call a guard (Ruling 5)")
        self.solo = solo
        if solo == OPEN_SOLO:
            self.guard, self.known = emperor, "open-solo"
            events.append({"type": "open-solo", "seat": emperor})
            self._begin_play(emperor)
            return events
        if self.called is not None:
            events.append({"type": "call", "seat": emperor, "card": format_card(self.called)})
        else:
            events.append({"type": "guard-card-in-play"})
        assert self.guard is not None
        if self.guard != emperor:
            events.append({"type": "role", "to": [self.guard], "role": GUARD})
        if solo == HIDDEN_SOLO and self.robbers:
            self.known = "robs"  # the failed robs show that he is alone (Ruling 7)
            events.append({"type": "hidden-solo", "seat": emperor, "how": "robs"})
            self._begin_play(emperor)
            return events
        self.queue, self.answers = [self.guard], {}
        self.phase, self.to_act = Phase.DISCLOSE, self.guard
        return events

    def _disclose(self, open_guard: bool) -> list[Event]:
        emperor = self.emperor
        assert emperor is not None and self.guard is not None
        events: list[Event] = []
        if open_guard:
            self.open_guard, self.known = True, "open-guard"
            events.append({"type": "open-guard", "seat": self.guard})
        if self.mode == "simple" and not open_guard:
            self.queue = [(emperor + k) % PLAYERS for k in range(1, PLAYERS)]
            self.answers = {}
            self.phase, self.to_act = Phase.REBELLION, self.queue[0]
        else:
            self._begin_play(emperor)
        return events

    def _close_rebellion(self) -> list[Event]:
        assert self.emperor is not None
        self.rebels = [s for s in range(PLAYERS) if self.answers.get(s) == "rebel"]
        self.rebellion = len(self.rebels) >= 2
        event: Event = {"type": "rebellion", "rebels": self.rebels, "forced": self.rebellion}
        if self.rebellion:
            self.known = "rebellion"
            event.update(guard=self.guard, solo=self.solo == HIDDEN_SOLO)
        self._begin_play(self.emperor)
        return [event]

    # -- play --------------------------------------------------------------------------------

    def _next(self, seat: int) -> int:
        """The next player clockwise who still holds cards."""
        for k in range(1, PLAYERS + 1):
            s = (seat + k) % PLAYERS
            if self.place[s] is None:
                return s
        return seat

    def _play_action(self, play: Play) -> Action:
        """Plays are few (≈ 3 600 readings): each one's action is built once, then shared."""
        action = _PLAY_ACTIONS.get(play)
        if action is None:
            action = _PLAY_ACTIONS[play] = super()._play_action(play)
        return action

    def _check_play(self, play: Play) -> str | None:
        seat = self.to_act
        assert seat is not None
        if self._legal_by_text().get(self._play_action(play).text) is not None:
            return None
        hand = self.counts[seat]
        need = self._count_ranks(play.cards)
        if any(need[r] > hand[r] for r in range(len(hand))):
            return f"you do not hold {play.text}"
        if self.rs.bie6 and SIX in play.cards and play.size != sum(hand):
            return "憋6: sixes go only as your last hand, all of them at once (Ruling 17)"
        if self.trick is not None and not self.rs.beats(play, self.trick[1]):
            how = "with 烤牌 every card needs its own higher group" if self.rs.kaopai and \
                any(r >= SMALL_JOKER for r in self.trick[1].cards) else \
                "the same number of cards, each higher than its partner"
            return f"{play.text} does not beat {self.trick[1].text}: {how}"
        return f"{play.text} is not a legal play now"

    def _apply_pass(self) -> list[Event]:
        seat = self.to_act
        assert seat is not None and self.trick is not None
        self.passes += 1
        self.to_act = self._next(seat)
        events: list[Event] = [{"type": "pass", "seat": seat}]
        holder = self.trick[0]
        others = sum(p is None for p in self.place) - (self.place[holder] is None)
        if self.passes >= others:  # Ruling 16: the holder, or the next player after him
            self.trick, self.passes = None, 0
            events.append({"type": "trick-over", "leader": self.to_act})
        return events

    def _apply_play(self, play: Play, text: str) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        cards = self._take_cards(seat, play.cards)
        self.played.extend(cards)
        self.plays_made[seat] += 1
        self.trick, self.passes = (seat, play), 0
        events: list[Event] = [{"type": "play", "seat": seat, "cards": text, "kind": play.kind,
                                "left": len(self.hands[seat])}]
        events.extend(self._on_play(seat, play, cards))
        if not self.hands[seat]:
            self.out.append(seat)
            self.place[seat] = len(self.out)
            self.winner = self.out[0]
            events.append({"type": "out", "seat": seat, "place": len(self.out)})
            if self._play_over():
                return events + self._finish()
        self.to_act = self._next(seat)
        return events

    def _on_play(self, seat: int, play: Play, cards: list[Card]) -> list[Event]:
        """The guard shows himself by playing the called card or the guard card (Ruling 8).

        Its holder plays it with his last copy of the called card (classic), or his
        last small joker (simple): marked cards leave a hand last (docs/rulings.md).
        """
        if self.known is not None or seat != self.guard:
            return []
        if self.called is not None:
            shown = self.called in cards and self.called not in self.hands[seat]
        else:
            shown = SMALL_JOKER_CARD in cards and not self.counts[seat][SMALL_JOKER]
        if not shown:
            return []
        self.known = "card"
        return [{"type": "guard-shown", "seat": seat, "solo": self.solo == HIDDEN_SOLO}]

    def _play_over(self) -> bool:
        """Ruling 10: stop once the score can no longer change."""
        emperor = self.emperor
        if self.solo == OPEN_SOLO:
            return True
        if self.solo == HIDDEN_SOLO:
            return emperor in self.out or len(self.out) >= 2
        royal = {emperor, self.guard}
        return royal <= set(self.out) or all(
            s in royal for s in range(PLAYERS) if self.place[s] is None)

    # -- leaving ---------------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        if action.seat is None:
            return super()._apply(action)
        seat = action.seat
        self.auto.append(seat)
        self.penalties[seat] += QUIT_PENALTY
        events: list[Event] = [{"type": "quit", "seat": seat, "penalty": QUIT_PENALTY,
                                "tuoguan": True}]
        self.log.extend(events)
        return events

    # -- settlement ------------------------------------------------------------------------

    def roles(self) -> list[str | None]:
        """Each seat's role once fixed; None before the guard window closes."""
        if self.emperor is None or self.phase == Phase.GUARD:
            return [None] * PLAYERS
        return [EMPEROR if s == self.emperor else GUARD if s == self.guard else REBEL
                for s in range(PLAYERS)]

    def _settle(self) -> dict[str, Any]:
        emperor = self.emperor
        assert emperor is not None
        s = settle(emperor, self.guard, self.solo, self.place, self.open_guard, self.rebellion)
        void = len(self.auto) == PLAYERS
        result: dict[str, Any] = {
            "scores": [0] * PLAYERS if void else list(s.scores),
            "penalties": list(self.penalties),
            "roles": self.roles(),
            "emperor": emperor,
            "guard": None if self.solo else self.guard,
            "solo": self.solo,
            "robbed": self.robbed,
            "called": None if self.called is None else format_card(self.called),
            "order": list(self.out),
            "places": list(self.place),
            "base": s.to_json(),
            "multiplier": {"open_guard": self.open_guard, "rebellion": self.rebellion,
                           "rebellion_succeeded": s.rebellion_succeeded,
                           "open_solo": self.solo == OPEN_SOLO, "total": s.factor},
            "rebels": list(self.rebels),
            "tuoguan": list(self.auto),
            "deals": self.deals,
        }
        if void:
            result.update(void=True, reason="every seat on 托管 at the end (platform §4)")
        return result

    # -- views -----------------------------------------------------------------------------

    def _observe_extra(self, seat: int, obs: Observation) -> None:
        public = self.known is not None or self.over
        roles = self.roles()
        window = self.phase in (Phase.GUARD, Phase.DISCLOSE, Phase.REBELLION)
        selecting = self.phase == Phase.EMPEROR
        obs.update({
            "rules": {k: self.options[k] for k in ("mode", "kaopai", "bie6", "qiangdu")},
            "first": self.options["first"], "deals": self.deals, "declines": self.declines,
            "emperor_card": self.holder if selecting else None,
            "pile": format_cards(self.pile),  # the emperor card and 贴2 tribute in transit
            "holds_guard_card": self.sword == seat,
            "emperor": None if selecting else self.emperor,
            "role": roles[seat],
            "guard": self.guard if roles[seat] and (public or seat == self.guard) else None,
            "solo": self.solo if self.solo == OPEN_SOLO or public or seat == self.emperor
            else None,
            "called": None if self.called is None or self.phase == Phase.GUARD
            else format_card(self.called),
            "open_guard": self.open_guard, "robbers": list(self.robbers),
            "rebels": list(self.rebels), "rebellion": self.rebellion,
            "answer": self.answers.get(seat) if window else None,  # one's own, never others'
            "deciding": window and seat in self.queue,
            "order": list(self.out), "places": list(self.place),
            "tuoguan": list(self.auto), "penalties": list(self.penalties),
            "multiplier": {"open_guard": self.open_guard, "rebellion": self.rebellion,
                           "open_solo": self.solo == OPEN_SOLO},
        })
        if self.phase == Phase.DISCLOSE:  # whose turn it is would name the guard
            obs["to_act"] = seat if seat == self.to_act else None
        if self.over:
            obs["dead"] = format_cards(self.dead)

    def zones(self) -> dict[str, list[Card]]:
        out = {f"hand{seat}": list(hand) for seat, hand in enumerate(self.hands)}
        out.update(pile=list(self.pile), dead=list(self.dead), played=list(self.played))
        return out


#: Every play's action, by play (a game's hot loop reuses them).
_PLAY_ACTIONS: dict[Play, Action] = {}

__all__ = ["Baohuang", "Phase", "options"]
