"""Cards, ranks and the one notation every layer speaks.

Ranks are small ints so that a hand can be a rank-count vector (a tuple indexed
by rank) and move generation can index tables instead of comparing strings:

    3 4 5 6 7 8 9 T J Q K A 2 X D
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14

``X`` is the small joker (小王, "SJ" in the rule files) and ``D`` the big joker
(大王, "BJ"). Where a suit matters (找朋友 trumps, the 5-player revealed card,
保皇 guard calls) a card is ``rank * 4 + suit`` with suits ``s h c d``; the
jokers, which have no suit, are 52 and 53. Identical cards from different
packs are equal: a multi-pack hand is a multiset.

Parsing is forgiving (order, spaces, commas, ``10`` for ``T``, 小王/大王,
``SJ``/``BJ``); formatting is canonical (ascending ranks, one character each).
Every parse error names the offending character and its position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Rank = int
Card = int
Counts = tuple[int, ...]

RANK_CHARS = "3456789TJQKA2XD"
NUM_RANKS = len(RANK_CHARS)
THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE, TWO = range(13)
SMALL_JOKER = 13
BIG_JOKER = 14
JOKERS = (SMALL_JOKER, BIG_JOKER)
#: Ranks that may appear in a chain (顺/连): 3 … A.
CHAIN_RANKS = range(THREE, ACE + 1)
#: Ranks that have suits: 3 … 2.
SUITED_RANKS = range(THREE, TWO + 1)

SUIT_CHARS = "shcd"
SUIT_SYMBOLS = "♠♥♣♦"
SMALL_JOKER_CARD = 52
BIG_JOKER_CARD = 53
EMPTY: Counts = (0,) * NUM_RANKS

_RANK_OF_CHAR = {c: i for i, c in enumerate(RANK_CHARS)}
_RANK_OF_CHAR.update({c.lower(): i for i, c in enumerate(RANK_CHARS) if c in "TJQKA"})
_RANK_OF_CHAR.update({"小王": SMALL_JOKER, "大王": BIG_JOKER, "SJ": SMALL_JOKER, "BJ": BIG_JOKER})
_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUIT_CHARS)}
_SUIT_OF_CHAR.update({c: i for i, c in enumerate(SUIT_SYMBOLS)})
# Multi-character tokens first so that "10" is ten, not "1" then "0".
_TOKENS = sorted([*list(_RANK_OF_CHAR), "10"], key=len, reverse=True)
_IGNORED = " ,\t\n"


class CardError(ValueError):
    """Raised for text that does not spell cards; the message says where."""


def rank_char(rank: Rank) -> str:
    return RANK_CHARS[rank]


def _token_at(text: str, i: int) -> tuple[Rank, int] | None:
    for token in _TOKENS:
        if text.startswith(token, i):
            return (TEN if token == "10" else _RANK_OF_CHAR[token]), len(token)
    return None


def _error(text: str, i: int, expected: str) -> CardError:
    return CardError(f"unexpected {text[i]!r} at position {i + 1} in {text!r}: expected {expected}")


def parse_ranks(text: str) -> tuple[Rank, ...]:
    """Ranks of a rank-only card string such as ``"33344 4+56"``.

    ``+`` separators and suit letters after a rank are accepted and dropped:
    a climbing game only looks at ranks. The result keeps the text's order.
    """
    ranks: list[Rank] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _IGNORED or ch == "+":
            i += 1
            continue
        found = _token_at(text, i)
        if found is None:
            raise _error(text, i, f"a rank ({' '.join(RANK_CHARS)}, 10, 小王, 大王)")
        rank, width = found
        ranks.append(rank)
        i += width
        if i < len(text) and text[i] in _SUIT_OF_CHAR and rank < SMALL_JOKER:
            i += 1
    return tuple(ranks)


def parse_groups(text: str) -> tuple[tuple[Rank, ...], ...]:
    """Split a play's text at ``+``: ``"333444+56"`` → ``((0,0,0,1,1,1), (2,3))``.

    The split names the reading of cards that have several (a trio chain
    ``333444555666`` versus a plane with wings ``333444555+666``).
    """
    parts = text.split("+")
    if len(parts) > 2:
        pos = text.index("+", text.index("+") + 1)
        raise _error(text, pos, "at most one '+' (main part, then kickers)")
    groups = tuple(parse_ranks(p) for p in parts)
    if any(not g for g in groups):
        raise CardError(f"empty card group in {text!r}")
    return groups


def format_ranks(ranks: Iterable[Rank]) -> str:
    """Canonical text: ascending ranks, one character each."""
    return "".join(RANK_CHARS[r] for r in sorted(ranks))


def to_counts(ranks: Iterable[Rank]) -> Counts:
    counts = [0] * NUM_RANKS
    for r in ranks:
        counts[r] += 1
    return tuple(counts)


def from_counts(counts: Sequence[int]) -> tuple[Rank, ...]:
    return tuple(r for r, n in enumerate(counts) for _ in range(n))


def format_counts(counts: Sequence[int]) -> str:
    return "".join(RANK_CHARS[r] * n for r, n in enumerate(counts))


def parse_counts(text: str) -> Counts:
    return to_counts(parse_ranks(text))


def sub_counts(a: Sequence[int], b: Sequence[int]) -> Counts:
    """``a - b`` rank by rank; raises if ``b`` is not inside ``a``."""
    out = tuple(x - y for x, y in zip(a, b, strict=True))
    if min(out) < 0:
        missing = "".join(RANK_CHARS[r] * -n for r, n in enumerate(out) if n < 0)
        raise CardError(f"cards not in hand: {missing}")
    return out


def contains(hand: Sequence[int], cards: Sequence[int]) -> bool:
    return all(h >= c for h, c in zip(hand, cards, strict=True))


# -- suited cards ---------------------------------------------------------------------


def card(rank: Rank, suit: int | None = None) -> Card:
    if rank >= SMALL_JOKER:
        return SMALL_JOKER_CARD + rank - SMALL_JOKER
    if suit is None:
        raise CardError(f"{RANK_CHARS[rank]} needs a suit ({SUIT_CHARS})")
    return rank * 4 + suit


def card_rank(c: Card) -> Rank:
    return c // 4 if c < SMALL_JOKER_CARD else SMALL_JOKER + c - SMALL_JOKER_CARD


def card_suit(c: Card) -> int | None:
    return c % 4 if c < SMALL_JOKER_CARD else None


def _format_card(c: Card) -> str:
    suit = card_suit(c)
    return RANK_CHARS[card_rank(c)] + ("" if suit is None else SUIT_CHARS[suit])


#: Every card's text and its rank's character, by card: a view formats a few hundred
#: cards per change, so they are looked up rather than built.
CARD_TEXT: tuple[str, ...] = tuple(_format_card(c) for c in range(BIG_JOKER_CARD + 1))
CARD_RANK_CHAR: tuple[str, ...] = tuple(RANK_CHARS[card_rank(c)]
                                        for c in range(BIG_JOKER_CARD + 1))


def format_card(c: Card) -> str:
    return CARD_TEXT[c]


def rank_text(cards: Iterable[Card]) -> str:
    """The ranks of suited cards as canonical rank text (suits dropped): card order is
    rank order, so sorting the cards sorts their ranks."""
    return "".join([CARD_RANK_CHAR[c] for c in sorted(cards)])


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical suited text: ascending by rank then suit, separated by spaces."""
    return " ".join(format_card(c) for c in sorted(cards))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Suited cards such as ``"Ts Ad X"``: every non-joker needs its suit."""
    cards: list[Card] = []
    i = 0
    while i < len(text):
        if text[i] in _IGNORED:
            i += 1
            continue
        found = _token_at(text, i)
        if found is None:
            raise _error(text, i, "a rank")
        rank, width = found
        i += width
        if rank >= SMALL_JOKER:
            cards.append(card(rank))
            continue
        if i >= len(text):
            name = RANK_CHARS[rank]
            raise CardError(f"{name} at the end of {text!r} needs a suit ({SUIT_CHARS})")
        if text[i] not in _SUIT_OF_CHAR:
            raise _error(text, i, f"a suit ({SUIT_CHARS}) after {RANK_CHARS[rank]}")
        cards.append(card(rank, _SUIT_OF_CHAR[text[i]]))
        i += 1
    return tuple(cards)


def parse_card(text: str) -> Card:
    cards = parse_cards(text)
    if len(cards) != 1:
        raise CardError(f"expected exactly one card, got {text!r}")
    return cards[0]


def deck(packs: int = 1, without: Iterable[Rank] = ()) -> tuple[Card, ...]:
    """All cards of ``packs`` packs, optionally without some ranks (保皇 drops 3/4/5)."""
    skip = set(without)
    one = [c for c in range(54) if card_rank(c) not in skip]
    return tuple(sorted(one * packs))


def rank_counts_of_cards(cards: Iterable[Card]) -> Counts:
    return to_counts(card_rank(c) for c in cards)
