"""Post-game analysis in a running hall (issue 21): computed in the analysis worker while
the event loop stays free, progress shown, kept with the game and read back, bounded per
player, and a private table's game analysed (and read, replayed) for its players only."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cardhall.client import HallClient, HttpError
from tests.server.conftest import HallProcess, running_hall
from tests.server.play import guests, play_out, seat, vacate

#: The test halls' limits (``start_hall``'s), and small analysis bounds per address.
LIMITS = ("guests_per_minute = 1000\nlogins_per_minute = 1000\nmessages_per_second = 200\n"
          "replays_per_minute = 100000\nwhatifs_per_minute = 2\nanalyses_per_address = 1\n")

#: The bound on the event loop's lateness while a game is analysed: no tick of the
#: hall's loop watcher (every 0.25 s) late by more than this.
LAG_BOUND = 0.1


async def lag_counts(hall: HallProcess) -> tuple[float, float]:
    """(ticks at most ``LAG_BOUND`` late, all ticks) of the hall's loop watcher so far."""
    async with httpx.AsyncClient(base_url=hall.url) as http:
        text = (await http.get("/metrics", headers=hall.metrics_headers)).text
    within = re.search(rf'^cardhall_loop_lag_seconds_bucket{{le="{LAG_BOUND}"}} (\S+)$', text,
                       re.M)
    count = re.search(r"^cardhall_loop_lag_seconds_count (\S+)$", text, re.M)
    assert within is not None and count is not None
    return float(within.group(1)), float(count.group(1))


async def finished_game(client: HallClient, room: str = "ddz3-bots") -> tuple[str, int]:
    """A game the client played to its end at a bot table: its id and his seat."""
    table, (first,) = await seat([client], room)
    await play_out([client], table, seed=5, timeout=120)
    await vacate([client], table, room)
    return first["game"], first["seat"]


async def until_done(client: HallClient, path: str, seat: int,
                     timeout: float = 120) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """Poll the analysis until it is done: it, and the progress seen on the way."""
    seen: list[tuple[int, int]] = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        answer = await client.get(path, seat=str(seat))
        if answer["status"] == "done":
            return answer["analysis"], seen
        assert answer["status"] in ("queued", "running"), answer
        if answer["total"] is not None:
            seen.append((answer["done"], answer["total"]))
        await asyncio.sleep(0.1)  # polling is how a client follows it (docs/protocol.md)
    raise AssertionError("the analysis did not finish")


async def test_an_analysis_leaves_the_loop_free_and_is_kept(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (player,):
        game_id, mine = await finished_game(player)
        path = f"/api/games/{game_id}/analysis"
        before = await lag_counts(hall)
        asked = await player.request("POST", path)  # his own seat, without saying it
        assert asked["status"] in ("queued", "running") and asked["seat"] == mine
        # One analysis under way per player: another seat waits for it.
        other = (mine + 1) % 3
        with pytest.raises(HttpError) as busy:
            await player.request("POST", path, params={"seat": str(other)})
        assert (busy.value.status, busy.value.code) == (503, "busy")
        started = time.monotonic()
        analysis, seen = await until_done(player, path, mine)
        took = time.monotonic() - started
        after = await lag_counts(hall)
        assert after[1] - before[1] >= 1, "the loop watcher did not tick"
        assert after[0] - before[0] == after[1] - before[1], \
            f"the loop was late by more than {LAG_BOUND} s while the game was analysed"
        assert analysis["seat"] == mine and 0 <= analysis["accuracy"] <= 100
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)
        # Kept with the game: asked again, it is read back at once, the same.
        started = time.monotonic()
        again = await player.request("POST", path, params={"seat": str(mine)})
        assert again["status"] == "done" and again["analysis"] == analysis
        assert time.monotonic() - started < took + 0.5
        # Anyone may read a public table's game's analysis, and ask for a what-if.
        async with HallClient(hall.url) as stranger:
            read = await stranger.get(path, seat=str(mine))
            assert read["analysis"] == analysis
            if analysis["decisions"]:
                first = analysis["decisions"][0]
                line = await stranger.request("POST", f"/api/games/{game_id}/whatif",
                                              params={"ply": str(first["ply"]),
                                                      "move": first["best"]["move"]})
                assert line["actions"][0]["action"] == first["best"]["move"]
                assert len(line["points"]) == 3


async def test_a_private_tables_game_is_analysed_for_its_players_only(
        hall: HallProcess) -> None:
    async with guests(hall.url, 2) as (owner, stranger):
        await owner.send({"type": "private", "room": "ddz3-humans", "bots": True})
        invite = await owner.expect("invite")
        table = invite["table"]
        await owner.expect("state", table=table)
        await owner.send({"type": "start", "table": table})
        playing = await owner.expect("state", table=table,
                                     where=lambda m: m["phase"] == "playing")
        game_id = playing["game"]
        await play_out([owner], table, seed=2, timeout=120)
        await owner.leave(table=table)
        path = f"/api/games/{game_id}/analysis"
        for ask in (stranger.request("POST", path, params={"seat": "0"}),
                    stranger.get(path, seat="0")):
            with pytest.raises(HttpError) as refused:
                await ask
            assert (refused.value.status, refused.value.code) == (404, "not_found")
        async with HallClient(hall.url) as nobody:
            with pytest.raises(HttpError) as refused:
                await nobody.get(path, seat="0")
            assert refused.value.status == 404
        asked = await owner.request("POST", path)
        assert asked["status"] in ("queued", "running", "done")
        # Its game and replay too: its players only; anyone else is told there is none.
        for read in (f"/api/games/{game_id}", f"/api/games/{game_id}/replay"):
            for who in (stranger, None):
                headers = {} if who is None else {"Authorization": f"Bearer {who.token}"}
                answer = httpx.get(hall.url + read, headers=headers)
                assert (answer.status_code, answer.json()["error"]) == (404, "not_found")
            mine = httpx.get(hall.url + read,
                             headers={"Authorization": f"Bearer {owner.token}"})
            assert mine.status_code == 200 and mine.json()["id"] == game_id
            assert mine.headers["cache-control"] == "private, no-cache"


@pytest.fixture(scope="module")
def bounded_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("bounded"), limits=LIMITS)


async def test_one_address_is_bounded_in_analyses_and_what_if_lines(
        bounded_hall: HallProcess) -> None:
    """Guests are free to mint: a second guest of one address finds the address's
    place in the queue taken (``analyses_per_address``), and past
    ``whatifs_per_minute`` lines a minute the address is told when to come back."""
    async with guests(bounded_hall.url, 2) as (player, other):
        game_id, mine = await finished_game(player)
        path = f"/api/games/{game_id}/analysis"
        asked = await player.request("POST", path)
        assert asked["status"] in ("queued", "running")
        with pytest.raises(HttpError) as held:
            await other.request("POST", path, params={"seat": str((mine + 1) % 3)})
        assert (held.value.status, held.value.code) == (503, "busy")
        assert "your address" in str(held.value)
        record = (await player.get(f"/api/games/{game_id}"))["record"]
        whatif = f"/api/games/{game_id}/whatif"
        ask = {"ply": "1", "move": record["actions"][1]}
        async with httpx.AsyncClient(base_url=bounded_hall.url, timeout=120) as http:
            for _ in range(2):
                assert (await http.post(whatif, params=ask)).status_code == 200
            refused = await http.post(whatif, params=ask)
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
