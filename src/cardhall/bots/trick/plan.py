"""The planning bot for 找朋友: trump, burial, friend call, and plays with point-card sense.

**Plays.** Every legal play is scored by what it is expected to bring this
seat's side, in points (``score``):

- *the trick's points*, on the table and in the play, times the signed chance
  that this side ends up with them: the play winning so far (this one if it
  ranks higher, else the standing one) holds unless a later seat beats it —
  ``odds`` gives the chance per seat, counted only for seats likely on
  the other side of its owner — and each seat's sign comes from the friend
  hypotheses (``view``);
- *what partners add*: when this side's play holds, the partners still to
  play (or, for a lead, to follow) drop their points on it;
- *the cards spent*: each card has a keep value, what it is worth in tricks
  still to come (trumps by height, a side card by how many higher ones are
  unseen; breaking a pair costs extra); a card that wins the trick realises
  most of it, a card thrown away loses all of it. Winning over a partner
  realises only what the partner's play would not have held: taking a
  partner's sure trick with a trump spends the trump for nothing.

So a follower feeds points to a partner who holds the trick and keeps them
from an opponent who does, wins a trick with points as cheaply as it can and
ducks a cheap one; a leader cashes its sure winners and throws (their
followers must pay), pulls trumps when its side is long in them, and
otherwise leads low from a short side suit.

**The friend.** A seat that can make itself the called friend does so at its
first chance (it is the table's convention that the holder joins the
dealer); the dealer never plays the called copy himself while another play
is possible.

**Set-up.** The trump declaration goes to the suit the hand would be
strongest in (trumps counted, jokers and level cards above plain ones); the
burial empties the shortest side suits it can without burying points, aces
or pairs; the friend call names the first copy of a side-suit ace the dealer
lacks (when ℓ is A, a king), in the suit he is shortest in, so the friend
can win tricks in it. (In duplicate self-play from a fixed dealer, calling the
big joker, the trump ace or the ace of the longest suit instead won 44%, 43%
and 48% of 300 deals.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardhall.bots.base import Observation
from cardhall.bots.trick.odds import Odds
from cardhall.bots.trick.view import (
    Cards,
    TrickView,
    cards_of,
    context,
    hand_of,
    read,
)
from cardhall.cards import (
    ACE,
    KING,
    RANK_CHARS,
    SMALL_JOKER_CARD,
    SUIT_CHARS,
    Card,
    card,
    card_rank,
    format_card,
    format_cards,
)
from cardhall.games.zhaopengyou_match import PLAYERS
from cardhall.games.zhaopengyou_setup import KITTY
from cardhall.rules.trick import POINTS, TRUMP, Lead, lead_of, play_rank, trumps

#: Keep value of a trump: base plus this per step (BJ, at step 15, is worth most).
TRUMP_BASE, TRUMP_STEP = 1.0, 0.35
#: Keep value of a side card with no higher card unseen (a boss, like an ace), and below.
SIDE_BOSS, SIDE_HIGH, SIDE_LOW = 3.0, 1.2, 0.1
#: Extra keep value of a card whose pair the play breaks.
PAIR_BREAK = 1.0
#: Share of its keep value a card realises when it wins the trick.
REALISE = 0.6
#: Points a partner is expected to drop per card of a trick its side holds; an opponent's
#: forced points per card when following a lead it cannot beat.
PARTNER_DROP, FORCED_DROP = 2.5, 0.6
#: Value of winning the lead (choosing the next trick).
TEMPO = 1.5
#: Bonus per trump led by a seat whose side is long in trumps (drawing the opponents' trumps).
DRAW = 1.0
#: Bonus for leading a low card of a short side suit (on the way to a void).
SHORT_SUIT = 0.8
#: Becoming the friend (a holder of the called copy), or the dealer calling himself.
FRIEND_BONUS, SELF_FRIEND = 15.0, -30.0
#: Trump strength per card when choosing the trump suit, and the bar to declare at all.
JOKER_WEIGHT, LEVEL_WEIGHT, SUIT_WEIGHT, PAIR_WEIGHT = 1.5, 1.3, 1.0, 0.5
DECLARE_BAR, OVERCALL_MARGIN = 11.0, 2.0


# -- set-up ---------------------------------------------------------------------------------


def suit_strength(hand: Sequence[Card], level: int, suit: int) -> float:
    """How strong ``hand`` would be in trumps with ``suit`` trump (for the declaration)."""
    ctx = trumps(level, suit)
    counts = Counter(c for c in hand if ctx.is_trump(c))
    value = 0.0
    for c, n in counts.items():
        weight = (JOKER_WEIGHT if c >= SMALL_JOKER_CARD else
                  LEVEL_WEIGHT if card_rank(c) == level else SUIT_WEIGHT)
        value += weight * n + (PAIR_WEIGHT if n >= 2 else 0.0)
    return value


def declare(obs: Observation, legal: Sequence[str]) -> str:
    """Declare the suit the hand is strongest in, with every copy held (nothing overcalls
    three); overcall only a clearly weaker standing suit; never over oneself."""
    hand = hand_of(obs)
    level = RANK_CHARS.index(obs["detail"]["level"])
    declarations = obs["detail"].get("declarations") or []
    standing = None
    if declarations:
        seat, text = declarations[-1]
        if seat == obs["seat"]:
            return "pass"  # my own declaration stands
        standing = SUIT_CHARS.index(text.split()[0][1])
    options = [a for a in legal if a.startswith("declare ")]
    if not options:
        return "pass"
    best = max(options, key=lambda a: (suit_strength(hand, level, _suit(a)), len(a)))
    mine = suit_strength(hand, level, _suit(best))
    if standing is None:
        # The known dealer names his best suit rather than leave it to the others.
        want = mine >= DECLARE_BAR or obs["detail"].get("dealer") == obs["seat"]
    else:
        want = mine >= suit_strength(hand, level, standing) + OVERCALL_MARGIN
    if not want:
        return "pass"
    suit = _suit(best)
    return max((a for a in options if _suit(a) == suit), key=len)


def _suit(action: str) -> int:
    return SUIT_CHARS.index(action.split()[1][1])


def bury(obs: Observation) -> str:
    """Seven cards: the shortest side suits emptied where that buries no points, aces or
    pairs, then the lowest plain side cards, points and trumps last."""
    ctx = context(obs)
    hand = list(hand_of(obs))
    counts = Counter(hand)
    top = KING if ctx.level == ACE else ACE

    def precious(c: Card) -> bool:
        return ctx.is_trump(c) or POINTS[c] > 0 or card_rank(c) == top or counts[c] >= 2

    chosen: list[Card] = []
    suits = sorted(range(4), key=lambda g: sum(1 for c in hand if ctx.group[c] == g))
    for g in suits:
        cards = [c for c in hand if ctx.group[c] == g]
        if cards and len(chosen) + len(cards) <= KITTY and not any(precious(c) for c in cards):
            chosen.extend(cards)
    rest = Counter(hand)
    rest.subtract(chosen)
    length = Counter(ctx.group[c] for c in rest.elements())

    def key(c: Card) -> tuple[int, int, int, int, int, Card]:
        return (int(ctx.is_trump(c)), int(POINTS[c] > 0),
                int(counts[c] >= 2 or card_rank(c) == top),
                length[ctx.group[c]], ctx.strength[c], c)

    for c in sorted(rest.elements(), key=key):
        if len(chosen) == KITTY:
            break
        chosen.append(c)
    return "bury " + format_cards(sorted(chosen))


def friend_call(obs: Observation) -> str:
    """The first copy of a side suit's top card (A; K when ℓ is A) the dealer lacks, in his
    shortest such suit: its holder can win tricks in a suit the dealer soon cannot follow.
    Holding a copy of every one, the next copy after his own (he keeps his back)."""
    ctx = context(obs)
    hand = hand_of(obs)
    top = KING if ctx.level == ACE else ACE
    suits = [g for g in range(4) if g != ctx.suit]
    suits.sort(key=lambda g: (sum(1 for c in hand if ctx.group[c] == g), g))
    for g in suits:
        face = card(top, g)
        if face not in hand:
            return f"call-friend 1 {format_card(face)}"
    for g in suits:
        face = card(top, g)
        held = hand.count(face)
        if held < 3:
            return f"call-friend {held + 1} {format_card(face)}"
    return "call-friend 1 " + format_card(card(top, suits[0]))  # holding all: alone


# -- play -----------------------------------------------------------------------------------


class Scorer:
    """Scores the legal plays of one decision (see the module docstring)."""

    def __init__(self, view: TrickView) -> None:
        self.view = view
        self.odds = Odds(view)
        self.held = Counter(view.hand)
        self.on_table = sum(POINTS[c] for _, cards in view.plays for c in cards)
        self.signs = [view.sign(s) for s in range(PLAYERS)]

    def keep(self, c: Card) -> float:
        ctx = self.view.ctx
        if ctx.is_trump(c):
            return TRUMP_BASE + TRUMP_STEP * ctx.step[c]
        group, step = ctx.group[c], ctx.step[c]
        higher = sum(sum(ks) for ks in self.odds.by_step[group][step + 1:])
        if higher == 0:
            return SIDE_BOSS
        if higher <= 3:
            return SIDE_HIGH
        return SIDE_LOW + 0.02 * step

    def spent(self, cards: Cards) -> float:
        used = Counter(cards)
        value = 0.0
        for c, n in used.items():
            value += n * self.keep(c)
            if self.held[c] >= 2 and n % 2 == 1:
                value += PAIR_BREAK
        return value

    def outcome(self, lead: Lead, holder: int, rank: tuple[int, int],
                later: Sequence[int]) -> tuple[float, float]:
        """(chance ``holder``'s play holds, signed chance for this side of the trick)."""
        view = self.view
        chances = []
        for r in later:
            q = self.odds.beat(r, lead.shape, lead.group, bool(rank[0]), rank[1])
            chances.append(q * (1.0 - view.same(holder, r)))
        hold = 1.0
        for q in chances:
            hold *= 1.0 - q
        total = sum(chances)
        over = sum(q * self.signs[r] for q, r in zip(chances, later, strict=True)) / total \
            if total > 0 else 0.0
        return hold, hold * self.signs[holder] + (1.0 - hold) * over

    def friend_term(self, cards: Cards) -> float:
        view = self.view
        if view.call is None or view.friend is not None:
            return 0.0
        n, face = view.call
        k = cards.count(face)
        if not k or not view.copies < n <= view.copies + k:
            return 0.0
        return SELF_FRIEND if view.seat == view.dealer else FRIEND_BONUS

    def score(self, cards: Cards) -> float:
        view = self.view
        ctx = view.ctx
        me = view.seat
        # The chance this side would take the trick without this play (the standing play
        # holding, where it is a partner's): what overtaking it does not win.
        prior = 0.0
        if view.lead is None:
            lead = lead_of(cards, ctx)
            rank = play_rank(cards, lead, ctx)
            assert rank is not None
            holder, later = me, [(me + i) % PLAYERS for i in range(1, PLAYERS)]
        else:
            lead = view.lead
            rank = play_rank(cards, lead, ctx)
            later = view.after_me()
            standing, best = view.best_seat, view.best_rank
            assert standing is not None and best is not None
            if rank is not None and rank > best:
                holder = me
                partner = view.same(me, standing)
                if partner > 0:
                    prior = partner * self.outcome(lead, standing, best, later)[0]
            else:
                holder, rank = standing, best
        hold, signed = self.outcome(lead, holder, rank, later)
        points = self.on_table + sum(POINTS[c] for c in cards)
        value = points * signed
        size = min(len(cards), 2)
        drop = 0.0
        for r in later:
            if r == holder:
                continue
            together = view.same(holder, r)
            drop += together * PARTNER_DROP + (1.0 - together) * FORCED_DROP * (lead.group != TRUMP)
        value += hold * self.signs[holder] * drop * size
        value += TEMPO * signed
        # A card realises its worth by winning what the side would not have won anyway:
        # over a partner sure to hold, a high trump is spent for nothing.
        mine = hold * (1.0 - prior) if holder == me else 0.0
        value -= self.spent(cards) * (1.0 - REALISE * mine)
        value += self.friend_term(cards)
        if view.lead is None:
            value += self.lead_terms(cards, lead)
        return value

    def lead_terms(self, cards: Cards, lead: Lead) -> float:
        view, ctx = self.view, self.view.ctx
        value = 0.0
        if lead.group == TRUMP:
            mine = sum(1 for c in view.hand if ctx.is_trump(c))
            unseen = self.odds.group_unseen[TRUMP]
            if mine * 2 >= unseen and self.signs[view.dealer] > 0:
                value += DRAW * len(cards)
        else:
            length = sum(1 for c in view.hand if ctx.group[c] == lead.group)
            if length <= 3 and len(cards) == 1 and POINTS[cards[0]] == 0 \
                    and self.keep(cards[0]) <= SIDE_HIGH:
                value += SHORT_SUIT
        return value


def choose_play(obs: Observation, legal: Sequence[str]) -> str:
    view = read(obs)
    scorer = Scorer(view)
    best_text, best_score = legal[0], float("-inf")
    for text in legal:
        cards = cards_of(text[5:])
        value = scorer.score(cards)
        if value > best_score:
            best_text, best_score = text, value
    return best_text


def choose(obs: Observation, legal: Sequence[str]) -> str:
    """The planning answer for a 找朋友 seat."""
    phase = obs.get("phase")
    if phase == "declare":
        return declare(obs, legal)
    if phase == "bury":
        return bury(obs)
    if phase == "friend":
        return friend_call(obs)
    plays = [a for a in legal if a.startswith("play ")]
    return choose_play(obs, plays)


__all__ = ["bury", "choose", "declare", "friend_call", "suit_strength"]
