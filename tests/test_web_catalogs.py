"""The browser client's words: one catalog per language (web/lang/zh.json, en.json), read
here without a browser. Every Chinese key has its English; every key the code names
literally (``t("…")``) is in a catalog, so a typo shows here and not as a bare key on a
player's screen; and the English says "autoplay", never 托管, which an English reader
cannot read (its button is labelled "Autoplay"). A table a module would build its words
from itself is read as an ``en: { ... }`` literal and held to the same (none does now:
the multiplier's causes, the phase notes and the action labels are catalog words)."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "src" / "cardhall" / "web"
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`')
_KEY = re.compile(r'\bt\(\s*"([^"]+)"')


def catalog(lang: str) -> dict[str, str]:
    found = json.loads((WEB / "lang" / f"{lang}.json").read_text("utf-8"))
    assert isinstance(found, dict) and all(isinstance(v, str) for v in found.values())
    return found


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
    """Every English text: the catalog's, and each module's own ``en`` tables."""
    found = {"lang/en.json": list(catalog("en").values())}
    for path in sorted(WEB.rglob("*.js")):
        tables = english_tables(path.read_text("utf-8"))
        if tables:
            found[path.name] = [a or b for t in tables for a, b in _STRING.findall(t)]
    return found


def test_every_chinese_key_has_its_english() -> None:
    zh, en = catalog("zh"), catalog("en")
    assert len(zh) > 400
    assert sorted(set(zh) - set(en)) == []
    # English alone may add a form Chinese does not need (the singular "1 turn").
    assert sorted(set(en) - set(zh)) == ["away.turns1"]


def test_every_key_the_code_names_is_in_a_catalog() -> None:
    known = set(catalog("zh")) | set(catalog("en"))
    named = {(m.group(1), path.name) for path in WEB.rglob("*.js")
             for m in _KEY.finditer(path.read_text("utf-8"))}
    assert len(named) > 300
    assert sorted((key, name) for key, name in named if key not in known) == []


def test_placeholders_match_between_the_languages() -> None:
    """A text's {name} placeholders are the same in both (an English text that drops
    one shows less; one that adds one shows "{name}")."""
    zh, en = catalog("zh"), catalog("en")
    names = re.compile(r"\{(\w+)\}")
    differ = {k: (zh[k], en[k]) for k in zh
              if set(names.findall(zh[k])) != set(names.findall(en[k]))}
    assert differ == {}


def test_the_tables_are_found() -> None:
    """The reader finds the catalog and would find a module's own table (so the check below
    can fail): the action labels and the button among them."""
    found = english_strings()
    assert "lang/en.json" in found
    assert "Autoplay" in found["lang/en.json"]
    assert catalog("en")["act.auto on"] == "Autoplay"
    assert english_tables('x = { en: { "a": "}{n}", b: { c: "d" } }, zh: {} }') == [
        '{ "a": "}{n}", b: { c: "d" } }']


def test_no_english_string_leaves_tuoguan_untranslated() -> None:
    untranslated = {name: [s for s in strings if "托管" in s]
                    for name, strings in english_strings().items()}
    assert {k: v for k, v in untranslated.items() if v} == {}
