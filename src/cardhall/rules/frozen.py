"""Fast constructors for frozen, slotted dataclasses (plays and actions in bulk).

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``,
and even its slots' own setters cost a call each; a wildcard lead makes thousands
of plays and as many actions. ``maker(cls)`` gives a function that writes the
fields as plain attributes of an unfrozen object with the very same slots, which
then becomes a ``cls``: Python lets an object change its class to one of the same
layout. The object is the one ``cls(...)`` makes (equal, hashed, frozen, shown,
pickled alike: ``tests/rules/test_plays.py``), for under half the cost. The
function's source is written out once, as ``dataclasses`` writes an ``__init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """``cls(*values)``, every field given in order, for a frozen dataclass with slots."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    if getattr(cls, "__slots__", None) != names:
        raise TypeError(f"{cls.__name__} is not a dataclass with slots=True")
    blank = type(f"_Blank{cls.__name__}", (), {"__slots__": names})
    lines = [f"def make_{cls.__name__}({', '.join(names)}):", "    made = _blank()"]
    lines += [f"    made.{name} = {name}" for name in names]
    lines += ["    made.__class__ = _cls", "    return made"]
    scope: dict[str, Any] = {"_blank": blank, "_cls": cls}
    exec("\n".join(lines), scope)
    made: Callable[..., T] = scope[f"make_{cls.__name__}"]
    made.__qualname__ = f"maker({cls.__name__})"
    return made
