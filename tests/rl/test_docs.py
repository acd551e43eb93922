"""docs/rl.md says what the code does: its example runs, its layout and tokens are the
code's."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from cardhall.rl import PHASES, ROLES, SIZE, TOKENS, env
from tests.rl.play import IDS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")


def test_the_example_runs() -> None:
    code = re.search(r"```python\n(.*?)```", DOC, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code.group(1), {})
    assert "seat_" in out.getvalue()


def test_the_layout_and_tokens_are_documented() -> None:
    assert f"`Discrete({SIZE})`" in DOC
    sizes = DOC.split("Sizes:", 1)[1].split("\n\n", 1)[0]
    for name in IDS:
        layout = env(name).unwrapped.layout
        for part, _at, _size in layout.sections:
            assert f"`{part}`" in DOC, part
        said = re.search(rf"\b{name} (\d+)", sizes)
        assert said is not None and int(said.group(1)) == layout.size, name
    for token in TOKENS[:37] + TOKENS[-6:]:  # words, verbs, ordinals, marks, end
        assert f"`{token}`" in DOC, token
    # the index ranges of the token table
    assert (TOKENS[30], TOKENS[31], TOKENS[37], TOKENS[51], TOKENS[52], TOKENS[103]) == (
        "rebel", "play …", "3", "D", "3s", "2d")
    assert (TOKENS[104], TOKENS[107], TOKENS[109], SIZE) == ("#1", "+", "end", 110)
    assert ", ".join(PHASES) in DOC
    assert ", ".join(r or "unknown" for r in ROLES) in DOC
