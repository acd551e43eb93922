"""Per-account login lockout: wrong passwords for one name, from any address, slow it.

The per-address limit (``[limits] logins_per_minute``) stops one address guessing
fast; it does nothing against many addresses guessing one name. So each account
counts its failed logins (``players.failed_logins``): the ``after``-th failure in a
row locks new logins for ``first`` seconds, and each failure after that doubles the
lock, up to ``cap`` (defaults: 5 failures → 1 min, 2, 4, 8, then 15 min). A correct
password resets the count; failures are forgotten after ``forget`` without one.

The state is in the database, not in the process: it survives a restart and holds
across every process of a hall (a per-process count would give an attacker as many
tries as there are processes). A try is counted *before* the password is checked,
under the row's lock (``reserve``), so a burst of tries sent at once cannot all be
checked before the first failure is written.

An attacker must not be able to lock a player out for ever cheaply, so:

- a lock never lasts longer than ``cap``, and tries refused during a lock are not
  checked and not counted (they do not extend it);
- only *new* logins are locked: the player's live sessions go on working;
- a login that carries a token of this account (the browser's last session, even an
  expired one; not a revoked one) is from a known device and skips the account's lock
  (it is still under the per-address limit): an attacker without such a token can
  delay only the player's logins from new devices, and only while he keeps trying.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update

from cardhall.hall.domain.config import Accounts
from cardhall.hall.domain.errors import HallError
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Player


class LockedOut(HallError):
    """New logins to this account are refused for ``retry_after`` seconds."""

    code = "locked_out"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many wrong passwords for this name: logins to it are "
                         f"locked for {retry_after} s more (your open sessions still work)")
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class LockoutPolicy:
    after: int
    first: timedelta
    cap: timedelta
    forget: timedelta

    @classmethod
    def of(cls, accounts: Accounts) -> LockoutPolicy:
        return cls(accounts.lockout_after, timedelta(seconds=accounts.lockout_seconds),
                   timedelta(seconds=accounts.lockout_max_seconds),
                   timedelta(hours=accounts.lockout_forget_hours))

    def lock_for(self, failures: int) -> timedelta | None:
        """How long ``failures`` in a row lock the account (None: not locked)."""
        if failures < self.after:
            return None
        doublings = min(failures - self.after, 32)
        return min(self.cap, self.first * (1 << doublings))


DEFAULT_LOCKOUT = LockoutPolicy.of(Accounts())


def _seconds(delta: timedelta) -> int:
    return max(1, int(delta.total_seconds() + 0.999))


async def reserve(db: Database, player_id: str, policy: LockoutPolicy, now: datetime) -> None:
    """Count one login try against the account, as a failure until ``clear`` says it
    was right; LockedOut (nothing counted) while the account is locked."""
    async with db.transaction() as s:
        row = (await s.execute(
            select(Player.failed_logins, Player.locked_until, Player.last_failed)
            .where(Player.id == player_id).with_for_update())).one()
        failures, locked, last = row
        if locked is not None and locked > now:
            raise LockedOut(_seconds(locked - now))
        if last is None or now - last >= policy.forget:
            failures = 0
        failures += 1
        lock = policy.lock_for(failures)
        await s.execute(update(Player).where(Player.id == player_id).values(
            failed_logins=failures, last_failed=now,
            locked_until=now + lock if lock is not None else None))


async def clear(db: Database, player_id: str) -> None:
    """A correct password: the count and any lock go."""
    async with db.transaction() as s:
        await s.execute(update(Player).where(Player.id == player_id)
                        .values(failed_logins=0, locked_until=None, last_failed=None))
