"""What a spectator (观战, ``watchers.py``) may see of a table: no hidden card or role."""

from __future__ import annotations

from typing import Any

from cardhall.hall.domain.replays import public_view


def spectator_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """Only what every seat sees alike, from each seat's ``observe``: own hands, private
    answers and a hidden landlord's role are blanked, and a spectator has no seat, no
    hand and nothing to play. Who is to act (``acting``, ``to_act``) is every seat's
    alike: kept, so that a watcher sees whose turn it is (else none)."""
    public = public_view(views)
    public.update(seat=-1, hand=[], legal=[], legal_complete=True, detail={})
    if public.get("acting") is None:  # who acts is not every seat's to know (五人's identity)
        public["acting"] = []
    public.pop("plays", None)
    return public
