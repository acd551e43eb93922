"""``cardhall analyze RECORD.json --seat S [--json]``: the report, and one-line refusals
with status 2 for whatever cannot be analysed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardhall import cli
from tests.analysis import built


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(built.record()))
    return path


def test_json_names_the_blunder_and_the_right_move(saved: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["analyze", str(saved), "--seat", "0", "--samples", "8", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 0 and out["worst"] == built.BLUNDER_PLY
    worst = next(d for d in out["decisions"] if d["ply"] == built.BLUNDER_PLY)
    assert worst["mark"] == "blunder" and worst["forced_win_missed"] and worst["exact"]
    assert worst["best"]["move"] in built.WINNING and worst["played"]["move"] == "play 3"
    assert 0 <= out["accuracy"] <= 100


def test_text_has_a_line_a_decision_and_the_accuracy(saved: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["analyze", str(saved), "--seat", "0", "--samples", "4"]) == 0
    out = capsys.readouterr().out
    assert "17. play 3" in out and "blunder: best play" in out
    assert "forced win missed" in out and out.rstrip().splitlines()[-1].startswith("accuracy")


@pytest.mark.parametrize(("content", "args", "said"), [
    (None, ["--seat", "0"], "cannot read record"),
    ("{not json", ["--seat", "0"], "cannot read record"),
    ("[1, 2]", ["--seat", "0"], "a record is a JSON object"),
    ('{"variant": "ddz3"}', ["--seat", "0"], "a record needs"),
    ("GAME", ["--seat", "5"], "seat 5 is not in"),
    ("GAME", ["--seat", "0", "--samples", "0"], "--samples"),
    ("GAME", [], "--seat"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: str | None, args: list[str],
                                            said: str) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(json.dumps(built.record()) if content == "GAME" else content)
    assert cli.main(["analyze", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and err.startswith("cardhall: ")


def test_an_unfinished_game_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = built.record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**rec, "actions": rec["actions"][:3]}))
    assert cli.main(["analyze", str(path), "--seat", "0"]) == 2
    assert "not finished" in capsys.readouterr().err
