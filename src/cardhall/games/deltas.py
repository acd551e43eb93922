"""A seat's view rebuilt from its previous view and the events of one change.

A client that opts into deltas (docs/protocol.md, "Deltas") holds the last view it
was sent and receives, for each change, that seat's events (``events_for``: the
redaction is the engine's) instead of the whole view. The events of a change end
with one ``view`` event, the difference between the seat's previous view and its
new one; the story events before it (a play, a bid, a 托管 toggle) are for
animation and logs, and ``apply_events`` takes the view from the ``view`` events
alone. That one event is exact for every variant and phase: no variant needs a
reducer of its own, and a view stays the engine's ``observe(seat)`` to the byte.

The difference of two views (``view_patch``) is a tree over their objects:

    {"set": {key: value, ...}, "unset": [key, ...], "extend": {key: [item, ...]},
     "patch": {key: <diff>, ...}}

``set`` replaces a key's value, ``unset`` removes a key, ``extend`` appends items
to a list (one that only grew at its end: a history), ``patch`` descends into a
key whose old and new values are both objects; each part is present only when
it is not empty, and they apply in that order. ``view_hash`` names a view so
that a client can check its rebuild: the first 16 hex digits of the SHA-256 of
its canonical JSON (``canonical``).

Standard library only: a client in Python uses it as is; web/deltas.js is its port.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

Event = dict[str, Any]
Diff = dict[str, Any]

#: The event that carries a view's difference (the last event of a change).
VIEW_EVENT = "view"
#: Hex digits of the SHA-256 kept in a hash (64 bits: a check, not a secret).
HASH_DIGITS = 16


def same(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal with their types, all the way down: Python's
    ``==`` takes ``True == 1`` and ``1 == 1.0``, and a difference hidden that way
    inside a nested value would never reach a client that tells them apart."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def view_patch(old: Mapping[str, Any], new: Mapping[str, Any]) -> Diff:
    """The difference that turns ``old`` into ``new`` (``apply_patch(old, d) == new``)."""
    diff: Diff = {}
    sets: dict[str, Any] = {}
    extends: dict[str, list[Any]] = {}
    patches: dict[str, Diff] = {}
    for key, value in new.items():
        if key not in old:
            sets[key] = value
            continue
        before = old[key]
        if same(before, value):
            continue
        if isinstance(before, dict) and isinstance(value, dict):
            patches[key] = view_patch(before, value)
        elif isinstance(before, list) and isinstance(value, list) and before \
                and len(value) > len(before) and same(value[:len(before)], before):
            extends[key] = value[len(before):]  # a history that grew: only its new end
        else:
            sets[key] = value
    unset = [key for key in old if key not in new]
    if sets:
        diff["set"] = sets
    if unset:
        diff["unset"] = unset
    if extends:
        diff["extend"] = extends
    if patches:
        diff["patch"] = patches
    return diff


def apply_patch(old: Mapping[str, Any], diff: Mapping[str, Any]) -> dict[str, Any]:
    """``old`` changed by ``diff`` (a new object: ``old`` is left as it was)."""
    out = dict(old)
    for key in diff.get("unset", ()):
        out.pop(key, None)
    for key, value in diff.get("set", {}).items():
        out[key] = value
    for key, tail in diff.get("extend", {}).items():
        out[key] = [*out[key], *tail]
    for key, sub in diff.get("patch", {}).items():
        before = out.get(key)
        out[key] = apply_patch(before if isinstance(before, dict) else {}, sub)
    return out


def view_event(old: Mapping[str, Any], new: Mapping[str, Any]) -> Event:
    """The ``view`` event of a change from ``old`` to ``new``."""
    return {"type": VIEW_EVENT, **view_patch(old, new)}


def apply_events(view: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The seat's next view from its previous ``view`` and the events of the change.

    Pure: ``view`` is not changed. Events other than ``view`` tell the story and
    change nothing here (everything they would is in the ``view`` event).
    """
    out = dict(view)
    for event in events:
        if event.get("type") == VIEW_EVENT:
            out = apply_patch(out, event)
    return out


def _plain(value: Any) -> Any:
    """``value`` with every whole float written as an integer (JSON has one number)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def canonical(view: Any) -> str:
    """The canonical JSON of ``view``: keys sorted by code point, no whitespace,
    non-ASCII as is (UTF-8), whole numbers without a fraction (``2.0`` is ``2``), other
    numbers in their shortest round-trip form; what ``JSON.stringify`` writes for the
    same value with sorted keys."""
    return json.dumps(_plain(view), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":"), allow_nan=False)


def view_hash(view: Any) -> str:
    """The first ``HASH_DIGITS`` hex digits of the SHA-256 of ``canonical(view)`` in UTF-8."""
    return hashlib.sha256(canonical(view).encode()).hexdigest()[:HASH_DIGITS]


__all__ = ["HASH_DIGITS", "VIEW_EVENT", "apply_events", "apply_patch", "canonical", "same",
           "view_event", "view_hash", "view_patch"]
