"""How the hall speaks to players without knowing about sockets.

The hall (tables, lobby) produces typed messages for players; the server layer
implements ``Outbox`` by putting each message on the bounded send queue of
every connection the player has (one, after a second connection supersedes
the first). ``send`` never blocks and never raises: a slow client's queue is
the server's to bound and, when it overflows, to close.
"""

from __future__ import annotations

from typing import Protocol

from cardhall.protocol.messages import ServerMessage


class Outbox(Protocol):
    def send(self, player_id: str, message: ServerMessage) -> None:
        """Queue ``message`` for the player's live connection, if he has one."""

    def closed(self, player_id: str, table: str) -> None:
        """``table`` closed and the player was told nothing (a watcher): whatever his
        connection keeps of it can go. Nothing is sent."""


class Recorder:
    """An Outbox that keeps what was sent, per player: for the hall's own tests and tools."""

    def __init__(self) -> None:
        self.sent: dict[str, list[ServerMessage]] = {}

    def send(self, player_id: str, message: ServerMessage) -> None:
        self.sent.setdefault(player_id, []).append(message)

    def closed(self, player_id: str, table: str) -> None:
        """Nothing is kept of a table here but what was sent."""
