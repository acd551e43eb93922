"""The browser client's English strings say "autoplay", never 托管, which an English
reader cannot read (its button is labelled "Autoplay"). Read from the ``en:`` tables
each module gives ``addStrings`` (no browser needed)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "src" / "cardhall" / "web"
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`')


def english_tables(source: str) -> list[str]:
    """The text of every ``en: { ... }`` object literal in a module, braces matched
    outside string literals (placeholders like ``{n}`` live inside them)."""
    tables = []
    for start in (m.end() - 1 for m in re.finditer(r"\ben: \{", source)):
        depth, i = 0, start
        while True:
            quoted = _STRING.match(source, i)
            if quoted:
                i = quoted.end()
                continue
            depth += {"{": 1, "}": -1}.get(source[i], 0)
            i += 1
            if depth == 0:
                break
        tables.append(source[start:i])
    return tables


def english_strings() -> dict[str, list[str]]:
    found = {}
    for path in sorted(WEB.rglob("*.js")):
        tables = english_tables(path.read_text("utf-8"))
        if tables:
            found[path.name] = [a or b for t in tables for a, b in _STRING.findall(t)]
    return found


def test_the_tables_are_found() -> None:
    """The reader finds the modules' tables and their values (so the check below can
    fail): the away notice and the 托管 button among them."""
    found = english_strings()
    assert {"away.js", "table.js", "i18n.js", "actions.js"} <= set(found)
    assert "Autoplay" in found["table.js"]
    assert english_tables('x = { en: { "a": "}{n}", b: { c: "d" } }, zh: {} }') == [
        '{ "a": "}{n}", b: { c: "d" } }']


def test_no_english_string_leaves_tuoguan_untranslated() -> None:
    untranslated = {name: [s for s in strings if "托管" in s]
                    for name, strings in english_strings().items()}
    assert {k: v for k, v in untranslated.items() if v} == {}
