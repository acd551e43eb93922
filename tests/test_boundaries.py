"""The layers' boundaries, read from the source: each package imports only the packages
below it. The library (cards, rules, games, bots, and the analysis above the bots) never
reaches the hall, the server, the wire (``protocol``) or the protocol's client; the server
runs a hall and never the client tools. Inside the hall, the domain and the store never
import the wire; the live tables and the cluster import only the messages they send; the
refusals become wire errors in the server alone."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

import pytest
from pydantic import BaseModel

import cardhall
from cardhall.protocol import messages

ROOT = Path(cardhall.__file__).parent

#: What each part of cardhall may import from cardhall (besides itself).
ALLOWED: dict[str, set[str]] = {
    "cards": set(),
    "rules": {"cards"},
    "games": {"cards", "rules"},
    "bots": {"cards", "rules", "games"},
    "puzzles": {"cards", "rules", "games"},
    "analysis": {"cards", "rules", "games", "bots"},
    "protocol": {"games"},
    "hall": {"cards", "rules", "games", "bots", "analysis", "protocol", "puzzles"},
    "server": {"cards", "rules", "games", "bots", "analysis", "hall", "protocol", "web",
               "secret_input", "puzzles"},
    "client": {"cards", "rules", "games", "bots", "secret_input"},
    "secret_input": set(),
}


#: What each part of the hall may import from the hall (besides itself): the domain
#: nothing, the store the domain, the live tables and the cluster (which lean on each
#: other: the lobby asks the coordinator, the coordinator keeps the tables' notes) both
#: of those; ``service`` (the Hall the server talks to) all of it.
HALL_ALLOWED: dict[str, set[str]] = {
    "domain": set(),
    "store": {"domain"},
    "live": {"domain", "store", "cluster"},
    "cluster": {"domain", "store", "live"},
}

#: The wire types the live tables and the cluster may name: the messages they send to
#: players (server → client) and to other processes (``protocol.peer``); never a client
#: message, the parser or a wire error (a refusal is the hall's own, mapped by the server).
_CLIENT = set(get_args(get_args(messages.ClientMessage)[0]))
SENT = {name for name, value in vars(messages).items()
        if isinstance(value, type) and issubclass(value, BaseModel)
        and not name.startswith("_") and value not in _CLIENT} | {"ServerMessage"}
#: What each part of the hall may import from ``cardhall.protocol``: module → names
#: (None: any name).
WIRE_ALLOWED: dict[str, dict[str, set[str] | None]] = {
    "domain": {},
    "store": {},
    # The quick chat's catalog and limits (``protocol.chat``): the lines a table sends.
    "live": {"cardhall.protocol.messages": SENT, "cardhall.protocol.peer": None,
             "cardhall.protocol.chat": None},
    "cluster": {"cardhall.protocol.messages": SENT, "cardhall.protocol.peer": None},
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


def _type_checking(tree: ast.AST) -> set[int]:
    """The ids of import nodes under ``if TYPE_CHECKING:`` (names for annotations only)."""
    return {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
            and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
            for stmt in node.body for n in ast.walk(stmt)}


def _hall_imports(path: Path) -> list[tuple[int, str, list[str], bool]]:
    """(line, module, names, annotations only) of each ``cardhall.hall``/``protocol``
    import in ``path``; ``names`` empty for ``import module``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_checking(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in ("cardhall.hall", "cardhall.protocol"):  # from X import mod
                found += [(node.lineno, f"{node.module}.{a.name}", [], id(node) in typing_only)
                          for a in node.names]
            else:
                found.append((node.lineno, node.module, [a.name for a in node.names],
                              id(node) in typing_only))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name, [], id(node) in typing_only) for a in node.names]
    return [f for f in found if f[1].startswith(("cardhall.hall.", "cardhall.protocol"))]


def _hall_part(module: str) -> str | None:
    """The hall's part a module belongs to (``domain`` ...), None for ``service``."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in HALL_ALLOWED else None


def _hall_breaks(part: str, paths: list[Path]) -> list[str]:
    wrong = []
    for path in paths:
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        for line, module, names, typing_only in _hall_imports(path):
            if module.startswith("cardhall.protocol"):
                allowed = WIRE_ALLOWED[part]
                if module not in allowed:
                    wrong.append(f"{where}:{line} imports {module}")
                    continue
                listed = allowed[module]
                off = [n for n in names or ["*"] if listed is not None and n not in listed]
                wrong += [f"{where}:{line} imports {module}.{n}" for n in off]
                continue
            other = _hall_part(module) if module != "cardhall.hall.service" else "service"
            if other is None or other == part or typing_only:
                continue  # the hall package itself, its own part, or names for annotations
            if other not in HALL_ALLOWED[part]:
                wrong.append(f"{where}:{line} imports {module}")
    return wrong


@pytest.mark.parametrize("part", sorted(HALL_ALLOWED))
def test_each_part_of_the_hall_imports_only_what_it_may(part: str) -> None:
    """The domain and the store never name a wire type; the live tables and the cluster
    only the messages they send; the layers of the hall point one way."""
    paths = sorted((ROOT / "hall" / part).rglob("*.py"))
    assert paths, f"no source for hall/{part}"
    assert _hall_breaks(part, paths) == []


def test_the_server_never_imports_the_client_tools() -> None:
    wrong = [f"{p.relative_to(ROOT)}:{line}" for p in sorted((ROOT / "server").rglob("*.py"))
             for line, other in _imports(p) if other == "client"]
    assert wrong == []


def test_a_hall_boundary_break_is_seen(tmp_path: Path) -> None:
    """Each hall rule can fail: the wire in the domain or the store, a wire error or a
    client message at a live table, the store reaching up to the live tables."""
    bad = tmp_path / "x.py"
    bad.write_text("from cardhall.protocol.messages import State\n"
                   "from cardhall.protocol.messages import ProtocolError, Act, Left\n"
                   "from cardhall.protocol import peer\n"
                   "from cardhall.hall.live import table\n"
                   "from typing import TYPE_CHECKING\n"
                   "if TYPE_CHECKING:\n    from cardhall.hall.live.table import Table\n")

    def broken(part: str) -> list[str]:
        return [b.split(" imports ")[1] for b in _hall_breaks(part, [bad])]

    assert broken("domain") == broken("store") == [
        "cardhall.protocol.messages", "cardhall.protocol.messages", "cardhall.protocol.peer",
        "cardhall.hall.live"]
    assert broken("live") == [
        "cardhall.protocol.messages.ProtocolError", "cardhall.protocol.messages.Act"]


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
