"""The ``cardhall`` command as a script sees it: JSON out; exit 2 and one line on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardhall import bots
from cardhall.games import VARIANTS, new_game


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
    tour = out.stdout.split("the planning bot at every seat:\n", 1)[1].split("\n\n", 1)[0]
    lines = tour.splitlines()
    assert [line.split()[0] for line in lines] == list(VARIANTS)  # one finished hand each
    assert not any("abandoned" in line for line in lines)


# -- games from the command line ------------------------------------------------------------


def test_simulate_reports_roles_multiplier_and_speed() -> None:
    out = run("simulate", "ddz3", "--games", "20", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["games"] == 20 and summary["abandoned"] == 0
    assert set(summary["roles"]) == {"landlord", "farmer"}
    assert summary["roles"]["landlord"]["seats"] == 20
    assert summary["roles"]["farmer"]["seats"] == 40
    assert summary["mean_multiplier"] >= 1
    assert summary["games_per_second"] > 0
    again = json.loads(run("simulate", "ddz3", "--games", "20", "--seed", "3", "--json").stdout)
    assert again["roles"] == summary["roles"]  # seeded: the same games


def seat0_script(seed: int) -> list[str]:
    """What seat 0 will type: call, then the 托管 policy; computed on the same seeded game."""
    state = new_game("ddz2", seed=seed)
    me = bots.make("tuoguan", "ddz2", 0, seed)
    other = bots.make("tuoguan", "ddz2", 1, seed)
    typed = []
    while not state.over:
        seat = state.to_act
        obs = state.observe(seat)
        if seat == 0:
            text = "call" if "call" in obs["legal_actions"] else me.act(obs)
            typed.append(text)
        else:
            text = other.act(obs)
        state.apply(text)
    return typed


def test_play_in_the_terminal_rejects_bad_entries_and_saves_a_replayable_record(
        tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    script = "\n".join(["33Z", "hint", "bid 3", *seat0_script(4)]) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "cardhall", "play", "ddz2", "--seed", "4", "--bots", "tuoguan",
         "--save", str(record)],
        input=script, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "not allowed: unexpected 'Z' at position 3" in proc.stdout
    assert "not allowed: bid 3 is not an action of ddz2: call or no-call" in proc.stdout
    assert "legal: call, no-call" in proc.stdout
    assert "your hand: " in proc.stdout and "game over: " in proc.stdout
    saved = json.loads(record.read_text())
    assert saved["variant"] == "ddz2" and saved["seed"] == 4
    replayed = run("replay", str(record), "--seat", "0")
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.strip().splitlines()[-1].startswith("result: ")
    assert "seat 0: call" in replayed.stdout


def test_replay_rejects_a_broken_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"variant": "ddz3", "seed": 1, "actions": ["bid 3", "fly"]}))
    out = run("replay", str(bad))
    assert out.returncode == 2
    assert "record action 2 ('fly')" in out.stderr
