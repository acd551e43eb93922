"""Dou Dizhu with contract bidding: ``ddz3`` (classic), ``ddz4``, ``ddz_emperor``, and ``ddz2``.

Rules (docs/rules/ddz3.md, ddz-4p.md, dou-dizhu-emperor.md, ddz-2p.md):

- ddz3: one pack, 17 each and 3 kitty. One random dealt card is flagged; its
  holder bids first. Each player bids once, in turn: pass or 1/2/3 above the
  highest so far; 3 ends the auction. All pass: redeal, no limit. The landlord
  takes the kitty, shown to all, and leads. Stake per farmer S = contract ×
  2^k, k = bombs and rockets played; the landlord wins or pays 2S.
- ddz4: two packs, 25 each and an 8-card kitty that stays hidden until the
  end; a random first bidder; three passed-out deals in a row dissolve the
  table (no score). Only the rocket and bombs of 6+ cards double; the
  landlord wins or pays 3S.
- ddz_emperor (斗帝主): two packs, 34 each and 6 kitty; bidding as ddz3. The
  kitty is shown to the emperor alone, who keeps any subset (0 to 6); the
  rest leaves play unseen. Every bomb (5–8 cards) and 天王 doubles.
- ddz2: one pack, 20 each, 3 kitty and 11 dead cards never shown during play;
  a random first caller; ``call`` takes the landlord at once, ``no-call``
  passes; both no-call → redeal. Contract fixed at 1.

House options, all off by default: ``spring`` (ddz-happy's ×2 for a spring or
anti-spring, classic Ruling 11). For duplicate deals and scripted tests:
``deal`` (the cards), ``first`` (the first bidder of the first deal, else drawn
from the seed), ``landlord`` (skips the auction) and ``contract``.

Leaving (platform §5, ``leave_policy = "escape"``): the game ends at once and
the leaver pays happy §4.4's escape penalty in points, shared equally by the
others (docs/rulings.md). Results: winners are seats; ``points`` are the
scores; the multiplier's causes are the contract, the doubling bombs and (with
the house option) the spring, their product the stake per farmer.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from cardhall.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    TWO,
    Counts,
    card_rank,
    format_cards,
    format_ranks,
    parse_ranks,
)
from cardhall.games import beans
from cardhall.games.base import (
    Action,
    Event,
    IllegalAction,
    Observation,
    Option,
    excerpt,
    flag,
    seat_or_none,
)
from cardhall.games.climbing import PASS, ClimbingGame, cards_text, hand_text
from cardhall.games.errors import Illegal, NotInWindow, Unreadable, clip
from cardhall.games.view import Number, multiplier
from cardhall.rules import Play


class Phase(StrEnum):
    """The phases of the bidding games, in order (``kitty`` in 斗帝主 only)."""

    START = "start"
    BID = "bid"
    KITTY = "kitty"
    PLAY = "play"
    OVER = "over"


def common_options(players: int) -> dict[str, Option]:
    seats = (None, *range(players))
    return {
        "deal": Option(None, "the cards: {hands: [...], kitty: ..., dead: ...}", kind="deal",
                       help_zh="指定发牌：{hands: [每家的牌], kitty: 底牌, dead: 废牌}；"
                               "可带花色（Ts）或只写点数（T）"),
        "first": Option(None, "the first bidder of the first deal (default: drawn from the "
                        "seed: the flagged card's holder, or a random seat)", seats,
                        seat_or_none, kind="seat",
                        help_zh="第一局首先叫牌的座位（默认由种子决定：明牌持有者或随机座位）"),
        "landlord": Option(None, "a fixed landlord seat: no bidding", seats, seat_or_none,
                           kind="seat", help_zh="指定地主座位（跳过叫牌）"),
        "contract": Option(1, "the contract when the landlord is fixed", (1, 2, 3), int,
                           kind="int", help_zh="指定地主时的叫分（1、2 或 3）",
                           minimum=1, maximum=3),
        "spring": Option(False, "spring / anti-spring ×2 (off in classic rules)", (False, True),
                         flag, kind="bool", help_zh="春天 / 反春 ×2（经典规则不计）"),
    }


def count_bombs(counts: Counts, least: int, jokers: int) -> int:
    """Doubling bombs one hand holds (escape, happy §4.4): ranks of at least ``least``
    cards, plus one for a joker bomb of at least ``jokers`` jokers (2: SJ and BJ)."""
    bombs = sum(1 for r in range(TWO + 1) if counts[r] >= least)
    small, big = counts[SMALL_JOKER], counts[BIG_JOKER]
    if jokers == 2:  # the one-pack rocket: SJ and BJ
        return bombs + (1 if small and big else 0)
    return bombs + (1 if small + big >= jokers else 0)


class BiddingGame(ClimbingGame):
    """A one-round 1/2/3 auction, then kitty and play; settlement by contract × 2^k."""

    phases = Phase
    max_deals: int | None = None  # deals passed out in a row before the table dissolves
    flagged_first_bidder = True
    kitty_to: str = "all"  # who sees the kitty: "all", "landlord", or "choose" (斗帝主)
    #: What a held doubling bomb is (escape): a rank of this many cards, this many jokers.
    bomb_least = 4
    joker_bomb = 2
    #: The role words of the two sides in views (斗帝主: emperor and rebels).
    role_names = ("landlord", "farmer")

    def _start(self) -> None:
        self.phase = Phase.START
        self.contract = 0
        self.bids: list[tuple[int, int]] = []
        self.first_bidder = 0
        self.flagged: str | None = None
        self.dissolved = False
        #: Each hand right after the kitty was taken (the escape counts its bombs).
        self.held: list[Counts] = []
        self.kitty_kept: str | None = None  # 斗帝主: the emperor's choice, as he wrote it
        self.log.extend(self._deal())
        fixed = self.options["landlord"]
        if fixed is not None:
            self.contract = self.options["contract"]
            self.log.extend(self._make_landlord(fixed))
        else:
            self.log.extend(self._open_auction())

    def _open_auction(self) -> list[Event]:
        """The first bidder: option ``first`` on the first deal, else drawn from the seed."""
        fixed = self.options["first"] if self.deals == 1 else None
        if self.flagged_first_bidder:
            dealt = [(seat, c) for seat, hand in enumerate(self.hands) for c in hand
                     if fixed is None or seat == fixed]
            seat, card = dealt[self.rng.randrange(len(dealt))]
            self.flagged = format_cards([card])
            event: Event = {"type": "flag", "card": self.flagged, "seat": seat}
        else:
            seat = fixed if fixed is not None else self.rng.randrange(self.players)
            event = {"type": "first-bidder", "seat": seat}
        self.first_bidder = seat
        self.bids = []
        self.phase = Phase.BID
        self.to_act = seat
        return [event]

    def _highest(self) -> tuple[int, int | None]:
        """(highest bid, its bidder); (0, None) while everyone has passed."""
        high, bidder = 0, None
        for seat, bid in self.bids:
            if bid > high:
                high, bidder = bid, seat
        return high, bidder

    def _setup_actions(self) -> list[Action]:
        if self.phase == Phase.BID:
            high, _ = self._highest()
            return [PASS, *(Action("bid", str(b)) for b in range(high + 1, 4))]
        if self.phase == Phase.KITTY:
            return [Action("take", "none")]  # the full choice is 2^6 subsets: see check
        raise AssertionError(self.phase)

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb == "bid" and arg in ("1", "2", "3"):
            return Action("bid", arg)
        if verb == "take" and self.kitty_to == "choose":
            if arg.lower() in ("none", "-", ""):
                return Action("take", "none")
            try:
                return Action("take", format_ranks(parse_ranks(arg)))
            except ValueError:
                raise Unreadable("not_cards", f"take {excerpt(arg)}: write the kitty cards "
                                 "to keep (e.g. take 2X), or take none",
                                 text=clip(arg)) from None
        allowed = ["pass", "bid 1/2/3", "play CARDS"] + (
            ["take CARDS"] if self.kitty_to == "choose" else [])
        raise Unreadable("unknown_action", f"{excerpt(f'{verb} {arg}'.strip())} is not an "
                         f"action of {self.variant.id}: pass, bid 1/2/3, play CARDS"
                         + (" or take CARDS" if self.kitty_to == "choose" else ""),
                         text=clip(f"{verb} {arg}".strip()), allowed=allowed)

    def _setup_check(self, action: Action) -> IllegalAction | None:
        if self.phase == Phase.BID:
            if action.verb == "pass":
                return None
            if action.verb != "bid":
                return NotInWindow("wrong_step", "during bidding, pass or bid 1, 2 or 3",
                                   phase=str(self.phase), text=clip(action.text),
                                   allowed=["pass", "bid 1", "bid 2", "bid 3"])
            high, _ = self._highest()
            if int(action.arg) <= high:
                return Illegal("bid_too_low", f"a bid must be higher than {high}",
                               bid=int(action.arg), high=high)
            return None
        if self.phase == Phase.KITTY:
            if action.verb != "take":
                return NotInWindow("wrong_step", "choose the kitty cards to keep: take CARDS, "
                                   "or take none", phase=str(self.phase),
                                   text=clip(action.text), allowed=["take CARDS", "take none"])
            if action.arg == "none":
                return None
            want = self._count_ranks(parse_ranks(action.arg))
            have = self._count(self.kitty)
            if any(w > h for w, h in zip(want, have, strict=True)):
                return Illegal("not_in_kitty", f"the kitty holds {hand_text(self.kitty)}, not "
                               f"{excerpt(action.arg)}", kitty=hand_text(self.kitty),
                               cards=clip(action.arg))
            return None
        return NotInWindow("wrong_step", f"nothing to do during {self.phase}",
                           phase=str(self.phase), text=clip(action.text), allowed=[])

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        if self.phase == Phase.KITTY:
            return self._keep_kitty(seat, action.arg)
        bid = 0 if action.verb == "pass" else int(action.arg)
        self.bids.append((seat, bid))
        events: list[Event] = [{"type": "bid", "seat": seat, "bid": bid}]
        high, bidder = self._highest()
        if high == 3 or len(self.bids) == self.players:
            if bidder is None:
                events.extend(self._passed_out())
            else:
                self.contract = high
                events.extend(self._make_landlord(bidder))
        else:
            self.to_act = self._next(seat)
        return events

    def _passed_out(self) -> list[Event]:
        if self.max_deals is not None and self.deals >= self.max_deals:
            self.dissolved = True
            return self._finish()
        return [{"type": "redeal"}, *self._deal(), *self._open_auction()]

    def _make_landlord(self, seat: int) -> list[Event]:
        self.landlord = seat
        self.side = [0 if s == seat else 1 for s in range(self.players)]
        events: list[Event] = [{"type": "landlord", "seat": seat, "contract": self.contract}]
        kitty = format_cards(self.kitty)
        if self.kitty_to == "choose":
            events.append({"type": "kitty", "to": [seat], "cards": kitty})
            self.phase = Phase.KITTY
            self.to_act = seat
        else:
            event: Event = {"type": "kitty", "cards": kitty}
            if self.kitty_to == "landlord":
                event["to"] = [seat]
            events.append(event)
            self._give(seat, self.kitty)
            self.kitty = []
            self.held = list(self.counts)
            self._begin_play(seat)
        return events

    def _keep_kitty(self, seat: int, arg: str) -> list[Event]:
        keep = [] if arg == "none" else list(parse_ranks(arg))
        kept = []
        for r in keep:
            card = next(c for c in self.kitty if card_rank(c) == r)
            self.kitty.remove(card)
            kept.append(card)
        self.dead.extend(self.kitty)  # untaken cards leave play unseen (emperor Ruling 2)
        self.kitty = []
        self.kitty_kept = arg
        self._give(seat, kept)
        self.held = list(self.counts)
        self._begin_play(seat)
        return [{"type": "kitty-kept", "seat": seat, "count": len(kept)},
                {"type": "kitty-kept", "to": [seat], "cards": format_cards(kept)}]

    # -- settlement ----------------------------------------------------------------------

    def _doubling_bombs(self) -> list[Play]:
        return [p for p in self.bombs if self.doubles(p)]

    def _multiplier_causes(self) -> dict[str, Any]:
        """The stake per farmer: the contract (the highest bid while bidding, at least 1),
        ×2 per doubling bomb played, and ×2 for a spring where the house option is on."""
        contract = self.contract if self.landlord is not None else max(self._highest()[0], 1)
        causes: dict[str, Number] = {"contract": contract,
                                  "bombs": 2 ** len(self._doubling_bombs())}
        if self.options["spring"]:
            causes["spring"] = 2 if self.over and self.spring() else 1
        return dict(multiplier(causes))

    def _settle(self) -> dict[str, Any]:
        n = self.players
        if self.dissolved:  # ddz-4p Ruling 11: no score, and no escape for anyone
            return self._outcome({"deals": self.deals}, [], [0] * n, ended="dissolved")
        assert self.landlord is not None and self.winner is not None
        doubling = self._doubling_bombs()
        spring = self.spring() if self.options["spring"] else None
        stake = self.contract * 2 ** len(doubling) * (2 if spring else 1)
        landlord_wins = self.side[self.winner] == 0
        sign = 1 if landlord_wins else -1
        scores = [sign * stake * (n - 1) if s == self.landlord else -sign * stake
                  for s in range(n)]
        winners = [s for s in range(n) if (self.side[s] == 0) is landlord_wins]
        detail = {"winner": "landlord" if landlord_wins else "farmers", "out": self.winner,
                  "landlord": self.landlord, "contract": self.contract,
                  "bombs": len(doubling), "bomb_plays": [p.text for p in doubling],
                  "spring": spring, "stake": stake, "deals": self.deals}
        return self._outcome(detail, winners, scores)

    def _escape(self, seat: int) -> list[Event]:
        """platform §5 with happy §4.4 in points (docs/rulings.md, 叫分斗地主的逃跑).

        The role is the landlord's once he is known, while bidding the highest
        bidder's; everyone else pays the farmer rate. ``M_act`` is the contract
        (the highest bid so far, at least 1) × 2 per doubling bomb held, counted
        in the hands after the kitty was taken (before that, as dealt).
        """
        high, bidder = self._highest()
        provisional = self.landlord if self.landlord is not None else bidder
        role = "landlord" if seat == provisional else "farmer"
        contract = self.contract if self.landlord is not None else max(high, 1)
        held = self.held or self.counts
        bombs = sum(count_bombs(c, self.bomb_least, self.joker_bomb) for c in held)
        m_act = contract * 2 ** bombs
        p, x_esc = beans.escape_points(m_act, 1, role)
        points = beans.escape_shares(x_esc, self.players, seat)
        detail = {"escape": seat, "role": role, "phase": str(self.phase), "M_act": m_act,
                  "P": beans.as_number(p), "X_esc": beans.as_number(x_esc),
                  "held_bombs": bombs, "landlord": self.landlord, "contract": contract,
                  "deals": self.deals}
        result = self.outcome(ended="escape", winners=[s for s in range(self.players) if s != seat],
                              points=[beans.as_number(x) for x in points],
                              multiplier=dict(multiplier({"contract": contract,
                                                          "bombs": 2 ** bombs})),
                              detail=detail)
        return [{"type": "escape", "seat": seat, "role": role}, *self._end_with(result)]

    # -- views ---------------------------------------------------------------------------

    def _view_roles(self, seat: int) -> list[str | None]:
        if self.landlord is None:
            return [None] * self.players
        return [self.role_names[self.side[s]] for s in range(self.players)]

    def _last_text(self, seat: int, action: Action) -> str | None:
        return None if action.verb == "take" else action.at(None).text

    def _view_last(self, seat: int) -> list[str | None]:
        """The emperor's kitty choice is his own: the others see that he took (the count
        is public in ``counts``), not what."""
        out = list(self.last)
        if self.kitty_kept is not None and self.landlord is not None \
                and out[self.landlord] is None:
            mine = seat == self.landlord or self.over
            out[self.landlord] = f"take {self.kitty_kept}" if mine else "take"
        return out

    def _observe_extra(self, seat: int, obs: Observation) -> None:
        obs["contract"] = self.contract
        obs["bids"] = [[s, b] for s, b in self.bids]
        obs["first_bidder"] = self.first_bidder
        if self.flagged is not None:
            obs["flagged"] = self.flagged
        obs["deals"] = self.deals
        obs["bombs"] = len(self.bombs)
        obs["stake"] = self._multiplier_causes()["total"]
        public_kitty = self.landlord is not None and self.kitty_to == "all"
        if public_kitty or (seat == self.landlord and self.kitty_to != "all") or self.over:
            obs["kitty"] = hand_text(self.kitty_dealt)
            obs["kitty_cards"] = cards_text(self.kitty_dealt)  # with suits, to draw
        if self.over:
            obs["dead"] = hand_text(self.dead)


class Classic(BiddingGame):

    def doubles(self, play: Play) -> bool:
        return play.kind in ("bomb", "rocket")


class FourPlayer(BiddingGame):
    max_deals = 3
    flagged_first_bidder = False
    kitty_to = "landlord"
    bomb_least = 6
    joker_bomb = 4

    def doubles(self, play: Play) -> bool:
        return play.kind == "rocket" or (play.kind == "bomb" and play.size >= 6)


class Emperor(BiddingGame):
    kitty_to = "choose"
    bomb_least = 5
    joker_bomb = 4
    role_names = ("emperor", "rebel")

    def _setup_actions(self) -> list[Action]:
        if self.phase != Phase.KITTY:
            return super()._setup_actions()
        # Every distinct subset of the kitty, by ranks (at most 2^6 = 64).
        counts = self._count(self.kitty)
        subsets: list[list[int]] = [[]]
        for r, k in enumerate(counts):
            subsets = [s + [r] * t for s in subsets for t in range(k + 1)]
        return [Action("take", format_ranks(s) if s else "none") for s in subsets]


class TwoPlayer(BiddingGame):
    """二人: call or no-call; the first call wins; contract 1."""

    flagged_first_bidder = False

    def _setup_actions(self) -> list[Action]:
        return [Action("call"), Action("no-call")]

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb in ("call", "no-call") and not arg:
            return Action(verb)
        raise Unreadable("unknown_action", f"{excerpt(f'{verb} {arg}'.strip())} is not an "
                         "action of ddz2: call, no-call, play CARDS or pass",
                         text=clip(f"{verb} {arg}".strip()),
                         allowed=["call", "no-call", "play CARDS", "pass"])

    def _setup_check(self, action: Action) -> IllegalAction | None:
        if action.verb in ("call", "no-call"):
            return None
        return NotInWindow("wrong_step", "call or no-call", phase=str(self.phase),
                           text=clip(action.text), allowed=["call", "no-call"])

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        called = action.verb == "call"
        self.bids.append((seat, 1 if called else 0))
        events: list[Event] = [{"type": "call" if called else "no-call", "seat": seat}]
        if called:
            self.contract = 1
            events.extend(self._make_landlord(seat))
        elif len(self.bids) == self.players:
            events.extend(self._passed_out())
        else:
            self.to_act = self._next(seat)
        return events
