"""The layers' boundaries, read from the source: each package imports only the packages
below it. The library (cards, rules, games, bots) never reaches the hall, the server or
the protocol's client; the server runs a hall and never the client tools."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cardhall

ROOT = Path(cardhall.__file__).parent

#: What each part of cardhall may import from cardhall (besides itself).
ALLOWED: dict[str, set[str]] = {
    "cards": set(),
    "rules": {"cards"},
    "games": {"cards", "rules"},
    "bots": {"cards", "rules", "games"},
    "protocol": {"games"},
    "hall": {"cards", "rules", "games", "bots", "protocol"},
    "server": {"cards", "rules", "games", "bots", "hall", "protocol", "web", "secret_input"},
    "client": {"cards", "rules", "games", "bots", "secret_input"},
    "secret_input": set(),
}


def _part(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imports(path: Path, depth: int = 1) -> list[tuple[int, str]]:
    """(line, part of cardhall) of each cardhall import in ``path``; with ``depth`` 2, the
    part of that part (``bots.split``), for imports that go that deep."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] if node.module != "cardhall" else \
                [f"cardhall.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        if depth == 2 and isinstance(node, ast.ImportFrom) and node.module == "cardhall.bots":
            names = [f"cardhall.bots.{a.name}" for a in node.names]
        found += [(node.lineno, ".".join(n.split(".")[1:depth + 1])) for n in names
                  if n.startswith("cardhall.") and len(n.split(".")) > depth]
    return found


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_each_part_imports_only_what_lies_below_it(part: str) -> None:
    paths = [ROOT / f"{part}.py"] if (ROOT / f"{part}.py").exists() else \
        sorted((ROOT / part).rglob("*.py"))
    assert paths, f"no source for {part}"
    wrong = [f"{p.relative_to(ROOT)}:{line} imports cardhall.{other}"
             for p in paths for line, other in _imports(p)
             if other != part and other not in ALLOWED[part]]
    assert wrong == []


#: What the bots' folders may import from the rest of ``bots``: the split search (with its
#: C loop) and the 找朋友 reading lie below the bots that use them, and apart.
BOTS_ALLOWED: dict[str, set[str]] = {
    "split": {"view"},  # view.counts_minus
    "trick": {"base"},  # base.Observation
}


@pytest.mark.parametrize("folder", sorted(BOTS_ALLOWED))
def test_the_bots_folders_lie_below_the_bots(folder: str) -> None:
    paths = sorted((ROOT / "bots" / folder).rglob("*.py"))
    assert paths, f"no source for bots/{folder}"
    wrong = [f"{p.relative_to(ROOT)}:{line} imports cardhall.{other}"
             for p in paths for line, other in _imports(p, depth=2)
             if other.startswith("bots.")
             and other.removeprefix("bots.") not in BOTS_ALLOWED[folder] | {folder}]
    assert wrong == []


def test_a_boundary_break_is_seen(tmp_path: Path) -> None:
    """The reader finds a forbidden import (so the test above can fail)."""
    bad = tmp_path / "x.py"
    bad.write_text("from cardhall.server import app\nimport cardhall.hall.store.db\n"
                   "from cardhall import client\n")
    assert [other for _, other in _imports(bad)] == ["server", "hall", "client"]
    bad.write_text("from cardhall.bots import planning\nfrom cardhall.bots.trick import plan\n")
    assert [other for _, other in _imports(bad, depth=2)] == ["bots.planning", "bots.trick"]
