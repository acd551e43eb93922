"""A table's players coming and going: drops, returns, and the time between games.

A dropped connection is never a leave (platform rules §5, ruling 13): the seat goes on
托管 at once (logged) and plays on to the end of the game, scored normally; each
decision 托管 takes for it meanwhile is counted. When the player comes back the table
tells him what happened (``away``: those turns, and the settlement if the game ended);
if the table closed meanwhile (anyone on 托管 at the end dissolves it), the hall gives
him that message after his next ``welcome`` (``Table.on_note``).

Between games a player who is away does not hold up the others' 再来一局 (as in the
big halls): once every connected player has asked for it, the ones away are taken off
the table (no penalty: no game runs) and the others go back to the room's queue, as
when anyone leaves between games. A table with none of its players connected closes
after ``grace_seconds`` (``idle``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardhall.hall.live import commands as c
from cardhall.hall.live.seats import TablePhase
from cardhall.protocol.messages import Away, Left, ServerMessage

if TYPE_CHECKING:
    from cardhall.hall.live.table import Table


async def maybe_next(t: Table) -> None:
    """Start the next game once every connected player wants it and the last one is
    settled. A player who is disconnected does not hold up the others (as in the
    big halls): he is taken off the table, the others go back to the room's queue
    (a new table, as when anyone leaves between games), and he is told on return."""
    if t.phase != TablePhase.BETWEEN or t.settling or t.pace is not None:
        return  # an event's table is dealt by the event
    seated = [s for s in t.seats if s.human and not s.left]
    present = [s for s in seated if s.connected]
    if not present or not all(s.wants_next for s in present):
        return
    if len(present) == len(seated):
        await t._start_game()
        return
    for i, s in enumerate(t.seats):
        if s.player is not None and not s.left and not s.connected:
            s.left = True
            await t._seats_changed([], [s.player])
            note_away(t, i)
            note(t, s.player, Left(table=t.id, reason="away"))
    await t._close("a player left", requeue=True)


async def on_connection(t: Table, cmd: c.Connection) -> None:
    player = cmd.player
    seat = t.seat_of(player)
    if seat is None:
        return
    s = t.seats[seat]
    s.connected = cmd.up
    game = t.game
    if s.connected:
        stop_idle(t)
        t._send_state(player)
        missed = away_message(t, seat)
        if missed is not None:
            t.outbox.send(player, missed)
        elif t.phase == TablePhase.BETWEEN and t.last_settled is not None:
            t.outbox.send(player, t.last_settled)
        return
    if t.phase == TablePhase.PLAYING and game is not None and not game.over:
        t._away.setdefault(seat, 0)
        if not game.auto[seat] and not game.left[seat]:
            await t._accept(f"@{seat} auto on", seat)  # ruling 13: 托管 to the end
            return
    t._broadcast()
    if t.phase == TablePhase.BETWEEN:
        await maybe_next(t)  # the others may have been waiting only for him
        check_idle(t)


def away_message(t: Table, seat: int) -> Away | None:
    """What the player of ``seat`` missed while away (and forget it), if anything:
    his seat's 托管 turns, and the settlement if the game ended meanwhile."""
    turns = t._away.pop(seat, None)
    if turns is None:
        return None
    over = t.game is not None and t.game.over
    return Away(table=t.id, game=t.game_id, turns=turns, over=over,
                settled=t.last_settled if over else None, seat=seat)


def note_away(t: Table, seat: int) -> None:
    """The player of ``seat`` is away and will not find this table: what he missed
    (his 托管 turns, the settlement) waits for his next hello."""
    player = t.seats[seat].player
    assert player is not None
    missed = away_message(t, seat)
    if missed is None and t.last_settled is not None:
        missed = Away(table=t.id, game=t.game_id, turns=0, over=True,
                      settled=t.last_settled, seat=seat)
    if missed is not None:
        note(t, player, missed)


def note(t: Table, player: str, message: ServerMessage) -> None:
    """Keep ``message`` for the player's next hello (the hall's ``Lobby.note``)."""
    if t.on_note is not None:
        t.on_note(player, message)


def check_idle(t: Table) -> None:
    """Between games with none of its players connected: close after the grace."""
    if t.phase != TablePhase.BETWEEN or t._idle is not None or t.pace is not None:
        return
    if any(s.connected for s in t.seats if s.human and not s.left):
        return
    idle = c.Idle(t.game_id)
    t._idle = t.scheduler.call_later(t.grace_seconds, lambda: t._post(idle))


def stop_idle(t: Table) -> None:
    if t._idle is not None:
        t._idle.cancel()
        t._idle = None


async def on_idle(t: Table, cmd: c.Idle) -> None:
    t._idle = None
    if t.phase != TablePhase.BETWEEN or cmd.game != t.game_id:
        return
    if not any(s.connected for s in t.seats if s.human and not s.left):
        await t._close("idle", requeue=False)

