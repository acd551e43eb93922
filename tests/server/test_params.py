"""Every route of the API under hostile query strings and path parameters, on SQLite and
PostgreSQL: a 4xx with a code and a reason, never a 500 (issue 25: ``limit=²`` was one).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx
import pytest

from cardhall.client import HallClient, HttpError
from tests.conftest import new_pg_database
from tests.hall.pg import PostgresServer
from tests.server.conftest import HallProcess, running_hall
from tests.server.play import guests, play_out

#: Values no numeric parameter takes: other scripts' digits, huge, negative, empty, …
NOT_NUMBERS = ["²", "٣", "１０", "੩", "9" * 5000, "99999999999999999999", "-1", "", "0",
               "1.5", "0x10", " 1", "1e3", "+5", "%00", "%ED%A0%80", "%FF", "NaN"]
#: Values no choice takes: wrong case, near misses, NUL, invalid UTF-8, very long.
NOT_CHOICES = ["BEANS", "beans ", "", "%00", "%ED%A0%80", "x" * 5000, "点"]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def any_hall(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    db_url = None
    if request.param == "postgresql":
        pg: PostgresServer = request.getfixturevalue("pg_server")
        db_url = asyncio.run(new_pg_database(pg))
    yield from running_hall(tmp_path_factory.mktemp(f"params-{request.param}"),
                            db_url=db_url)


@pytest.fixture(scope="module")
def token(any_hall: HallProcess) -> str:
    """A guest who has played one game (so history and the boards have rows)."""
    async def one_game() -> str:
        async with guests(any_hall.url, 1) as (solo,):
            await solo.join("ddz3-bots")
            table = (await solo.expect("state"))["table"]
            await play_out([solo], table)
            assert solo.token is not None
            return solo.token
    return asyncio.run(one_game())


def get(hall: HallProcess, token: str, path: str) -> httpx.Response:
    return httpx.get(hall.url + path, headers={"authorization": f"Bearer {token}"},
                     timeout=30)


def refused(r: httpx.Response, status: int = 400) -> str:
    assert r.status_code == status, (r.request.url, r.status_code, r.text[:300])
    body = r.json()
    assert set(body) == {"error", "message"} and body["message"]
    assert "Traceback" not in body["message"] and "SELECT" not in body["message"]
    message: str = body["message"]
    return message


@pytest.mark.parametrize("path", ["/api/history", "/api/leaderboard"])
@pytest.mark.parametrize("value", NOT_NUMBERS)
def test_a_limit_that_is_not_a_number_in_range_is_refused(any_hall: HallProcess, token: str,
                                                         path: str, value: str) -> None:
    assert "limit" in refused(get(any_hall, token, f"{path}?limit={value}"))


@pytest.mark.parametrize("key", ["by", "period", "variant"])
@pytest.mark.parametrize("value", NOT_CHOICES)
def test_a_bad_choice_on_the_board_is_refused(any_hall: HallProcess, token: str, key: str,
                                              value: str) -> None:
    r = get(any_hall, token, f"/api/leaderboard?{key}={value}")
    if key == "variant" and value == "":
        assert r.status_code == 200  # empty: every variant (the overall board)
    else:
        refused(r)


@pytest.mark.parametrize("query", ["limit=1&limit=2", "by=beans&by=points",
                                   "period=day&period=day", "variant=ddz3&variant=ddz4"])
def test_a_key_given_twice_is_refused(any_hall: HallProcess, token: str, query: str) -> None:
    assert "once" in refused(get(any_hall, token, f"/api/leaderboard?{query}"))
    if query.startswith("limit"):
        assert "once" in refused(get(any_hall, token, f"/api/history?{query}"))


def test_good_parameters_still_answer(any_hall: HallProcess, token: str) -> None:
    assert len(get(any_hall, token, "/api/history?limit=1").json()) == 1
    board = get(any_hall, token, "/api/leaderboard?by=beans&period=week&variant=ddz3&limit=5")
    assert board.status_code == 200 and board.json()["rows"]


#: Every GET route, and what answers it without hostile input.
ROUTES = ["/api/me", "/api/rooms", "/api/variants", "/api/history", "/api/leaderboard",
          "/api/ratings", "/api/ratings/bot:planning",
          "/api/admin/tables", "/healthz", "/"]
HOSTILE = ["limit=²", "x=%00", "%00=1", "a=1&a=2", "limit=" + "9" * 5000, "=&=&&",
           "%ED%A0%80=%FF", "by[]=1", "period=%0d%0aSet-Cookie:x=1"]


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize("query", HOSTILE)
def test_no_route_fails_on_a_hostile_query(any_hall: HallProcess, token: str, path: str,
                                           query: str) -> None:
    r = get(any_hall, token, f"{path}?{query}")
    assert r.status_code < 500, (path, query, r.status_code, r.text[:300])
    if r.status_code >= 400:
        refused(r, r.status_code)


@pytest.mark.parametrize("game", ["%00", "nope", "x" * 65, "%ED%A0%80", "..%2F..%2Fetc",
                                  "abc%0a", "١٢٣", "%25"])
@pytest.mark.parametrize("tail", ["", "/replay"])
def test_a_game_id_no_game_can_have_is_not_found(any_hall: HallProcess, token: str,
                                                 game: str, tail: str) -> None:
    message = refused(get(any_hall, token, f"/api/games/{game}{tail}"), 404)
    assert "no game" in message or "%2F" in game  # a "/" in it: no route matches


@pytest.mark.parametrize("subject", ["%00", "bot:%00", "a%00b", "bot:%C0", "%ED%A0%80",
                                     "bot:nobody", "bot:bot:planning", "bot:", "x" * 65,
                                     "nobody-here", "a%20b"])
def test_a_rated_subject_no_player_or_bot_can_be_is_not_found(
        any_hall: HallProcess, token: str, subject: str) -> None:
    """Checked before any query (a NUL was a 500 on PostgreSQL), and a bot the hall does
    not know is not found either (it answered 200 with no ratings)."""
    message = refused(get(any_hall, token, f"/api/ratings/{subject}"), 404)
    assert "no player" in message or "no bot" in message


def test_a_known_bot_and_player_have_ratings(any_hall: HallProcess, token: str) -> None:
    me = get(any_hall, token, "/api/me").json()["id"]
    for subject in (me, "bot:planning", "bot:search"):
        r = get(any_hall, token, f"/api/ratings/{subject}")
        assert r.status_code == 200 and r.json()["id"] == subject


def test_the_client_sees_the_reason(any_hall: HallProcess, token: str) -> None:
    async def ask() -> HttpError:
        async with HallClient(any_hall.url, token) as c:
            with pytest.raises(HttpError) as bad:
                await c.get("/api/leaderboard", limit="²")
            return bad.value
    refusal = asyncio.run(ask())
    assert (refusal.status, refusal.code) == (400, "malformed")
    assert "limit is a whole number" in str(refusal)


#: Puzzle ids and attempt ids no row can have: NUL (PostgreSQL refuses it), a lone
#: surrogate (SQLite cannot bind it), other scripts' digits, a newline, too long.
NOT_PUZZLE_IDS = ["c0\u0000", "\ud800", "ab\u0000cd", "c\n", "١٢٣", "c 01", "x" * 33]
NOT_ATTEMPT_IDS = ["ab%00cd", "%00", "%ED%A0%80", "x" * 33, "abc%0a", "١٢٣"]


def _post(hall: HallProcess, token: str, path: str, body: bytes) -> httpx.Response:
    return httpx.post(hall.url + path, content=body, timeout=30,
                      headers={"authorization": f"Bearer {token}",
                               "content-type": "application/json"})


@pytest.mark.parametrize("puzzle", NOT_PUZZLE_IDS)
def test_a_puzzle_id_no_puzzle_can_have_is_refused(any_hall: HallProcess, token: str,
                                                   puzzle: str) -> None:
    body = json.dumps({"puzzle": puzzle}).encode()  # ASCII: "\ud800" as an escape
    r = _post(any_hall, token, "/api/puzzles/attempts", body)
    message = refused(r, r.status_code)
    assert r.status_code == 400 if len(puzzle) > 32 else "no puzzle" in message


@pytest.mark.parametrize("attempt", NOT_ATTEMPT_IDS)
def test_an_attempt_id_no_attempt_can_have_is_not_found(any_hall: HallProcess, token: str,
                                                        attempt: str) -> None:
    assert "no attempt" in refused(get(any_hall, token, f"/api/puzzles/attempts/{attempt}"),
                                   404)
    move = json.dumps({"move": "pass", "ply": 0}).encode()
    r = _post(any_hall, token, f"/api/puzzles/attempts/{attempt}/moves", move)
    assert "no attempt" in refused(r, 404)
