"""A table's plain parts: its phases, its seats, its commands, and the storage it needs.

Kept apart from ``table.py`` (the table's state machine) so that the lobby, the hall
and the stores can name them without the machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from cardhall.games import GameState
from cardhall.hall.domain import levels

if TYPE_CHECKING:
    from cardhall.hall.live.table import Table

#: The title of bots (``levels.BOT_TITLE``): the hall's own and bot accounts'.
BOT_TITLE = levels.BOT_TITLE
#: The names the hall gives its bots, by seat, and the same in English (an English page
#: shows these: /api/names).
BOT_NAMES = ("机器人·甲", "机器人·乙", "机器人·丙", "机器人·丁", "机器人·戊")
BOT_NAMES_EN = ("Bot A", "Bot B", "Bot C", "Bot D", "Bot E")
BOT_TITLE_EN = "Bot"


class TablePhase(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    BETWEEN = "between"
    CLOSED = "closed"


@dataclass
class Seat:
    player: str | None  # None: a bot seat
    name: str
    title: str = ""
    connected: bool = True
    left: bool = False  # left the table during a game (his seat plays on under 托管)
    wants_next: bool = False
    balance: int = 0
    #: The bot that plays a bot seat, if not the room's (``Room.bot``): a challenge's
    #: anchor (``hall.events.challenge``).
    brain: str | None = None

    @property
    def human(self) -> bool:
        return self.player is not None

    @property
    def bot(self) -> bool:
        """Played by a program: the hall's bot (no player) or a bot account, whose title
        is always ``BOT_TITLE`` (it earns no level title), so every way a seat is made
        (a match, a code, a table rebuilt from its log) marks it alike."""
        return self.player is None or self.title == BOT_TITLE


class Pace(Protocol):
    """Who deals a table's next game instead of its players' 再来一局 (an event,
    ``hall.events.runner``): told after each settled game."""

    async def after_game(self, table: Table) -> None: ...

    def seed(self, table: Table) -> int | None:
        """The next deal's seed (a duplicate event's fixed deals); None: any deal."""


class TableStore(Protocol):
    """Where a table's games live: the action log and the settlement."""

    async def start_game(self, table: Table, game: GameState) -> str: ...
    async def append(self, game_id: str, seq: int, action: str, seat: int | None,
                     fence: int | None, final: bool = False) -> None: ...
    async def settle(self, table: Table, game: GameState, beans: list[int],
                     fees: list[int] | None = None) -> dict[str, Any]: ...
    async def balances(self, players: list[str]) -> dict[str, int]: ...
    async def golden_eyes(self, players: list[str]) -> dict[str, int]: ...
    async def abandon(self, table: Table, game: GameState) -> None: ...
    async def set_spectators(self, game_id: str, on: bool, fence: int | None) -> None: ...
