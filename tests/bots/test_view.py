"""What a bot reads from a view: sides as its roles say so far, plays from their text."""

from __future__ import annotations

from cardhall import bots
from cardhall.bots.view import ranks_of, read_view, reader, rule_set, sides
from cardhall.cards import parse_ranks, to_counts
from cardhall.rules.wild import HARD, PURE, SOFT
from tests.bots.scenario import ddz3


def _view(seat: int, roles: list[str | None]) -> dict[str, object]:
    return {"seat": seat, "roles": roles}


def test_sides_classic() -> None:
    roles: list[str | None] = ["landlord", "farmer", "farmer"]
    assert sides(_view(1, roles), 3) == (frozenset({2}), frozenset({0}))
    assert sides(_view(0, roles), 3) == (frozenset(), frozenset({1, 2}))
    assert sides(_view(0, [None, None]), 2) == (frozenset(), frozenset({1}))  # bidding


def test_sides_five_player_hidden_landlord() -> None:
    """A farmer knows the open landlord only; the hidden one is somewhere among the rest."""
    farmer: list[str | None] = ["landlord", None, "farmer", None, None]
    assert sides(_view(2, farmer), 5) == (frozenset(), frozenset({0}))
    revealed: list[str | None] = ["landlord", "farmer", "farmer", "landlord", "farmer"]
    assert sides(_view(2, revealed), 5) == (frozenset({1, 4}), frozenset({0, 3}))
    assert sides(_view(3, revealed), 5) == (frozenset({0}), frozenset({1, 2, 4}))


def test_sides_of_every_team_game() -> None:
    """保皇 and 找朋友 roles: the emperor's (dealer's) side against the rest."""
    baohuang: list[str | None] = ["rebel", "emperor", "rebel", "guard", "rebel"]
    assert sides(_view(3, baohuang), 5) == (frozenset({1}), frozenset({0, 2, 4}))
    before: list[str | None] = ["dealer", None, None, None, None]  # the friend not known:
    assert sides(_view(2, before), 5) == (frozenset(), frozenset({0, 1, 3, 4}))  # nor mine
    after: list[str | None] = ["dealer", "attacker", "friend", "attacker", "attacker"]
    assert sides(_view(1, after), 5) == (frozenset({3, 4}), frozenset({0, 2}))


def test_a_view_is_read_from_its_core_keys() -> None:
    """Hand from suited text, cards out from ``played``, the play to beat from ``table``."""
    state = ddz3({1: "3456789TTJJQQKKKA"}, "play 3", "play K")
    obs = state.observe(2)
    assert all(len(card) in (1, 2) for card in obs["hand"])
    view = read_view(obs, rule_set(obs))
    assert sum(view.hand) == 17 and view.played[0] == to_counts(parse_ranks("3"))
    assert view.played[1] == to_counts(parse_ranks("K"))
    assert view.trick is not None and view.trick.text == "K" and view.trick_seat == 1
    assert view.partners == frozenset({1}) and view.landlord == 0
    assert ranks_of(["Ts", "X", "D"]) == ranks_of("TXD") == ranks_of("TsXD") == (7, 13, 14)


def test_a_simultaneous_answer_is_chosen_bare_and_given_back_tagged() -> None:
    class First(bots.Bot):
        name = "first-test"

        def choose(self, observation: dict[str, object], legal: list[str]) -> str:
            assert legal == ["double", "no-double"]
            return legal[0]

    bot = First("ddz3", 1)
    view = {"variant": "ddz3", "legal": ["@1 double", "@1 no-double"], "legal_complete": True}
    assert bot.act(view) == "@1 double"


def test_wild_plays_read_from_their_text() -> None:
    """癞子 (wild 5): the stand-in text gives the reading, the wild count the bomb class."""
    read = reader("ddz3_laizi", 2)
    soft = read.read("3335=3333")
    assert (soft.kind, soft.tier, soft.cards) == ("bomb", SOFT, (0, 0, 0, 2))
    assert read.read("5555=5555").tier == PURE
    assert read.read("3333").tier == HARD
    plane = reader("ddz3_laizi", 0).read("33TT+45=TTTT+45")  # wild 3: two 3s stand for Ts
    assert (plane.kind, plane.key, plane.main) == ("four_single", 7, (0, 0, 7, 7))
