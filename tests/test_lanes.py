"""The lanes stay true (tests/lanes.py, docs/testing.md): the markers are registered,
every browser test is marked ``browser``, every test that takes a service is marked
``services``, and ``scripts/test --fast`` selects none of them, nor a ``slow`` one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests import lanes

ROOT = Path(__file__).resolve().parents[1]


def test_the_markers_are_registered_and_strict() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    registered = {line.split(":")[0] for line in config["ini_options"]["markers"]}
    assert registered == {"slow", "browser", "services"}
    assert "--strict-markers" in config["ini_options"]["addopts"].split()


def test_scripts_test_fast_runs_the_fast_lane() -> None:
    script = (ROOT / "scripts" / "test").read_text()
    assert f'"{lanes.FAST}"' in script


def test_a_service_started_by_an_unmarked_test_fails_it() -> None:
    me = "test_lanes.py::test_a_service_started_by_an_unmarked_test_fails_it"
    with pytest.raises(AssertionError, match=re.escape(f"{me} starts PostgreSQL")):
        lanes.needs("PostgreSQL")


@pytest.mark.services  # says so, and starts nothing: ``needs`` lets it pass
def test_a_service_started_by_a_marked_test_passes() -> None:
    lanes.needs("PostgreSQL")


def _collect(*args: str, tmp: Path) -> list[dict[str, Any]]:
    dump = tmp / "lanes.json"
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "tests.lanes_dump", *args, "tests"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
                          env={**os.environ, "CARDHALL_LANES_DUMP": str(dump)})
    assert done.returncode in (0, 5), done.stdout[-3000:] + done.stderr[-3000:]
    rows: list[dict[str, Any]] = json.loads(dump.read_text())
    return rows


@pytest.mark.slow  # collects the whole suite (about 10 s of CPU)
def test_every_lane_selects_what_it_says(tmp_path: Path) -> None:
    rows = _collect("-m", lanes.FAST, tmp=tmp_path)
    assert len(rows) > 4000  # the whole suite was collected
    web = [r for r in rows if r["id"].startswith("tests/web/")]
    assert web and all({"browser", "services"} <= set(r["markers"]) for r in web)
    for r in rows:
        if r["browser"]:
            assert "browser" in r["markers"], r
        if r["services"] or r["param"]:
            assert "services" in r["markers"], r
    fast = [r for r in rows if r["selected"]]
    assert fast, "the fast lane selects nothing"
    for r in fast:
        assert not {"slow", "browser", "services"} & set(r["markers"]), r
        assert not (r["services"] or r["param"] or r["browser"]), r
    # the library and the hall's logic are in it (on SQLite)
    for folder in ("tests/rules/", "tests/games/", "tests/bots/", "tests/hall/"):
        assert any(r["id"].startswith(folder) for r in fast), folder
    assert any(r["id"].endswith("[sqlite]") for r in fast)
