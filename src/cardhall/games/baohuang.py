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

from typing import Any

from cardhall.cards import (
    SIX,
    SMALL_JOKER,
    SMALL_JOKER_CARD,
    Card,
    format_card,
    format_cards,
)
from cardhall.games.baohuang_score import EMPEROR, GUARD, HIDDEN_SOLO, OPEN_SOLO, REBEL, settle
from cardhall.games.baohuang_setup import PLAYERS, BaohuangSetup, Phase
from cardhall.games.base import (
    Action,
    Event,
    Observation,
    Option,
    flag,
    seat_or_none,
)
from cardhall.games.climbing import Layout
from cardhall.rules import Play
from cardhall.rules import get as get_rules

QUIT_PENALTY = -40


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

class Baohuang(BaohuangSetup):
    """保皇 on the shared climbing play phase, with players going out one by one."""

    layout = Layout(hand=34, kitty=0)
    ruleset = "baohuang"

    def _start(self) -> None:
        self.mode = self.options["mode"]
        self.rs = get_rules(self.ruleset, kaopai=self.options["kaopai"],
                            bie6=self.options["bie6"])
        self.auto: list[int] = []  # seats on 托管 after quitting, in order
        self.penalties = [0] * PLAYERS
        self.log.extend(self._new_deal())

    # -- checks (the set-up phases are in baohuang_setup) --------------------------------

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

    def _passes_to_close(self) -> int:
        """Ruling 16: every other player still in, so a trick led on a hand that went out
        ends with the next player after its holder."""
        holder = self.trick[0] if self.trick is not None else None
        return sum(p is None for p in self.place) - (holder is not None and
                                                      self.place[holder] is None)

    def _go_out(self, seat: int) -> list[Event]:
        """Players leave one by one (头客, 二客, …); the game ends once the score is fixed."""
        self.out.append(seat)
        self.place[seat] = len(self.out)
        self.winner = self.out[0]
        events: list[Event] = [{"type": "out", "seat": seat, "place": len(self.out)}]
        return events + self._finish() if self._play_over() else events

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
