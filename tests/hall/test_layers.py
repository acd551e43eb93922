"""Layers: the library works without the server extra; hall imports no web framework."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import cardhall.hall

SERVER_DEPS = ["sqlalchemy", "alembic", "aiosqlite", "asyncpg", "argon2", "pydantic",
               "starlette", "uvicorn", "prometheus_client", "httpx", "websockets", "openskill"]
WEB = {"starlette", "uvicorn", "prometheus_client", "cardhall.server", "cardhall.web"}

BLOCK = f"""
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {SERVER_DEPS!r}:
            raise ImportError("blocked: " + name)
        return None
sys.meta_path.insert(0, Block())
import cardhall, cardhall.rules, cardhall.games, cardhall.bots, cardhall.cli, cardhall.arena
from cardhall.games import new_game
new_game("ddz3", seed=1).legal_actions()
print("ok", sorted(m for m in sys.modules if m.startswith("cardhall.hall")))
"""


def test_library_imports_without_server_dependencies() -> None:
    out = subprocess.run([sys.executable, "-c", BLOCK], capture_output=True, text=True,
                         check=False, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok []"


def test_hall_imports_no_web_layer() -> None:
    root = Path(cardhall.hall.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not any(name == w or name.startswith(w + ".") for w in WEB), (
                    f"{path.name} imports {name}")
