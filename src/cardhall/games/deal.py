"""A deal given as text (option ``deal``): one parser for every game.

Duplicate deals, scripted tests and endgame puzzles give the cards instead of
the seed. A part of the deal is card text in which every card may be suited
(``Ts``: exactly that card) or bare (``T``: any card of that rank the deck
still holds), mixed freely, because in most of these games suits do not
matter and in the rest (找朋友, the marked cards) only a few do. Exact cards are
taken first, so a bare rank never takes the copy another part names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardhall.cards import (
    RANK_CHARS,
    SMALL_JOKER,
    SUIT_CHARS,
    Card,
    CardError,
    card,
    card_rank,
    parse_ranks,
)
from cardhall.games.errors import BadSetup

#: The longest deal text a part may have: four packs' worth of suited cards and spaces.
MAX_PART_TEXT = 4 * 54 * 4


def parse_mixed(text: str) -> list[Card | int]:
    """Cards of ``text``: a card id for a suited card (or joker), ``-1 - rank`` for a bare rank."""
    if len(text) > MAX_PART_TEXT:
        raise CardError(f"a deal part is at most {MAX_PART_TEXT} characters")
    out: list[Card | int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in " ,\t\n":
            i += 1
            continue
        width = 2 if text.startswith("10", i) else 1
        try:
            (rank,) = parse_ranks(text[i:i + width])
        except CardError:
            raise CardError(f"unexpected {ch!r} at position {i + 1} of a deal part: "
                            f"expected a rank ({' '.join(RANK_CHARS)})") from None
        i += width
        if rank >= SMALL_JOKER:
            out.append(card(rank))
        elif i < len(text) and text[i] in SUIT_CHARS:
            out.append(card(rank, SUIT_CHARS.index(text[i])))
            i += 1
        else:
            out.append(-1 - rank)
    return out


def given_deal(given: Any, deck: Sequence[Card], parts: Mapping[str, int | None],
               hands: int, hand_size: int | Sequence[int] | None) -> tuple[
                   list[list[Card]], dict[str, list[Card]]]:
    """Hands and named piles from ``{"hands": [text per seat], pile: text, ...}``.

    ``parts`` names the piles (``{"kitty": 3, "dead": None}``: ``None`` takes
    whatever the deck has left, at most one such pile); ``hand_size`` is each
    hand's size (one number, one per seat, or None for any size of at least
    one card). Every card must come from ``deck``, each copy once; together
    the parts are the whole deck. IllegalAction with the reason otherwise.
    """
    if not isinstance(given, Mapping) or not isinstance(given.get("hands"), list):
        raise BadSetup("bad_deal", 'option deal must be {"hands": [one card text per seat], '
                       '...}', option="deal")
    unknown = sorted(set(given) - {"hands", *parts}, key=str)
    if unknown:
        raise BadSetup("bad_deal", f"option deal has no part {str(unknown[0])[:20]!r} "
                       f"(parts: hands, {', '.join(parts)})", option="deal")
    texts = given["hands"]
    if len(texts) != hands or not all(isinstance(t, str) for t in texts):
        raise BadSetup("bad_deal", f"option deal needs {hands} hands as card text",
                       option="deal")
    named = {name: given.get(name, "") for name, size in parts.items() if size is not None}
    if not all(isinstance(t, str) for t in named.values()):
        raise BadSetup("bad_deal", "option deal: every part is card text", option="deal")
    try:
        wanted = [parse_mixed(t) for t in [*texts, *named.values()]]
    except CardError as exc:
        raise BadSetup("bad_deal", f"option deal: {exc}", option="deal") from None
    pool = sorted(deck)
    taken: list[list[Card]] = [[] for _ in wanted]
    for exact in (True, False):  # exact cards first, then any card of a rank
        for part, want in zip(taken, wanted, strict=True):
            for c in want:
                if (c >= 0) != exact:
                    continue
                match = c if exact else next((d for d in pool if card_rank(d) == -1 - c), None)
                if match is None or match not in pool:
                    raise BadSetup("bad_deal", "option deal: more cards than the deck holds",
                                   option="deal")
                pool.remove(match)
                part.append(match)
    hand_cards = [sorted(h) for h in taken[:hands]]
    piles = {name: sorted(p) for name, p in zip(named, taken[hands:], strict=True)}
    rest = [name for name, size in parts.items() if size is None]
    if rest:
        piles[rest[0]] = pool
        pool = []
    sizes = [hand_size] * hands if isinstance(hand_size, int) else hand_size
    bad_hands = (any(len(h) != want for h, want in zip(hand_cards, sizes, strict=True))
                 if sizes is not None else any(not h for h in hand_cards))
    bad_piles = any(len(piles[name]) != size for name, size in parts.items() if size is not None)
    if pool or bad_hands or bad_piles:
        shape = ("hands of " + ", ".join(map(str, sorted(set(sizes)))) if sizes is not None
                 else "non-empty hands")
        piles_text = "".join(f", a {name} of {size}" for name, size in parts.items()
                             if size is not None)
        raise BadSetup("bad_deal", f"option deal must give {hands} {shape}{piles_text}: "
                       "the whole deck, each card once", option="deal")
    return hand_cards, piles
