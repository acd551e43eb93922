"""What a spectator (an admin's ``watch``) may see of a table: no hidden card or role."""

from __future__ import annotations

from typing import Any


def public_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """Only what every seat sees alike, from each seat's ``observe``.

    Each key of the view is kept where all seats' views agree on it and blanked
    where they differ (own hands, private answers, a hidden landlord's role).
    """
    public: dict[str, Any] = {}
    for key, value in views[0].items():
        if all(v.get(key) == value for v in views[1:]):
            public[key] = value
        elif isinstance(value, list) and all(len(v.get(key) or []) == len(value)
                                             for v in views):
            public[key] = [x if all(v[key][i] == x for v in views) else None
                           for i, x in enumerate(value)]
        else:
            public[key] = None
    public.update(seat=-1, hand=[], legal=[], legal_complete=True, acting=[],
                  to_act=None, detail={})
    public.pop("plays", None)
    return public
