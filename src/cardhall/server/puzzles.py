"""残局 over HTTP: the daily puzzle, the next one near the player's rating, and playing it.

- ``GET /api/puzzles``: today's daily puzzle (UTC date; the same for everyone) and the
  caller's puzzle rating.
- ``POST /api/puzzles/attempts`` ``{"puzzle": "daily" | "next" | <id>}``: a new attempt,
  or the caller's open one at that puzzle (one at a time: a second beside it could be
  failed on purpose to show the first its solution).
- ``GET /api/puzzles/attempts/{id}``: the caller's attempt as it stands.
- ``POST /api/puzzles/attempts/{id}/moves`` ``{"move": "play 4", "ply": n}``: the
  player's move on the attempt whose line has ``n`` moves; the answer is the attempt
  after it (the defence's reply played), with ``change`` once it has ended.

The work a move costs is the solver's on a puzzle of at most ``MAX_CARDS`` a hand: it
runs in a worker thread (``asyncio.to_thread``), at most ``SOLVING`` at once in this
process, behind a per-player limit (``MOVES_PER_MINUTE``, which new attempts and reads
of one share: a read describes the attempt with the solver too). A client sends only a
puzzle id and a move text (at most ``MAX_MOVE`` characters): nothing it sends can make a
bigger search, and each bad input is a clear refusal; ids are checked by their form
before any query (``params.identifier``).

A mined puzzle's source game is named only on an attempt that has ended: the game's
public replay and analysis give its winning move away.

Puzzles are also mined from the hall's own 二人斗地主 and 三人斗地主 games
(``mine_loop``): each settled game's decisions where a player missed his one winning
move become puzzles, two-hand ones and three-hand ones (every hand at most
``MAX_CARDS3``; the solver then plays both other hands, ``puzzles.attempt3``). In
a hall of several processes one of them mines at a time (``cluster.jobs``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cardhall.hall.cluster.jobs import Job
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.store import puzzles as store
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_reads import get_game
from cardhall.hall.store.models import PuzzleAttempt, PuzzleRow
from cardhall.puzzles import attempt3
from cardhall.puzzles.attempt import Status, Step, describe, play
from cardhall.puzzles.mine import MAX_CARDS, MAX_CARDS3, Solvers, mine
from cardhall.puzzles.position import BadMove, Position
from cardhall.puzzles.position3 import Table
from cardhall.rules import RuleError
from cardhall.rules.variants import get
from cardhall.server import params
from cardhall.server.reading import ApiError, caller, read_json

if TYPE_CHECKING:
    from cardhall.server.app import Server

T = TypeVar("T")
log = logging.getLogger("cardhall.puzzles")

MAX_MOVE = 64
MOVES_PER_MINUTE = 60
SOLVING = 2
#: Positions the solvers remember (per rule set): a puzzle's whole tree fits many
#: times over, and the memo stays bounded.
MEMO = 200_000


class PuzzleDesk:
    """The process's solvers (one per rule set, their memos shared by every attempt),
    the bound on solving at once and the per-player move limit."""

    def __init__(self) -> None:
        self._solvers: dict[str, Solvers] = {}
        self._solving = asyncio.Semaphore(SOLVING)
        self.limiter = RateLimiter(MOVES_PER_MINUTE, 60.0)

    def solvers(self, rules: str) -> Solvers:
        """The rule set's two- and three-hand solvers."""
        if rules not in self._solvers:
            self._solvers[rules] = Solvers(get(rules), limit=MEMO)
        return self._solvers[rules]

    async def run(self, work: Callable[[], T]) -> T:
        async with self._solving:
            return await asyncio.to_thread(work)


#: The variants whose games are mined: two hands from the first play (二人斗地主), and
#: the three-hand endgames of the classic three-player games.
MINED = ("ddz2", "ddz3", "ddz3_happy")
#: How often the miner looks for newly settled games, and how many it reads at a time.
MINE_SECONDS = 60.0
MINE_BATCH = 20
#: The hall-wide job the miner runs as, and how long a round holds it: three rounds, so
#: a holder keeps it while it runs and another takes it within minutes of its stopping.
MINE_JOB = "puzzle-miner"
MINE_HOLD_SECONDS = 3 * MINE_SECONDS


async def mine_settled(db: Database, desk: PuzzleDesk, since: datetime) -> datetime:
    """Mine the games settled since ``since`` (a batch) and store their puzzles; the
    time to go on from. Each game is mined in a worker thread, under the desk's bound
    on solving at once; another process mining the same game adds nothing (a puzzle is
    unique per game and decision)."""
    for game_id, ended in await store.settled_since(db, MINED, since, MINE_BATCH):
        game = await get_game(db, game_id)
        if game is not None:
            found = await desk.run(partial(mine, game.record, desk.solvers(game.variant)))
            await store.add_mined(db, game_id, found)
        since = max(since, ended + timedelta(microseconds=1))
    return since


async def mine_loop(db: Database, desk: PuzzleDesk, job: Job, start: datetime) -> None:
    """Mine the games settled from ``start`` (the process's start) on, for ever, in
    whichever process holds ``job`` (one at a time: ``cluster.jobs``). A process taking
    the job over goes on from where its last holder got to."""
    while True:
        try:
            if await job.hold():
                mark = await job.progress()
                since = start if mark is None else datetime.fromisoformat(mark)
                await job.advance((await mine_settled(db, desk, since)).isoformat())
        except Exception:  # a failure is logged and tried again next time
            log.exception("mining puzzles failed", extra={"event": "mine_failed"})
        await asyncio.sleep(MINE_SECONDS)


def _desk(request: Request) -> PuzzleDesk:
    server: Server = request.app.state.server
    return server.puzzles


def _start(row: PuzzleRow, solvers: Solvers) -> Position | Table:
    """The puzzle's position: two hands, or three when it has a ``third`` (the solver
    then plays both hands that are not the player's, ``puzzles.attempt3``)."""
    if row.third is None:
        pos = Position.of(solvers.rs, row.hand, row.other, row.last)
        if sum(pos.me) > MAX_CARDS or sum(pos.them) > MAX_CARDS:
            raise ApiError("too_large", f"puzzles hold at most {MAX_CARDS} cards a hand")
        return pos
    table = Table.of(solvers.rs, row.hand, row.other, row.third, row.last, row.landlord or 0)
    if max(sum(table.me), sum(table.a), sum(table.b)) > MAX_CARDS3:
        raise ApiError("too_large", f"three-hand puzzles hold at most {MAX_CARDS3} cards a hand")
    return table


def _describe(solvers: Solvers, start: Position | Table, line: list[str],
              status: Status) -> dict[str, object]:
    if isinstance(start, Table):
        return attempt3.describe(solvers.three, start, line, status)
    return describe(solvers.two, start, line, status)


def _play(solvers: Solvers, start: Position | Table, line: list[str], move: str) -> Step:
    if isinstance(start, Table):
        return attempt3.play(solvers.three, start, line, move)
    return play(solvers.two, start, line, move)


def _puzzle_json(row: PuzzleRow, daily: str, ended: bool) -> dict[str, object]:
    """The puzzle as a player sees it; a mined one's ``game`` only once his attempt has
    ``ended`` (before, it would lead him to the answer)."""
    return {"id": row.id, "title": row.title, "title_en": row.title_en, "level": row.level,
            "rating": store.shown_mu(row.mu), "source": row.source,
            "game": row.game_id if ended else None,
            "daily": row.id == daily, "winning": row.winning, "solved": row.solved,
            "attempts": row.attempts, "seats": 2 if row.third is None else 3}


def _today() -> str:
    return store.daily_id(datetime.now(UTC).date())


async def _view(request: Request, attempt: PuzzleAttempt, row: PuzzleRow,
                extra: dict[str, object] | None = None) -> dict[str, object]:
    desk = _desk(request)
    solvers = desk.solvers(row.rules)
    start = _start(row, solvers)
    status: Status = attempt.status  # type: ignore[assignment]
    line = list(attempt.line)
    seen = await desk.run(lambda: _describe(solvers, start, line, status))
    standing = await store.standing(request.app.state.server.db, attempt.player_id)
    ended = status != store.PLAYING
    return {"id": attempt.id, "puzzle": _puzzle_json(row, _today(), ended), "status": status,
            "line": line, "ply": len(line), "rated": attempt.rated, "change": attempt.change,
            "rating": standing.to_json(), **seen, **(extra or {})}


async def overview(request: Request) -> Response:
    server: Server = request.app.state.server
    player = await caller(request)
    daily = await store.get_puzzle(server.db, _today())
    standing = await store.standing(server.db, player.id)
    return JSONResponse({"date": datetime.now(UTC).date().isoformat(),
                         "daily": _puzzle_json(daily, daily.id, False),
                         "rating": standing.to_json()})


async def new_attempt(request: Request) -> Response:
    server: Server = request.app.state.server
    player = await caller(request)
    _limit(request, player.id)
    which = (await read_json(request)).get("puzzle")
    if not isinstance(which, str) or not 1 <= len(which) <= 32:
        raise ApiError("malformed", "'puzzle' is \"daily\", \"next\" or a puzzle id")
    if which == "daily":
        which = _today()
    elif which == "next":
        which = (await store.next_near(server.db, player.id)).id
    row = await store.get_puzzle(server.db, params.identifier(which, "puzzle", 32))
    resumed = await store.open_attempt(server.db, player.id, row.id)
    attempt = resumed or await store.start(server.db, player.id, row.id)
    return JSONResponse(await _view(request, attempt, row),
                        status_code=201 if resumed is None else 200)


async def show_attempt(request: Request) -> Response:
    server: Server = request.app.state.server
    player = await caller(request)
    _limit(request, player.id)
    attempt = await store.get_attempt(server.db, params.attempt_id(request), player.id)
    row = await store.get_puzzle(server.db, attempt.puzzle_id)
    return JSONResponse(await _view(request, attempt, row))


async def move(request: Request) -> Response:
    server: Server = request.app.state.server
    player = await caller(request)
    _limit(request, player.id)
    data = await read_json(request)
    text, ply = data.get("move"), data.get("ply")
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_MOVE:
        raise ApiError("malformed", f"'move' is an action text of at most {MAX_MOVE} "
                       "characters: \"play 33\" or \"pass\"")
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise ApiError("malformed", "'ply' is the number of moves of the line you played on")
    attempt = await store.get_attempt(server.db, params.attempt_id(request), player.id)
    if attempt.status != store.PLAYING:
        raise ApiError("conflict", f"this attempt is over ({attempt.status})")
    if ply != attempt.plies:
        raise ApiError("stale", f"the attempt has {attempt.plies} moves, not {ply}: reload it")
    row = await store.get_puzzle(server.db, attempt.puzzle_id)
    desk = _desk(request)
    solvers = desk.solvers(row.rules)
    start, line = _start(row, solvers), list(attempt.line)
    try:
        step: Step = await desk.run(lambda: _play(solvers, start, line, text))
    except (BadMove, RuleError) as exc:
        raise ApiError("illegal", str(exc)) from None
    extra: dict[str, object] = {"reply": step.reply}
    if step.status == "playing":
        await store.advance(server.db, attempt, step.line)
    else:
        ended = await store.finish(server.db, attempt, step.line, step.status == "solved")
        extra["change"] = ended.change
    fresh = await store.get_attempt(server.db, attempt.id, player.id)
    return JSONResponse(await _view(request, fresh, row, extra))


def _limit(request: Request, player_id: str) -> None:
    limiter = _desk(request).limiter
    if not limiter.allow(player_id):
        wait = max(1, int(limiter.retry_after(player_id) + 0.999))
        raise ApiError("rate_limited", f"too many puzzle requests; try again in {wait} s")


ROUTES = [
    Route("/api/puzzles", overview, methods=["GET"]),
    Route("/api/puzzles/attempts", new_attempt, methods=["POST"]),
    Route("/api/puzzles/attempts/{attempt_id}", show_attempt, methods=["GET"]),
    Route("/api/puzzles/attempts/{attempt_id}/moves", move, methods=["POST"]),
]
