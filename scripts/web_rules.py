#!/usr/bin/env python3
"""Build the browser client's rules pages from docs/rules/*.md (a developer's step).

The installed package must serve the rules with no build step for its users, so the
output (one JSON file per page in src/cardhall/web/rules/, and index.json) is checked
in; tests/test_rules_pages.py fails when it is stale. Run it after editing a page:

    .venv/bin/python scripts/web_rules.py          # write the files
    .venv/bin/python scripts/web_rules.py --check  # exit 1 if they are stale

Each page of docs/rules/ is Chinese (``## 中文``) then English (``## English``); each
half becomes HTML. The Markdown is the small subset those pages use: headings, lists
(nested by two spaces), tables, paragraphs, ``**bold**``, ``*italic*``, `` `code` ``
and links. A link to another page becomes the client's route (``#/rules/ddz3``);
links out of docs/rules/ are kept as their text. Standard library only.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "docs" / "rules"
OUTPUT = ROOT / "src" / "cardhall" / "web" / "rules"
LANGS = {"zh": "## 中文", "en": "## English"}

_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
_LIST = re.compile(r"^( *)([-*]|\d+\.) +(.*)$")
_HEADING = re.compile(r"^(#{1,6}) +(.*)$")
#: A run of Chinese (ideographs, CJK punctuation, full-width forms) in the HTML's text.
_CHINESE = re.compile("[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u3000-\u303f]+")


def _href(target: str) -> str | None:
    """The client's route for a link, or None where it leaves the rules pages."""
    if target.startswith("#"):
        return None
    name = target.removesuffix(".md")
    if "/" in name or not (SOURCE / target).is_file():
        return None
    return "#/rules" if name == "README" else f"#/rules/{name}"


def inline(text: str) -> str:
    """One line's inline Markdown as HTML (code spans are never read further)."""
    spans: list[str] = []

    def keep(match: re.Match[str]) -> str:
        spans.append(f"<code>{html.escape(match.group(1))}</code>")
        return f"\x00{len(spans) - 1}\x00"

    def link(match: re.Match[str]) -> str:
        href = _href(match.group(2))
        label = match.group(1)
        return label if href is None else f'<a href="{href}">{label}</a>'

    out = html.escape(_CODE.sub(keep, text), quote=False)
    out = _LINK.sub(link, out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _ITALIC.sub(r"<em>\1</em>", out)
    return re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(lines: list[str]) -> str:
    head, body = _cells(lines[0]), [_cells(x) for x in lines[2:]]
    out = ["<table><thead><tr>", *(f"<th>{inline(c)}</th>" for c in head), "</tr></thead>"]
    out.append("<tbody>")
    for row in body:
        out.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _list(lines: list[str]) -> str:
    """Nested lists from ``- item`` / ``1. item`` lines (two spaces per level);
    an unmarked line continues the item before it."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, tag) of each open list
    for line in lines:
        m = _LIST.match(line)
        if m is None:
            out[-1] = out[-1] + " " + inline(line.strip())
            continue
        indent, tag = len(m.group(1)), "ol" if m.group(2)[0].isdigit() else "ul"
        while stack and stack[-1][0] > indent:
            out.append(f"</li></{stack.pop()[1]}>")
        if stack and stack[-1][0] == indent:
            out.append("</li>")
        else:
            out.append(f"<{tag}>")
            stack.append((indent, tag))
        out.append("<li>" + inline(m.group(3)))
    while stack:
        out.append(f"</li></{stack.pop()[1]}>")
    return "".join(out)


def _blocks(lines: list[str]) -> list[list[str]]:
    """Lines grouped into blocks: blank lines, headings and a change of kind split them."""
    blocks: list[list[str]] = []
    kind = ""
    for line in lines:
        if not line.strip():
            kind = ""
            continue
        now = ("heading" if _HEADING.match(line) else "table" if line.startswith("|")
               else "list" if _LIST.match(line) or (kind == "list" and line.startswith(" "))
               else "para")
        if now != kind or now == "heading":
            blocks.append([])
        blocks[-1].append(line)
        kind = now
    return blocks


def to_html(markdown: str, shift: int = 0) -> str:
    """HTML of the Markdown subset; ``shift`` lowers every heading that many levels."""
    parts = []
    for block in _blocks(markdown.splitlines()):
        first = block[0]
        if (m := _HEADING.match(first)) is not None:
            level = min(6, max(1, len(m.group(1)) - shift))
            parts.append(f"<h{level}>{inline(m.group(2))}</h{level}>")
        elif first.startswith("|"):
            parts.append(_table(block))
        elif _LIST.match(first):
            parts.append(_list(block))
        else:
            parts.append("<p>" + " ".join(inline(x.strip()) for x in block) + "</p>")
    return "\n".join(parts)


def mark_chinese(html_text: str) -> str:
    """The English half's Chinese terms (托管, 保皇 …, glossed as the players know them)
    each marked as Chinese, so that a screen reader says them in Chinese and a reader's
    tools know them for a gloss (tests/web/test_english.py allows them, and only them).
    Tags and attributes never hold Chinese here, so the runs are all text."""
    return _CHINESE.sub(lambda m: f'<span lang="zh-CN">{m.group(0)}</span>', html_text)


def _title(line: str) -> dict[str, str]:
    """``# 三人斗地主 · Classic Dou Dizhu (`ddz3`)`` → each language's name."""
    text = re.sub(r"\s*\(`[^`]+`\)\s*$", "", line.lstrip("# ").strip())
    zh, _, en = text.partition(" · ")
    return {"zh": zh.strip(), "en": (en or zh).strip()}


def page(path: Path) -> dict[str, object]:
    """One rules page: its id, its title and its HTML in each language."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: dict[str, object] = {"id": path.stem, "title": _title(lines[0])}
    starts = {lang: lines.index(head) for lang, head in LANGS.items()}
    order = sorted(starts, key=starts.__getitem__)
    for i, lang in enumerate(order):
        end = starts[order[i + 1]] if i + 1 < len(order) else len(lines)
        text = to_html("\n".join(lines[starts[lang] + 1:end]), shift=1)
        out[lang] = mark_chinese(text) if lang == "en" else text
    return out


def build() -> dict[str, str]:
    """Every output file's name and text."""
    files: dict[str, str] = {}
    index = []
    for path in sorted(SOURCE.glob("*.md")):
        if path.stem == "README":  # the client's own list (index.json) stands for it
            continue
        data = page(path)
        files[f"{path.stem}.json"] = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        index.append({"id": path.stem, "title": data["title"]})
    files["index.json"] = json.dumps(index, ensure_ascii=False, indent=1) + "\n"
    return files


def stale() -> list[str]:
    """The output files that differ from what the sources make (or should not exist)."""
    want = build()
    have = {p.name for p in OUTPUT.glob("*.json")} if OUTPUT.is_dir() else set()
    wrong = [n for n, text in want.items()
             if not (OUTPUT / n).is_file() or (OUTPUT / n).read_text(encoding="utf-8") != text]
    return sorted(wrong + list(have - set(want)))


def main(argv: list[str]) -> int:
    if argv[1:] == ["--check"]:
        wrong = stale()
        if wrong:
            print("stale rules pages (run scripts/web_rules.py):", ", ".join(wrong))
        return 1 if wrong else 0
    OUTPUT.mkdir(parents=True, exist_ok=True)
    want = build()
    for p in OUTPUT.glob("*.json"):
        if p.name not in want:
            p.unlink()
    for name, text in want.items():
        (OUTPUT / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(want)} files to {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
