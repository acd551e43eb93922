"""The seats' own commands at a table: sitting down, starting, playing on, leaving.

A friend takes a free seat at a private table (``sit``) and its owner starts it
(``start_now``: bots fill the rest); after a game each player asks for the next one
(``next``) or leaves. A leave during a game is logged as the seat's (an escape or a
forced quit, per game); between games it sends the others back to the queue; at a
private table still filling it frees the seat and keeps the invite. Leaving the table
outright mid-game and an admin's ``kick`` are both forced (``@S leave forced``). Each
runs on the table's own queue (``Table._handle``), like every command that changes a
table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardhall.hall.domain.errors import Forbidden, NotAllowed, TooManyTries, UnknownTable
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.live import away
from cardhall.hall.live import commands as c
from cardhall.hall.live.seats import BOT_NAMES, BOT_TITLE, Seat, TablePhase
from cardhall.protocol.messages import Brought, Left

if TYPE_CHECKING:
    from cardhall.hall.live.table import Table

#: Seconds before a table sends one inviter's invite of one friend again (``bring``).
BRING_AGAIN_SECONDS = 60.0


def invites() -> RateLimiter:
    """A table's memory of its invites: one per (inviter, friend) per
    ``BRING_AGAIN_SECONDS`` (it forgets those older than that)."""
    return RateLimiter(1, BRING_AGAIN_SECONDS)


async def on_next(t: Table, cmd: c.PlayOn) -> None:
    seat = t.seat_of(cmd.player)
    assert seat is not None  # checked by Table._handle
    if t.phase != TablePhase.BETWEEN:
        raise NotAllowed("play on once the game is over")
    t.seats[seat].wants_next = True
    await away.maybe_next(t)
    if t.phase == TablePhase.BETWEEN:
        t._broadcast()  # not dealt yet: the others see who is ready (SeatInfo.next)

async def on_leave(t: Table, cmd: c.Leave) -> None:
    """The player leaves the table outright. During a game that is a forced quit (强退,
    the client confirms it first): 保皇's and 找朋友's −40 (baohuang.md Ruling 18,
    platform §5), Dou Dizhu's escape (which costs the same either way). The seat's own
    ``leave`` action (``act``), the exit button, only puts it on 托管."""
    seat = t.seat_of(cmd.player)
    assert seat is not None  # checked by Table._handle
    await leave(t, seat, forced=True, reason=cmd.reason)

async def on_free(t: Table, cmd: c.Free) -> None:
    """The player wants a new table: he leaves this one unless a game is running."""
    seat = t.seat_of(cmd.player)
    if seat is None:
        return
    if t.phase == TablePhase.PLAYING:
        raise NotAllowed(f"you are playing at table {t.id}: finish or leave it first")
    await leave(t, seat, forced=True, reason="left")

async def leave(t: Table, seat: int, forced: bool, reason: str) -> None:
    player = t.seats[seat].player
    assert player is not None
    if t.pace is not None and reason != "kicked":
        raise NotAllowed("an event's table cannot be left: your seat plays on 托管 while "
                         "you are away (the exit button), and you may come back")
    game = t.game
    if t.phase == TablePhase.PLAYING and game is not None and not game.over \
            and not game.left[seat]:
        await t._accept(f"@{seat} leave{' forced' if forced else ''}", seat)
    t.seats[seat].left = True
    await t._seats_changed([], [player])
    left = Left(table=t.id, reason=reason)
    t.outbox.send(player, left)
    if not t.seats[seat].connected:
        away.note_away(t, seat)
        away.note(t, player, left)
    if t.phase == TablePhase.WAITING and t.code is not None:
        await free_seat(t, seat)
    elif t.phase in (TablePhase.BETWEEN, TablePhase.WAITING):
        await t._close("a player left", requeue=True)
    elif not t.humans() and t.game is not None and not t.game.over:
        t._after_change()  # only machines left: they finish the game

async def free_seat(t: Table, seat: int) -> None:
    """A friend leaves a private table still filling: his seat opens again, the others
    keep theirs and the invite code (as a friend room does in the big halls); the
    owner's part passes to the next friend; the last one out closes the table."""
    t.seats[seat] = Seat(player=None, name=BOT_NAMES[seat % len(BOT_NAMES)],
                            title=BOT_TITLE)
    humans = t.humans()
    if not humans:
        await t._close("empty", requeue=False)
        return
    if t.owner not in humans:
        t.owner = humans[0]
    t._broadcast()

async def on_kick(t: Table, cmd: c.Kick) -> None:
    seat = t.seat_of(cmd.player)
    if seat is not None:
        await leave(t, seat, forced=True, reason="kicked")

async def on_sit(t: Table, cmd: c.Sit) -> None:
    """A friend takes a free seat at a private table; the table starts once full."""
    if t.phase != TablePhase.WAITING:
        raise UnknownTable(f"table {t.id} is not waiting for players")
    if t.seat_of(cmd.player) is not None:
        raise NotAllowed("you already sit at that table")
    free = next((i for i, s in enumerate(t.seats) if not s.human), None)
    if free is None:
        raise NotAllowed("that table is full")
    await t._seats_changed([cmd.player], [])  # refused if he sits elsewhere
    t.seats[free] = Seat(player=cmd.player, name=cmd.name, title=cmd.title)
    t.watchers.discard(cmd.player)  # a watcher who sits watches no more
    t.admin_watchers.discard(cmd.player)
    for p in t.humans():
        t._send_state(p)
    if all(s.human for s in t.seats):
        await t._start_game()

async def on_start_now(t: Table, cmd: c.StartNow) -> None:
    """A private table's owner starts it: bots take the empty seats."""
    if t.phase != TablePhase.WAITING:
        raise NotAllowed("the table has started")
    if cmd.player != t.owner:
        raise Forbidden("only the table's owner starts it")
    if not t.bots_allowed and any(not s.human for s in t.seats):
        raise NotAllowed("this table has no bots: wait for friends")
    await t._start_game()


#: The commands this module handles, by ``Command.kind``.


def on_bring(t: Table, cmd: c.Bring) -> None:
    """Invite a friend to this private table (``bring``; the inviter's process checked
    the friendship and the blocks): only while it fills, and not one seated already."""
    if t.code is None or t.phase != TablePhase.WAITING:
        raise NotAllowed("invite friends to your private table while it fills")
    if t.seat_of(cmd.friend) is not None:
        raise NotAllowed("that friend sits at this table already")
    # The same invite again is refused, not sent again: ten of one table's invite would
    # fill the friend's screen (an attacker's finding). One dropped for a block counts
    # too, so that the inviter cannot tell it from one delivered.
    again = f"{cmd.player} {cmd.friend}"
    if not t.brought.allow(again):
        wait = max(1, int(t.brought.retry_after(again) + 0.999))
        raise TooManyTries(f"you invited that friend to this table already: again in {wait} s")
    if cmd.by is not None:
        t.outbox.send(cmd.friend, Brought(table=t.id, room=t.room.id, code=t.code, by=cmd.by))
