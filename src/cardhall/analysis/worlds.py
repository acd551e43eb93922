"""Worlds a seat cannot tell from the real one: the game at a decision, every card it
cannot see dealt afresh.

The rollout judge (``rollout``) plays games out through the real engine, so it needs
whole game states, not a bot's summary of one. ``sample`` clones the state at the
decision and deals again every card the seat cannot see, from the seat's own view
(``observe(seat)``, read as its bots read it) and never from the hands it replaces:

- the pool is the view's unseen cards (the deck less the seat's hand, the cards played
  and any hand it is shown); every other hand keeps its size, a hand the seat sees stays
  as it is, cards a seat is known to hold (a public kitty) go to it first, and cards
  left over are out of play;
- in 找朋友 what the seat has seen of the tricks binds the deal too: a seat that did not
  follow a group holds none of it (the trick view's voids), and the kitty is dealt
  unless the seat buried it itself;
- sides that the rules decide by cards follow from the cards: 找朋友's friend is whoever
  plays the called copy in the rollout. Where the engine fixed a side at the deal and the
  seat does not know it (保皇's guard, 五人斗地主's hidden landlord), a holder is drawn among
  the seats it may be, each as likely as its hand is long (the chance that one given
  unseen card is there), he is dealt the marked card (the called copy, the guard card,
  the revealed card's twin), and the engine's side is set to him.

Climbing plays go by rank, so there suits matter only for the marked cards: every other
card gets a suit of this module's choosing, never the marked one, which changes no play.
Approximations (each of small chance): a hidden 独保 (the emperor holding every called
copy) is not drawn for a seat that does not know of it, and cards seen in transit to the
emperor (保皇's tribute) are not remembered once in his hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardhall.bots.trick.view import read as read_trick
from cardhall.bots.view import read_view, rule_set
from cardhall.cards import NUM_RANKS, SMALL_JOKER, SUIT_CHARS, Card, card, card_rank
from cardhall.games.baohuang import Baohuang
from cardhall.games.baohuang_score import HIDDEN_SOLO
from cardhall.games.base import GameState, Observation
from cardhall.games.climbing import ClimbingGame
from cardhall.games.ddz5 import FivePlayer
from cardhall.games.zhaopengyou import ZhaoPengyou
from cardhall.games.zhaopengyou_setup import KITTY

#: Tries at a 找朋友 deal that keeps every void before the sample is given up.
TRIES = 20
#: The 保皇 emperor calls a card he holds this many copies of (the guard holds the last).
CALLED_COPIES = 3
#: The holder of the kitty in a 找朋友 deal (not a seat).
_KITTY = -1


def supports(state: GameState) -> bool:
    """Whether this module can deal worlds of the game (a climbing game or 找朋友)."""
    return isinstance(state, (ClimbingGame, ZhaoPengyou))


def sample(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A clone of ``state`` with every card ``seat`` cannot see dealt again (see the
    module docstring); None when no deal keeps what the seat has seen (rare: 找朋友's
    voids, ``TRIES`` tries)."""
    obs = state.observe(seat)
    if isinstance(state, ZhaoPengyou):
        return _trick_world(state, obs, seat, rng)
    if isinstance(state, ClimbingGame):
        return _climbing_world(state, obs, seat, rng)
    return None


# -- climbing games ----------------------------------------------------------------------


def _climbing_world(state: ClimbingGame, obs: Mapping[str, Any], seat: int,
                    rng: random.Random) -> ClimbingGame:
    view = read_view(obs, rule_set(obs))
    world = state.clone()
    hidden = [s for s in range(view.players) if s != seat and s not in view.exact]
    floors: dict[int, list[int]] = {s: list(view.known.get(s, (0,) * NUM_RANKS))
                                    for s in hidden}
    marked: dict[int, Card] = {}  # seat → the marked card it must hold one of
    if isinstance(world, Baohuang):
        _baohuang_roles(world, obs, view.counts, hidden, floors, marked, rng)
    elif isinstance(world, FivePlayer) and view.unknown:
        _hidden_landlord(world, seat, view.counts, view.unknown, floors, marked, rng)
    ranks = deal_ranks(view.unseen, {s: view.counts[s] for s in hidden}, floors, rng)
    for s, counts in ranks.items():
        world.hands[s] = sorted(_suited(counts, marked.get(s), world.marked))
        world.counts[s] = world._count(world.hands[s])
    world._changed()
    return world


def deal_ranks(unseen: Sequence[int], sizes: Mapping[int, int],
               floors: Mapping[int, Sequence[int]], rng: random.Random) -> dict[int, list[int]]:
    """Rank counts for each seat of ``sizes``: its floor first (as far as the pool has the
    cards), then the pool shuffled and dealt in seat order; what is left is out of play."""
    pool = list(unseen)
    hands = {s: [0] * NUM_RANKS for s in sizes}
    for s in sizes:
        floor = floors.get(s, ())
        for r, want in enumerate(floor):
            take = min(want, pool[r], sizes[s] - sum(hands[s]))
            hands[s][r] += take
            pool[r] -= take
    cards = [r for r in range(NUM_RANKS) for _ in range(pool[r])]
    rng.shuffle(cards)
    for s in sizes:
        need = max(0, sizes[s] - sum(hands[s]))
        for r in cards[:need]:
            hands[s][r] += 1
        cards = cards[need:]
    return hands


def _suited(counts: Sequence[int], mine: Card | None, marked: set[Card]) -> list[Card]:
    """Card ids for rank counts: ``mine`` once if the hand has its rank, every other card a
    suit of its rank that no marked card has (the suits cycle: a natural-looking hand)."""
    out: list[Card] = []
    taken = set(marked)
    for r, held in enumerate(counts):
        if not held:
            continue
        if r >= SMALL_JOKER:
            out.extend([card(r)] * held)
            continue
        plain = held
        if mine is not None and card_rank(mine) == r:
            out.append(mine)
            plain -= 1
        suits = [s for s in range(len(SUIT_CHARS)) if card(r, s) not in taken] or [0]
        out.extend(card(r, suits[i % len(suits)]) for i in range(plain))
    return out


def _weighted(seats: Sequence[int], counts: Sequence[int], rng: random.Random) -> int:
    """A seat drawn as likely as its hand is long (where one given unseen card would be).

    A seat out of cards is never drawn: going out, the holder of a marked card would
    have played it and shown himself."""
    holding = [s for s in seats if counts[s] > 0] or list(seats)
    weights = [max(1, counts[s]) for s in holding]
    return rng.choices(holding, weights=weights)[0]


def _baohuang_roles(world: Baohuang, obs: Mapping[str, Any], counts: Sequence[int],
                    hidden: list[int], floors: dict[int, list[int]], marked: dict[int, Card],
                    rng: random.Random) -> None:
    """The guard drawn where the seat does not know him, and the marked card given to him.

    A classic emperor called a card he held three copies of, and those leave his hand
    last among its rank: he still holds at least three less the cards of that rank he
    has played.
    """
    emperor = world.emperor
    assert emperor is not None
    roles = obs.get("roles") or []
    detail = obs.get("detail") or {}
    unknown = [s for s in hidden if s < len(roles) and roles[s] is None]
    if unknown and detail.get("solo") is None:
        drawn = _weighted(unknown, counts, rng)
        world.guard, world.solo = drawn, None
        if world.mode == "simple":
            world.sword = drawn
    guard = world.guard
    called = world.called
    if called is not None and emperor in floors:
        out = sum(1 for c in world.played_by[emperor] if card_rank(c) == card_rank(called))
        floors[emperor][card_rank(called)] += max(0, CALLED_COPIES - out)
    if guard is None or guard not in floors or world.solo == HIDDEN_SOLO \
            or world.known is not None:
        return  # alone, or shown already: no card of his can show him any more
    if called is not None:
        floors[guard][card_rank(called)] += 1
        marked[guard] = called
    elif world.mode == "simple":
        floors[guard][SMALL_JOKER] += 1


def _hidden_landlord(world: FivePlayer, seat: int, counts: Sequence[int],
                     unknown: frozenset[int],
                     floors: dict[int, list[int]], marked: dict[int, Card],
                     rng: random.Random) -> None:
    """五人斗地主 before the reveal: the twin of the revealed card is with one of the seats
    whose side is unknown (the hidden landlord) or, if the seat is not the open landlord,
    with the open landlord (who is then alone); it leaves a hand last among its rank."""
    open_landlord = world.open_landlord
    twin = world.revealed_card
    rank = card_rank(twin)
    candidates = sorted(unknown | ({open_landlord} if seat != open_landlord else set()))
    holder = _weighted(candidates, counts, rng)
    world.hidden = None if holder == open_landlord else holder
    world.side = [0 if s in world.landlords() else 1 for s in range(world.players)]
    if open_landlord in floors:
        out = sum(1 for c in world.played_by[open_landlord] if card_rank(c) == rank)
        floors[open_landlord][rank] += max(0, (2 if world.hidden is None else 1) - out)
    if world.hidden is not None and world.hidden in floors:
        floors[world.hidden][rank] += 1
        marked[world.hidden] = twin


# -- 找朋友 --------------------------------------------------------------------------------


def _trick_world(state: ZhaoPengyou, obs: Observation, seat: int,
                 rng: random.Random) -> ZhaoPengyou | None:
    view = read_trick(obs)
    sizes = {s: view.counts[s] for s in range(len(view.counts)) if s != seat}
    if seat != view.dealer:
        sizes[_KITTY] = KITTY
    cards = [c for c in range(len(view.unseen)) for _ in range(view.unseen[c])]

    def allowed(holder: int, c: Card) -> bool:
        return holder == _KITTY or not view.voids[holder][view.ctx.group[c]]

    dealt = deal_cards(cards, sizes, allowed, rng)
    if dealt is None:
        return None
    world = state.clone()
    for holder, hand in dealt.items():
        if holder == _KITTY:
            world.kitty = sorted(hand)
        else:
            world._set_hand(holder, hand)
    world._changed()
    return world


def deal_cards(cards: Sequence[Card], sizes: Mapping[int, int],
               allowed: Callable[[int, Card], bool],
               rng: random.Random) -> dict[int, list[Card]] | None:
    """Cards dealt to fill ``sizes``, each to a holder ``allowed(holder, card)``.

    The most constrained cards go first, each to an allowed holder with room, drawn as
    likely as his room is large; a deal that runs into a card nobody may take is tried
    again, ``TRIES`` times in all (None after). Cards beyond the sizes are out of play.
    """
    for _ in range(TRIES):
        order = list(cards)
        rng.shuffle(order)
        order.sort(key=lambda c: sum(1 for h in sizes if allowed(h, c)))
        room = dict(sizes)
        hands: dict[int, list[Card]] = {h: [] for h in sizes}
        spare = len(order) - sum(sizes.values())
        ok = True
        for c in order:
            open_ = [h for h in sizes if room[h] > 0 and allowed(h, c)]
            if not open_:
                if spare > 0:
                    spare -= 1  # out of play
                    continue
                ok = False
                break
            h = rng.choices(open_, weights=[room[x] for x in open_])[0]
            hands[h].append(c)
            room[h] -= 1
        if ok and not any(room.values()):
            return hands
    return None
