"""Challenges and the continuous ladder, live (``Hall.challenges``): a challenge made
over HTTP, checked and turned into a running duplicate event of two (the events'
runner plays it: ``runner.Events``), and the ladder's rounds.

A challenge is refused (docs/protocol.md, "Challenges and the ladder") to a guest
(``forbidden``), past ``[ladder] per_hour`` (``rate_limited``), for an unknown variant
or deals out of bounds (``bad_request``), an unknown opponent (``not_found``), an
opponent who is not in the ladder or not online (``unavailable``: only an opted-in
competitor accepts, and at once), and to anyone already seated or in a match or event
(``not_allowed``: one match at a time, the entrants' key holds it in the database).

The continuous ladder runs where the hall-wide job ``ladder`` is held (one process at
a time: ``coord.job``): every ``interval_seconds`` a round (``round``) pairs the
opted-in competitors online and free (``challenge.pairs``) in the round's variant.
Its clock is injected; a test calls ``round`` itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from cardhall.games import VARIANTS
from cardhall.hall.domain.errors import (
    BadRequest,
    Forbidden,
    NotAllowed,
    NotFound,
    TooManyTries,
    Unavailable,
)
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.domain.ratings import bot_name
from cardhall.hall.events import challenge, ladder, store
from cardhall.hall.live.timers import SETTLE_WAIT
from cardhall.hall.store.models import Player

if TYPE_CHECKING:
    from cardhall.hall.service import Hall

log = logging.getLogger("cardhall.hall.ladder")

#: Seconds a process holds the ladder's job between renewals.
HOLD_SECONDS = 30.0


class Challenges:
    """The hall's challenges and ladder rounds in this process."""

    def __init__(self, hall: Hall, clock: Callable[[], float] = time.time) -> None:
        self.hall = hall
        self.config = hall.config.ladder
        self.clock = clock
        self.limiter = RateLimiter(self.config.per_hour, 3600.0)
        self.rounds = 0  # rounds run here (the next one's variant: ``challenge.ORDER``)
        self._task: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()

    # -- a challenge -------------------------------------------------------------------

    async def challenge(self, me: Player, opponent: str, variant: str, deals: int) -> str:
        """Start a match of ``deals`` deals of ``variant`` between ``me`` and
        ``opponent`` (a player's name, or an anchor's): its event's id."""
        if not ladder.may_challenge(me):
            raise Forbidden("register to challenge")
        if variant not in VARIANTS:
            raise BadRequest(f"no variant {variant[:32]!r} (known: {', '.join(VARIANTS)})")
        low, high = self.config.min_deals, self.config.max_deals
        if not low <= deals <= high:
            raise BadRequest(f"a match is {low} to {high} deals")
        if not self.limiter.allow(me.id):
            wait = max(1, int(self.limiter.retry_after(me.id) + 0.999))
            raise TooManyTries(f"too many challenges: try again in {wait} s")
        if opponent in self.config.anchors:
            other: tuple[str | None, str, str] = (None, opponent, opponent)
        else:
            found = await ladder.by_name(self.hall.db, opponent)
            if found is None or found.is_guest:
                raise NotFound(f"no player or anchor {opponent[:32]!r}")
            if found.id == me.id:
                raise BadRequest("you cannot challenge yourself")
            if found.bot_owner in (me.id, me.bot_owner):  # rating one's own bot up
                raise BadRequest("you cannot challenge a bot of your own (or your owner's)")
            if not ladder.is_competitor(found) or not await ladder.opted_in(
                    self.hall.db, [found.id]):
                raise Unavailable(f"{found.name} is not in the ladder")
            if not await self.hall.coord.present([found.id]):
                raise Unavailable(f"{found.name} is not online")
            await self._free(found.id, f"{found.name} is playing")
            other = (found.id, found.name, "")
        await self._free(me.id, "you are playing: finish first")
        return await self.start(variant, deals, (me.id, me.name, ""), other)

    async def _free(self, player: str, why: str) -> None:
        lobby = self.hall.lobby
        if await lobby.all_tables_of(player) or await lobby.store.seated_at(player):
            raise NotAllowed(why)

    async def start(self, variant: str, deals: int, a: tuple[str | None, str, str],
                    b: tuple[str | None, str, str]) -> str:
        """A running match between ``a`` and ``b`` (player or None, name, anchor or ""):
        its event's id; NotAllowed when one is in a match or event already."""
        kind = challenge.kind_for(variant, deals, self.config, (a[2], b[2]))
        event_id = await store.create(self.hall.db, kind, [(a[0], a[1]), (b[0], b[1])])
        for player in (a[0], b[0]):  # out of any queue: his match seats him
            if player is not None:
                await self.hall.lobby.cancel(player)
        self.hall.events.wake()
        log.info("challenge %s: %s v %s, %d deals of %s", event_id, a[1], b[1], deals,
                 variant, extra={"event": "challenge", "challenge": event_id})
        return event_id

    # -- the continuous ladder ---------------------------------------------------------

    def start_loop(self) -> None:
        if self.config.interval_seconds is None or self._task is not None:
            return
        self._closing.clear()
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="ladder")

    async def close(self) -> None:
        self._closing.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, SETTLE_WAIT)
            except TimeoutError:
                self._task.cancel()
            self._task = None

    async def _loop(self) -> None:
        interval = self.config.interval_seconds
        assert interval is not None
        while not self._closing.is_set():
            try:
                if await self.hall.coord.job("ladder", HOLD_SECONDS).hold():
                    await self.round()
            except Exception:  # the database away, a bug: the ladder must go on
                log.exception("ladder: a round failed (tried again next interval)")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), timeout=interval)

    async def round(self, rng: random.Random | None = None) -> list[str]:
        """One round of the ladder: the opted-in competitors online and free, paired in
        the round's variant (an odd one out meets an anchor); the matches' ids."""
        variant = challenge.round_variant(self.rounds)
        round_no = self.rounds
        self.rounds += 1
        ids = sorted(await ladder.opted_in(self.hall.db))
        online = await self.hall.coord.present(ids)
        free = [p for p in ids if p in online]
        busy = await ladder.live_of(self.hall.db, free)
        free = [p for p in free if p not in busy and not await self._seated(p)]
        competitors = {p: q for p in free if (q := await ladder.player(self.hall.db, p))
                       is not None and ladder.is_competitor(q)}
        matches = challenge.pairs(list(competitors), list(self.config.anchors), round_no,
                                  rng or random.Random(f"{self.clock()}"),
                                  {p: q.bot_owner or p for p, q in competitors.items()})
        started: list[str] = []
        for a, b in matches:
            sides = [self._side(x, competitors) for x in (a, b)]
            try:
                started.append(await self.start(variant, self.config.deals, *sides))
            except NotAllowed as exc:  # one of them sat down meanwhile: next round
                log.info("ladder: %s v %s not started (%s)", a, b, exc)
        return started

    async def _seated(self, player: str) -> bool:
        lobby = self.hall.lobby
        return bool(await lobby.all_tables_of(player) or await lobby.store.seated_at(player))

    @staticmethod
    def _side(subject: str, players: dict[str, Player]) -> tuple[str | None, str, str]:
        """A paired subject as ``start`` takes him: an anchor (``bot:NAME``) or a player."""
        anchor = bot_name(subject)
        if anchor is not None:
            return (None, anchor, anchor)
        return (subject, players[subject].name, "")
