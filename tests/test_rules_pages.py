"""The rules pages the browser client shows are built from docs/rules/ and up to date."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

from cardhall.games import VARIANTS

ROOT = Path(__file__).resolve().parent.parent


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("web_rules", ROOT / "scripts" / "web_rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["web_rules"] = module
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_pages_are_what_the_docs_make() -> None:
    assert _builder().stale() == [], "run scripts/web_rules.py and commit its output"


def test_every_variant_has_a_page_in_both_languages() -> None:
    index = json.loads((ROOT / "src/cardhall/web/rules/index.json").read_text("utf-8"))
    assert set(VARIANTS) <= {p["id"] for p in index}
    for v in VARIANTS:
        page = json.loads((ROOT / f"src/cardhall/web/rules/{v}.json").read_text("utf-8"))
        assert page["title"]["zh"] != page["title"]["en"]
        assert "<h2>" in page["zh"] and "<h2>" in page["en"]
        assert "English" not in page["zh"][:200] and "中文" not in page["en"][:200]


def test_the_markdown_subset() -> None:
    to_html = _builder().to_html
    got = to_html("### Head\n\n- a `<b>` & **x**\n  - inner [ddz3](ddz3.md)\n- b\n\n"
                  "| k | v |\n|---|---|\n| [r](../rulings.md) | *i* |\n\nline one\nline two",
                  shift=1)
    assert got == (
        "<h2>Head</h2>\n"
        "<ul><li>a <code>&lt;b&gt;</code> &amp; <strong>x</strong>"
        '<ul><li>inner <a href="#/rules/ddz3">ddz3</a></li></ul></li><li>b</li></ul>\n'
        "<table><thead><tr><th>k</th><th>v</th></tr></thead><tbody>"
        "<tr><td>r</td><td><em>i</em></td></tr></tbody></table>\n"
        "<p>line one line two</p>")


def test_the_english_pages_name_autoplay_in_english() -> None:
    """托管 appears in English only as the gloss of its heading, "Auto-play (托管)": the
    button an English page names is the one the English client shows (Autoplay)."""
    for path in (ROOT / "src/cardhall/web/rules").glob("*.json"):
        page = json.loads(path.read_text("utf-8"))
        if isinstance(page, dict):
            assert "托管" not in page["en"].replace('(<span lang="zh-CN">托管</span>)', ""), \
                path.name
