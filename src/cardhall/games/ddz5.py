"""五人斗地主 (``ddz5``): five players, two packs, an open and a hidden landlord.

Rules (../shared/rules/ddz-5p.md; rulings by number):

- Deal: two packs (108 cards), 21 to each seat, 3 hidden kitty cards. A random
  non-joker card among the 105 dealt cards is the revealed card (明牌, Ruling 1);
  its suit and rank are announced to all. Its holder is the open landlord (明地主):
  everyone knows him; he takes the kitty unseen by others (24 cards).
- The holder of the other copy (same suit and rank) is the hidden landlord
  (暗地主), known only to himself. If the open landlord holds both copies after
  taking the kitty (dealt both, or the other copy was in the kitty, Ruling 2), he
  is the only landlord: 1 against 4.
- Identity step (明确身份): the open landlord, then the hidden landlord, answer
  ``reveal`` or ``decline``. The step is simultaneous in the rules, so nobody
  sees an answer (nor, in the observations, whose turn it is) until both have
  answered. If either reveals, the hidden landlord becomes public, the stake
  doubles once, and the two landlords see each other's hands for the rest of the
  game. Single landlord (Ruling 3): only he is asked; ``reveal`` announces
  "single landlord" and doubles, ``decline`` keeps it secret until the end.
- Late reveal (Ruling 9): a hidden landlord who declined is revealed, without
  multiplier, when he plays the copy; from then on the landlords see each
  other's hands. Plays are written by rank, so the copy leaves his hand only with
  his last card of that rank (docs/rulings.md). A still-hidden landlord who goes
  out first is revealed too.
- Doubling (加倍): all five, from the open landlord in turn order, answer
  ``double`` or ``decline`` once; the answers are private until all five have
  answered. Room option ``double_min_beans`` (Ruling 11) needs more than that many
  beans for the player and for every player who is, as far as he knows, an
  opponent (docs/rulings.md: this keeps the legal actions from betraying the
  hidden landlord).
- Play: the open landlord leads; pass or beat; a round ends after four passes
  (the shared climbing play phase). The first player out ends the game and his
  side wins. Hand types and the bomb ladder are ``rules.get("ddz5")``.
- Score (§4, Rulings 4–8, 14): ``M = M0 × 2 (revealed in the identity step) ×
  2^(plays of 5-, 6-, 7-, 8-card bombs, 三王, 天王) × 2 (spring)``; 4-card bombs and
  双王 never double. Spring = the landlords win and no farmer played a card; there
  is no anti-spring. For every landlord ``l`` and farmer ``f``:
  ``x(l, f) = 底分 × M × d_l × d_f / L`` (d = 2 if doubled, L = number of
  landlords); ``X_l = Σ_f x``, ``X_f = Σ_l x``, winners +, losers −.

Room options: ``base`` (底分) and ``M0``, both 1 by default (Ruling 7); ``N``
(room coefficient), ``A`` (house fee) and ``balances`` settle beans as ddz-happy
§4.3 (floors, caps, fee; ``beans.settle`` for a single landlord,
``two_landlord_beans`` below, with Ruling 6's odd bean, otherwise);
``double_min_beans`` as above. For scripted tests, duplicate deals and puzzles:
``deal`` (the cards), ``revealed`` (the revealed card, e.g. ``"Kd"``) and
``landlord`` (the open landlord's seat). Expired timers answer ``decline`` in both
steps (Ruling 15, the platform's auto-play).

House rules where the file is silent (docs/rulings.md, 五人斗地主): the copy leaves a
hand last among its rank; the identity and doubling steps are taken in turn but
observations hide whose turn it is and every answer until the step ends; the
doubling threshold counts every possible opponent; the odd-bean split above.

Scores are exact: ``/L`` makes halves, so a score is an int, or a float only
when it is a whole number of halves (exact in binary); ``pairs`` gives every
``x(l, f)`` the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from cardhall.cards import SMALL_JOKER_CARD, Card, CardError, format_cards, parse_card
from cardhall.games.base import (
    Action,
    Event,
    IllegalAction,
    Observation,
    Option,
    seat_or_none,
)
from cardhall.games.beans import Beans, as_number, round_half_up, settle
from cardhall.games.climbing import ClimbingGame, Layout, hand_text
from cardhall.games.ddz import common_options
from cardhall.rules import Play

PLAYERS = 5
REVEAL, DECLINE, DOUBLE = Action("reveal"), Action("decline"), Action("double")
#: The first tier of the ddz5 ladder that doubles: 5-card bombs (4-card 1, 双王 2).
DOUBLING_TIER = 3
#: Phases in which the rules have everyone answer at once (answers stay private).
SIMULTANEOUS = ("identity", "double")


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
        "revealed": Option(None, "the revealed card, e.g. 'Kd' (default: random among the "
                           "dealt cards)", None, _card_or_none),
        "landlord": Option(None, "the open landlord's seat; he must hold the revealed card",
                           (None, *range(PLAYERS)), seat_or_none),
        "base": Option(1, "底分, the base score (Ruling 7)", None, lambda v: _whole(v, 1)),
        "M0": Option(1, "the room's initial multiplier (初始倍数, Ruling 7)", None,
                     lambda v: _whole(v, 1)),
        "N": Option(None, "room coefficient (房间系数); beans are settled when set", None,
                    lambda v: None if v is None else _whole(v, 1)),
        "A": Option(0, "house fee per player per game (系统回收)", None, lambda v: _whole(v, 0)),
        "balances": Option(None, "each seat's beans at the start: doubling, floors, caps", None,
                           _balances_or_none),
        "double_min_beans": Option(None, "beans a player and his possible opponents must "
                                   "exceed to double (Ruling 11; None: no condition)", None,
                                   lambda v: None if v is None else _whole(v, 0)),
    }


# -- the game ------------------------------------------------------------------------------


class FivePlayer(ClimbingGame):
    """五人斗地主: roles from the revealed card, two private steps, then the shared play."""

    layout = Layout(hand=21, kitty=3)
    ruleset = "ddz5"

    def _start(self) -> None:
        self.revealed_card: Card = -1
        self.hidden: int | None = None  # the hidden landlord's seat; None: single landlord
        #: How the landlord side became public: "identity" or "copy"; None while secret.
        self.reveal_how: str | None = None
        #: Seats that see one another's hands: the two landlords once revealed.
        self.shown_to: set[int] = set()
        self.answers: dict[int, str] = {}  # identity step: seat → "reveal" / "decline"
        self.doubled: dict[int, bool] = {}  # doubling step: seat → doubled?
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
            raise IllegalAction(f"no {want or 'non-joker card'} is dealt{where}: the revealed "
                                "card is one of the 105 dealt cards")
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
        others = [s for s, hand in enumerate(self.hands) if s != seat and card in hand]
        if others:
            self.hidden = others[0]
            events.append({"type": "role", "to": [self.hidden], "role": "hidden landlord"})
        else:
            events.append({"type": "role", "to": [seat], "role": "single landlord"})
        self.side = [0 if s in self.landlords() else 1 for s in range(PLAYERS)]
        self.phase, self.to_act = "identity", seat
        return events

    # -- the identity and doubling steps -------------------------------------------------

    def _setup_actions(self) -> list[Action]:
        assert self.to_act is not None
        if self.phase == "identity":
            return [REVEAL, DECLINE]
        return [DECLINE] if self._double_block(self.to_act) else [DOUBLE, DECLINE]

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb in ("reveal", "decline", "double") and not arg:
            return Action(verb)
        raise IllegalAction(f"{verb} {arg}".strip() + " is not an action of ddz5: reveal, "
                            "decline, double, play CARDS or pass")

    def _setup_check(self, action: Action) -> str | None:
        assert self.to_act is not None
        if self.phase == "identity":
            if action.verb not in ("reveal", "decline"):
                return "in the identity step, reveal or decline"
            return None
        if action.verb not in ("double", "decline"):
            return "in the doubling step, double or decline"
        return self._double_block(self.to_act) if action.verb == "double" else None

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        if self.phase == "identity":
            return self._answer_identity(seat, action.verb)
        return self._answer_double(seat, action.verb == "double")

    def _answer_identity(self, seat: int, answer: str) -> list[Event]:
        self.answers[seat] = answer
        events: list[Event] = [{"type": "identity-answer", "to": [seat], "answer": answer}]
        asked = self.landlords()
        if len(self.answers) < len(asked):
            self.to_act = asked[len(self.answers)]
            return events
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
        self.phase, self.to_act = "double", self.open_landlord
        return events

    def _answer_double(self, seat: int, double: bool) -> list[Event]:
        self.doubled[seat] = double
        events: list[Event] = [{"type": "double-answer", "to": [seat], "double": double}]
        if len(self.doubled) < PLAYERS:
            self.to_act = self._next(seat)
            return events
        events.append({"type": "doubling",
                       "doubled": [s for s in range(PLAYERS) if self.doubled[s]]})
        self._begin_play(self.open_landlord)
        return events

    def _knows_sides(self, seat: int) -> bool:
        """Whether ``seat`` knows every player's side (the hidden landlord always does)."""
        return (self.reveal_how is not None or self.over or seat == self.hidden
                or (seat == self.landlord and self.single))

    def _double_block(self, seat: int) -> str | None:
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
        return (f"doubling needs more than {least} beans for you and every possible "
                f"opponent; {who} too few")

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
        result: dict[str, Any] = {
            "scores": [as_number(x) for x in scores],
            "winner": "landlords" if lords_win else "farmers",
            "out": self.winner,
            "landlord": self.landlord,
            "hidden_landlord": self.hidden,
            "single": self.single,
            "revealed": self.reveal_how,
            "spring": mult["spring"],
            "multiplier": mult,
            "doubling": {"doubled": [s for s in range(PLAYERS) if d[s] == 2], "factors": d},
            "pairs": [{"landlord": lo, "farmer": f, "points": as_number(x)}
                      for (lo, f), x in pairs.items()],
        }
        n, fee, balances = (self.options[k] for k in ("N", "A", "balances"))
        if n is not None:
            if self.hidden is None:
                beans = settle(self.open_landlord, {f: x for (_, f), x in pairs.items()},
                               lords_win, n, fee, balances)
            else:
                beans = two_landlord_beans(pairs, lords_win, self.open_landlord, n, fee,
                                           balances)
            result["beans"] = beans.to_json()
        return result

    # -- views -----------------------------------------------------------------------------

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
        window = self.phase == "double"
        obs["doubling"] = {  # as in ddz3_happy: others' answers only once all have answered
            "eligible": self._double_block(seat) is None,
            "answer": self.doubled.get(seat),
            "doubled": [s for s, d in self.doubled.items() if d and (s == seat or not window)]}
        obs["identity_answer"] = self.answers.get(seat)
        obs["bombs"] = len(self.bombs)
        obs["multiplier"] = self.multiplier()
        if self.phase in SIMULTANEOUS:
            # Whose turn it is would name the hidden landlord and show who has answered.
            obs["to_act"] = seat if seat == self.to_act else None
            owes = self.landlords() if self.phase == "identity" else range(PLAYERS)
            done = self.answers if self.phase == "identity" else self.doubled
            obs["deciding"] = seat in owes and seat not in done


# -- beans ---------------------------------------------------------------------------------


def two_landlord_beans(pairs: Mapping[tuple[int, int], Fraction], landlords_win: bool,
                       open_landlord: int, n: int, fee: int,
                       balances: Sequence[int] | None) -> Beans:
    """Beans of a two-landlord game, from each pair's points ``x(l, f)`` (Ruling 6).

    ``beans.settle`` handles one landlord (the single-landlord case uses it);
    here every farmer has a pair with each landlord. Same steps, same order:
    amounts ``x × N``; each loser's floor, then each winner's cap, sharing a
    shortfall among his pairs in proportion; then whole beans per pair, half
    up; then, where rounding passed a floor or cap, the last pair gives a bean
    back; then the fee.

    The one exception to "half up": a farmer whose pairs with both landlords
    are exact halves owes a whole number, and rounding both up would make him
    pay (or receive) a bean that nobody owes. One of his pairs rounds up, the
    other down, in favour of the open and the hidden landlord alternately,
    the open landlord first: the landlords' totals then differ by at most the
    one odd bean, and it goes to the open landlord (he receives it when the
    landlords win and keeps it when they lose).
    """
    amount = {pair: x * n for pair, x in pairs.items()}
    owed = {(lo, f): (f, lo) if landlords_win else (lo, f) for lo, f in pairs}  # payer, payee
    if balances is not None:
        for side in (0, 1):  # 0: the losers' floors, then 1: the winners' caps
            for seat, balance in enumerate(balances):
                mine = [pair for pair in amount if owed[pair][side] == seat]
                total = sum((amount[pair] for pair in mine), Fraction(0))
                if total > balance:
                    amount.update({pair: amount[pair] * balance / total for pair in mine})
    beans = {pair: round_half_up(a) for pair, a in amount.items()}
    hidden = next(lo for lo, _ in pairs if lo != open_landlord)
    half = Fraction(1, 2)
    split = [f for f in sorted({f for _, f in pairs})
             if amount[open_landlord, f] % 1 == half and amount[hidden, f] % 1 == half]
    for k, f in enumerate(split):
        favoured, other = (open_landlord, hidden) if k % 2 == 0 else (hidden, open_landlord)
        beans[other if landlords_win else favoured, f] -= 1
    if balances is not None:
        for side in (0, 1):
            for seat, balance in enumerate(balances):
                for pair in reversed([p for p in beans if owed[p][side] == seat]):
                    excess = sum(beans[p] for p in beans if owed[p][side] == seat) - balance
                    beans[pair] -= max(0, min(excess, beans[pair]))
    gross = [0] * PLAYERS
    for pair, amount_paid in beans.items():
        payer, payee = owed[pair]
        gross[payer] -= amount_paid
        gross[payee] += amount_paid
    winners = {payee for _, payee in owed.values()}
    fees = []
    for seat in range(PLAYERS):
        if seat in winners:
            room = gross[seat]  # a winner's fee never exceeds his gross win
        else:
            room = fee if balances is None else balances[seat] + gross[seat]
        fees.append(max(0, min(fee, room)))
    return Beans(tuple(g - f for g, f in zip(gross, fees, strict=True)), tuple(gross),
                 tuple(fees), sum(fees))
