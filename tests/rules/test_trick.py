"""The 找朋友 trick engine (zhao-pengyou.md §2, §4; rules/trick.py, rules/trick_follow.py).

Table-driven: card order at several level ranks and trump suits, units and
tractors, every follow obligation, trumping with and without the lead's
structure, the winner and its tie rule, throws that hold and fail, 扣底
multipliers; and a brute-force check that the follow lists are exactly the
plays ``follow_error`` accepts.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from cardhall.cards import ACE, FIVE, SEVEN, TEN, THREE, TWO, deck, format_cards, parse_cards
from cardhall.rules.trick import (
    TRUMP,
    TrickError,
    beatable_units,
    bottom_multiplier,
    decompose,
    failed_throw,
    lead_of,
    level_index,
    level_rank,
    play_rank,
    points,
    safe_throws,
    trick_winner,
    trumps,
)
from cardhall.rules.trick_follow import (
    cheapest_follow,
    cost,
    follow_error,
    follow_refusal,
    follows,
    leads,
    lowest_cards,
)

S, H, C, D = range(4)


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


# -- order ---------------------------------------------------------------------------------

# Trumps high → low; "=" joins cards of equal rank (the off-suit level cards).
TRUMP_ORDER = [
    (TWO, S, "D X 2s 2h=2c=2d As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s"),
    (SEVEN, H, "D X 7h 7s=7c=7d Ah Kh Qh Jh Th 9h 8h 6h 5h 4h 3h 2h"),
    (ACE, D, "D X Ad As=Ah=Ac Kd Qd Jd Td 9d 8d 7d 6d 5d 4d 3d 2d"),
    (TEN, C, "D X Tc Ts=Th=Td Ac Kc Qc Jc 9c 8c 7c 6c 5c 4c 3c 2c"),
    (FIVE, S, "D X 5s 5h=5c=5d As Ks Qs Js Ts 9s 8s 7s 6s 4s 3s 2s"),
]
SIDE_ORDER = [
    (TWO, S, "Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h"),
    (SEVEN, H, "As Ks Qs Js Ts 9s 8s 6s 5s 4s 3s 2s"),
    (ACE, D, "Kc Qc Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c"),
]


@pytest.mark.parametrize(("level", "suit", "order"), TRUMP_ORDER + SIDE_ORDER)
def test_card_order(level: int, suit: int, order: str) -> None:
    """Each listed card ranks strictly below the one before it, equal across '='; every one
    of a row is in one group, and the steps are adjacent (no gaps: ℓ is removed)."""
    ctx = trumps(level, suit)
    ranks = [[parse_cards(t)[0] for t in tier.split("=")] for tier in order.split()]
    groups = {ctx.group[c] for tier in ranks for c in tier}
    assert len(groups) == 1
    steps = [{ctx.step[c] for c in tier} for tier in ranks]
    assert all(len(s) == 1 for s in steps), "equal cards share a step"
    flat = [s.pop() for s in steps]
    assert flat == list(range(flat[0], flat[0] - len(flat), -1)), flat


def test_every_trump_counted() -> None:
    """54 trumps in three packs for any context: 13 T cards + 3 off-suit ℓ + 2 jokers, ×3."""
    for level in range(13):
        for suit in range(4):
            ctx = trumps(level, suit)
            assert sum(ctx.is_trump(c) for c in deck(3)) == 54


def test_level_index_round_trips() -> None:
    assert [level_index(r) for r in (TWO, 0, ACE)] == [0, 1, 12]
    assert all(level_rank(level_index(r)) == r for r in range(13))


def test_points() -> None:
    assert points(cards("5s Th Kd Ks 5c X D As 2h")) == 5 + 10 + 10 + 10 + 5
    assert points(deck(3)) == 300


# -- units ---------------------------------------------------------------------------------

UNITS = [
    # level, trump, cards, the canonical units (kind letter: s single, p pair, t tractor)
    (SEVEN, H, "6s 6s 8s 8s", ["t:6s 6s 8s 8s"]),  # ℓ = 7 leaves ♠: 6 and 8 adjacent
    (SEVEN, S, "6s 6s 8s 8s", ["t:6s 6s 8s 8s"]),  # in trump too
    (SEVEN, S, "7s 7s 8s 8s", ["p:7s 7s", "p:8s 8s"]),  # T-ℓ is far above T-8
    (SEVEN, H, "Ah Ah 7s 7s", ["t:7s 7s Ah Ah"]),  # plain top → off-suit ℓ
    (SEVEN, H, "7s 7s 7h 7h", ["t:7s 7s 7h 7h"]),  # off-suit ℓ → T-ℓ
    (SEVEN, H, "7h 7h X X", ["t:7h 7h X X"]),  # T-ℓ → SJ
    (SEVEN, H, "X X D D", ["t:X X D D"]),  # SJ → BJ
    (SEVEN, H, "Ah Ah 7s 7s 7h 7h X X D D", ["t:7s 7s 7h 7h Ah Ah X X D D"]),
    (SEVEN, H, "7s 7s 7c 7c", ["p:7s 7s", "p:7c 7c"]),  # equal, not adjacent
    (SEVEN, H, "Kh Kh 7s 7s", ["p:7s 7s", "p:Kh Kh"]),  # K is not the plain top
    (SEVEN, H, "Ah Ah 7s 7s 7c 7c 7h 7h", ["t:7s 7s 7h 7h Ah Ah", "p:7c 7c"]),
    (ACE, D, "Kd Kd As As", ["t:Kd Kd As As"]),  # ℓ = A: T-K is the plain top
    (TWO, H, "3h 3h 4h 4h", ["t:3h 3h 4h 4h"]),
    (THREE, H, "2s 2s 4s 4s", ["t:4s 4s 2s 2s"]),  # ℓ = 3 leaves ♠: 2 and 4 adjacent
    (SEVEN, H, "5s 5s 6s 6s 8s 8s 9s 9s Ts Ts", ["t:5s 5s 6s 6s 8s 8s 9s 9s Ts Ts"]),
    (SEVEN, H, "6s 6s 6s", ["p:6s 6s", "s:6s"]),  # no triples (Ruling 6)
    (SEVEN, H, "7s 7c", ["s:7s", "s:7c"]),  # off-suit ℓ of two suits: no pair
    (TWO, C, "3s 3s 4s 4s 9s 9s Ts Ts Js Js As",
     ["t:9s 9s Ts Ts Js Js", "t:3s 3s 4s 4s", "s:As"]),  # longest first
]


@pytest.mark.parametrize(("level", "suit", "text", "expected"), UNITS)
def test_units(level: int, suit: int, text: str, expected: list[str]) -> None:
    got = [f"{u.kind[0]}:{u.text}" for u in decompose(cards(text), trumps(level, suit))]
    assert got == expected


@pytest.mark.parametrize("text", ["6s 6s 7s 7s", "7s 7s 8s 8s", "As Ah", "As As 7h 7h", ""])
def test_mixed_groups_make_no_unit(text: str) -> None:
    """♠77 is trump with ℓ = 7 and T = ♥, so it never joins ♠ side cards."""
    with pytest.raises(TrickError):
        lead_of(cards(text), trumps(SEVEN, H))


# -- following -----------------------------------------------------------------------------

L2H = (TWO, H)  # level 2, hearts trump: ♠ ♣ ♦ are side suits
L7H = (SEVEN, H)
FOLLOW = [
    # (level, trump), lead, hand, play, None or a piece of the reason
    (L2H, "As", "3s 4h", "4h", "all your 1 ♠ card"),
    (L2H, "As", "3s 4h", "3s", None),
    (L2H, "As", "4h 5c", "5c", None),  # void: anything
    (L2H, "As", "4h 5c", "4h", None),  # void: trump
    (L2H, "As As", "3s 4h 5c", "4h 5c", "all your 1 ♠ card"),
    (L2H, "As As", "3s 4h 5c", "3s 5c", None),  # short: all of ♠, then anything
    (L2H, "As As", "3s 4s 9s 9s", "3s 4s", "1 pair"),
    (L2H, "As As", "3s 4s 9s 9s", "9s 9s", None),
    (L2H, "As As", "3s 4s 9s", "3s 9s", None),  # no pair: any two ♠
    (L2H, "As As", "3s 3s 3s 9s", "3s 3s", None),  # three copies hold one pair
    (L2H, "As As", "3s 3s 3s 9s", "3s 9s", "1 pair"),
    (L2H, "Ks Ks Qs Qs", "5s 5s 6s 6s 9s 9s", "5s 5s 9s 9s", "tractor of 2"),
    (L2H, "Ks Ks Qs Qs", "5s 5s 6s 6s 9s 9s", "5s 5s 6s 6s", None),
    (L2H, "Ks Ks Qs Qs", "5s 5s 9s 9s 3s", "5s 5s 9s 9s", None),  # no tractor: pairs
    (L2H, "Ks Ks Qs Qs", "5s 5s 9s 9s 3s", "5s 5s 9s 3s", "2 pairs"),
    (L2H, "Ks Ks Qs Qs", "5s 5s 9s 3s 4s", "5s 5s 9s 3s", None),
    (L2H, "Ks Ks Qs Qs", "5s 5s 9s 3s 4s 4h", "9s 3s 4s 4h", "you still hold ♠"),
    (L2H, "Ks Ks Qs Qs", "5s 5s 6s 6s 7s 7s", "5s 5s 7s 7s", "tractor of 2"),
    (L2H, "Ks Ks Qs Qs", "5s 5s 6s 6s 7s 7s", "6s 6s 7s 7s", None),  # part of a longer one
    # lead tractor of 3: only a 2-tractor held, so it and then a pair are owed
    (L2H, "Ks Ks Qs Qs Js Js", "5s 5s 6s 6s 9s 9s 3s 4s", "5s 5s 6s 6s 9s 9s", None),
    (L2H, "Ks Ks Qs Qs Js Js", "5s 5s 6s 6s 9s 9s 3s 4s", "5s 5s 6s 6s 9s 3s", "3 pairs"),
    (L2H, "Ks Ks Qs Qs Js Js", "5s 5s 6s 6s 9s 9s 3s 4s", "5s 5s 9s 9s 3s 4s", "tractor of 2"),
    # a throw of tractors 3 + 2: a 5-tractor must give both (best vector (3, 2))
    (L2H, "As As Ks Ks Qs Qs 9s 9s 8s 8s", "3s 3s 4s 4s 5s 5s 6s 6s 7s 7s Js",
     "3s 3s 4s 4s 5s 5s 6s 6s 7s 7s", None),
    (L2H, "As As Ks Ks Qs Qs 9s 9s 8s 8s", "3s 3s 4s 4s 5s 5s 6s 6s 7s 7s Js",
     "3s 3s 4s 4s 5s 5s 6s 6s 7s Js", "tractor of 2"),
    # trumps are one suit: ℓ cards and jokers follow a trump lead
    (L7H, "3h 3h", "7s 7s 4h 9c", "4h 9c", "you still hold trumps"),
    (L7H, "3h 3h", "7s 7s 4h 9c", "7s 4h", "1 pair"),
    (L7H, "3h 3h", "7s 7s 4h 9c", "7s 7s", None),
    (L7H, "3h", "X 9c", "9c", "all your 1 trump first"),
    (L7H, "3h", "X 4h 9c", "9c", "you still hold trumps"),
    (L7H, "7s 7s 7h 7h", "Ah Ah 7c 7c 3h 2c", "Ah Ah 7c 7c", None),  # trump tractor answered
    (L7H, "7s 7s 7h 7h", "Ah Ah 7c 7c 3h 2c", "Ah Ah 7c 3h", "tractor of 2"),
    (L2H, "As", "3s", "3s 3s", "with 1 card, not 2"),
]


@pytest.mark.parametrize(("ctx", "lead", "hand", "play", "reason"), FOLLOW)
def test_follow_obligations(ctx: tuple[int, int], lead: str, hand: str, play: str,
                            reason: str | None) -> None:
    t = trumps(*ctx)
    got = follow_error(lead_of(cards(lead), t), cards(hand), cards(play), t)
    if reason is None:
        assert got is None
    else:
        assert got is not None and reason in got, got
    listed, complete = follows(lead_of(cards(lead), t), cards(hand), t)
    assert complete
    assert (cards(play) in listed) == (reason is None)


#: Each refusal of FOLLOW by its text, and the reason code it must carry.
FOLLOW_CODES = [("tractor of", "must_follow_tractor"), ("pair", "must_follow_pair"),
                ("still hold", "must_follow_suit"), ("all your", "must_play_all_suit"),
                ("card, not", "wrong_count")]


@pytest.mark.parametrize(("ctx", "lead", "hand", "play", "reason"),
                         [row for row in FOLLOW if row[-1] is not None])
def test_follow_refusals_carry_their_reason_code(ctx: tuple[int, int], lead: str, hand: str,
                                                 play: str, reason: str) -> None:
    """The 找朋友 follow rules each refuse with their own code (games.reasons renders it);
    the English text is follow_error's."""
    from cardhall.games.reasons import LANGUAGES, render  # noqa: PLC0415 (games above rules)

    t = trumps(*ctx)
    got = follow_refusal(lead_of(cards(lead), t), cards(hand), cards(play), t)
    assert got is not None
    assert got.text == follow_error(lead_of(cards(lead), t), cards(hand), cards(play), t)
    assert got.reason == next(code for words, code in FOLLOW_CODES if words in got.text)
    for language in LANGUAGES:
        assert render(got.reason, dict(got.params), language)


def _brute_force(lead_cards: tuple[int, ...], hand: tuple[int, ...], level: int,
                 suit: int) -> set[tuple[int, ...]]:
    t = trumps(level, suit)
    lead = lead_of(lead_cards, t)
    return {tuple(sorted(p)) for p in itertools.combinations(hand, lead.size)
            if follow_error(lead, hand, tuple(sorted(p)), t) is None}


def _random_case(rng: random.Random) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """A trump suit, a lead (a unit of a random leader's hand, or two units: a throw) and a
    follower's hand, from a few faces that make tractors with ℓ = 7 (♠ 5 6 8 9 T; trump
    ♥A → off-suit 7 → ♥7 → jokers)."""
    pool = list(parse_cards("5s 6s 8s 9s Ts Js 7c 7s 7h 2h Ah X D 9d 4s"))
    suit = rng.choice([H, S])
    t = trumps(SEVEN, suit)
    hand = tuple(sorted(f for f in rng.sample(pool, 8) for _ in range(rng.choice([1, 2, 2, 3]))))
    leader = tuple(sorted(f for f in rng.sample(pool, 9) for _ in range(rng.choice([2, 3]))))
    units = leads(leader, t)
    first = rng.choice(units)
    more = [u for u in units if t.group[u[0]] == t.group[first[0]] and not set(u) & set(first)]
    lead = first if not more or rng.random() < 0.4 else tuple(sorted(first + rng.choice(more)))
    return suit, lead, hand[:12]


def test_follow_lists_are_exactly_the_legal_follows() -> None:
    """Random hands rich in pairs against random leads (tractors and throws included): the
    list is the set of c-card plays follow_error accepts; the cheapest is among them."""
    rng = random.Random(4)
    shapes = Counter()
    for _ in range(250):
        suit, lead, hand = _random_case(rng)
        t = trumps(SEVEN, suit)
        if len(hand) < len(lead):
            continue
        led = lead_of(lead, t)
        shapes[bool(led.shape.tractors), led.is_throw] += 1
        listed, complete = follows(led, hand, t, limit=100_000)
        assert complete
        assert set(listed) == _brute_force(lead, hand, SEVEN, suit), (lead, hand)
        best = cheapest_follow(led, hand, t)
        assert best in listed
        assert cost(best, t) == min(cost(p, t) for p in listed)
    assert min(shapes.values()) >= 10, shapes  # every kind of lead was tried


def test_long_follow_lists_sample_and_keep_the_cheapest() -> None:
    """A void follower of a 3-pair tractor has C(31, 6)-ish choices: a sample is given."""
    t = trumps(TWO, H)
    lead = lead_of(cards("Ks Ks Qs Qs Js Js"), t)
    hand = cards("3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 3d 4d 5d 6d 7d 8d 9d Td 3h 4h 5h 6h")
    listed, complete = follows(lead, hand, t, limit=50, rng=random.Random(1))
    assert not complete and len(listed) == 50
    assert cheapest_follow(lead, hand, t) in listed
    assert all(follow_error(lead, hand, p, t) is None for p in listed)


# -- winning -------------------------------------------------------------------------------

WINNER = [
    # (level, trump), plays in order (the first leads), index of the winner
    (L2H, ["Ks", "As", "Qs", "3h", "Ad"], 3),  # a trump beats the side suit
    (L2H, ["Ks", "As", "Qs", "5d", "Ad"], 1),  # else the highest of the led suit
    (L2H, ["Ks", "Ks", "Qs", "5d", "Ad"], 0),  # identical: the first played
    (L2H, ["As As", "3h 3h", "5h 6h", "4h 4h", "3h 3h"], 3),  # trump pair beats; singles don't
    (L2H, ["As As", "2c 2c", "2d 2d", "Kd Kd", "Ks Qs"], 1),  # equal trump pairs: first
    (L2H, ["Ks Ks Qs Qs", "3h 3h 5h 5h", "4s 4s 5s 5s", "3s 4s 5s 6s", "2d 3d 4d 5d"], 0),
    (L2H, ["Ks Ks Qs Qs", "6h 6h 8h 8h", "3h 3h 4h 4h", "Ah Ah 2s 2s", "2d 3d 4d 5d"], 3),
    (L2H, ["As As Qs Qs", "3h 3h 4h 4h", "2d 2d 3d 3d", "3s 4s 5s 6s", "7c 8c 9c Tc"], 1),
    (L2H, ["As Ks", "3h 4h", "5h 3h", "Ah 2s", "2c 3c"], 3),  # throw of singles: highest trump
    (L2H, ["2s", "2c", "2d", "2h", "D"], 4),  # trump lead: off-suit ℓ equal, T-ℓ, BJ
    (L2H, ["2s", "2c", "2d", "Ah", "3h"], 0),  # off-suit level cards tie: first played
    (L2H, ["3h", "2s", "X", "D", "Ah"], 3),
    (L2H, ["Ks", "Kh", "Ks", "As", "3s"], 1),
    (L2H, ["As Ks", "3h 4c", "Ah Ah", "5s 6s", "4s 7s"], 2),  # a pair answers two singles
]


@pytest.mark.parametrize(("ctx", "plays", "winner"), WINNER)
def test_trick_winner(ctx: tuple[int, int], plays: list[str], winner: int) -> None:
    assert trick_winner([cards(p) for p in plays], trumps(*ctx)) == winner


def test_a_trump_play_needs_the_lead_structure() -> None:
    t = trumps(TWO, H)
    lead = lead_of(cards("Ks Ks Qs Qs 9s"), t)  # a tractor and a single (a throw)
    assert play_rank(cards("3h 3h 4h 4h 5h"), lead, t) == (1, 1)
    assert play_rank(cards("3h 3h 6h 6h 5h"), lead, t) is None  # two pairs, no tractor
    assert play_rank(cards("3h 3h 4h 4h 5c"), lead, t) is None  # not all trump
    assert play_rank(cards("Ks Ks Qs Qs 9s"), lead, t) == (0, 10)  # K: step 10 with ℓ = 2


# -- throws --------------------------------------------------------------------------------

THROWS = [
    # lead (level 2, hearts trump), other hands, None if it holds, else the forced unit
    ("As Ks", ["Qs Js", "3h", "9s 9s"], None),
    ("As Ks", ["Qs As", "3h", "9s 9s"], "Ks"),  # another A beats the single K
    ("As As Ks", ["Ks Ks Qs", "3h"], None),  # KK does not beat AA, and no A is left for K
    ("As As Ks", ["Ks Ks As", "3h"], "Ks"),
    ("Qs Qs Js Js As", ["Ks Ks As As", "3h"], "Js Js Qs Qs"),  # a higher tractor
    ("Qs Qs Js Js As", ["Ks Ks 9s 9s", "3h"], None),  # pairs are not a tractor
    ("9s 9s 9s", ["Ts Ts"], "9s"),  # pair and single both beaten: the single first
    ("9s 9s 9s", ["Ts"], "9s"),
    ("Qs Ks", ["3h 4h 5h", "As"], "Qs"),  # the lowest beatable unit
    ("As", ["2s 2s 2s"], None),  # one unit is no throw
    ("Ah Ah X", ["D 3h"], "X"),  # trump throws too: BJ beats SJ
    ("2c 2c 2s", ["2d 2d", "2h"], "2s"),  # T-ℓ beats the single; equal pairs do not
]


@pytest.mark.parametrize(("lead", "others", "forced"), THROWS)
def test_throws(lead: str, others: list[str], forced: str | None) -> None:
    t = trumps(TWO, H)
    unit = failed_throw(lead_of(cards(lead), t), [cards(o) for o in others], t)
    assert (None if unit is None else unit.text) == forced


def test_safe_throws_use_only_what_the_leader_has_seen() -> None:
    t = trumps(TWO, H)
    hand = cards("As As As Ks 3s 3d")
    unseen = sorted((Counter(deck(3)) - Counter(hand)).elements())
    assert safe_throws(hand, unseen, t) == [cards("As As As Ks")]  # 3s could be beaten
    # with two As unseen, K is beatable as far as the leader knows: no throw offered
    hand2 = cards("As Ks 3d")
    unseen2 = sorted((Counter(deck(3)) - Counter(hand2)).elements())
    assert safe_throws(hand2, unseen2, t) == []
    assert [u.text for u in beatable_units(lead_of(cards("As Ks"), t), [unseen2], t)] == ["Ks"]


# -- leads, 扣底, burial -------------------------------------------------------------------


def test_leads_list_singles_pairs_and_tractors() -> None:
    t = trumps(SEVEN, H)
    got = {format_cards(p) for p in leads(cards("6s 6s 8s 8s 9s 9s 7s 7s 7c 7c Ah Ah 2d"), t)}
    assert {"6s 6s 8s 8s", "8s 8s 9s 9s", "6s 6s 8s 8s 9s 9s",  # ♠ without ℓ
            "7s 7s Ah Ah", "7c 7c Ah Ah"} <= got  # either off-suit ℓ pair after the plain top
    assert "7s 7s 7c 7c" not in got  # equal steps
    assert len([p for p in got if len(p.split()) == 1]) == 7


@pytest.mark.parametrize(("play", "multiplier"), [
    ("As", 2), ("As Kd", 2), ("Qh Qh", 4), ("Qh Qh Qh", 4), ("3h 3h 4h 4h", 8),
    ("3h 3h 9h 9h", 8), ("3h 3h 4h 4h 5h 5h", 16)])
def test_bottom_multiplier(play: str, multiplier: int) -> None:
    """扣底: ×2^(1 + pairs in the winning last play); a tractor of t pairs counts t."""
    assert bottom_multiplier(cards(play)) == multiplier


def test_default_burial_is_lowest_non_trump_non_point() -> None:
    t = trumps(TWO, H)
    hand = cards("3s 4s 5s 6c 7d 8d Ts Ks 3h X 2c 9c")
    assert format_cards(lowest_cards(hand, t, 7)) == "3s 4s 5s 6c 7d 8d 9c"  # 5s: lowest other
    assert t.group[cards("2c")[0]] == TRUMP
