"""The hall's docs say what the code does: the example config loads, the level table
is the code's, the docstring examples run."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

from cardhall.hall.domain.config import default_config, parse_config
from cardhall.hall.domain.levels import TABLE_B, TITLES_EN

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_operations_example_config_loads() -> None:
    text = (DOCS / "operations.md").read_text(encoding="utf-8")
    block, load_test = re.findall(r"```toml\n(.*?)```", text, re.S)
    cfg = parse_config(block)
    assert [r.id for r in cfg.rooms] == ["happy-novice", "baohuang-kaopai"]
    assert cfg.room("baohuang-kaopai").resolved_options()["kaopai"] is True
    assert cfg.economy.relief.per_day == 3 and cfg.limits.messages_per_second == 20
    # The load test's config: its guests can afford the built-in rooms without bots.
    load = parse_config(load_test)
    humans = [r for r in load.rooms if r.bot_wait_seconds is None]
    assert humans and all(r.min_beans <= load.economy.starting_beans for r in humans)
    assert load.limits.guests_per_minute >= 10_000


def test_operations_describes_the_default_rooms() -> None:
    text = (DOCS / "operations.md").read_text(encoding="utf-8")
    for suffix in ("novice", "junior", "senior"):
        room = default_config().room(f"ddz3-{suffix}")
        described = re.search(rf"`<variant>-{suffix}` \([^:]+: N ([\d ]+), A ([\d ]+)", text)
        assert described is not None
        assert (int(described[1].replace(" ", "")), int(described[2].replace(" ", ""))) == (
            room.N, room.A)


def test_level_table_in_docs_is_the_code_table() -> None:
    text = (DOCS / "rules-platform.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| (\S+) \| <? ?([\d ]+) \|$", text, re.M)
    table = [(int(n), title, int(points.replace(" ", ""))) for n, title, points in rows]
    expected = [(i + 1, title, points or 100) for i, (title, points) in enumerate(TABLE_B)]
    assert table == expected  # row 1 reads "< 100": below the second threshold


def test_every_title_has_its_english_one_in_the_english_rules() -> None:
    """The English rules page names each title as an English page shows it (/api/names),
    the Chinese beside it."""
    assert list(TITLES_EN) == [title for title, _ in TABLE_B]
    english = (DOCS / "rules" / "platform.md").read_text(encoding="utf-8").split("## English")[1]
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \((\S+)\) \|", english, re.M)
    assert [(int(n), en, zh) for n, en, zh in rows] == [
        (i + 1, TITLES_EN[title], title) for i, (title, _) in enumerate(TABLE_B)]


@pytest.mark.parametrize("name", ["cardhall.hall.domain.config", "cardhall.hall.domain.levels",
                                  "cardhall.hall.domain.limits"])
def test_docstring_examples(name: str) -> None:
    failed, attempted = doctest.testmod(importlib.import_module(name))
    assert attempted > 0 and failed == 0
