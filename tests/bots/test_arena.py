"""The arena's bookkeeping: duplicate deals, swapped sides, rotation, and the interval math."""

from __future__ import annotations

import json
import math

import pytest

from cardhall import arena, cli
from cardhall.games import IllegalAction, new_game

#: Every ddz3 game here is scored from its games.view.Result.


def test_both_sides_play_the_same_cards() -> None:
    games = [g for d in range(3) for g in arena.play_deal("ddz3", ("planning", "tuoguan"), d,
                                                           seed=40, fixed_landlord=True)]
    assert len(games) == 6
    for d in range(3):
        first, second = (g for g in games if g.deal == d)
        assert first.cards == second.cards  # the same deal, twice
        assert (first.side, second.side) == ("landlord", "farmers")
        assert first.seats == (d % 3,)  # A holds the rotating landlord seat, then the others
        assert set(second.seats) == {0, 1, 2} - {d % 3}
    assert len({g.cards for g in games}) == 3  # and a new deal each time


def test_zero_sum_totals_and_wins() -> None:
    for g in arena.play_deal("ddz3", ("planning", "random"), 0, seed=1, fixed_landlord=True):
        assert g.win == (1.0 if g.score > 0 else 0.0 if g.score < 0 else 0.5)


def test_hidden_landlord_joins_the_landlord_side() -> None:
    """五人斗地主 with a fixed open landlord: bot A holds both landlord seats when two exist."""
    games = arena.play_deal("ddz5", ("planning", "tuoguan"), 0, seed=3, fixed_landlord=True)
    assert games[0].side == "landlord" and 1 <= len(games[0].seats) <= 2
    assert set(games[0].seats) | set(games[1].seats) == set(range(5))


def test_zhaopengyou_fixes_the_dealer() -> None:
    """找朋友: --fixed-landlord is the dealer option; A deals first, then B, on the same cards."""
    games = arena.play_deal("zhaopengyou", ("planning", "tuoguan"), 2, seed=5,
                            fixed_landlord=True)
    assert [g.side for g in games] == ["dealer", "others"]
    assert games[0].seats == (2,) and set(games[1].seats) == {0, 1, 3, 4}
    assert games[0].cards == games[1].cards and not any(g.abandoned for g in games)
    summary = arena.run("zhaopengyou", ["planning", "tuoguan"], deals=1, fixed_landlord=True)
    assert "(2 games, fixed dealer)" in arena.describe(summary)


def test_house_options_reach_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    summary = arena.run("baohuang", ["planning", "tuoguan"], deals=1, seed=2,
                        options={"mode": "simple"})
    assert summary["options"] == {"mode": "simple"} and summary["games"] == 2
    assert "(2 games, with bidding, mode=simple)" in arena.describe(summary)
    with pytest.raises(IllegalAction, match="mode"):
        arena.run("baohuang", ["planning", "tuoguan"], deals=1, options={"mode": "nonesuch"})
    assert cli.main(["arena", "baohuang", "--bots", "planning,tuoguan", "--deals", "1",
                     "--option", "mode=simple", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"mode": "simple"}


@pytest.mark.parametrize("seed", [0, 1])
def test_dealt_roles_seat_and_label_by_side(seed: int) -> None:
    """五人斗地主 without a fixed landlord: the deal gives the roles (seed 0 deals an open and
    a hidden landlord, seed 1 a single landlord), so A plays the landlord's side as dealt,
    then the farmers, and each game is labelled by the side A's seats played."""
    dealt = arena.landlord_side(new_game("ddz5", seed=seed))
    assert dealt is not None and len(dealt) == (2 if seed == 0 else 1)
    games = arena.play_deal("ddz5", ("planning", "tuoguan"), 0, seed=seed)
    assert [g.side for g in games] == ["landlord", "farmers"]
    assert list(games[0].seats) == dealt
    assert set(games[1].seats) == set(range(5)) - set(dealt)
    summary = arena.run("ddz5", ["planning", "tuoguan"], deals=1, seed=seed)
    assert set(summary["results"]["planning"]["by_side"]) == {"landlord", "farmers"}


def test_the_landlord_side_comes_from_the_seats_own_roles() -> None:
    """Before play, with the landlord fixed: every seat's view names its own role."""
    state = new_game("ddz3", seed=2, options={"landlord": 1})
    assert arena.landlord_side(state) == [1]
    assert arena.landlord_side(new_game("ddz3", seed=2)) is None  # bidding: no roles yet


def test_summary_counts_both_bots() -> None:
    games = [arena.Game(0, "landlord", 2.0, 1.0), arena.Game(0, "farmers", -2.0, 0.0),
             arena.Game(1, "landlord", -4.0, 0.0), arena.Game(1, "farmers", 2.0, 1.0),
             arena.Game(2, "landlord", 2.0, 1.0), arena.Game(2, "farmers", 0.0, 0.5)]
    out = arena.summarise(games, ("a", "b"))
    a, b = out["results"]["a"], out["results"]["b"]
    assert a["win_rate"] == pytest.approx(3.5 / 6, abs=1e-4)
    assert b["win_rate"] == pytest.approx(2.5 / 6, abs=1e-4)
    assert a["points_per_game"] == 0.0 and b["points_per_game"] == 0.0
    assert a["by_side"]["landlord"]["win_rate"] == pytest.approx(2 / 3, abs=1e-4)
    assert a["by_side"]["farmers"]["points_per_game"] == 0.0
    assert out["draws"] == 1


def test_interval_over_deals() -> None:
    """Per-deal means 0.5, 0.5, 0.75: mean 7/12, s.d. of the three, 1.96 s.e. each way."""
    mean, low, high = arena.mean_interval([0.5, 0.5, 0.75])
    sd = math.sqrt(((0.5 - 7 / 12) ** 2 * 2 + (0.75 - 7 / 12) ** 2) / 2)
    assert mean == pytest.approx(7 / 12)
    assert low == pytest.approx(7 / 12 - 1.959964 * sd / math.sqrt(3), abs=1e-5)
    assert high == pytest.approx(7 / 12 + 1.959964 * sd / math.sqrt(3), abs=1e-5)


def test_wilson_interval() -> None:
    """7 wins in 10: the Wilson 95% interval is [0.3968, 0.8922] (textbook value)."""
    low, high = arena.wilson(7, 10)
    assert (round(low, 4), round(high, 4)) == (0.3968, 0.8922)
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_interval_without_spread_falls_back_to_wilson() -> None:
    mean, low, high = arena.mean_interval([1.0, 1.0, 1.0, 1.0])
    assert mean == 1.0 and (low, high) == arena.wilson(4, 4)
    assert high == 1.0 and low < 1.0


def test_run_and_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    summary = arena.run("ddz3", ["planning", "tuoguan"], deals=2, seed=5, fixed_landlord=True)
    assert summary["games"] == 4 and summary["deals"] == 2
    assert cli.main(["arena", "ddz3", "--bots", "planning,tuoguan", "--deals", "2",
                     "--seed", "5", "--fixed-landlord", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["results"] == summary["results"]
    assert cli.main(["arena", "ddz3", "--bots", "planning,tuoguan", "--deals", "1"]) == 0
    assert "win rate" in capsys.readouterr().out


def test_bad_requests() -> None:
    with pytest.raises(IllegalAction, match="fixed landlord or dealer"):
        arena.run("baohuang", ["planning", "tuoguan"], deals=1, fixed_landlord=True)
    assert cli.main(["arena", "ddz3", "--bots", "planning", "--deals", "1"]) == 2
    assert cli.main(["arena", "ddz3", "--bots", "planning,nobody", "--deals", "1"]) == 2
    assert cli.main(["arena", "baohuang", "--bots", "planning,tuoguan", "--deals", "1",
                     "--option", "mode=nonesuch"]) == 2
