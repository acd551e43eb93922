"""Dou Dizhu with contract bidding: ``ddz3`` (classic), ``ddz4``, ``ddz_emperor``, and ``ddz2``.

Rules (../shared/rules/ddz-classic.md, ddz-4p.md, dou-dizhu-emperor.md, ddz-2p.md):

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
``deal`` (the cards), ``landlord`` (skips the auction) and ``contract``.
"""

from __future__ import annotations

from typing import Any

from cardhall.cards import card_rank, format_cards, format_ranks, parse_ranks
from cardhall.games.base import (
    Action,
    Event,
    IllegalAction,
    Observation,
    Option,
    flag,
    seat_or_none,
)
from cardhall.games.climbing import PASS, ClimbingGame, Layout, hand_text
from cardhall.rules import Play


def common_options(players: int) -> dict[str, Option]:
    return {
        "deal": Option(None, "the cards: {hands: [...], kitty: ..., dead: ...}"),
        "landlord": Option(None, "a fixed landlord seat: no bidding",
                           (None, *range(players)), seat_or_none),
        "contract": Option(1, "the contract when the landlord is fixed", (1, 2, 3), int),
        "spring": Option(False, "spring / anti-spring ×2 (off in classic rules)", (False, True),
                         flag),
    }



class BiddingGame(ClimbingGame):
    """A one-round 1/2/3 auction, then kitty and play; settlement by contract × 2^k."""

    max_deals: int | None = None  # deals passed out in a row before the table dissolves
    flagged_first_bidder = True
    kitty_to: str = "all"  # who sees the kitty: "all", "landlord", or "choose" (斗帝主)

    def _start(self) -> None:
        self.contract = 0
        self.bids: list[tuple[int, int]] = []
        self.first_bidder = 0
        self.dissolved = False
        self.log.extend(self._deal())
        fixed = self.options["landlord"]
        if fixed is not None:
            self.contract = self.options["contract"]
            self.log.extend(self._make_landlord(fixed))
        else:
            self.log.extend(self._open_auction())

    def _open_auction(self) -> list[Event]:
        if self.flagged_first_bidder:
            dealt = [(seat, c) for seat, hand in enumerate(self.hands) for c in hand]
            seat, card = dealt[self.rng.randrange(len(dealt))]
            event: Event = {"type": "flag", "card": format_cards([card]), "seat": seat}
        else:
            seat = self.rng.randrange(self.players)
            event = {"type": "first-bidder", "seat": seat}
        self.first_bidder = seat
        self.bids = []
        self.phase = "bid"
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
        if self.phase == "bid":
            high, _ = self._highest()
            return [PASS, *(Action("bid", str(b)) for b in range(high + 1, 4))]
        if self.phase == "kitty":
            return [Action("take", "none")]  # the full choice is 2^6 subsets: see check
        raise AssertionError(self.phase)

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb == "bid" and arg in ("1", "2", "3"):
            return Action("bid", arg)
        if verb == "take":
            if arg.lower() in ("none", "-", ""):
                return Action("take", "none")
            try:
                return Action("take", format_ranks(parse_ranks(arg)))
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
        raise IllegalAction(f"{verb} {arg}".strip() + " is not an action of this game")

    def _setup_check(self, action: Action) -> str | None:
        if self.phase == "bid":
            if action.verb == "pass":
                return None
            if action.verb != "bid":
                return "during bidding, pass or bid 1, 2 or 3"
            high, _ = self._highest()
            if int(action.arg) <= high:
                return f"a bid must be higher than {high}"
            return None
        if self.phase == "kitty":
            if action.verb != "take":
                return "choose the kitty cards to keep: take CARDS, or take none"
            if action.arg == "none":
                return None
            want = self._count_ranks(parse_ranks(action.arg))
            have = self._count(self.kitty)
            if any(w > h for w, h in zip(want, have, strict=True)):
                return f"the kitty holds {hand_text(self.kitty)}, not {action.arg}"
            return None
        return f"nothing to do during {self.phase}"

    def _setup_apply(self, action: Action) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        if self.phase == "kitty":
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
            self.phase = "kitty"
            self.to_act = seat
        else:
            event: Event = {"type": "kitty", "cards": kitty}
            if self.kitty_to == "landlord":
                event["to"] = [seat]
            events.append(event)
            self._give(seat, self.kitty)
            self.kitty = []
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
        self._give(seat, kept)
        self._begin_play(seat)
        return [{"type": "kitty-kept", "seat": seat, "count": len(kept)},
                {"type": "kitty-kept", "to": [seat], "cards": format_cards(kept)}]

    # -- settlement ----------------------------------------------------------------------

    def _settle(self) -> dict[str, Any]:
        n = self.players
        if self.dissolved:
            return {"dissolved": True, "scores": [0] * n, "deals": self.deals}
        assert self.landlord is not None and self.winner is not None
        doubling = [p for p in self.bombs if self.doubles(p)]
        spring = self.spring() if self.options["spring"] else None
        stake = self.contract * 2 ** len(doubling) * (2 if spring else 1)
        landlord_wins = self.side[self.winner] == 0
        sign = 1 if landlord_wins else -1
        scores = [sign * stake * (n - 1) if s == self.landlord else -sign * stake
                  for s in range(n)]
        return {
            "scores": scores,
            "winner": "landlord" if landlord_wins else "farmers",
            "landlord": self.landlord,
            "multiplier": {"contract": self.contract, "bombs": len(doubling),
                           "bomb_plays": [p.text for p in doubling],
                           "spring": spring, "stake": stake},
        }

    def _observe_extra(self, seat: int, obs: Observation) -> None:
        obs["contract"] = self.contract
        obs["bids"] = [[s, b] for s, b in self.bids]
        obs["bombs"] = len(self.bombs)
        k = sum(1 for p in self.bombs if self.doubles(p))
        obs["stake"] = max(self.contract, 1) * 2 ** k
        public_kitty = self.landlord is not None and self.kitty_to == "all"
        if public_kitty or (seat == self.landlord and self.kitty_to != "all") or self.over:
            obs["kitty"] = hand_text(self.kitty_dealt)
        if self.over:
            obs["dead"] = hand_text(self.dead)


class Classic(BiddingGame):
    layout = Layout(hand=17, kitty=3)
    ruleset = "ddz3"

    def doubles(self, play: Play) -> bool:
        return play.kind in ("bomb", "rocket")


class FourPlayer(BiddingGame):
    layout = Layout(hand=25, kitty=8)
    ruleset = "ddz4"
    max_deals = 3
    flagged_first_bidder = False
    kitty_to = "landlord"

    def doubles(self, play: Play) -> bool:
        return play.kind == "rocket" or (play.kind == "bomb" and play.size >= 6)


class Emperor(BiddingGame):
    layout = Layout(hand=34, kitty=6)
    ruleset = "ddz_emperor"
    kitty_to = "choose"

    def _setup_actions(self) -> list[Action]:
        if self.phase != "kitty":
            return super()._setup_actions()
        # Every distinct subset of the kitty, by ranks (at most 2^6 = 64).
        counts = self._count(self.kitty)
        subsets: list[list[int]] = [[]]
        for r, k in enumerate(counts):
            subsets = [s + [r] * t for s in subsets for t in range(k + 1)]
        return [Action("take", format_ranks(s) if s else "none") for s in subsets]


class TwoPlayer(BiddingGame):
    """二人: call or no-call; the first call wins; contract 1."""

    layout = Layout(hand=20, kitty=3, dead=11)
    ruleset = "ddz2"
    flagged_first_bidder = False

    def _setup_actions(self) -> list[Action]:
        return [Action("call"), Action("no-call")]

    def _setup_parse(self, verb: str, arg: str) -> Action:
        if verb in ("call", "no-call") and not arg:
            return Action(verb)
        raise IllegalAction(f"{verb} {arg}".strip() + " is not an action of ddz2: call or no-call")

    def _setup_check(self, action: Action) -> str | None:
        return None if action.verb in ("call", "no-call") else "call or no-call"

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
