"""``sift``: a decision's plays read in one pass, in C as in Python, as the policy read them.

The policy's candidates, a split group's play and the play going out are read
from ``sift``'s result (``Sifted``), and a wildcard lead's generated plays are
checked against the view's index there; the C pass (``_search_sift.c``) must
give the very same objects in the very same order as the Python one, on real
play lists of every climbing variant and on those lists shuffled (the readings
of one set of cards then come in other orders).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall import rules
from cardhall.bots import view as bview
from cardhall.bots.split import native, sift
from cardhall.bots.view import read_view, rule_set
from cardhall.cards import Counts, parse_ranks
from cardhall.games import VARIANTS
from cardhall.games.view import plays_index
from cardhall.rules import Play, RuleSet, wild
from cardhall.rules.wild import HARD, SOFT
from tests.bots.scenario import random_views

CLIMBING = [v.id for v in VARIANTS.values() if v.family == "climbing"]
pytestmark = pytest.mark.skipif(not native.BUILT, reason="the C loop is not built")


def _positions(variant: str, games: int) -> list[tuple[list[Play], object, int]]:
    """(plays, the view's index or None, the hand's size) at every play decision of random
    games."""
    out = []
    for obs in random_views(variant, games):
        if obs["phase"] == "play":
            view = read_view(obs, rule_set(obs))
            out.append((view.rs.moves(view.hand, view.trick), obs.get("plays"), sum(view.hand)))
    return out


def _both(plays: list[Play], walk: sift.Walk | None, total: int) -> None:
    c = native.sift(plays, walk, total, sift.KICKER_VARIANTS)
    python = sift._sift(plays, walk, total, sift.KICKER_VARIANTS)
    for got, want in zip(c[:2], python[:2], strict=True):  # kept, candidates: same objects
        assert len(got) == len(want)
        assert all(a is b for a, b in zip(got, want, strict=True))
    assert c[2].keys() == python[2].keys()
    assert all(c[2][k] is python[2][k] for k in c[2])
    assert c[3] is python[3]


@pytest.mark.parametrize("variant", CLIMBING)
def test_the_c_pass_is_the_python_one(variant: str) -> None:
    rng = random.Random(variant)
    positions = _positions(variant, 6 if variant == "ddz3_laizi" else 2)
    assert positions
    for plays, index, total in positions:
        walk = sift.walk_of(index) if isinstance(index, dict) else None
        _both(plays, walk, total)
        shuffled = list(plays)
        rng.shuffle(shuffled)
        _both(shuffled, walk, total)
        _both(shuffled, None, -1)


def test_a_wildcard_lead_holds_every_case_the_pass_tells_apart() -> None:
    """The laizi leads above (shuffled, as the comparison has them too) hold sets of cards
    read both as a bomb and not, groups of more kicker choices than are kept, and indexes:
    the comparison meets every branch."""
    rng = random.Random("ddz3_laizi")
    replaced = grouped = indexed = 0
    for plays, index, _total in _positions("ddz3_laizi", 3):
        indexed += index is not None
        first: dict[int, Play] = {}
        for p in rng.sample(plays, len(plays)):
            old = first.setdefault(sift.play_cards(p), p)
            replaced += bool(old.tier and not p.tier)
        kept = sift.sift(plays).candidates
        grouped += len(kept) < len(first)
    assert replaced and grouped and indexed


def _play(text: str, kind: str, key: int, tier: int = 0, kickers: str = "") -> Play:
    return Play(kind, key, 1, tuple(sorted(parse_ranks(text))), tuple(sorted(parse_ranks(kickers))),
                tier)


@pytest.mark.parametrize("use_c", [True, False])
def test_what_the_policy_reads(use_c: bool) -> None:
    bomb = _play("4444", "bomb", 1, SOFT)
    pairs = _play("4444", "pairs", 1)  # the same cards, not a bomb: it replaces the bomb
    later = _play("4444", "bomb", 1, HARD)  # a later reading: the set's last one
    trios = [_play("555", "trio", 2, kickers=k) for k in ("9", "3", "7", "6", "8")]
    whole_bomb = _play("55556", "bomb", 2, SOFT)  # illustrative readings of a whole hand
    whole_plain = _play("55556", "single", 2)
    plays = [bomb, *trios, pairs, later, whole_bomb, whole_plain]
    got = sift.sift(plays, total=5, use_c=use_c)
    assert list(got) == plays
    # One reading per set of cards, the first not a bomb; three kicker choices, lowest first.
    assert got.candidates == [pairs, trios[1], trios[3], trios[2], whole_plain]
    assert got.lasts[sift.pack_cards(parse_ranks("4444"))] is later
    assert got.whole is whole_plain  # going out with the lowest tier there is
    assert sift.sift(plays, total=3, use_c=use_c).whole is None
    assert sift.sift(got, total=5) is got  # read already
    assert sift.sift(got) is got


@pytest.mark.parametrize("use_c", [True, False])
def test_only_what_the_index_accepts_is_kept(use_c: bool) -> None:
    rs = rules.get("ddz3")
    hand = rs.hand("3345")
    plays = rs.moves(hand)
    # An index over ranks 3, 4, 5 accepting only 33 and 5 (count vectors over the labels).
    index = plays_index(["3", "4", "5"], [(2, 0, 0), (0, 0, 1)], [2, 1, 1])
    walk = sift.walk_of(index)
    assert walk is not None
    got = sift.sift(plays, walk, 4, use_c=use_c)
    assert sorted(p.text for p in got) == ["33", "5"]
    assert sift.walk_of({"labels": ["3s"], "nodes": [[], []], "root": 0}) is None


@pytest.mark.parametrize("use_c", [True, False])
@pytest.mark.parametrize("nodes, root", [([[], []], 7), ([[], [], 5], 2), ([[], [], [0, 9]], 2),
                                         ([[], [], [0, -1]], 2)])
def test_a_malformed_index_is_refused(use_c: bool, nodes: list[object], root: int) -> None:
    plays = rules.get("ddz3").moves(rules.get("ddz3").hand("3"))
    walk = (nodes, root, (0, 6), 63 | 63 << 6)  # two levels, ranks 3 and 4
    with pytest.raises(ValueError, match="malformed"):
        sift.sift(plays, walk, 1, use_c=use_c)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad, error", [
    ("not a play", AttributeError),
    (Play("single", 0, 1, (99,)), ValueError),
    (Play("single", 0, 1, [0]), TypeError),  # type: ignore[arg-type]
])
def test_the_c_pass_refuses_what_is_not_a_play(bad: object, error: type[Exception]) -> None:
    plays = [Play("single", 0, 1, (0,)), bad]
    with pytest.raises(error):
        native.sift(plays, None, 1, sift.KICKER_VARIANTS)  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(0, 2),
                          st.lists(st.integers(0, 5), max_size=3)), max_size=40),
       st.integers(-1, 6))
def test_any_list_reads_alike_in_c_and_python(spec: list[tuple[int, int, int, list[int]]],
                                               total: int) -> None:
    """Hand-built lists: few sets of cards, many readings of each, kickers in any order."""
    plays = [Play(("single", "pair", "trio")[kind], key, 1, (key,) * (kind + 1),
                  tuple(kickers), tier)
             for key, tier, kind, kickers in spec]
    _both(plays, None, total)


def _wild_leads(games: int) -> list[tuple[RuleSet, Counts, object]]:
    """(rules, hand, the view's plays index or None) of every lead holding wild cards."""
    out = []
    for obs in random_views("ddz3_laizi", games):
        if obs["phase"] == "play" and not obs["table"]:
            rs = rule_set(obs)
            view = read_view(obs, rs)
            assert rs.wild is not None
            if view.hand[rs.wild]:
                out.append((rs, view.hand, obs.get("plays")))
    return out


def test_a_wildcard_lead_read_from_its_blocks_is_read_as_from_its_plays() -> None:
    """``sift_blocks``: the same candidates, lasts and whole as ``sift`` of the plays
    ``spelt_moves`` makes of the same blocks, equal plays (natural ones the very same)."""
    leads = _wild_leads(8)
    assert sum(1 for *_, index in leads if index is not None) >= 3
    for rs, hand, index in leads:
        assert rs.wild is not None
        walk = sift.walk_of(index) if isinstance(index, dict) else None
        want = sift.sift(rs.moves(hand), walk, sum(hand))
        got = sift.sift_blocks(wild.blocks(rs, hand, rs.wild, None, spelt=False), rs.gen.play,
                               walk, sum(hand))
        assert not got.complete and got.total == sum(hand)
        assert got.candidates == want.candidates
        natural = {id(p) for p in want.candidates if p.as_main is None}
        assert natural == {id(p) for p in got.candidates if p.as_main is None}
        assert got.whole == want.whole
        assert len(got.lasts) == len(want.lasts) and set(got.lasts) == set(want.lasts)
        assert all(got.lasts[k] == p for k, p in want.lasts.items())
        assert got.lasts.get(sift.pack_cards([0] * 5)) is None  # five 3s: no such play
        assert sift.sift(got, total=sum(hand)) is got
        with pytest.raises(ValueError, match="not all of them"):
            sift.sift(got, total=sum(hand) + 1)


def test_the_planning_bot_reads_a_wildcard_lead_from_its_blocks_on_the_c_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for obs in random_views("ddz3_laizi", 6):
        if not obs.get("legal_complete", True) and not obs["table"]:
            rs = rule_set(obs)
            view = read_view(obs, rs)
            assert rs.wild is not None and view.hand[rs.wild]
            read = bview.read_plays(obs, view)
            assert isinstance(read, sift.Sifted) and not read.complete
            monkeypatch.setattr(native, "NATIVE", False)
            assert bview.read_plays(obs, view) == bview.generated_plays(obs, view)
            return
    raise AssertionError("no wildcard lead cut short in six games")


@pytest.mark.parametrize("bad", [[(1, 2, 3)], ["block"], [tuple(range(15))]])
def test_what_is_not_a_block_is_refused(bad: list[object]) -> None:
    play = rules.get("ddz3").gen.play
    with pytest.raises(TypeError, match="Block"):
        native.sift_blocks(bad, play, Play, None, 1, 3, (1, 2, 3))  # type: ignore[arg-type]


def test_a_way_no_block_has_is_refused() -> None:
    rs = rules.get("ddz3_laizi", wild="5")
    hand = rs.hand("55567")
    assert rs.wild is not None
    blocks = wild.blocks(rs, hand, rs.wild, None, spelt=False)
    with pytest.raises(ValueError, match="no such way"):
        native.block_play(blocks, len(blocks) << 31, rs.gen.play, Play)


_RANKS = st.lists(st.integers(0, 5), min_size=1, max_size=3).map(lambda r: tuple(sorted(r)))


@st.composite
def _blocks(draw: st.DrawFn) -> list[wild.Block]:
    """Blocks of few ranks, each with its natural way and others of 1-3 wild cards (rank
    5): many ways to the same cards, read as bombs and not, in any order."""
    out: list[wild.Block] = []
    for code in range(draw(st.integers(1, 8))):
        main, kicks = draw(_RANKS), draw(st.one_of(st.just(()), _RANKS))
        bomb = draw(st.booleans())
        mains = [(0, main, "")] + [(w, tuple(sorted(main[w:] + (5,) * w)), "")
                                   for w in draw(st.sets(st.integers(1, 3)))
                                   if w <= len(main)]
        kickers = [(0, kicks, "")] + [(w, tuple(sorted(kicks[w:] + (5,) * w)), "")
                                      for w in draw(st.sets(st.integers(1, 2)))
                                      if w <= len(kicks)]
        size = len(main) + len(kicks)
        out.append((code, "bomb" if bomb else "trio", main[-1], 1, draw(st.integers(0, 4)),
                    -1, main, kicks, tuple(draw(st.permutations(mains))),
                    tuple(draw(st.permutations(kickers))), draw(st.integers(0, 4)), size,
                    not kicks and draw(st.booleans()), bomb, ""))
    return out


@settings(max_examples=150, deadline=None)
@given(_blocks(), st.integers(1, 6))
def test_any_blocks_read_alike_from_their_ways_and_from_their_plays(
        blocks: list[wild.Block], total: int) -> None:
    naturals = {b[0]: Play(b[1], b[2], b[3], b[6], b[7], b[4], b[5]) for b in blocks}
    plays, _ = wild.realise(naturals.__getitem__, blocks, spelt=False)
    want = sift.sift(plays, None, total)
    got = sift.sift_blocks(blocks, naturals.__getitem__, None, total)
    assert got.candidates == want.candidates
    assert got.whole == want.whole
    assert set(got.lasts) == set(want.lasts)
    assert all(got.lasts[k] == p for k, p in want.lasts.items())
