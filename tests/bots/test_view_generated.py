"""Generated plays (a list cut short): the index read once agrees with judging each play."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from cardhall.bots import planning
from cardhall.bots import view as bview
from cardhall.bots.planning import PlanningBot
from cardhall.bots.split import hands, sift
from cardhall.games.view import expand, judge
from tests.bots.scenario import random_views


def _incomplete_views(variant: str, games: int) -> list[dict[str, Any]]:
    return [obs for obs in random_views(variant, games) if not obs.get("legal_complete", True)]


@pytest.mark.parametrize("variant", ["ddz3_laizi", "ddz_emperor"])
def test_generated_plays_are_those_the_index_accepts(variant: str) -> None:
    views = _incomplete_views(variant, 6)
    assert views
    for obs in views:
        rs = bview.rule_set(obs)
        v = bview.read_view(obs, rs)
        index = obs["plays"]
        want = [p for p in rs.moves(v.hand, v.trick) if judge(index, bview._selection(p.cards))]
        assert bview.generated_plays(obs, v) == want
        texts = bview.generated(obs, v)
        assert list(texts.values()) == want
        assert all(t == "play " + bview.play_text(p) for t, p in texts.items())
        walk = sift.walk_of(index)
        assert walk is not None
        accepts = partial(sift.accepts, walk)
        listed = {sift.pack_cards(bview.ranks_of("".join(c))) for c in expand(index)}
        assert all(accepts(m) for m in listed)
        for m in sorted(listed)[:150]:  # near misses: one card more or less of a rank
            for r in range(15):
                unit = 1 << (6 * r)
                for other in (m + unit, m - unit if (m >> (6 * r)) & 63 else None):
                    if other:
                        assert accepts(other) == (other in listed), (m, r)


def test_the_planning_bot_answers_a_wildcard_lead_with_a_generated_play() -> None:
    for obs in _incomplete_views("ddz3_laizi", 3)[:20]:
        if obs.get("phase") != "play":
            continue
        bot = PlanningBot("ddz3_laizi", int(obs["seat"]))  # type: ignore[call-overload]
        answer = bot.act(obs)
        assert answer in bview.legal_texts(obs)


def test_a_wildcard_hands_plays_are_read_by_the_games_texts_and_not_kept() -> None:
    """A wildcard follow's plays are made afresh at each call: their texts are the game's
    own, and no table keeps them alive (every full collection would walk them)."""
    followed = 0
    for obs in random_views("ddz3_laizi", 4):
        if obs["phase"] == "play" and obs["table"] and obs.get("legal_complete", True):
            rs = bview.rule_set(obs)
            v = bview.read_view(obs, rs)
            before = len(bview._TEXTS)
            texts = bview.legal_plays(obs, v)
            followed += sum(1 for t in texts if t != "pass") > 8
            assert len(bview._TEXTS) == before
            assert set(texts) == set(obs["legal"])
            assert all(p is None or t == "play " + bview.play_text(p) for t, p in texts.items())
    assert followed


def test_a_planning_bot_is_made_with_its_tables_built() -> None:
    planning._WARMED.discard("ddz4")
    hands._WARM.difference_update({k for k in hands._WARM if k.startswith("ddz4")})
    PlanningBot("ddz4", 0)
    assert "ddz4" in planning._WARMED
    built = {k for k in hands._WARM if k.startswith("ddz4")}
    assert built == {"ddz4", "ddz4/mirror", "ddz4/mirror/any"}
