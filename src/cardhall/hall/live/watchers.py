"""观战: who watches a table, and the game as they see it, a few actions behind.

Any player may watch a live table (``watch``), an admin any table, a player nobody's
table whose owner closed it to spectators, nor one he sits at; a table takes at most
``per_table`` watchers (each is sent every change: a bound on what strangers make the
table spend). ``leave`` stops watching, and so does the watcher's connection dropping.
The owner may close the table or open it again while it lives (``spectators``): closing
sends its watchers away but admins, and is stored with its live game before anyone
hears of it, so that a table rebuilt from the log is closed as its owner left it.

A watcher sees only what every seat sees alike (``spectator.spectator_view``), and
sees it ``delay`` actions late: while the table's game is at seq s, he is shown the
public view of seq s − delay. So nobody can sit at a table and follow it from a
second account's watch as it happens. The game's end is shown at once (ruling "The
hall", 观战): once it is over nothing it shows can change the play, and a game whose
last actions were held back would show them only when the table's next game starts,
or never if it closes.

The late game is a second ``GameState`` kept only while someone watches: replayed
from the table's log up to s − delay when first needed (or when the table's game is
another), then moved on one action per action of the table, so a watched table
spends one ``apply`` and one public view per change, not a replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardhall.games import GameState, replay
from cardhall.hall.domain.errors import Forbidden, NotAllowed, NotSeated
from cardhall.hall.live.commands import Recount
from cardhall.hall.live.views import Observation, Views
from cardhall.protocol.messages import Left

if TYPE_CHECKING:
    from cardhall.hall.live import commands as c
    from cardhall.hall.live.table import Table

#: The ``left`` reason a watcher hears when he stops watching.
UNWATCHED = "unwatched"
#: The ``left`` reason a watcher hears when the owner closes the table to spectators.
CLOSED_TO_SPECTATORS = "closed_to_spectators"
#: Seconds from a change of the watcher count to its telling: watchers coming and going,
#: however fast, cost the seats one ``state`` per this long at most.
RECOUNT_SECONDS = 1.0


class Lag:
    """The table's game as its watchers see it: ``delay`` actions behind."""

    def __init__(self) -> None:
        self._game: GameState | None = None
        self._of: GameState | None = None  # the table's game it follows
        self._views = Views()

    def seen(self, game: GameState, delay: int) -> tuple[int, Observation | None]:
        """The seq a watcher sees of ``game`` now and its public view; None for the
        view: the game as it is (no delay, or the game is over)."""
        now = len(game.actions)
        target = now if game.over else max(0, now - delay)
        if target == now:
            self.forget()
            return now, None
        lag = self._game
        if lag is None or self._of is not game or len(lag.actions) > target:
            lag = replay({**game.record(), "actions": game.actions[:target]})
            self._game, self._of = lag, game
        while len(lag.actions) < target:
            lag.apply(game.actions[len(lag.actions)])
        return target, self._views.public(lag)

    def forget(self) -> None:
        self._game = self._of = None


def seen(table: Table) -> tuple[int, Observation, int | None]:
    """The seq, view and deadline a watcher is shown of ``table``'s game now: late, with
    no deadline of that moment (a story of that moment is not told either: the caller
    tells the events of the table's current seq only)."""
    game = table.game
    assert game is not None
    seq, view = table.lag.seen(game, table.watch_delay)
    if view is None:
        return seq, table.views.public(game), table.deadline
    return seq, view, None


async def on_watch(table: Table, cmd: c.Watch) -> None:
    """``cmd.player`` watches ``table``: he is sent the table as watchers see it, every
    seat and watcher the new count a moment later (``RECOUNT_SECONDS``)."""
    if table.seat_of(cmd.player) is not None:
        raise NotAllowed("you sit at this table: you cannot watch it")
    if not (cmd.admin or table.spectators):
        raise Forbidden("this private table is closed to spectators" if table.owner else
                        "an event's deals are not watched while it runs (复式: everyone "
                        "plays them)")
    if cmd.player not in table.watchers and len(table.watchers) >= table.watch_cap \
            and not cmd.admin:
        raise NotAllowed(f"table {table.id} has {table.watch_cap} watchers already: "
                         "the most it takes")
    table.watchers.add(cmd.player)
    if cmd.admin:
        table.admin_watchers.add(cmd.player)
    table.outbox.send(cmd.player, table.state_for(cmd.player))
    _recount_later(table)


async def on_unwatch(table: Table, cmd: c.Unwatch) -> None:
    """``cmd.player`` stops watching: he hears ``left`` (reason ``unwatched``), the
    others the new count a moment later."""
    if cmd.player not in table.watchers:
        raise NotSeated(f"you do not watch table {table.id}")
    _send_away(table, cmd.player, UNWATCHED)
    _recount_later(table)


def _send_away(table: Table, player: str, reason: str) -> None:
    """``player`` watches ``table`` no more: he hears ``left`` with ``reason``."""
    table.watchers.discard(player)
    table.admin_watchers.discard(player)
    # His mutes go with him: kept, 64 passing watchers' would fill the table's bound on
    # listeners with mutes and refuse everyone's after (an attacker's finding).
    table.chat.mutes.pop(player, None)
    if not table.watchers:
        table.lag.forget()
    table.outbox.send(player, Left(table=table.id, reason=reason))


async def on_spectators(table: Table, cmd: c.Spectators) -> None:
    """The private table's owner opens or closes it to spectators (its seat checked by
    ``Table._handle``). Stored with the live game first (a fenced write: a rebuilt table
    keeps it; between games the next game's row takes it), then told: the watchers but
    admins are sent away (``left``, reason ``closed_to_spectators``), and every seat sees
    the setting in its ``state``."""
    if table.owner is None:
        raise NotAllowed("only a private table's owner opens or closes it to spectators")
    if cmd.player != table.owner:
        raise Forbidden("only the table's owner opens or closes it to spectators")
    if table.game_id is not None:  # a row no longer live (settled) takes nothing
        await table.store.set_spectators(table.game_id, cmd.on, table.fence)
    table.spectators = cmd.on
    if not cmd.on:
        for player in sorted(table.watchers - table.admin_watchers):
            _send_away(table, player, CLOSED_TO_SPECTATORS)
    table._broadcast()


def _recount_later(table: Table) -> None:
    if table.recount is None:
        table.recount = table.scheduler.call_later(
            RECOUNT_SECONDS, lambda: table._post(Recount()))


def on_recount(table: Table) -> None:
    """The count changed a moment ago: everyone hears it, if it is not what they heard
    last (a watcher who came and went)."""
    table.recount = None
    if len(table.watchers) != table.told_watchers:
        table._broadcast()
