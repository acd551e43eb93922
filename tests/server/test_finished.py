"""Finished games are rendered once and served from memory; rendering is rate-limited.

Against real halls: renderings are counted by the hall's own metric
(``cardhall_replay_renders_total``), not timed. The limiter's windows, per address and
per account, with an injected clock.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import httpx
import pytest

from cardhall.hall.store.db import Database
from cardhall.hall.store.game_rows import create_game, dissolve_game
from cardhall.server.finished import IMMUTABLE, ByteCache, FinishedGames, ReplayGate
from tests.server.conftest import HallProcess, running_hall
from tests.server.play import guests, play_out


def renders(hall: HallProcess) -> dict[str, float]:
    text = httpx.get(hall.url + "/metrics", headers=hall.metrics_headers).text
    return {kind: float(n) for kind, n in re.findall(
        r'^cardhall_replay_renders_total\{kind="(\w+)"\} (\S+)$', text, re.M)}


async def played_game(hall: HallProcess) -> str:
    async with guests(hall.url, 1) as (solo,):
        await solo.join("ddz3-bots")
        table = (await solo.expect("state"))["table"]
        settled = (await play_out([solo], table)).settled
        game: str = settled["game"]
        return game


async def dissolved_games(hall: HallProcess, n: int) -> list[str]:
    """``n`` finished games of bots only, written straight to the hall's database."""
    db = Database.open(hall.db_url)
    try:
        out = []
        for seed in range(n):
            gid = await create_game(db, table_id="t", room_id="ddz3-bots", variant="ddz3",
                                    players=[None, None, None], seed=seed)
            await dissolve_game(db, gid)
            out.append(gid)
        return out
    finally:
        await db.close()


def test_a_finished_game_is_rendered_once(hall: HallProcess) -> None:
    gid = asyncio.run(played_game(hall))
    before = renders(hall)
    first = httpx.get(f"{hall.url}/api/games/{gid}")
    again = httpx.get(f"{hall.url}/api/games/{gid}")
    assert first.status_code == again.status_code == 200
    assert first.content == again.content and first.json()["id"] == gid
    assert first.headers["cache-control"] == IMMUTABLE
    assert first.headers["etag"] == again.headers["etag"]
    same = httpx.get(f"{hall.url}/api/games/{gid}",
                     headers={"if-none-match": first.headers["etag"]})
    assert same.status_code == 304 and same.content == b""
    replay = httpx.get(f"{hall.url}/api/games/{gid}/replay")
    replay_again = httpx.get(f"{hall.url}/api/games/{gid}/replay")
    assert replay.status_code == 200 and replay.content == replay_again.content
    body = replay.json()
    assert body["id"] == gid and len(body["frames"]) > 10
    assert [s["bot"] for s in body["seats"]].count(False) == 1
    assert replay.headers["cache-control"] == "no-cache"
    assert httpx.get(f"{hall.url}/api/games/{gid}/replay", headers={
        "if-none-match": replay.headers["etag"]}).status_code == 304
    after = renders(hall)
    assert after.get("game", 0) - before.get("game", 0) == 1
    assert after.get("replay", 0) - before.get("replay", 0) == 1


def test_requests_at_once_render_once(hall: HallProcess) -> None:
    (gid,) = asyncio.run(dissolved_games(hall, 1))
    before = renders(hall)

    async def many() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=hall.url, timeout=30) as http:
            return list(await asyncio.gather(
                *(http.get(f"/api/games/{gid}/replay") for _ in range(8))))

    answers = asyncio.run(many())
    assert {a.status_code for a in answers} == {200}
    assert len({a.content for a in answers}) == 1
    assert renders(hall).get("replay", 0) - before.get("replay", 0) == 1


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("replays"), limits=(
        "guests_per_minute = 1000\nlogins_per_minute = 1000\nreplays_per_minute = 2\n"))


def test_rendering_past_the_limit_is_refused_with_retry_after(strict: HallProcess) -> None:
    games = asyncio.run(dissolved_games(strict, 3))
    for gid in games[:2]:
        assert httpx.get(f"{strict.url}/api/games/{gid}").status_code == 200
    refused = httpx.get(f"{strict.url}/api/games/{games[2]}/replay")
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited"
    wait = int(refused.headers["retry-after"])
    assert 1 <= wait <= 60 and f"try again in {wait} s" in refused.json()["message"]
    # What is rendered already is served, limit or not.
    assert httpx.get(f"{strict.url}/api/games/{games[0]}").status_code == 200


def test_the_gate_counts_per_address_and_per_account() -> None:
    now = [100.0]
    gate = ReplayGate(2, clock=lambda: now[0])
    assert gate.check("1.1.1.1", "amy") is None
    now[0] = 110.0
    assert gate.check("2.2.2.2", "amy") is None
    refused = gate.check("3.3.3.3", "amy")  # a third address, the same account
    assert refused is not None and (refused.seconds, refused.who) == (50, "your account")
    assert gate.check("3.3.3.3", None) is None  # no account: only its address counts
    assert gate.check("3.3.3.3", None) is not None  # (its 2nd one counted above)
    now[0] = 160.0  # the account's first rendering is a minute old
    assert gate.check("4.4.4.4", "amy") is None
    by_address = gate.check("3.3.3.3", None)
    assert by_address is not None and by_address.who == "your address"
    now[0] = 171.0
    assert gate.check("3.3.3.3", None) is None


def test_the_cache_is_bounded_by_bytes_and_drops_the_least_used() -> None:
    cache = ByteCache(800)
    for key in "abcd":
        cache.put(key, key.encode() * 100)
    assert cache.size == 400 and len(cache) == 4
    assert cache.get("a") is not None  # a is now the most recent
    for key in "efghi":
        cache.put(key, key.encode() * 100)
    assert cache.size <= 800
    assert cache.get("b") is None and cache.get("a") is not None
    cache.put("huge", b"x" * 101)  # more than an eighth of the whole: not kept
    assert cache.get("huge") is None


async def test_a_failed_rendering_is_not_kept() -> None:
    games = FinishedGames(1 << 20, 10)
    calls = 0

    async def failing() -> bytes:
        nonlocal calls
        calls += 1
        raise RuntimeError("the database went away")

    for _ in range(2):
        with pytest.raises(RuntimeError):
            await games.body("k", failing)
    assert calls == 2 and games.cache.get("k") is None


