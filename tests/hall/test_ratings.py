"""Skill ratings in the settlement, on both backends: moved once with the game's
settlement, never by a private game, only the escaper's by an escape; bots rated as
one identity each, a room's bot as itself; a player's ratings with history; the rating
board; a replay's changes read back by seat."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select

from cardhall.games.sides import Standing
from cardhall.hall.domain.config import Economy, HallConfig
from cardhall.hall.domain.ratings import OVERALL, PROVISIONAL_GAMES, Skill, bot_subject
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.service import Hall
from cardhall.hall.store import accounts, game_rows
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Rating, RatingEntry
from cardhall.hall.store.ratings import Rated, board, of_game, ratings_of
from cardhall.protocol.messages import Join
from tests.hall.test_tables import Inbox, guest, play_to_end, room

LANDLORD_WINS = Standing(((0,), (1, 2)), (1, 2))
BOT = bot_subject("planning")


async def _players(db: Database, economy: Economy, n: int = 3) -> list[str]:
    return [(await accounts.create_guest(db, economy)).player.id for _ in range(n)]


async def _settle(db: Database, players: list[str | None], standing: Standing, *,
                  private: bool = False, reason: str = "game",
                  bot: str = BOT) -> game_rows.Settlement:
    gid = await game_rows.create_game(db, table_id="t1", room_id="r", variant="ddz3",
                                      players=players, seed=7, private=private)
    humans = [p for p in players if p is not None]
    subjects = [p if p is not None else bot for p in players]
    return await game_rows.settle_game(
        db, gid, dict.fromkeys(humans, 0), dict.fromkeys(humans, 0), "ddz3",
        rated=Rated(subjects, standing), reason=reason)


async def _rows(db: Database, model: type[Rating] | type[RatingEntry]) -> int:
    async with db.read() as s:
        return int(await s.scalar(select(func.count()).select_from(model)) or 0)


async def test_a_settlement_moves_ratings_once_also_when_tried_again(
        db: Database, economy: Economy) -> None:
    p = await _players(db, economy)
    gid = await game_rows.create_game(db, table_id="t1", room_id="r", variant="ddz3",
                                      players=p, seed=7)
    rated = Rated(p, LANDLORD_WINS)
    first, *again = await asyncio.gather(*(game_rows.settle_game(
        db, gid, dict.fromkeys(p, 0), dict.fromkeys(p, 0), "ddz3", rated=rated)
        for _ in range(3)))
    done = [first, *again]
    assert sorted(s.applied for s in done) == [False, False, True]
    applied = next(s for s in done if s.applied)
    assert applied.ratings["0"].after > applied.ratings["0"].before == Skill().display
    assert applied.ratings["1"].after < applied.ratings["1"].before
    assert applied.ratings["1"] == applied.ratings["2"]  # the two farmers alike
    assert all(s.ratings == applied.ratings for s in done)  # read back when not applied
    assert await _rows(db, RatingEntry) == 6 and await _rows(db, Rating) == 6
    mine = await ratings_of(db, p[0])
    assert set(mine) == {OVERALL, "ddz3"}
    assert mine["ddz3"]["games"] == 1 and mine["ddz3"]["provisional"]
    assert [h["rating"] for h in mine["ddz3"]["history"]] == [applied.ratings["0"].after]
    assert mine[OVERALL]["rating"] == mine["ddz3"]["rating"]


async def test_a_private_game_moves_no_rating(db: Database, economy: Economy) -> None:
    p = await _players(db, economy)
    done = await _settle(db, list(p), LANDLORD_WINS, private=True)
    assert done.applied and done.ratings == {}
    assert await _rows(db, RatingEntry) == 0
    assert await ratings_of(db, p[0]) == {}


async def test_an_escape_moves_the_escaper_only(db: Database, economy: Economy) -> None:
    p = await _players(db, economy)
    done = await _settle(db, list(p), Standing(((0, 2), (1,)), (1, 2), escaped=1),
                         reason="escape")
    assert set(done.ratings) == {"1"}
    assert done.ratings["1"].after < done.ratings["1"].before
    assert await ratings_of(db, p[0]) == {} and set(await ratings_of(db, p[1])) == {
        OVERALL, "ddz3"}


async def test_bots_are_one_identity_each(db: Database, economy: Economy) -> None:
    (p,) = await _players(db, economy, 1)
    done = await _settle(db, [p, None, None], LANDLORD_WINS)  # two bot seats, one bot
    assert done.ratings["1"] == done.ratings["2"] and done.ratings["1"].games == 1
    bot = await ratings_of(db, BOT)
    assert bot["ddz3"]["games"] == 1 and len(bot["ddz3"]["history"]) == 1
    # The bot as the landlord and as a farmer: it played itself, it does not move.
    both = await _settle(db, [None, p, None], LANDLORD_WINS)
    assert set(both.ratings) == {"1"} and both.ratings["1"].after < both.ratings["1"].before
    assert (await ratings_of(db, BOT))["ddz3"]["games"] == 1


async def test_each_rooms_bot_is_its_own_identity_and_the_replay_reads_it_back(
        db: Database, economy: Economy) -> None:
    """A room that seats the search bot rates ``bot:search``, never planning; the game's
    changes are read back by seat from its own rows (whatever a room seats later)."""
    search = bot_subject("search")
    (p,) = await _players(db, economy, 1)
    done = await _settle(db, [p, None, None], LANDLORD_WINS, bot=search)
    assert set(done.ratings) == {"0", "1", "2"}
    assert (await ratings_of(db, search))["ddz3"]["games"] == 1
    assert await ratings_of(db, BOT) == {}
    game = await _settle(db, [None, p, None], Standing(((1,), (0, 2)), (1, 2)), bot=search)
    again = await of_game(db, game.game_id, "ddz3", [None, p, None])
    assert again == game.ratings and set(again) == {"0", "1", "2"}
    assert again["0"] == again["2"] and again["0"].games == 2
    # Bots on both sides: the bot's seats show nothing, the player's his change.
    both = await _settle(db, [None, p, None], LANDLORD_WINS, bot=search)
    assert await of_game(db, both.game_id, "ddz3", [None, p, None]) == both.ratings
    assert set(both.ratings) == {"1"}


class Asked(BotPool):
    """The hall's bot pool, noting which bot each decision was asked of (托管 answers:
    the test is about who is asked, not how he plays)."""

    def __init__(self) -> None:
        super().__init__(workers=1, processes=False)
        self.names: list[str] = []

    async def decide(self, name: str, variant: str, seat: int, seed: int,
                     view: dict[str, Any]) -> str:
        self.names.append(name)
        return await super().decide("tuoguan", variant, seat, seed, view)


async def test_a_room_seats_its_own_bot_and_the_game_rates_it(db: Database) -> None:
    asked, inbox = Asked(), Inbox()
    hall = Hall(HallConfig(rooms=(room("ddz2", bot="search", turn_seconds=60.0),),
                           economy=Economy(starting_beans=10_000)), db, inbox, asked)
    await hall.open()
    try:
        p = await guest(hall)
        await hall.handle(p, Join(type="join", room="r1"))
        settled = await play_to_end(hall, inbox, [p])
        assert set(asked.names) == {"search"}
        assert set(settled[p].ratings or {}) == {"0", "1"}  # 二人: the bot's one seat is rated
        assert (await ratings_of(db, bot_subject("search")))["ddz2"]["games"] == 1
        assert await ratings_of(db, BOT) == {}
    finally:
        await hall.close()


async def test_the_rating_board_shows_settled_ratings_only(
        db: Database, economy: Economy) -> None:
    p = await _players(db, economy)
    for _ in range(PROVISIONAL_GAMES - 1):
        await _settle(db, [p[0], p[1], None], LANDLORD_WINS)
    assert await board(db, "ddz3") == []  # everyone still provisional
    await _settle(db, [p[0], p[1], None], LANDLORD_WINS)
    rows = await board(db, "ddz3")
    # The farmers, a player and the bot, lost alike: a tie, in subject order.
    order = [p[0], *sorted([BOT, p[1]])]
    assert [r.subject for r in rows] == order
    bot = next(r for r in rows if r.bot)
    assert bot.name == "planning" and bot.title == "" and not rows[0].bot
    assert [r.games for r in rows] == [PROVISIONAL_GAMES] * 3
    assert rows[0].value > rows[1].value == rows[2].value
    assert [r.subject for r in await board(db, None)] == order
    assert await board(db, "ddz4") == []
    await _settle(db, [p[2], None, None], LANDLORD_WINS, private=True)
    assert [r.subject for r in await board(db, "ddz3")] == order
