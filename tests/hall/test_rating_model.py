"""The rating update (hall.domain.ratings): openskill's Plackett-Luce over the game's
teams; identical results leave identical ratings; the displayed number and the
provisional mark."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardhall.games import new_game, standing
from cardhall.games.sides import Standing
from cardhall.hall.domain.ratings import (
    BASE,
    MODEL,
    PROVISIONAL_GAMES,
    Skill,
    bot_name,
    bot_subject,
    rate,
)

#: A game: seats 0..n-1, the first ``k`` seats one team, and which team won (None: draw).
games = st.tuples(st.integers(2, 5), st.integers(1, 4), st.sampled_from([0, 1, None]))


def _standing(n: int, k: int, won: int | None) -> Standing:
    k = min(k, n - 1)
    teams = (tuple(range(k)), tuple(range(k, n)))
    ranks = (1, 1) if won is None else ((1, 2) if won == 0 else (2, 1))
    return Standing(teams, ranks)


def _play(history: list[tuple[int, int, int | None]], order: list[str]) -> dict[str, Skill]:
    """Play ``history`` with the subjects seated in ``order``'s rotation each game."""
    skills: dict[str, Skill] = {}
    for i, (n, k, won) in enumerate(history):
        seats = [order[(i + j) % len(order)] for j in range(n)]
        if len(set(seats)) < n:
            continue
        skills.update(rate(seats, skills, _standing(n, k, won)))
    return skills


@settings(max_examples=60, deadline=None)
@given(st.lists(games, max_size=25))
def test_identical_results_leave_identical_ratings(history: list[tuple[int, int, int | None]]
                                                   ) -> None:
    """Two players who always sit side by side on one team, from the same start, end
    with the same rating; and the same games played again give the same ratings."""
    skills: dict[str, Skill] = {}
    for n, size, won in history:
        if n == 2:  # one a side: the twins cannot share a team
            continue
        seats = ["twin-a", "twin-b", *[f"other-{j}" for j in range(n - 2)]]
        skills.update(rate(seats, skills, _standing(n, max(size, 2), won)))
    if "twin-a" in skills:
        assert skills["twin-a"] == skills["twin-b"]
    order = ["a", "b", "c", "d", "e"]
    assert _play(history, order) == _play(history, list(order))


@given(games)
def test_a_win_never_lowers_and_a_loss_never_raises(game: tuple[int, int, int | None]) -> None:
    n, k, won = game
    standing = _standing(n, k, won)
    seats = [f"p{j}" for j in range(n)]
    after = rate(seats, {}, standing)
    for team, rank in zip(standing.teams, standing.ranks, strict=True):
        for seat in team:
            mu = after[seats[seat]].mu
            if rank == 1 and won is not None:
                assert mu > Skill().mu
            elif rank == 2:
                assert mu < Skill().mu
            assert after[seats[seat]].games == 1


def test_a_landlord_alone_gains_more_than_each_farmer() -> None:
    """Unequal teams: the model expects two farmers to beat one landlord."""
    seats = ["lord", "f1", "f2"]
    lord = rate(seats, {}, Standing(((0,), (1, 2)), (1, 2)))["lord"].mu - Skill().mu
    farmer = rate(seats, {}, Standing(((0,), (1, 2)), (2, 1)))["f1"].mu - Skill().mu
    assert lord > farmer > 0


def test_display_and_provisional() -> None:
    assert Skill().display == BASE and Skill().provisional
    assert not Skill(games=PROVISIONAL_GAMES).provisional
    assert Skill(30.0, 2.0, 50).display == BASE + 40 * 5
    assert Skill(20.0, 8.0, 5).display == BASE - 40 * 5  # below a newcomer: lost more
    assert bot_name(bot_subject("search")) == "search" and bot_name("abc") is None


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 4), st.floats(1.0, MODEL.sigma), st.integers(6, 40), st.data())
def test_a_landlord_who_mostly_loses_ends_below_his_start(
        farmers: int, sigma: float, n: int, data: st.DataObject) -> None:
    """A team is rated by its members' mean: a newcomer who always sits alone against
    1 to 4 opponents of his own μ, and wins at most a third of n games in any order,
    ends below his start (summed, two farmers looked twice his strength, so each loss
    was expected and cost little, and a landlord at a 20% win rate climbed)."""
    wins = data.draw(st.lists(st.booleans(), min_size=n, max_size=n)
                     .filter(lambda w: 3 * sum(w) <= len(w)))
    seats = ["lord", *["bot"] * farmers]
    fixed = Skill(MODEL.mu, sigma, 50)
    me = Skill()
    for won in wins:
        game = Standing(((0,), tuple(range(1, farmers + 1))), (1, 2) if won else (2, 1))
        me = rate(seats, {"lord": me, "bot": fixed}, game)["lord"]
    assert me.mu < Skill().mu


@given(st.integers(1, 3), st.integers(1, 3))
def test_sides_of_equals_are_even_whatever_their_sizes(a: int, b: int) -> None:
    """A side's strength is its members' mean: equals' win and loss move each side's
    μ by the same total, so neither side's result is the expected one."""
    seats = [f"p{j}" for j in range(a + b)]
    teams = (tuple(range(a)), tuple(range(a, a + b)))
    won = rate(seats, {}, Standing(teams, (1, 2)))
    lost = rate(seats, {}, Standing(teams, (2, 1)))
    gain = won["p0"].mu - Skill().mu
    loss = Skill().mu - lost["p0"].mu
    assert abs(gain - loss) < 1e-9 and gain > 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("ddz2", 2), ("ddz3", 3), ("ddz4", 4), ("ddz5", 5)]), st.data())
def test_an_escape_never_costs_less_than_losing_the_game_played_out(
        game: tuple[str, int], data: st.DataObject) -> None:
    """Running once the landlord is known is rated as his side's loss: from the same
    ratings it costs him at least what losing with his side would (rated as the
    escaper alone against everyone, a farmer's run cost a fraction of his loss)."""
    variant, n = game
    seat, landlord = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    skill = st.builds(Skill, st.floats(10.0, 40.0), st.floats(1.0, MODEL.sigma),
                      st.integers(0, 100))
    seats = [f"p{j}" for j in range(n)]
    skills = {p: data.draw(skill) for p in seats}
    state = new_game(variant, seed=0, options={"landlord": landlord})
    state.apply(f"@{seat} leave")
    result = state.result()
    assert result is not None
    escape = standing(result)
    assert escape is not None and escape.escaped == seat
    lords = tuple(s for s in range(n) if state.side[s] == 0)  # 五人: the hidden one too
    farmers = tuple(s for s in range(n) if s not in lords)
    lost = Standing((lords, farmers), (2, 1) if seat in lords else (1, 2))
    ran = rate(seats, skills, escape)
    assert set(ran) == {seats[seat]}  # only the escaper moves
    assert ran[seats[seat]].mu <= rate(seats, skills, lost)[seats[seat]].mu + 1e-9


def test_one_against_one_is_openskills_own_update() -> None:
    """The mean of a team of one is its one member: 二人 (and every 1-v-1) moves exactly
    as openskill's Plackett-Luce moves it."""
    skills = {"a": Skill(27.0, 5.0, 3), "b": Skill(22.0, 3.0, 9)}
    ours = rate(["a", "b"], skills, Standing(((0,), (1,)), (2, 1)))
    theirs = MODEL.rate([[MODEL.create_rating([27.0, 5.0])], [MODEL.create_rating([22.0, 3.0])]],
                        ranks=[2, 1])
    assert (ours["a"].mu, ours["a"].sigma) == (theirs[0][0].mu, theirs[0][0].sigma)
    assert (ours["b"].mu, ours["b"].sigma) == (theirs[1][0].mu, theirs[1][0].sigma)
