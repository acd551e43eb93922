"""The ``cardhall`` command as a script sees it: JSON out; exit 2 and one line on bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardhall", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def test_classify_lists_every_reading_with_stable_keys() -> None:
    out = run("rules", "classify", "ddz3", "333444555666")
    assert out.returncode == 0, out.stderr
    readings = json.loads(out.stdout)["readings"]
    assert readings == [
        {"cards": "333444555666", "kind": "trio_chain", "key": "6", "length": 4},
        {"cards": "333444555+666", "kind": "plane_single", "key": "5", "length": 3},
        {"cards": "444555666+333", "kind": "plane_single", "key": "6", "length": 3},
    ]


def test_moves_with_last_lists_only_beating_plays() -> None:
    out = run("rules", "moves", "ddz3", "3456789XD", "--last", "7")
    assert out.returncode == 0, out.stderr
    cards = [m["cards"] for m in json.loads(out.stdout)["moves"]]
    assert cards == ["8", "9", "X", "D", "XD"]


def test_moves_lead_includes_bombs_and_marks_them() -> None:
    out = run("rules", "moves", "ddz3", "3333")
    moves = json.loads(out.stdout)["moves"]
    assert {"cards": "3333", "kind": "bomb", "key": "3", "length": 1, "bomb": 1} in moves
    assert [m["cards"] for m in moves] == ["3", "33", "333", "3333"]


def test_last_with_several_readings_lists_what_beats_any() -> None:
    # 333444555666: a trio chain of 4 (key 6), or a plane of 3 carrying 666 (key 5)
    # or carrying 333 (key 6). A move is listed if it beats any of them.
    out = run("rules", "moves", "ddz3", "444555666777+89T", "--last", "333444555666")
    cards = {m["cards"] for m in json.loads(out.stdout)["moves"]}
    assert "444555666777" in cards  # trio chain of 4, key 7 > 6
    assert "555666777+89T" in cards  # plane of 3, key 7 beats both plane readings
    assert "444555666+89T" in cards  # key 6 beats only the key-5 reading: still listed
    assert "444555666" not in cards  # a trio chain of 3 matches no reading's length
    assert "777+8" not in cards


def test_laizi_reports_what_wild_cards_stand_for() -> None:
    out = run("rules", "classify", "ddz3_laizi", "3335", "--wild", "5")
    readings = json.loads(out.stdout)["readings"]
    assert {"cards": "3335", "kind": "bomb", "key": "3", "length": 1, "bomb": 1,
            "as": "3333"} in readings
    assert any(r["kind"] == "trio_single" for r in readings)


def test_baohuang_options() -> None:
    out = run("rules", "moves", "baohuang", "66X", "--option", "bie6=true")
    assert [m["cards"] for m in json.loads(out.stdout)["moves"]] == ["X", "66+X"]
    out = run("rules", "moves", "baohuang", "DD", "--last", "X", "--option", "kaopai=true")
    assert [m["cards"] for m in json.loads(out.stdout)["moves"]] == ["D", "DD"]


@pytest.mark.parametrize(("args", "reason"), [
    (("rules", "classify", "ddz9", "33"), "unknown variant 'ddz9'"),
    (("rules", "classify", "ddz3", "33Z"), "'Z' at position 3"),
    (("rules", "classify", "ddz3", "33333"), "ddz3 has only 4 of 3"),
    (("rules", "classify", "baohuang", "555"), "baohuang is played without 5"),
    (("rules", "moves", "ddz3", "345", "--wild", "5"), "ddz3 has no wildcards"),
    (("rules", "moves", "ddz3_laizi", "345", "--wild", "X"), "wild rank must be one of 3"),
    (("rules", "moves", "baohuang", "66", "--option", "kaopai"), "--option takes KEY=VALUE"),
    (("rules", "moves", "baohuang", "66", "--option", "fast=true"), "no option 'fast'"),
    (("rules", "moves", "baohuang", "66", "--option", "bie6=maybe"), "takes true or false"),
    (("rules", "moves", "ddz3", "345", "--last", "34"), "34 is not a ddz3 hand"),
    (("rules", "frobnicate"), "invalid choice"),
])
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], reason: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert reason in lines[0]


def test_demo_runs_every_variant() -> None:
    out = run("demo", "--seed", "1")
    assert out.returncode == 0, out.stderr
    for name in ("ddz2", "ddz3", "ddz3_laizi", "ddz4", "ddz5", "ddz_emperor", "baohuang"):
        assert f"{name}" in out.stdout
