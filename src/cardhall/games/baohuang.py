"""保皇 (``baohuang``): five players, four packs without 3/4/5, the emperor and his guard.

Rules (docs/rules/baohuang.md; numbers are its rulings):

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
  same window, all five at once in any order (``acting``, docs/rulings.md);
  the emperor's own solo has priority, else the robber nearest
  him in the 上家 direction becomes emperor with 明独保 (Ruling 7) and leads
  (Ruling 20).
- Disclosure (``disclose``): the guard answers ``open`` (明保, ×2) or
  ``hidden`` (暗保); only he sees that it is his turn. Rebellion
  (``rebellion``, simple mode): the four non-emperors answer ``rebel`` / ``no``
  at once, in any order; two or more rebels reveal the guard
  (or the solo) and, if the rebels win, ×2 (Ruling 9).
- Play: the emperor leads; hands are sets and joker-hung sets compared card by
  card (``rules.get("baohuang")``; options ``kaopai`` 烤牌 and ``bie6`` 憋6).
  A player who empties his hand leaves the rotation; when all others pass on
  his last hand the next active player leads (Ruling 16). Play stops once the
  score is fixed (Ruling 10): 明独保 at the first player out; 暗独保 when the
  emperor is out or two others are; else when emperor and guard are both out
  or only they remain. Scores by finishing order: ``baohuang_score``.
- Leaving (base's ``leave_policy = "autoplay"``, Ruling 18, platform §4–5):
  ``@S leave`` (the exit button) puts S on 托管 for the rest of the hand at no
  cost; ``@S leave forced`` (a forced quit or an admin's kick) also costs −40
  points kept by nobody (``result()["penalties"]``); ``points`` stay the
  zero-sum game score. 托管 on/off and its lock are base's. A hand that ends
  with every seat on 托管 is not scored (``ended: "unscored"``).
- Results: ``winners`` are the seats with a positive score (the winning side;
  none when everyone scores 0); ``multiplier`` names the causes applied
  (``open_guard``, ``rebellion``, ``open_solo``), their product being the factor.
  Each result is one hand: consecutive hands are not a scored unit (the next
  hand's ``first`` is the previous emperor, which the table passes in).

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

from typing import Any, ClassVar

from cardhall.cards import (
    SIX,
    SMALL_JOKER,
    SMALL_JOKER_CARD,
    Card,
    format_card,
    format_cards,
)
from cardhall.games.baohuang_score import (
    EMPEROR,
    GUARD,
    HIDDEN_SOLO,
    OPEN_SOLO,
    PLAYERS,
    REBEL,
    settle,
)
from cardhall.games.baohuang_setup import BaohuangSetup, Phase
from cardhall.games.base import (
    Action,
    Event,
    IllegalAction,
    LeavePolicy,
    Observation,
    Option,
    flag,
    seat_or_none,
)
from cardhall.games.climbing import hand_text
from cardhall.games.errors import Illegal, NotYourTurn
from cardhall.games.view import Number, multiplier
from cardhall.rules import Play


def options() -> dict[str, Option]:
    seats = tuple(range(PLAYERS))
    return {
        "mode": Option("classic", "classic (经典: call a guard by three cards) or simple "
                       "(简明: fixed guard card, 贴2, 造反)", ("classic", "simple"), str,
                       kind="choice", help_zh="玩法：经典（皇帝以三张同色同点牌叫侍卫）或简明"
                       "（固定侍卫牌，贴2，可造反）"),
        "kaopai": Option(False, "烤牌: extra jokers may beat a hand holding a joker",
                         (False, True), flag, kind="bool",
                         help_zh="烤牌：上家牌中有王时，可多出王来压"),
        "bie6": Option(False, "憋6: sixes only as the last hand, all at once", (False, True),
                       flag, kind="bool", help_zh="憋6：6只能作为最后一手牌一次出完"),
        "qiangdu": Option(False, "抢独: the others may rob the solo", (False, True), flag,
                          kind="bool", help_zh="抢独：其他玩家可抢独保（明独保）"),
        "first": Option(0, "the seat dealt first (the previous emperor after a first game)",
                        seats, seat_or_none, kind="seat", minimum=0, maximum=PLAYERS - 1,
                        help_zh="首先发牌的座位（首局为最左座位，之后为上局皇帝）"),
        "deal": Option(None, "the cards: {hands: [five texts]}, suited (Ts) or bare ranks (T) "
                       "mixed; cards left out are out of play", kind="deal",
                       help_zh="指定发牌：{hands: [五家的牌]}，可混用带花色（Ts）与不带花色（T）"
                       "的牌；未发出的牌不参与游戏"),
        "emperor_card": Option(None, "the seat dealt the emperor card (it must hold a big joker; "
                               "default: one copy drawn from the seed)", (None, *seats),
                               seat_or_none, kind="seat", minimum=0, maximum=PLAYERS - 1,
                               help_zh="拿到皇牌（带权杖的大王）的座位，须持有大王；默认由种子抽取"),
        "guard_card": Option(None, "simple mode: the seat dealt the guard card (a small joker; "
                             "default: one copy drawn from the seed)", (None, *seats),
                             seat_or_none, kind="seat", minimum=0, maximum=PLAYERS - 1,
                             help_zh="简明玩法：拿到侍卫牌（带宝剑的小王）的座位，须持有小王；"
                             "默认由种子抽取"),
    }


class Baohuang(BaohuangSetup):
    """保皇 on the shared climbing play phase, with players going out one by one."""

    leave_policy: ClassVar[LeavePolicy] = "autoplay"

    def _start(self) -> None:
        self.mode = self.options["mode"]
        self.rs = self.rs.with_options(kaopai=self.options["kaopai"], bie6=self.options["bie6"])
        self._causes: dict[str, int] | None = None  # the settlement's, once over
        self.log.extend(self._new_deal())

    # -- the contract --------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        events = super()._apply(action)
        for seat, text in self.revealed.items():  # a window closed: its answers go public
            self.last[seat] = text
            self.mine[seat] = None
        self.revealed = {}
        return events

    def _resolve(self, action: Action | str, seat: int | None) -> Action:
        """As base, but during disclosure a refusal never names the seat to act: the guard."""
        try:
            return super()._resolve(action, seat)
        except NotYourTurn as exc:
            if self.phase == Phase.DISCLOSE and exc.reason == "not_your_turn":
                raise NotYourTurn("guard_chooses", "not your turn: the guard (whom only he "
                                  "knows) chooses open or hidden",
                                  seat=exc.params["seat"]) from None
            raise

    def observe(self, seat: int) -> Observation:
        """As base; during disclosure only the guard sees that it is his turn (no leak)."""
        view = super().observe(seat)
        if self.phase == Phase.DISCLOSE and seat != self.to_act:
            view["acting"], view["to_act"] = [], None
        return view

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

    def _check_play(self, play: Play) -> IllegalAction | None:
        seat = self.to_act
        assert seat is not None
        if self._legal_by_text().get(self._play_action(play).text) is not None:
            return None
        hand = self.counts[seat]
        need = self._count_ranks(play.cards)
        if any(need[r] > hand[r] for r in range(len(hand))):
            return Illegal("not_in_hand", f"you do not hold {play.text}", cards=play.text)
        if self.rs.bie6 and SIX in play.cards and play.size != sum(hand):
            return Illegal("sixes_last", "憋6: sixes go only as your last hand, all of them "
                           "at once (Ruling 17)", play=play.text)
        if self.trick is not None and not self.rs.beats(play, self.trick[1]):
            kaopai = self.rs.kaopai and any(r >= SMALL_JOKER for r in self.trick[1].cards)
            how = "with 烤牌 every card needs its own higher group" if kaopai else \
                "the same number of cards, each higher than its partner"
            return Illegal("must_beat_kaopai" if kaopai else "must_beat_each",
                           f"{play.text} does not beat {self.trick[1].text}: {how}",
                           play=play.text, beat=self.trick[1].text)
        return Illegal("not_legal_now", f"{play.text} is not a legal play now", play=play.text)

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

    # -- settlement ------------------------------------------------------------------------

    def roles(self) -> list[str | None]:
        """Each seat's true role once fixed; None before the guard window closes."""
        if self.emperor is None or self.phase in (Phase.EMPEROR, Phase.GUARD):
            return [None] * PLAYERS
        return [EMPEROR if s == self.emperor else GUARD if s == self.guard else REBEL
                for s in range(PLAYERS)]

    def _settle(self) -> dict[str, Any]:
        emperor = self.emperor
        assert emperor is not None
        s = settle(emperor, self.guard, self.solo, self.place, self.open_guard, self.rebellion)
        self._causes = dict(s.causes)
        detail: dict[str, Any] = {
            "roles": self.roles(),
            "emperor": emperor,
            "guard": None if self.solo else self.guard,
            "solo": self.solo,
            "robbed": self.robbed,
            "called": None if self.called is None else format_card(self.called),
            "order": list(self.out),
            "places": list(self.place),
            "base": s.to_json(),
            "open_guard": self.open_guard,
            "rebellion": self.rebellion,
            "rebellion_succeeded": s.rebellion_succeeded,
            "rebels": list(self.rebels),
            "deals": self.deals,
        }
        winners = [seat for seat in range(PLAYERS) if s.scores[seat] > 0]
        return self._outcome(detail, winners, list(s.scores))

    def _multiplier_causes(self) -> dict[str, Any]:
        """明保 and 明独保 as soon as they are public; 造反's ×2 only once it has won."""
        causes: dict[str, Number] = {}
        if self._causes is not None:
            causes.update(self._causes)
        else:
            if self.open_guard:
                causes["open_guard"] = 2
            if self.solo == OPEN_SOLO:
                causes["open_solo"] = 2
        return dict(multiplier(causes))

    # -- views -----------------------------------------------------------------------------

    def _public(self) -> bool:
        return self.known is not None or self.over

    def _view_roles(self, seat: int) -> list[str | None]:
        """The emperor from his acceptance on; the guard to himself, to all once public; a
        seat knows itself a rebel, and who knows the guard knows every rebel."""
        roles: list[str | None] = [None] * PLAYERS
        if self.emperor is None or self.phase == Phase.EMPEROR:
            return roles
        roles[self.emperor] = EMPEROR  # public from his acceptance on
        if self.phase == Phase.GUARD:
            return roles
        truth = self.roles()
        if self._public() or seat == self.guard:
            return truth
        roles[seat] = truth[seat]
        return roles

    def _view_last(self, seat: int) -> list[str | None]:
        last = list(self.last)
        if self.mine[seat] is not None and last[seat] is None:
            last[seat] = self.mine[seat]  # one's own answer, still private to the table
        return last

    def _view_warnings(self) -> list[int]:
        return []  # no 报警 in 保皇 (platform §9: the DDZ family)

    def _detail(self, seat: int) -> dict[str, Any]:
        public = self._public()
        selecting = self.phase == Phase.EMPEROR
        knows = self._view_roles(seat)[seat] is not None
        detail: dict[str, Any] = {
            "rules": {k: self.options[k] for k in ("mode", "kaopai", "bie6", "qiangdu")},
            "first": self.options["first"], "deals": self.deals, "declines": self.declines,
            "emperor_card": self.holder if selecting else None,
            "pile": format_cards(self.pile),  # the emperor card and 贴2 tribute in transit
            "holds_guard_card": self.sword == seat,
            "emperor": None if selecting else self.emperor,
            "guard": self.guard if knows and (public or seat == self.guard) else None,
            "solo": self.solo if self.solo == OPEN_SOLO or public or seat == self.emperor
            else None,
            "called": None if self.called is None or self.phase == Phase.GUARD
            else format_card(self.called),
            "open_guard": self.open_guard, "robbers": list(self.robbers),
            "rebels": list(self.rebels), "rebellion": self.rebellion,
            "order": list(self.out), "places": list(self.place),
            "penalties": list(self.penalties),
        }
        if self.over:
            detail["hands"] = [hand_text(h) for h in self.hands]
            detail["dead"] = format_cards(self.dead)
        return detail

    def zones(self) -> dict[str, list[Card]]:
        out = {f"hand{seat}": list(hand) for seat, hand in enumerate(self.hands)}
        out.update(pile=list(self.pile), dead=list(self.dead), played=list(self.played))
        return out


#: Every play's action, by play (a game's hot loop reuses them).
_PLAY_ACTIONS: dict[Play, Action] = {}

__all__ = ["Baohuang", "Phase", "options"]
