"""benchmarks/rl_bench.py runs (a few games), as docs/performance.md runs it with many:
its table has every variant asked for, three rates each, and names RLCard's version."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cardhall

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "rl_bench.py"


def test_the_benchmark_runs_with_tiny_numbers() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(cardhall.__file__).parents[1]))
    out = subprocess.run([sys.executable, str(SCRIPT), "--games", "2", "--rounds", "2",
                          "--variants", "ddz3,zhaopengyou"], env=env, capture_output=True,
                         text=True, check=False, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "peer: rlcard" in lines[0]
    assert lines[1].split() == ["tokens/s", "actions/s", "games/s", "tok/act"]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"rlcard", "ddz3", "zhaopengyou"}
    for name in ("ddz3", "zhaopengyou"):
        tokens, actions, games, per = (float(x) for x in rows[name][1:5])
        assert tokens >= actions > games > 0 and per >= 1
    if "not installed" not in lines[2]:
        assert "vs rlcard: actions/s" in " ".join(rows["ddz3"])
