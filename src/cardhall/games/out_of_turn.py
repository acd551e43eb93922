"""托管 and leaving: the out-of-turn actions every game takes, from any seat at any time.

``@S auto on`` / ``@S auto off`` (托管, platform.md §4: the fourth entry locks it) and
``@S leave`` / ``@S leave forced`` (platform.md §5: each game says what leaving costs)
are one rule in every variant. ``base.GameState`` reads them (``_parse_meta``) and
routes them here to be checked (``_check_meta``) and carried out (``_apply_meta``).

Their own module because they are a rule apart from the contract's turn-taking: the
seat flags they keep (``auto``, ``auto_entries``, ``left``, ``penalties``, set up by
``GameState.__init__``), their refusals and events, and the two hooks a game fills
(``_escape``, ``_log_events``). ``GameState`` inherits ``OutOfTurn``, and ``base``
re-exports the names below, so every game still finds them there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from cardhall.games.errors import Illegal, IllegalAction
from cardhall.games.variant import Variant

if TYPE_CHECKING:
    from cardhall.games.base import Action, Event

#: Entering 托管 for the fourth time in one game locks it (platform.md §4, "超过三次").
AUTO_LOCK_ENTRY = 4
#: The out-of-turn verbs every game accepts from any seat.
META_VERBS = ("auto", "leave")
LeavePolicy = Literal["escape", "autoplay"]


class OutOfTurn:
    """托管 and leaving, the same in every game: ``base.GameState``'s share of the seat flags."""

    variant: Variant
    auto: list[bool]
    auto_entries: list[int]
    left: list[bool]
    penalties: list[int]
    #: What leaving a running game does (platform.md §5): the game ends and the
    #: leaver pays (``escape``), or the leaver goes on 托管 and play goes on.
    leave_policy: ClassVar[LeavePolicy] = "escape"
    #: ``@S leave forced`` in an ``autoplay`` game: a forced quit or an admin's kick.
    FORCED_LEAVE_PENALTY: ClassVar[int] = -40

    def auto_locked(self, seat: int) -> bool:
        return self.auto_entries[seat] >= AUTO_LOCK_ENTRY

    def all_auto(self) -> bool:
        """Every seat on 托管: a game that ends so is not scored (platform.md §4)."""
        return all(self.auto)

    def _check_meta(self, action: Action) -> IllegalAction | None:
        seat = action.seat
        assert seat is not None
        if action.verb == "auto":
            if self.left[seat]:
                return Illegal("has_left", f"seat {seat} has left the game", seat=seat)
            if action.arg == "on":
                return Illegal("already_auto", f"seat {seat} is already on 托管",
                               seat=seat) if self.auto[seat] else None
            if not self.auto[seat]:
                return Illegal("not_auto", f"seat {seat} is not on 托管", seat=seat)
            if self.auto_locked(seat):
                return Illegal("auto_locked", f"托管 is locked for seat {seat}: it was "
                               f"entered {AUTO_LOCK_ENTRY} times", seat=seat,
                               entries=AUTO_LOCK_ENTRY)
            return None
        if self.left[seat]:
            return Illegal("has_left", f"seat {seat} has already left the game", seat=seat)
        return None

    def _apply_meta(self, action: Action) -> list[Event]:
        seat = action.seat
        assert seat is not None
        if action.verb == "auto":
            events = [self._set_auto(seat, action.arg == "on")]
        else:
            events = self._leave(seat, forced=action.arg == "forced")
        self._log_events(events)
        return events

    def _set_auto(self, seat: int, on: bool) -> Event:
        self.auto[seat] = on
        if on:
            self.auto_entries[seat] += 1
        return {"type": "auto", "seat": seat, "on": on, "entries": self.auto_entries[seat],
                "locked": self.auto_locked(seat)}

    def _leave(self, seat: int, forced: bool) -> list[Event]:
        """platform.md §5: escape games end here; autoplay games put the seat on 托管."""
        self.left[seat] = True
        if self.leave_policy == "escape":
            return [{"type": "leave", "seat": seat, "forced": forced}, *self._escape(seat)]
        events: list[Event] = [{"type": "leave", "seat": seat, "forced": forced}]
        if forced:
            self.penalties[seat] += self.FORCED_LEAVE_PENALTY
            events[0]["penalty"] = self.FORCED_LEAVE_PENALTY
        if not self.auto[seat]:
            events.append(self._set_auto(seat, True))
        return events

    def _escape(self, seat: int) -> list[Event]:
        """End the game now, ``seat`` paying its escape penalty (escape-policy games)."""
        raise NotImplementedError(f"{self.variant.id} has no escape settlement")

    def _log_events(self, events: list[Event]) -> None:  # an optional hook
        """Keep events a game wants in its own log (climbing games count from theirs)."""
