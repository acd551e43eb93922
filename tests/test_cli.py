"""The ``cardhall`` command as a script sees it: JSON out; exit 2 and one line on bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardhall import bots, terminal
from cardhall.games import VARIANTS, new_game, replay, variant

#: Games played through to their end are reported from their games.view.Result.
#: Leaving a Dou Dizhu game is an escape: the game's escape settlement (g-ddz).


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
    for name in (v.id for v in VARIANTS.values() if v.family == "climbing"):
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


def play(*args: str, script: str = "", timeout: int = 120) -> subprocess.CompletedProcess[str]:
    """``cardhall play ...`` with ``script`` as what the player types."""
    return subprocess.run([sys.executable, "-m", "cardhall", "play", *args], input=script,
                          capture_output=True, text=True, timeout=timeout, check=False)


def seat0_script(seed: int) -> list[str]:
    """What seat 0 will type against planning bots: call, then the 托管 policy, plays in
    lower case without their verb; computed on the same seeded game."""
    state = new_game("ddz2", seed=seed)
    me = bots.make("tuoguan", "ddz2", 0, seed)
    other = bots.make("planning", "ddz2", 1, seed)
    typed = []
    while not state.over:
        seat = state.to_act
        assert seat is not None
        obs = state.observe(seat)
        if seat == 0:
            text = "call" if "call" in obs["legal"] else me.act(obs)
            typed.append(text[5:].lower() if text.startswith("play ") else text)
        else:
            text = other.act(obs)
        state.apply(text)
    return typed


def test_play_in_the_terminal_rejects_bad_entries_and_saves_a_replayable_record(
        tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    script = "\n".join(["33Z", "hint", "bid 3", *seat0_script(4)]) + "\n"
    proc = play("ddz2", "--seed", "4", "--save", str(record), script=script)
    assert proc.returncode == 0, proc.stderr
    assert "seed 4: replay this deal with --seed 4" in proc.stdout
    assert "bots: planning" in proc.stdout  # the default
    assert "not allowed: unexpected 'Z' at position 3" in proc.stdout
    assert "not allowed: 'bid 3' is not an action of ddz2: call, no-call" in proc.stdout
    assert "legal: call, no-call" in proc.stdout
    assert "your hand: " in proc.stdout and "game over (finished)" in proc.stdout
    assert "not allowed" not in proc.stdout.split("bid 3' is not")[1]  # lower case accepted
    assert_readable(proc.stdout)
    over = proc.stdout.split("game over")[1]
    assert "landlord" in over and "farmer" in over and "multiplier: ×" in over
    saved = json.loads(record.read_text())
    assert saved["variant"] == "ddz2" and saved["seed"] == 4
    assert replay(saved).over
    replayed = run("replay", str(record), "--seat", "0")
    assert replayed.returncode == 0, replayed.stderr
    assert "game over (finished)" in replayed.stdout
    assert "seat 0: call" in replayed.stdout
    assert_readable(replayed.stdout)


def assert_readable(text: str) -> None:
    """No raw dicts, lists or JSON on the player's screen."""
    for raw in ("{'", '{"', "['", '["', "None", "True", "False"):
        assert raw not in text, f"raw data on screen: {raw!r}"


def test_a_fresh_seed_is_drawn_and_printed() -> None:
    seeds = set()
    for _ in range(2):
        proc = play("ddz3", script="quit\n")
        assert proc.returncode == 0, proc.stderr
        head = proc.stdout.splitlines()[0]
        assert "replay this deal with --seed" in head
        seeds.add(int(head.rsplit("--seed ", 1)[1].split(".")[0]))
    assert len(seeds) == 2


def test_help_names_the_bots_and_the_default() -> None:
    out = run("play", "--help")
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    assert "default: planning" in text and "tuoguan" in text and "search" in text
    assert "fresh seed" in text


def test_the_last_action_of_each_seat_is_the_views() -> None:
    """A pass shows as pass (not "bid 0"), a bid as the bid."""
    proc = play("ddz3", "--seed", "5", "--bots", "tuoguan", script="pass\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "bid 0" not in proc.stdout
    assert "seat 0 (you): pass" in proc.stdout
    assert "last: pass" in proc.stdout


def test_end_of_input_and_quit_save_the_game_so_far(tmp_path: Path) -> None:
    record = tmp_path / "left.json"
    proc = play("ddz3", "--seed", "6", "--save", str(record), script="")
    assert proc.returncode == 0, proc.stderr
    assert "you left the table" in proc.stdout and "Traceback" not in proc.stderr
    saved = json.loads(record.read_text())
    assert saved["seed"] == 6 and not replay(saved).over
    out = run("replay", str(record))
    assert out.returncode == 0 and "the game is not over" in out.stdout


def test_ctrl_c_leaves_cleanly_and_saves(tmp_path: Path) -> None:
    record = tmp_path / "interrupted.json"
    proc = subprocess.Popen([sys.executable, "-m", "cardhall", "play", "ddz3", "--seed", "7",
                             "--save", str(record)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdin is not None
    seen = b""
    deadline = time.monotonic() + 60
    while b"> " not in seen and time.monotonic() < deadline:
        seen += os.read(proc.stdout.fileno(), 4096)  # the prompt: it waits for the player
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert b"Traceback" not in err and b"interrupted" in seen + out
    assert json.loads(record.read_text())["seed"] == 7


def test_auto_on_plays_for_the_player_until_auto_off() -> None:
    """托管: the bot plays the seat; a typed 'auto off' gives it back at the next turn."""
    proc = play("ddz3", "--seed", "8", "--bots", "tuoguan",
                script="auto on\nauto off\nhint\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "seat 0: 托管 on" in proc.stdout and "seat 0: 托管 off" in proc.stdout
    assert "(you, 托管)" in proc.stdout  # at least one turn played for the player
    assert proc.stdout.count("legal: ") == 1  # asked again after auto off


def test_leave_is_an_escape_in_dou_dizhu(tmp_path: Path) -> None:
    record = tmp_path / "escape.json"
    proc = play("ddz3", "--seed", "9", "--save", str(record), script="leave\n")
    assert proc.returncode == 0, proc.stderr
    assert "seat 0 left the table" in proc.stdout and "game over (a player escaped)" in proc.stdout
    assert json.loads(record.read_text())["actions"][-1] == "@0 leave"


@pytest.mark.parametrize(("typed", "suited", "sent"), [
    ("tt", False, "play TT"), ("j", False, "play J"), ("333+4", False, "play 333+4"),
    ("play xd", False, "play XD"), ("pass", False, "pass"), ("double", False, "double"),
    ("ah", True, "play Ah"), ("tsts", True, "play TsTs"), ("dd", True, "play DD"),
    ("auto on", False, "@2 auto on"), ("leave", False, "@2 leave"), ("bid 3", False, "bid 3"),
])
def test_typed_lines_become_actions(typed: str, suited: bool, sent: str) -> None:
    assert terminal.command(typed, 2, "zhaopengyou" if suited else "ddz3") == sent


def test_words_on_screen() -> None:
    assert terminal.multiplier_text({"total": 20, "causes": {"rob": 2, "show": 5, "call": 1,
                                                             "bombs": 2}}) \
        == "×20 (rob ×2, show ×5, bombs ×2)"
    assert terminal.multiplier_text({"total": 1, "causes": {}}) == "×1"
    assert terminal.friend_call_text({"n": 1, "card": "Ah"}) \
        == "whoever plays the 1st A♥ is the dealer's friend"
    lines = terminal.grouped_suits(["X", "2h", "As", "Ks", "3d", "2s"],
                                   {"level": "2", "trump": "h"})
    assert lines == ["trumps: SJ 2♥ 2♠", "♠ (s): A K", "♦ (d): 3"]
    assert terminal.grouped_ranks(["3s", "3h", "5d", "X", "D"]) == "33 5 X D"


def test_trick_game_events_say_who_won_and_the_points() -> None:
    lines = terminal.event_lines([{"type": "trick", "number": 3, "winner": 2, "points": 15},
                                  {"type": "friend", "seat": 4, "card": "Ah", "n": 1},
                                  {"type": "reveal", "seat": 3, "how": "copy"},
                                  {"type": "revealed-card", "card": "7h", "landlord": 1}])
    assert lines == ["  seat 2 wins trick 3 (15 points)",
                     "  seat 4 is the friend (played the 1st A♥)",
                     "  seat 3 is revealed as the second landlord",
                     "  the revealed card is 7♥"]


def test_five_player_shows_the_revealed_card_and_the_second_landlord() -> None:
    view = {"variant": "ddz5", "seat": 2, "phase": "play", "acting": [2], "counts": [21] * 5,
            "roles": ["landlord", "farmer", "farmer", "landlord", "farmer"],
            "last": [None] * 5, "warnings": [], "auto": [False] * 5, "left": [False] * 5,
            "table": None, "multiplier": {"total": 2, "causes": {"double": 2}},
            "hand": ["3s", "3h"],
            "detail": {"revealed_card": "7h", "hidden_landlord": 3, "revealed": "copy"}}
    text = terminal.describe(view)
    assert "revealed card: 7♥" in text and "second landlord: seat 3 (revealed)" in text
    assert "multiplier: ×2 (double ×2)" in text
    assert_readable(text)


def test_replay_rejects_a_broken_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"variant": "ddz3", "version": variant("ddz3").version, "seed": 1,
                               "actions": ["bid 3", "fly"]}))
    out = run("replay", str(bad))
    assert out.returncode == 2
    assert "record action 2 ('fly')" in out.stderr
