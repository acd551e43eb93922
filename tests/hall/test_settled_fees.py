"""The ``settled`` message says what a settlement that explains itself needs beyond the
game's result: the fee in each seated player's bean change (``fees``) and his beans
after it (``balances``; before = balance − beans). Issue 26: the settlement showed no
fee and no "before → after". Points games take the fee in the hall (``economy``), the
欢乐 family in the game (``result.detail.beans.fees``); a private table takes none."""

from __future__ import annotations

from cardhall.hall.domain.economy import game_split, split_points
from cardhall.hall.store import ledger
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_reads import get_game
from cardhall.protocol.messages import Invite, Join, Private, Settled
from tests.hall.test_tables import guest, make_hall, play_to_end, room

START = 10_000


def test_a_split_says_the_fee_in_each_change() -> None:
    # N=10, A=5: the landlord loses 2 × 3 × 10 and pays 5; a farmer wins 30, pays 5.
    split = split_points([-6, 3, 3], 10, 5, [START] * 3)
    assert split.changes == [-65, 25, 25] and split.fees == [5, 5, 5]
    # A winner's fee is never more than he won; a loser's never more than he has left.
    assert split_points([-1, 1], 2, 5, [1, START]).fees == [0, 1]
    # A game that settles its own beans brings its own fees; an unscored game takes none.
    own = {"ended": "finished", "points": [2, -1, -1], "beans": [15, -15, -15],
           "detail": {"beans": {"changes": [15, -15, -15], "gross": [20, -10, -10],
                                "fees": [5, 5, 5], "house": 15}}}
    assert game_split(own, 10, 5, [START] * 3).fees == [5, 5, 5]
    assert game_split({**own, "ended": "unscored"}, 10, 5, [START] * 3).fees == [0, 0, 0]


async def _played(db: Database, variant: str, seed: int) -> tuple[list[str], Settled]:
    hall, inbox = await make_hall(db, room(variant, A=5, bot_wait_seconds=None))
    try:
        players = [await guest(hall) for _ in range(3)]
        for p in players:
            await hall.handle(p, Join(type="join", room="r1"))
        return players, (await play_to_end(hall, inbox, players, seed=seed))[players[0]]
    finally:
        await hall.close()


async def test_a_points_game_says_its_fees_and_balances(db: Database) -> None:
    players, settled = await _played(db, "ddz3", seed=1)
    expected = split_points(settled.result["points"], 10, 5, [START] * 3)
    assert settled.fees == {str(i): expected.fees[i] for i in range(3)}
    assert [settled.beans[str(i)] for i in range(3)] == expected.changes
    for i, p in enumerate(players):
        after = await ledger.balance(db, p)
        assert settled.balances is not None and settled.balances[str(i)] == after
        assert after - settled.beans[str(i)] == START  # before → after
    wire = settled.model_dump(mode="json")
    assert set(wire["fees"]) == set(wire["balances"]) == set(wire["beans"])


async def test_a_settled_game_keeps_its_fees_for_the_replay(db: Database) -> None:
    """The fee of a game the hall settles rests on the balances it was dealt, which are
    not kept: the game keeps its fees, as the table said them, for its replay."""
    _, settled = await _played(db, "ddz3", seed=3)
    stored = await get_game(db, settled.game)
    assert stored is not None and stored.fees == settled.fees
    assert stored.fees and all(f == 5 for f in stored.fees.values())


async def test_a_happy_game_says_the_fees_it_took_itself(db: Database) -> None:
    players, settled = await _played(db, "ddz3_happy", seed=2)
    own = settled.result["detail"]["beans"]["fees"]
    assert settled.fees == {str(i): own[i] for i in range(3)}
    assert all(f > 0 for f in own)
    assert settled.balances is not None
    for i, p in enumerate(players):
        assert settled.balances[str(i)] == await ledger.balance(db, p)


async def test_a_private_table_takes_no_fee(db: Database) -> None:
    hall, inbox = await make_hall(db, room("ddz3", A=5, bot_wait_seconds=None))
    try:
        players = [await guest(hall) for _ in range(3)]
        await hall.handle(players[0], Private(type="private", room="r1", bots=False))
        invite = await inbox.next(players[0], Invite)
        for p in players[1:]:
            await hall.handle(p, Join(type="join", code=invite.code))
        settled = (await play_to_end(hall, inbox, players, seed=3))[players[0]]
        assert settled.beans == {"0": 0, "1": 0, "2": 0}
        assert settled.fees == {"0": 0, "1": 0, "2": 0}
        assert settled.balances == {"0": START, "1": START, "2": START}
        stored = await get_game(db, settled.game)
        assert stored is not None and stored.fees == {"0": 0, "1": 0, "2": 0}
    finally:
        await hall.close()


def test_a_settled_message_without_the_additions_goes_out_as_before() -> None:
    bare = Settled(table="t1", game="g1", result={}, beans={}, points={}, titles={},
                   dissolved=False)
    assert "fees" not in bare.model_dump(mode="json")
    assert "balances" not in bare.model_dump(mode="json")
