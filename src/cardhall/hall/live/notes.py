"""What a player missed while away, kept for his next hello (platform ruling 13).

A table that closed while one of its players was disconnected (``away.note``) leaves
him its ``away`` and ``left`` messages; the hello that brings him back delivers them
after the ``welcome``. One process keeps them in memory (``Lobby.notes``); several
processes (``cardhall serve --redis``) keep them in Redis (``RedisNotes``), since he may
come back through any process: a list per player, its newest ``NOTES_PER_PLAYER``
kept, forgotten after ``NOTE_SECONDS`` or once taken.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from pydantic import Field, TypeAdapter
from redis.asyncio import Redis
from redis.exceptions import RedisError

from cardhall.protocol.messages import Away, Left, ServerMessage

log = logging.getLogger("cardhall.hall.notes")

#: Messages kept for a player who is away, and players kept at most (in memory): the
#: oldest go first (a player who never comes back does not hold memory for ever).
NOTES_PER_PLAYER, NOTED_PLAYERS = 8, 10_000
#: Seconds Redis keeps a player's notes (a week: the memory bound of a shared store).
NOTE_SECONDS = 7 * 24 * 3600

Note = Annotated[Away | Left, Field(discriminator="type")]
_NOTE: TypeAdapter[Away | Left] = TypeAdapter(Note)


class RedisNotes:
    """The notes of every process of one hall, in Redis (``key(player)`` names a list)."""

    def __init__(self, redis: Redis, key: Callable[[str], str],
                 spawn: Callable[[Coroutine[Any, Any, None]], None]) -> None:
        self.redis = redis
        self.key = key
        self.spawn = spawn

    def add(self, player: str, message: ServerMessage) -> None:
        """Keep ``message`` (written in the background: a table never waits on Redis)."""
        self.spawn(self._add(self.key(player), message.model_dump_json()))

    async def _add(self, key: str, text: str) -> None:
        try:
            pipe = self.redis.pipeline(transaction=True)
            pipe.rpush(key, text)
            pipe.ltrim(key, -NOTES_PER_PLAYER, -1)
            pipe.expire(key, NOTE_SECONDS)
            await pipe.execute()
        except (TimeoutError, RedisError, OSError) as exc:  # Redis away: the note is lost
            log.warning("a note for %s was not kept: %s", key, exc)

    async def take(self, player: str) -> list[ServerMessage]:
        """The notes kept for ``player``, forgotten once taken (one transaction: two
        hellos at once do not both get them)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.lrange(self.key(player), 0, -1)
        pipe.delete(self.key(player))
        texts, _ = await pipe.execute()
        return [_NOTE.validate_json(t) for t in texts]
