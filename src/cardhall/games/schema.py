"""JSON Schema of the view, result and event shapes, generated from ``games.view``.

The TypedDicts are the one source: this turns them into JSON Schema (draft
2020-12) so that clients in other languages can validate what they receive,
and the conformance suite checks real games of every variant against it.

    python -m cardhall.games.schema > docs/schema.json
"""

from __future__ import annotations

import json
import sys
import types
import typing
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin

from cardhall.games import view

SCHEMA_ID = "https://cardhall.invalid/schema/view.json"
ROOTS = {"View": view.View, "Result": view.Result, "Event": view.EventCore}


def _is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def _schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = get_origin(tp)
    if tp is Any:
        return {}
    if tp is type(None) or tp is None:
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if origin in (Required, NotRequired):
        return _schema(get_args(tp)[0], defs)
    if origin is Literal:
        return {"enum": list(get_args(tp))}
    if origin in (Union, types.UnionType):
        options = [_schema(a, defs) for a in get_args(tp)]
        if {"type": "integer"} in options and {"type": "number"} in options:
            options.remove({"type": "integer"})
        return options[0] if len(options) == 1 else {"anyOf": options}
    if origin is list:
        (item,) = get_args(tp)
        return {"type": "array", "items": _schema(item, defs)}
    if origin is dict:
        _, value = get_args(tp)
        return {"type": "object", "additionalProperties": _schema(value, defs)}
    if _is_typeddict(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder against recursion
            hints = typing.get_type_hints(tp, include_extras=True)
            defs[name] = {
                "type": "object",
                "description": " ".join((tp.__doc__ or "").split()),
                "properties": {k: _schema(v, defs) for k, v in hints.items()},
                # ``__required_keys__`` misses NotRequired written as a string
                # annotation on Python 3.11, so read it from the hints.
                "required": sorted(k for k, v in hints.items()
                                   if get_origin(v) is not NotRequired),
                # Events carry their own fields beside the common ones; views and
                # results are closed, so a stray key is caught.
                "additionalProperties": name == "EventCore",
            }
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON Schema for {tp!r}")


def schema() -> dict[str, Any]:
    """One document: ``$defs`` for every shape, ``View`` at the root."""
    defs: dict[str, Any] = {}
    for tp in ROOTS.values():
        _schema(tp, defs)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "cardhall game view", "$ref": "#/$defs/View", "$defs": defs}


def schema_for(root: str) -> dict[str, Any]:
    """The document with ``root`` (View, Result or Event) at its top."""
    doc = schema()
    doc["$ref"] = f"#/$defs/{ROOTS[root].__name__}"
    return doc


def main() -> None:
    json.dump(schema(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
