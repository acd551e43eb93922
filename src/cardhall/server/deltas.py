"""What a connection that opted into deltas is sent instead of each full ``state``.

The hall speaks in ``state`` messages, each with the seat's whole view, and does not
know which clients opted in (docs/protocol.md, "Deltas"): the connection does. It
keeps, per table, the last state it passed on, and turns the next one into a
``delta``: the seat's events of the change (the table's ``State.events``, through
``events_for``) and the ``view`` event that rebuilds the new view from the last
(``games.deltas``), with the new view's hash. So it works the same for a table run
by another process (its states arrive as text with what they carry, ``encode_text``;
they carry no story events, only the ``view`` event, which is what rebuilds the view).

A full ``state`` goes instead when the client cannot hold the previous view: the
first state of a table on this connection, a new game, another seat (a watcher who
sits), a state without a view (a private table filling), a gap in ``seq`` (one that
neither repeats the last seq nor follows it), and every ``every``-th message since
the last full one. A client that asks (``resync``) is sent the last state in full,
and the deltas go on from it.

A delta is an optimisation, never a reason for a message not to go: ``encode`` runs
inside a table's broadcast, so a failure to make one (a bug, a view it cannot hash)
sends the full state instead and is logged (the 1st, 2nd, 4th, 8th… in a process:
bounded), and the deltas go on from it.
It keeps at most ``TABLES`` tables, forgetting the one sent to longest ago: a table
is forgotten on its ``left``, but a watcher is told nothing when a table closes.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass

from cardhall.games.deltas import view_event, view_hash
from cardhall.protocol.messages import Delta, Left, State
from cardhall.protocol.peer import Carries

log = logging.getLogger("cardhall.server.deltas")

#: Messages per table from one full state to the next (the full one included).
FULL_EVERY = 20
#: Tables a connection keeps the last state of (a player sits at a few; an admin who
#: watched many keeps the latest): past it, the one sent to longest ago is forgotten.
TABLES = 64
_failures = itertools.count(1)  # delta failures in this process (what the log counts)


@dataclass(slots=True)
class _Sent:
    """The last state of a table passed on, and how many messages since a full one."""

    state: State
    since_full: int


class DeltaCoder:
    """One connection's delta state: per table, the last state it was sent."""

    def __init__(self, every: int = FULL_EVERY) -> None:
        self.every = every
        self._last: dict[str, _Sent] = {}
        self.deltas = 0  # deltas sent (a benchmark's and a test's count)
        self.fulls = 0  # full states sent
        self.failures = 0  # deltas that could not be made (a full state went instead)

    def encode(self, state: State, text: str | None = None) -> str:
        """The text to send for ``state`` (``text``: its JSON, when already made); a
        delta that cannot be made is a full state (never an exception)."""
        last = self._last.pop(state.table, None)  # put back last: the newest at the end
        if last is not None and self._follows(last.state, state) \
                and last.since_full + 1 < self.every:
            try:
                delta = self._delta(last, state)
            except Exception:  # a bug in a delta must not stop the table's broadcast
                self.failures += 1
                n = next(_failures)
                if n & (n - 1) == 0:  # 1, 2, 4, 8…: every failure counted, few logged
                    log.exception("a delta failed (%d so far): a full state goes", n)
            else:
                self._keep(state.table, _Sent(state, last.since_full + 1))
                self.deltas += 1
                return delta
        self._keep(state.table, _Sent(state, 0))
        self.fulls += 1
        return text if text is not None else state.model_dump_json()

    def _keep(self, table: str, sent: _Sent) -> None:
        self._last[table] = sent
        if len(self._last) > TABLES:
            del self._last[next(iter(self._last))]

    def _delta(self, last: _Sent, state: State) -> str:
        before = last.state
        assert before.view is not None and state.view is not None  # by _follows
        told = (state.events or []) if state.seq == before.seq + 1 else []
        delta = Delta(table=state.table, room=state.room, game=state.game, base=before.seq,
                      seq=state.seq, seat=state.seat,
                      events=[*told, view_event(before.view, state.view)],
                      hash=view_hash(state.view), deadline=state.deadline,
                      players=None if state.players == before.players else state.players,
                      phase=state.phase, code=state.code,
                      owner=state.owner, watchers=state.watchers,
                      spectators=state.spectators)
        return delta.model_dump_json()

    @staticmethod
    def _follows(before: State, state: State) -> bool:
        return (before.view is not None and state.view is not None
                and before.game == state.game and before.seat == state.seat
                and state.seq in (before.seq, before.seq + 1))

    def encode_text(self, text: str, kind: Carries) -> str:
        """``encode`` of a message another process serialized, which says what it
        ``kind``: a ``state`` becomes a delta where it may; a ``left`` forgets the
        table; anything else goes as it is."""
        match kind:
            case Carries.STATE:
                return self.encode(State.model_validate_json(text), text)
            case Carries.LEFT:
                self.forget(Left.model_validate_json(text).table)
                return text
            case Carries.OTHER:  # nothing of a table's deltas: it goes as it came
                return text

    def forget(self, table: str) -> None:
        """The player no longer sits at ``table``: its next state is a full one."""
        self._last.pop(table, None)

    def resync(self, table: str) -> str | None:
        """The last state of ``table`` in full (None: none was sent here); the deltas
        that follow build on it."""
        last = self._last.get(table)
        if last is None:
            return None
        last.since_full = 0
        self.fulls += 1
        return last.state.model_dump_json()

