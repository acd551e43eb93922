"""Quick chat at a table: who may speak, who hears whom, and how often a player may.

A line is one id of the fixed catalog (``protocol.chat``), said by a seated player (a
watcher listens only) and sent as ``chat {table, seat, say}`` to everyone at the table
who hears that seat: the seated players still connected and the watchers, the speaker
too (his client shows his own bubble from the echo, as the others see it).

Whether one hears another is one function, ``hears``: a listener's mutes at this table
(``mute`` names a seat, and mutes whoever sits there then: that player wherever he sits
at this table, not the next one to take the seat; a bot by its seat) and then
``TableChat.blocks``, the hook for
a block list kept elsewhere (friends' blocks): every table asks ``Lobby.chat_blocks``,
which the hall sets once; asked with player ids, it must answer at once (load the
list when the player connects or sits down).

How often a player may chat is the ``ChatPace`` of the process holding his connection
(``Hall.handle``), checked before the line is forwarded to the table's owner: a
player's connection lives in one process at a time, so a reconnection elsewhere only
starts a fresh window. Nothing is logged per line: a line is not an event anyone
needs to read back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardhall.hall.domain.errors import Busy, NotAllowed, TooManyTries
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.live import bot_chat
from cardhall.hall.live import commands as c
from cardhall.hall.live.seats import TablePhase
from cardhall.protocol.chat import GAP_SECONDS, MUTES_PER_LISTENER, PER_MINUTE
from cardhall.protocol.messages import Said

if TYPE_CHECKING:
    from cardhall.hall.live.table import Table

#: Listeners (seated or watching) whose mutes one table keeps: past it a new one's mute
#: is refused ``busy`` (a table has at most five seats; this bounds its watchers' lists).
MUTING_LISTENERS = 64

#: ``blocks(listener, speaker)``: True when ``listener`` never wants to hear ``speaker``
#: (player ids). Must not wait: it runs on the table's queue.
Blocks = Callable[[str, str], bool]


def nobody_blocked(listener: str, speaker: str) -> bool:
    return False


@dataclass
class TableChat:
    """What a table keeps for its chat: each listener's muted voices (``voice``), the
    block hook, and its bots' pace (``bot_chat``)."""

    mutes: dict[str, set[str]] = field(default_factory=dict)
    blocks: Blocks = nobody_blocked
    bots: bot_chat.BotVoice = field(default_factory=bot_chat.BotVoice)


class ChatPace:
    """One line per ``GAP_SECONDS`` and ``PER_MINUTE`` lines a minute, per player.

    Memory: one entry per player who chatted within the last minute (``RateLimiter``
    sweeps the rest). The clock is injected so that a test moves time without sleeping.
    """

    def __init__(self, gap: float = GAP_SECONDS, per_minute: int = PER_MINUTE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.gap = RateLimiter(1, gap, clock)
        self.minute = RateLimiter(per_minute, 60.0, clock)

    def check(self, player: str) -> None:
        """Refuse (``rate_limited``) a line of ``player``'s when he spoke too lately or
        too often; count nothing (``take`` counts a line once the table took it, so a
        line refused for another reason, such as not sitting there, costs nothing)."""
        wait = max(self.gap.retry_after(player), self.minute.retry_after(player))
        if wait > 0:
            raise TooManyTries(f"you chat too fast: wait {wait:.1f} s")

    def count(self, player: str) -> None:
        """Count one line of ``player``'s, said."""
        self.gap.allow(player)
        self.minute.allow(player)

    def take(self, player: str) -> None:
        """Count one line of ``player``'s, or refuse it as ``check`` does."""
        self.check(player)
        self.count(player)


def hears(t: Table, listener: str, seat: int) -> bool:
    """Does ``listener`` (a player id, seated or watching) hear what ``seat`` says?
    Not if he muted the seat here, nor if the hall's block hook says he blocks its
    player. The one place chat is filtered: add any other reason here."""
    if voice(t, seat) in t.chat.mutes.get(listener, ()):
        return False
    speaker = t.seats[seat].player
    return speaker is None or speaker == listener or not t.chat.blocks(listener, speaker)


def voice(t: Table, seat: int) -> str:
    """Who speaks from ``seat`` as a mute names him: the player's id, or the bot's seat."""
    player = t.seats[seat].player
    return player if player is not None else f"bot:{seat}"


def say(t: Table, seat: int, line: str) -> None:
    """Tell ``seat``'s line to everyone at the table who hears it."""
    message = Said(table=t.id, seat=seat, say=line)  # type: ignore[arg-type]
    for s in t.seats:
        if s.player is not None and not s.left and s.connected and hears(t, s.player, seat):
            t.outbox.send(s.player, message)
    for watcher in t.watchers:  # an admin watching his own table hears it once
        if t.seat_of(watcher) is None and hears(t, watcher, seat):
            t.outbox.send(watcher, message)


def on_say(t: Table, cmd: c.Say) -> None:
    """A seated player's line (the table checked his seat), then perhaps a bot's answer."""
    seat = t.seat_of(cmd.player)
    assert seat is not None  # checked by Table._handle
    say(t, seat, cmd.say)
    if t.game is not None:
        answer = t.chat.bots.answer(cmd.say, t.game.seed, _bot_seats(t))
        if answer is not None:
            say(t, *answer)


def at_end(t: Table) -> None:
    """The game just ended: a bot seat may say a word about it (``bot_chat.at_end``)."""
    if t.game is not None and t.phase != TablePhase.CLOSED:
        answer = t.chat.bots.at_end(t.game.seed, _bot_seats(t))
        if answer is not None:
            say(t, *answer)


def on_mute(t: Table, cmd: c.Mute) -> None:
    """Mute (or unmute) a seat for one listener: a seated player or a watcher."""
    if t.seat_of(cmd.player) is None and cmd.player not in t.watchers:
        raise NotAllowed(f"you are not at table {t.id}")
    if not 0 <= cmd.seat < len(t.seats):
        raise NotAllowed(f"table {t.id} has no seat {cmd.seat}")
    if t.seat_of(cmd.player) == cmd.seat:
        # He always hears his own line (the echo is his bubble): a mute of it would be
        # taken and do nothing, a silent success a client must not be led to trust.
        raise NotAllowed("you cannot mute your own seat")
    muted, who = t.chat.mutes.get(cmd.player), voice(t, cmd.seat)
    if not cmd.on:
        if muted is not None:
            muted.discard(who)
            if not muted:
                del t.chat.mutes[cmd.player]
        return
    if muted is None:
        if len(t.chat.mutes) >= MUTING_LISTENERS:
            raise Busy(f"table {t.id} keeps no more mutes")
        muted = t.chat.mutes[cmd.player] = set()
    if len(muted) >= MUTES_PER_LISTENER and who not in muted:
        raise NotAllowed(f"at most {MUTES_PER_LISTENER} muted seats")
    muted.add(who)


def _bot_seats(t: Table) -> list[int]:
    return [i for i, s in enumerate(t.seats) if not s.human]
