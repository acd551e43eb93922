"""The split search's C loop is an accelerator only: seeded bot games play the same moves on
it as on the Python loop (``CARDHALL_PURE_PYTHON=1``, the switch an install without a C
compiler amounts to).

Policy code chooses how to compute by the loop built (``planning`` scores a wild hand's
candidates with ``wild_worth.fast_scores`` or ``WildScores``, ``view.read_plays`` reads a
wildcard lead from the rules' blocks or from every generated play), never what it
decides; ``benchmarks/bot_traces.py`` hashes the moves of seeded games, run here once on
each loop, in processes of their own so that each loop is the one a process starts with.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardhall
from cardhall.bots.split import native
from cardhall.games import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bot_traces.py"
#: (bots, variants, games): the planning bot everywhere (uncapped and capped: the cap
#: counts states, not time), the sampling bot where its rollouts read splits (a two-pack
#: game, 癞子).
RUNS = [("planning,planning-capped", ",".join(VARIANTS), 2),
        ("sampling", "ddz3,ddz3_laizi,ddz4", 1)]


def traces(tmp_path: Path, pure: bool, bots: str, variants: str, games: int,
           check: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CARDHALL_PURE_PYTHON"}
    env["PYTHONPATH"] = str(Path(cardhall.__file__).parents[1])
    if pure:
        env["CARDHALL_PURE_PYTHON"] = "1"
    args = [sys.executable, str(SCRIPT), "--bots", bots, "--variants", variants,
            "--games", str(games)]
    args += ["--check", str(check)] if check else ["--out", str(tmp_path / "c.json")]
    return subprocess.run(args, env=env, capture_output=True, text=True, check=False,
                          timeout=900)


@pytest.mark.slow
@pytest.mark.parametrize(("bots", "variants", "games"), RUNS)
def test_seeded_games_are_the_same_on_either_loop(tmp_path: Path, bots: str, variants: str,
                                                  games: int) -> None:
    assert native.BUILT, "the C loop is not built (docs/testing.md)"
    on_c = traces(tmp_path, False, bots, variants, games)
    assert on_c.returncode == 0, on_c.stderr
    assert "loop: C" in on_c.stderr
    on_python = traces(tmp_path, True, bots, variants, games, check=tmp_path / "c.json")
    assert "loop: Python" in on_python.stderr
    assert on_python.stdout.rstrip().endswith("identical"), on_python.stdout
    assert on_python.returncode == 0
