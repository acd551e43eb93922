"""cardhall needs none of the rl extra; cardhall.rl says plainly what it misses."""

from __future__ import annotations

import subprocess
import sys

import pytest

BLOCK = "import sys\nfor m in ('numpy', 'gymnasium', 'pettingzoo'):\n    sys.modules[m] = None\n"


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True,
                          text=True, check=False, timeout=60)


def test_the_library_imports_without_the_rl_extra() -> None:
    done = run("import cardhall, cardhall.games, cardhall.bots, cardhall.cli\n"
               "from cardhall.games import new_game\nnew_game('ddz3', 1)\nprint('fine')")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "fine"


@pytest.mark.parametrize("missing", ["numpy", "gymnasium", "pettingzoo"])
def test_cardhall_rl_names_what_is_missing(missing: str) -> None:
    code = (f"import sys\nsys.modules[{missing!r}] = None\n"
            "try:\n    import cardhall.rl\nexcept ImportError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=60)
    assert missing in done.stdout
    assert "pip install 'cardhall[rl]'" in done.stdout
