"""The README stays a front page that works: short, its example runs, its test command is
the one CI runs, and its links and those of the docs it sends a newcomer to resolve.
docs/performance.md keeps each figure with a date, since a figure without one cannot be
compared with the next run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The pages whose links a newcomer follows first.
LINKED = [README, ROOT / "docs" / "guide.md", ROOT / "docs" / "performance.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"")


def anchors(text: str) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces
    to hyphens (the rule the tables of contents are written against)."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_readme_is_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) < 200


def test_readme_test_command_is_what_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "exec scripts/test" in ci
    assert re.search(r"^scripts/test +# ", text, re.M), "the test command is not in the README"
    assert re.search(r"^scripts/hall +# ", text, re.M), "the hall command is not in the README"


def test_readme_example_runs() -> None:
    """The library example does what its comments say."""
    text = README.read_text(encoding="utf-8")
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    lines = [line for line in block.splitlines() if line.strip()]
    assert len(lines) <= 7  # five lines and the import (the README promises "five lines")
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    state: Any = namespace["state"]
    ddz: Any = namespace["ddz"]
    beats = ddz.moves("3334445559JQ", ddz.parse_play("333444+56"))
    assert beats[0].to_json()["cards"] == "444555+33"
    assert state.phase == "play"
    assert state.observe(0)["roles"][1] == "landlord"


@pytest.mark.parametrize("page", LINKED, ids=lambda p: p.name)
def test_links_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    links = [a or b for a, b in LINK.findall(text)]
    assert links, f"{page.name} links nowhere"
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), f"{page.name}: {link} does not exist"
        if anchor and target.suffix == ".md":
            assert anchor in anchors(target.read_text(encoding="utf-8")), f"{page.name}: {link}"


def test_every_performance_section_is_dated() -> None:
    """Each section of figures says when they were measured (or that none is recorded)."""
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    sections = re.split(r"^#{2,3} ", text, flags=re.M)[1:]
    assert len(sections) >= 10
    for section in sections:
        title = section.splitlines()[0]
        has_figures = re.search(r"\d+(\.\d+)? ?(ms|µs|%|games/s|actions/s)", section)
        if has_figures:
            assert re.search(r"\b2\d{3}-\d\d-\d\d\b", section), f"undated: {title}"
