"""A table's settlement of its finished game: once, and always, without holding anyone.

The game's last action is logged (``final``) before the settlement starts, so the
game is over for good whatever happens next. The settlement (``TableStore.settle``,
one transaction, idempotent) is then tried at once; the table waits up to
``SETTLE_WAIT`` for it, so that on a healthy database the ``settled`` message follows
the last action as it always did. If it has not committed by then (the database is
locked, slow or away) the table goes on ``BETWEEN`` without it: its players may
leave, join elsewhere or press 再来一局; the attempt goes on in the background, and
a failed one is tried again after ``retry_seconds`` (0.5 s doubling to 30 s) on the
table's scheduler, until one commits. Each player at the table when the game ended
gets ``settled`` then (one who is away: in his ``away`` message when he comes
back). The next game starts only after it, and a table asked to close meanwhile
(everyone left) closes only after it: the retries are the table's.

A process that dies meanwhile loses nothing: the game is still ``live`` in the
database, with its last action logged, and the restarted hall (or the process that
takes the table over) adopts the table, finds the game over and settles it the same
way. ``settle_game`` flips the game's status in the settlement's own transaction, so
an attempt that committed before a crash or a retry is never applied twice.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from cardhall.hall.domain.economy import BeanSplit, game_split
from cardhall.hall.domain.errors import Conflict, Fenced
from cardhall.hall.live import away
from cardhall.hall.live import commands as c
from cardhall.hall.live.seats import TablePhase
from cardhall.hall.live.timers import SETTLE_WAIT, retry_seconds
from cardhall.protocol.messages import RatingChange, Settled

if TYPE_CHECKING:
    from cardhall.hall.live.table import Table

log = logging.getLogger("cardhall.hall.table")


async def settle(t: Table) -> None:
    """The game is over (its last action logged): settle it, waiting a little."""
    game = t.game
    assert game is not None and game.over
    t._cancel_turn_timer()
    t.deadline = None
    # The last action is durable: everyone sees it now, not after the settlement's
    # transaction (the slowest write of the hall); its result follows as ``settled``.
    t._broadcast()
    t.phase = TablePhase.BETWEEN
    t.settling, t.settle_failures = True, 0
    t._owed = t._audience()
    await attempt(t, SETTLE_WAIT)


async def attempt(t: Table, wait: float) -> None:
    """One try; its outcome is handled here if it comes within ``wait`` seconds, else
    by the table's queue when it comes (``on_settlement``)."""
    game, game_id = t.game, t.game_id
    assert game is not None and game_id is not None
    result = game.result()
    assert result is not None
    parts = split(t, result)
    task = asyncio.get_running_loop().create_task(
        t.store.settle(t, game, parts.changes, parts.fees))
    t._attempting = task
    if wait > 0:
        await asyncio.wait({task}, timeout=wait)
    if task.done():
        await outcome(t, task)
        return
    task.add_done_callback(lambda done: t._post(c.SettlementDone(game_id, done)))
    if t.settle_failures == 0:
        t._broadcast()  # between games: the players may go on meanwhile


def split(t: Table, result: dict[str, Any]) -> BeanSplit:
    """The game's bean changes and fees on the balances it was dealt (the same every
    attempt: the balances stay until the next deal)."""
    return game_split(result, t.room.N, t.room.A, [s.balance for s in t.seats])


def fees(t: Table, result: dict[str, Any], beans: dict[str, int]) -> dict[str, int]:
    """The fee in each seated player's change, keyed as ``beans`` (a private table's
    games take none: they move no beans)."""
    taken = split(t, result).fees
    return {seat: 0 if t.private else taken[int(seat)] for seat in beans}


def ratings(done: dict[str, Any]) -> dict[str, RatingChange] | None:
    """Each rated seat's rating change (None when the game rated nobody: omitted)."""
    moved = done.get("ratings") or {}
    return {seat: RatingChange(**c) for seat, c in moved.items()} or None


async def on_settlement(t: Table, cmd: c.SettlementDone) -> None:
    if cmd.game == t.game_id and t.settling:
        await outcome(t, cmd.task)


async def on_settle(t: Table, cmd: c.SettleAgain) -> None:
    """The retry timer ran out: try again, in the background."""
    t._retry = None
    if cmd.game == t.game_id and t.settling:
        await attempt(t, 0)


async def outcome(t: Table, task: asyncio.Task[dict[str, Any]]) -> None:
    if task.cancelled():  # never into the table's task: it would end it
        failed(t, asyncio.CancelledError())
        return
    exc = task.exception()
    if isinstance(exc, Fenced):
        raise exc  # another process owns the table now: it settles the game
    if isinstance(exc, Conflict):  # ended otherwise (dissolved): nothing to settle
        log.error("table %s: game %s cannot be settled (%s); the table closes",
                  t.id, t.game_id, exc)
        t.settling = False
        await t._close("dissolved", requeue=False)
        return
    if exc is not None:
        failed(t, exc)
        return
    await committed(t, task.result())


def failed(t: Table, exc: BaseException) -> None:
    t.settle_failures += 1
    delay = retry_seconds(t.settle_failures)
    log.warning("table %s: the settlement of game %s failed (try %d: %s); "
                "trying again in %.1f s", t.id, t.game_id, t.settle_failures,
                type(exc).__name__, delay,
                extra={"event": "settle_retry", "table": t.id, "game": t.game_id})
    if t.settle_failures == 1:
        t._broadcast()  # between games: the players may go on meanwhile
    again = c.SettleAgain(t.game_id)
    t._retry = t.scheduler.call_later(delay, lambda: t._post(again))


async def committed(t: Table, done: dict[str, Any]) -> None:
    game = t.game
    assert game is not None
    result = game.result()
    assert result is not None
    t.settling = False
    if t.settle_failures:
        log.info("table %s: game %s settled after %d failed tries", t.id,
                 t.game_id, t.settle_failures)
    if done["applied"] and t.settled_hook is not None:
        t.settled_hook()  # a game rebuilt and settled again was counted before
    t._broadcast()
    message = Settled(table=t.id, game=t.game_id or "", result=result,
                      beans=done["beans"], points=done["points"], titles=done["titles"],
                      dissolved=bool(result["dissolve"]),
                      fees=fees(t, result, done["beans"]), balances=done.get("balances"),
                      ratings=ratings(done))
    t.last_settled = message
    # Sent to the ones away too (dropped unless they are back): they hear of it again
    # when they come back, in their ``away`` message or with the table's state.
    for player in dict.fromkeys([*t._owed, *t._audience()]):
        t.outbox.send(player, message)
    t._owed = []
    if t._close_after is not None:
        reason, requeue = t._close_after
        await t._close(reason, requeue)
    elif t.pace is not None:
        await t.pace.after_game(t)
    elif result["dissolve"] or not t.humans():
        await t._close("dissolved" if result["dissolve"] else "empty", requeue=False)
    else:
        await away.maybe_next(t)
        away.check_idle(t)


def stop_retry(t: Table) -> None:
    """The table stops (closed, dropped, the hall shutting down): no more tries here. An
    unsettled game stays live in the database, for the next owner to settle."""
    if t._retry is not None:
        t._retry.cancel()
        t._retry = None
    if t._attempting is not None and not t._attempting.done():
        t._attempting.cancel()
    t._attempting = None
