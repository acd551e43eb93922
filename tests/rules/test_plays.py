"""``new_play`` (``rules.frozen.maker``) makes the same object ``Play(...)`` does: equal,
hashed, frozen, shown and pickled alike."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from cardhall import rules
from cardhall.rules import Play
from cardhall.rules.frozen import maker
from cardhall.rules.plays import new_play


def _plays() -> list[Play]:
    ddz = rules.get("ddz3")
    laizi = rules.get("ddz3_laizi", wild=4)  # W = 7
    hand = "3334445556777789TTJQKA2XD"
    return [*ddz.moves(hand), *laizi.moves(hand), *laizi.moves("77" + "34567")]


@pytest.mark.slow
def test_new_play_is_the_dataclass_play() -> None:
    plays = _plays()
    assert len(plays) > 1000
    assert any(p.as_main is not None for p in plays) and any(p.is_bomb for p in plays)
    for p in plays:
        fields = [getattr(p, f.name) for f in dataclasses.fields(Play)]
        made = new_play(*fields)
        plain = Play(*fields)
        assert type(made) is Play
        assert made == plain and hash(made) == hash(plain)
        assert repr(made) == repr(plain) and made.to_json() == plain.to_json()
        assert dataclasses.astuple(made) == dataclasses.astuple(plain)
        assert pickle.loads(pickle.dumps(made)) == plain and copy.deepcopy(made) == plain


def test_new_play_is_frozen() -> None:
    play = new_play("single", 0, 1, (0,), (), 0, -1, None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.key = 1  # type: ignore[misc]
    assert play == Play("single", 0, 1, (0,))


def test_maker_refuses_what_it_cannot_make_alike() -> None:
    """Only a dataclass with slots has a layout a blank object can share."""

    @dataclasses.dataclass(frozen=True)
    class Loose:
        a: int

    with pytest.raises(TypeError, match="slots=True"):
        maker(Loose)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Tight:
        a: int
        b: str = "x"

    made = maker(Tight)(1, "y")
    assert type(made) is Tight and made == Tight(1, "y") and hash(made) == hash(Tight(1, "y"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 2  # type: ignore[misc]
