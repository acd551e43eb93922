"""保皇 before the first card: the deal, the emperor card, the guard window, disclosure, 造反.

The rules are stated in ``baohuang`` (the game's module, which plays on from
here); this module holds phases 1–6 of baohuang.md §2 so that neither file
grows past reading size: dealing (or a ``deal`` option's puzzle hands), the
emperor card's ceding with and without 贴2, the guard call or solo and the
抢独 window, the guard's disclosure and the simple mode's rebellion.

Two windows are answered by several seats at once (``acting``): the guard
window when 抢独 is on (the emperor's call or solo and the four others' rob or
no) and the rebellion (the four non-emperors). Answers come in any order, each
tagged with its seat (``@3 rob-solo``); ``to_act`` is the first seat still to
answer in the window's own order (the emperor, then the 上家 direction; the
rebellion clockwise from the emperor's 下家). An answer stays private to its
seat until the window closes; closing does not depend on the order, so the
emperor's own solo keeps its priority and the nearest robber still wins.
"""

from __future__ import annotations

from enum import StrEnum

from cardhall.cards import (
    BIG_JOKER_CARD,
    SMALL_JOKER_CARD,
    TWO,
    Card,
    CardError,
    card_rank,
    format_card,
    format_cards,
    parse_card,
)
from cardhall.games.baohuang_score import GUARD, HIDDEN_SOLO, OPEN_SOLO, PLAYERS
from cardhall.games.base import Action, Event, IllegalAction, excerpt
from cardhall.games.climbing import ClimbingGame
from cardhall.games.deal import given_deal
from cardhall.games.errors import BadSetup, Illegal, NotInWindow, Unreadable, clip

#: Cards per seat in deal order from the first seat (Ruling 2).
SIZES = (34, 34, 34, 33, 33)
CLASSIC_LAP = 5  # declines after which the first holder must accept
SIMPLE_LAPS = 10  # declines after which the hand is redealt (Ruling 4)


class Phase(StrEnum):
    EMPEROR = "emperor"
    GUARD = "guard"
    DISCLOSE = "disclose"
    REBELLION = "rebellion"
    PLAY = "play"
    OVER = "over"


#: Phases whose answers stay private until the step closes.
WINDOWS = (Phase.GUARD, Phase.DISCLOSE, Phase.REBELLION)

ACCEPT, CEDE, SOLO = Action("accept"), Action("cede"), Action("solo")
HIDDEN_SOLO_ACT, NO_SOLO, REDEAL = Action("hidden-solo"), Action("no-solo"), Action("redeal")
ROB, NO = Action("rob-solo"), Action("no")
OPEN, HIDDEN, REBEL_ACT = Action("open"), Action("hidden"), Action("rebel")
VERBS = ("accept", "cede", "solo", "hidden-solo", "no-solo", "redeal", "rob-solo", "no",
         "open", "hidden", "rebel")
PROMPTS = {
    Phase.EMPEROR: "you hold the emperor card: accept (当皇帝) or cede (让位) it to your 上家",
    Phase.DISCLOSE: "you are the guard: open (明保, all scores ×2) or hidden (暗保)",
    Phase.REBELLION: "rebel (造反) or no",
}


class BaohuangSetup(ClimbingGame):
    """The set-up phases of 保皇; ``baohuang.Baohuang`` adds play, settlement and views."""

    phases = Phase
    mode: str

    # -- dealing and the emperor card -------------------------------------------------------

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
        self.queue: list[int] = []  # seats still to answer the open step, in its order
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
        """One card at a time from seat ``first``, clockwise; or the ``deal`` option once.

        A given deal may mix suited cards and bare ranks (``games.deal``); the
        cards it leaves out are out of play (puzzles, docs/rulings.md).
        """
        self.deals += 1
        given = self.options["deal"]
        if given is not None and self.deals == 1:
            hands, piles = given_deal(given, self.deck_cards(), {"dead": None}, PLAYERS, None)
            dead = piles["dead"]
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
        self.played_by = [[] for _ in range(PLAYERS)]
        self.last = [None] * PLAYERS
        #: Each seat's own answer while the table may not see it yet (its view only).
        self.mine: list[str | None] = [None] * PLAYERS
        #: Answers made public by the step that just closed, for the table's ``last``.
        self.revealed: dict[int, str] = {}
        return [{"type": "deal", "deal": self.deals, "first": self.options["first"]}]

    def _pick(self, card: Card, option: str | None) -> int:
        """The seat dealt the marked copy of ``card``: one physical copy drawn from the seed."""
        holders = [s for s in range(PLAYERS) for c in self.hands[s] if c == card]
        fixed = None if option is None else self.options[option]
        name = "emperor card (a big joker)" if card == BIG_JOKER_CARD else \
            "guard card (a small joker)"
        if fixed is not None:
            if fixed not in holders:
                raise BadSetup("card_not_dealt", f"option {option}: seat {fixed} is dealt no "
                               f"{name}", card=format_card(card), seat=int(fixed))
            return int(fixed)
        if not holders:
            raise BadSetup("card_not_dealt", f"option deal: somebody must be dealt the {name}",
                           card=format_card(card), seat=-1)
        return holders[self.rng.randrange(len(holders))]

    # -- who answers ------------------------------------------------------------------------

    def _acting(self) -> list[int]:
        """The open window's seats still to answer (``queue[0]`` is ``to_act``)."""
        if self.phase in (Phase.GUARD, Phase.REBELLION) and self.queue:
            return list(self.queue)
        return super()._acting()

    def _legal_for(self, seat: int) -> list[Action]:
        return self._answers_of(seat) if seat in self.queue else []

    def _last_text(self, seat: int, action: Action) -> str | None:
        """Window answers are private until the step closes (``revealed`` then shows them)."""
        return None if self.phase in WINDOWS else action.at(None).text

    # -- set-up decisions ------------------------------------------------------------------

    def _callable(self, seat: int) -> list[Card]:
        """Suited cards of which ``seat`` holds 3 or 4 identical copies, in rank order."""
        hand = self.hands[seat]
        return sorted({c for c in hand if c < SMALL_JOKER_CARD and hand.count(c) >= 3})

    def _setup_actions(self) -> list[Action]:
        assert self.to_act is not None
        return self._answers_of(self.to_act)

    def _answers_of(self, seat: int) -> list[Action]:
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
            except CardError:
                raise Unreadable("not_cards", f"call takes one suited card such as 7s, not "
                                 f"{excerpt(arg)}", text=clip(arg)) from None
        if verb in VERBS and not arg:
            return Action(verb)
        raise Unreadable("unknown_action", f"{excerpt(f'{verb} {arg}'.strip())} is not an "
                         f"action of 保皇 (accept, cede, call 7s, solo, hidden-solo, no-solo, "
                         f"redeal, rob-solo, no, open, hidden, rebel, play CARDS, pass, "
                         f"@SEAT leave)", text=clip(f"{verb} {arg}".strip()),
                         allowed=[*sorted(VERBS), "call CARD", "play CARDS", "pass"])

    def _step(self, action: Action, message: str, allowed: list[str]) -> IllegalAction:
        """An answer of another step than the open one."""
        return NotInWindow("wrong_step", message, phase=str(self.phase),
                           text=clip(action.text), allowed=allowed)

    def _setup_check(self, action: Action) -> IllegalAction | None:
        seat = self.to_act if action.seat is None else action.seat
        verb = action.verb
        assert seat is not None
        phase = Phase(self.phase)
        if phase == Phase.EMPEROR:
            if verb == "cede" and self.forced:
                return Illegal("must_accept_emperor", "after a full lap the first holder must "
                               "accept the emperor card (classic)")
            return None if verb in ("accept", "cede") else \
                self._step(action, PROMPTS[phase], ["accept", "cede"])
        if phase == Phase.GUARD:
            if seat != self.emperor:
                return None if verb in ("rob-solo", "no") else \
                    self._step(action, "抢独: answer rob-solo or no", ["rob-solo", "no"])
            return self._emperor_block(seat, action)
        if phase == Phase.DISCLOSE:
            if verb == "open" and self.solo is not None:
                return Illegal("no_guard_to_open", "you are your own guard (暗独保): there is "
                               "no guard to open")
            return None if verb in ("open", "hidden") else \
                self._step(action, PROMPTS[phase], ["open", "hidden"])
        return None if verb in ("rebel", "no") else \
            self._step(action, PROMPTS[phase], ["rebel", "no"])

    def _emperor_block(self, seat: int, action: Action) -> IllegalAction | None:
        """Why the emperor may not answer ``action`` in the guard window (None: he may)."""
        verb = action.verb
        if self.mode == "simple":
            mine = self.sword == seat
            if verb in ("solo", "hidden-solo"):
                return None if mine else Illegal(
                    "no_guard_card", "you do not hold the guard card: its holder is your "
                    "guard (no-solo)")
            if verb == "no-solo":
                return None if not mine else Illegal(
                    "holds_guard_card", "you hold the guard card yourself: hidden-solo "
                    "(暗独保) or solo (明独保)")
            return self._step(action, "simple mode: no-solo, or with the guard card in hand "
                              "hidden-solo or solo", ["no-solo", "hidden-solo", "solo"])
        if verb == "call":
            card = parse_card(action.arg)
            if card >= SMALL_JOKER_CARD:
                return Illegal("joker_call", "only a suited card (6 … 2) can be called: "
                               "jokers have no suit (Ruling 6)", card=action.arg)
            n = self.hands[seat].count(card)
            if n < 3:
                return Illegal("call_needs_three", f"you hold {n} × {action.arg}: a guard call "
                               "needs 3 identical cards (all 4 for 暗独保)", card=action.arg,
                               held=n)
            return None
        if verb == "solo":
            return None
        if verb == "redeal":
            if not self.forced:
                return Illegal("redeal_not_forced", "only a first holder forced to accept may "
                               "ask for a redeal (Ruling 5)")
            if self._callable(seat):
                return Illegal("redeal_can_call", "you can call a guard: a redeal is only for "
                               "who cannot (Ruling 5)")
            return None
        return self._step(action, "call a card you hold three of (e.g. call 7s), or solo "
                          "(明独保)", ["call CARD", "solo"])

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act if action.seat is None else action.seat
        assert seat is not None
        if self.phase == Phase.EMPEROR:
            return self._accept(seat) if action.verb == "accept" else self._cede(seat)
        text = action.at(None).text
        self.answers[seat] = text
        self.mine[seat] = text
        self.queue.remove(seat)
        phase = str(self.phase)
        events: list[Event] = [{"type": "answer", "to": [seat], "phase": phase, "answer": text}]
        if self.phase != Phase.DISCLOSE:  # who answers the disclosure would name the guard
            events.append({"type": "answered", "seat": seat, "phase": phase})
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

    # -- closing the windows ---------------------------------------------------------------

    def _close_guard_window(self) -> list[Event]:
        """Resolve the emperor's choice and any robs (Ruling 7), then announce (phase 4).

        Everything here reads ``answers``, never the order they came in.
        """
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
            self.revealed = {s: self.answers[s] for s in order}  # the robs are public now
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
        if solo == OPEN_SOLO or self.called is not None:
            self.revealed[emperor] = choice  # announced: the solo, or the called card
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
            self.revealed[emperor] = choice
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
            self.revealed[self.guard] = "open"
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
        self.revealed = dict(self.answers)  # the hoe icons: every answer is public now
        event: Event = {"type": "rebellion", "rebels": self.rebels, "forced": self.rebellion}
        if self.rebellion:
            self.known = "rebellion"
            event.update(guard=self.guard, solo=self.solo == HIDDEN_SOLO)
        self._begin_play(self.emperor)
        return [event]

