"""残局 over HTTP against a real hall: a guest solves the daily puzzle move by move and
his rating rises once; he fails another and gets the solution, his rating falls once;
bad input of every kind is a clear refusal and never a crash. A mined three-hand puzzle
is played against the solver's two hands, solved once and failed once. Starting a
puzzle again resumes the open attempt, so no rated attempt outlives a shown solution; a
mined puzzle names its game only once the attempt has ended; reads are rate-limited
too."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest

from cardhall.client import HallClient, HttpError
from cardhall.hall.store import puzzles as store
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Game
from cardhall.puzzles.attempt import walk
from cardhall.puzzles.attempt3 import walk as walk3
from cardhall.puzzles.classic import BY_ID
from cardhall.puzzles.mine import Mined
from cardhall.puzzles.position import RULES, Position, winning_moves
from cardhall.puzzles.position3 import Table
from cardhall.puzzles.position3 import solution as solution3
from cardhall.rules.solve import Solver
from cardhall.rules.solve3 import ThreeHandSolver
from cardhall.rules.variants import get
from cardhall.server.puzzles import MOVES_PER_MINUTE
from tests.server.conftest import HallProcess

RS = get(RULES)
SOLVER = Solver(RS)
RS3 = get("ddz3")
SOLVER3 = ThreeHandSolver(RS3)


async def _solve(c: HallClient, attempt: dict[str, Any]) -> dict[str, Any]:
    """Play the attempt out with the solver's winning moves."""
    puzzle = BY_ID[attempt["puzzle"]["id"]]
    while attempt["status"] == "playing":
        here = walk(SOLVER, puzzle.position(RS), attempt["line"])
        attempt = await c.post(f"/api/puzzles/attempts/{attempt['id']}/moves",
                               {"move": winning_moves(SOLVER, here)[0], "ply": attempt["ply"]})
    return attempt


async def test_a_guest_solves_the_daily_and_fails_another(hall: HallProcess) -> None:
    async with HallClient(hall.url) as c:
        await c.guest()
        over = await c.get("/api/puzzles")
        assert over["rating"] == {"rating": 1500, "attempts": 0, "solved": 0}
        daily = await c.post("/api/puzzles/attempts", {"puzzle": "daily"})
        assert daily["puzzle"]["id"] == over["daily"]["id"] and daily["rated"]
        assert daily["status"] == "playing" and daily["moves"]
        done = await _solve(c, daily)
        assert done["status"] == "solved" and done["change"] > 0
        assert done["rating"]["rating"] == 1500 + done["change"]
        with pytest.raises(HttpError) as over_already:
            await c.post(f"/api/puzzles/attempts/{done['id']}/moves",
                         {"move": "pass", "ply": done["ply"]})
        assert over_already.value.code == "conflict"
        again = await c.get(f"/api/puzzles/attempts/{done['id']}")
        assert again["rating"] == done["rating"]  # moved once

        other = "c01" if daily["puzzle"]["id"] != "c01" else "c07"
        attempt = await c.post("/api/puzzles/attempts", {"puzzle": other})
        losing = next(m for m in attempt["moves"]
                      if m not in winning_moves(SOLVER, BY_ID[other].position(RS)))
        failed = await c.post(f"/api/puzzles/attempts/{attempt['id']}/moves",
                              {"move": losing, "ply": 0})
        assert failed["status"] == "failed" and failed["change"] < 0
        assert failed["solution"][0] in winning_moves(SOLVER, BY_ID[other].position(RS))
        assert failed["refutation"]
        assert failed["rating"]["rating"] == done["rating"]["rating"] + failed["change"]
        nxt = await c.post("/api/puzzles/attempts", {"puzzle": "next"})
        assert nxt["puzzle"]["id"] not in (other, daily["puzzle"]["id"])


async def test_bad_input_is_refused_clearly(hall: HallProcess) -> None:
    async with HallClient(hall.url) as c:
        await c.guest()
        attempt = await c.post("/api/puzzles/attempts", {"puzzle": "c01"})
        url = f"/api/puzzles/attempts/{attempt['id']}/moves"
        cases: list[tuple[str, Any, str]] = [
            ("/api/puzzles/attempts", {"puzzle": 5}, "malformed"),
            ("/api/puzzles/attempts", {"puzzle": "x" * 40}, "malformed"),
            ("/api/puzzles/attempts", {"puzzle": "nope"}, "not_found"),
            (url, {"move": "play 5", "ply": 0}, "illegal"),
            (url, {"move": "pass", "ply": 0}, "illegal"),
            (url, {"move": "play 3" * 30, "ply": 0}, "malformed"),
            (url, {"move": "play 4"}, "malformed"),
            (url, {"move": "play 4", "ply": "0"}, "malformed"),
            (url, {"move": "play 4", "ply": 2}, "stale"),
            (url, {"move": ["play 4"], "ply": 0}, "malformed"),
            ("/api/puzzles/attempts/nope/moves", {"move": "play 4", "ply": 0}, "not_found"),
        ]
        for path, body, code in cases:
            with pytest.raises(HttpError) as refused:
                await c.post(path, body)
            assert refused.value.code == code, (path, body)
        assert (await c.get(f"/api/puzzles/attempts/{attempt['id']}"))["ply"] == 0
    async with httpx.AsyncClient(base_url=hall.url) as raw:
        assert (await raw.get("/api/puzzles")).status_code == 401
        other = await raw.post("/api/guest")
        headers = {"authorization": f"Bearer {other.json()['token']}"}
        seen = await raw.get(f"/api/puzzles/attempts/{attempt['id']}", headers=headers)
        assert seen.status_code == 404  # another's attempt
        bad = await raw.post(url, content=b"{not json", headers=headers)
        assert bad.status_code == 400 and bad.json()["error"] == "malformed"


async def test_moves_and_attempts_are_rate_limited(hall: HallProcess) -> None:
    async with HallClient(hall.url) as c:
        await c.guest()
        for _ in range(MOVES_PER_MINUTE):
            await c.post("/api/puzzles/attempts", {"puzzle": "c01"})
        with pytest.raises(HttpError) as limited:
            await c.post("/api/puzzles/attempts", {"puzzle": "c01"})
        assert (limited.value.status, limited.value.code) == (429, "rate_limited")


async def three_hand_puzzle(db_url: str) -> str:
    """A mined 三人斗地主 puzzle in the hall's database (tests/puzzles/test_mine3.py mines
    it from a built game): the player a farmer, the landlord the hand before him."""
    db = Database.open(db_url)
    try:
        gid = "g3api" + secrets.token_hex(4)
        async with db.transaction() as s:
            s.add(Game(id=gid, table_id="t", room_id="r", variant="ddz3",
                       players=["a", "b", "c"], status="settled"))
        mined = Mined("ddz3", "56778K", "336JQ", "33", 32, 1, "play 77", "pass", "4", 2)
        (pid,) = await store.add_mined(db, gid, [mined])
    finally:
        await db.close()
    return pid


async def test_a_three_hand_puzzle_is_played_against_both_other_hands(
        hall: HallProcess) -> None:
    pid = await three_hand_puzzle(hall.db_url)
    start = Table.of(RS3, "56778K", "336JQ", "4", "33", lord=2)
    async with HallClient(hall.url) as c:
        await c.guest()
        attempt = await c.post("/api/puzzles/attempts", {"puzzle": pid})
        assert attempt["puzzle"]["seats"] == 3 and attempt["rated"]
        assert (attempt["hand"], attempt["other"], attempt["third"], attempt["last"],
                attempt["last_by"], attempt["landlord"]) == \
            ("56778K", "336JQ", "4", "33", "third", "third")
        assert "play 77" in attempt["moves"] and "pass" in attempt["moves"]
        first = await c.post(f"/api/puzzles/attempts/{attempt['id']}/moves",
                             {"move": "play 77", "ply": 0})
        assert first["status"] == "playing" and first["reply"] == "pass / pass"
        assert first["line"] == ["play 77", "pass", "pass"] and first["ply"] == 3
        while first["status"] == "playing":
            here = walk3(SOLVER3, start, first["line"])
            first = await c.post(f"/api/puzzles/attempts/{attempt['id']}/moves",
                                 {"move": solution3(SOLVER3, here)[0], "ply": first["ply"]})
        assert first["status"] == "solved" and first["change"] > 0
        assert first["rating"]["rating"] == 1500 + first["change"]

    async with HallClient(hall.url) as c:
        await c.guest()
        attempt = await c.post("/api/puzzles/attempts", {"puzzle": pid})
        failed = await c.post(f"/api/puzzles/attempts/{attempt['id']}/moves",
                              {"move": "pass", "ply": 0})
        assert failed["status"] == "failed" and failed["change"] < 0
        assert failed["solution"][0] == "play 77"
        assert failed["refutation"] == ["pass", "play 4"]
        again = await c.get(f"/api/puzzles/attempts/{attempt['id']}")
        assert again["solution"] == failed["solution"] and again["status"] == "failed"
        other = await c.post("/api/puzzles/attempts", {"puzzle": pid})
        assert not other["rated"]  # his second attempt: practice
        with pytest.raises(HttpError) as bad:
            await c.post(f"/api/puzzles/attempts/{other['id']}/moves",
                         {"move": "play 99", "ply": 0})
        assert bad.value.code == "illegal"


def _losing(attempt: dict[str, Any], rules: str = RULES) -> str:
    """A first move of the attempt's puzzle that throws the win away."""
    rs = get(rules)
    here = Position.of(rs, attempt["hand"], attempt["other"], attempt["last"])
    wins = winning_moves(SOLVER if rules == RULES else Solver(rs), here)
    return next(m for m in attempt["moves"] if m not in wins)


async def test_no_rated_attempt_outlives_a_shown_solution(hall: HallProcess) -> None:
    """The attack: open the rated attempt, open a practice one beside it, fail that to be
    shown the solution, play it on the rated one. Starting again now resumes the open
    attempt (200, the same id), so failing it ends the rated one; the next is practice,
    and solving it with the solution moves nothing."""
    async with HallClient(hall.url) as c:
        await c.guest()
        first = await c.post("/api/puzzles/attempts", {"puzzle": "c24"})
        assert first["rated"] and first["status"] == "playing"
        assert c.token is not None
        async with httpx.AsyncClient(base_url=hall.url) as raw:
            again = await raw.post("/api/puzzles/attempts", json={"puzzle": "c24"},
                                   headers={"authorization": f"Bearer {c.token}"})
        assert again.status_code == 200 and again.json()["id"] == first["id"]
        failed = await c.post(f"/api/puzzles/attempts/{first['id']}/moves",
                              {"move": _losing(first), "ply": 0})
        assert failed["status"] == "failed" and failed["rated"] and failed["solution"]
        practice = await c.post("/api/puzzles/attempts", {"puzzle": "c24"})
        assert practice["id"] != first["id"] and not practice["rated"]
        done = await _solve(c, practice)
        assert done["status"] == "solved" and done["change"] == 0
        assert done["rating"] == failed["rating"]


async def test_a_mined_puzzle_names_its_game_only_once_ended(hall: HallProcess) -> None:
    """The source game's public replay and analysis give the winning move away: the
    game is named on an attempt only after it has ended ("from a real game")."""
    db = Database.open(hall.db_url)
    try:
        async with db.transaction() as s:
            s.add(Game(id="mined-src", table_id="t", room_id="r", variant="ddz2",
                       players=[None, None], status="settled"))
        c01 = BY_ID["c01"]
        [pid] = await store.add_mined(db, "mined-src", [Mined(
            "ddz2", c01.hand, c01.other, None, 40, 0, "play 4", "play 66")])
    finally:
        await db.close()
    async with HallClient(hall.url) as c:
        await c.guest()
        attempt = await c.post("/api/puzzles/attempts", {"puzzle": pid})
        assert attempt["puzzle"]["source"] == "mined" and attempt["puzzle"]["game"] is None
        assert "mined-src" not in str(attempt)
        shown = await c.get(f"/api/puzzles/attempts/{attempt['id']}")
        assert shown["puzzle"]["game"] is None
        failed = await c.post(f"/api/puzzles/attempts/{attempt['id']}/moves",
                              {"move": _losing(attempt, "ddz2"), "ply": 0})
        assert failed["status"] == "failed" and failed["puzzle"]["game"] == "mined-src"
        again = await c.get(f"/api/puzzles/attempts/{attempt['id']}")
        assert again["puzzle"]["game"] == "mined-src"


async def test_reading_an_attempt_is_rate_limited(hall: HallProcess) -> None:
    """A read describes the attempt with the solver: it shares the moves' limit."""
    async with HallClient(hall.url) as c:
        await c.guest()
        attempt = await c.post("/api/puzzles/attempts", {"puzzle": "c01"})
        for _ in range(MOVES_PER_MINUTE - 1):
            await c.get(f"/api/puzzles/attempts/{attempt['id']}")
        with pytest.raises(HttpError) as limited:
            await c.get(f"/api/puzzles/attempts/{attempt['id']}")
        assert (limited.value.status, limited.value.code) == (429, "rate_limited")
