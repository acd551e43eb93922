"""What a spectator (an admin's ``watch``) may see of a table: no hidden card or role."""

from __future__ import annotations

from typing import Any

from cardhall.hall.domain.replays import public_view


def spectator_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """Only what every seat sees alike, from each seat's ``observe``: own hands, private
    answers and a hidden landlord's role are blanked, and a spectator has no seat, no
    hand and nothing to play."""
    public = public_view(views)
    public.update(seat=-1, hand=[], legal=[], legal_complete=True, acting=[],
                  to_act=None, detail={})
    public.pop("plays", None)
    return public
