"""Config: defaults for every variant, TOML parsed into typed rooms, bad keys named."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from cardhall.bots import SEATABLE
from cardhall.bots.sampling import searches
from cardhall.games import VARIANTS
from cardhall.hall.domain.config import (
    SEARCH_STAKE,
    STAKES,
    ConfigError,
    Room,
    default_config,
    load_config,
    parse_config,
)

GOOD = """
[[rooms]]
id = "happy-test"
name = "欢乐 测试场"
variant = "ddz3_happy"
options = {}
N = 50
A = 10
M0 = 2
min_beans = 1000
double_min_beans = 5000
turn_seconds = 15
bot_wait_seconds = 5
bot = "search"

[[rooms]]
id = "bh"
name = "保皇"
variant = "baohuang"
N = 1
A = 0
min_beans = 0

[economy]
starting_beans = 3000
golden_eye_price = 200
relief = { amount = 800, per_day = 1, below = 100 }

[limits]
guests_per_minute = 3
logins_per_minute = 4
messages_per_second = 5
"""


def test_defaults_cover_every_variant_at_growing_stakes() -> None:
    cfg = default_config()
    for vid in VARIANTS:
        rooms = [r for r in cfg.rooms if r.variant == vid and not r.bot_accounts]
        assert len(rooms) == 3
        for lo, hi in pairwise(rooms):
            assert lo.N < hi.N and lo.A < hi.A and lo.min_beans < hi.min_beans
    assert load_config(None) == cfg
    novice = cfg.room("ddz3-novice")
    assert (novice.name, novice.name_en) == ("三人斗地主 新手场", "Dou Dizhu Novice")
    assert cfg.economy.starting_beans > 0 and cfg.limits.messages_per_second > 0


def test_the_default_rooms_name_their_bots() -> None:
    """The search bot fills the highest stake that bots fill, in the variants where it
    searches (Dou Dizhu's); planning every other room, so both earn a rating."""
    with_bots = [stake for stake in STAKES if stake[7] is not None]
    assert SEARCH_STAKE == max(with_bots, key=lambda stake: stake[3])[0] == "junior"
    bots = {r.id: r.bot for r in default_config().rooms}
    assert {vid for vid in VARIANTS if searches(vid)} == {
        "ddz2", "ddz3", "ddz4", "ddz5", "ddz3_happy", "ddz3_laizi", "ddz_emperor"}
    for vid in VARIANTS:
        assert bots[f"{vid}-junior"] == ("search" if searches(vid) else "planning")
        assert bots[f"{vid}-novice"] == bots[f"{vid}-senior"] == "planning"
    assert set(bots.values()) <= set(SEATABLE)


def test_file_is_read_into_typed_settings(tmp_path: Path) -> None:
    path = tmp_path / "hall.toml"
    path.write_text(GOOD, encoding="utf-8")
    cfg = load_config(path)
    assert [r.id for r in cfg.rooms] == ["happy-test", "bh"]
    happy = cfg.room("happy-test")
    assert (happy.N, happy.A, happy.M0, happy.min_beans, happy.double_min_beans) == (
        50, 10, 2, 1000, 5000)
    assert happy.turn_seconds == 15 and happy.bot_wait_seconds == 5
    assert happy.bot == "search"
    assert cfg.room("bh").bot == "planning"  # absent: the planning bot fills the seats
    assert cfg.room("bh").bot_wait_seconds is None  # absent: bots never fill the seats
    assert cfg.room("bh").name_en == "保皇"  # no English name given: the one name serves
    assert cfg.room("bh").resolved_options() == VARIANTS["baohuang"].resolve({})
    assert cfg.economy.relief.amount == 800 and cfg.economy.golden_eye_price == 200
    assert cfg.limits.logins_per_minute == 4
    with pytest.raises(KeyError, match="nope"):
        cfg.room("nope")


def _room(**over: object) -> str:
    fields = {"id": '"r1"', "name": '"x"', "variant": '"ddz3"', "N": "1", "A": "0",
              "min_beans": "0"}
    fields.update({k: str(v) for k, v in over.items()})
    return "[[rooms]]\n" + "\n".join(f"{k} = {v}" for k, v in fields.items() if v != "DROP")


@pytest.mark.parametrize(("text", "message"), [
    (_room(variant='"ddz9"'), r"rooms\[0\]: .*variant 'ddz9' is unknown"),
    (_room(options='{ nonsense = 1 }'), r"rooms\[0\]: options: ddz3 has no option 'nonsense'"),
    (_room(bot='"alphago"'), r"rooms\[0\]\.bot: 'alphago' is not a bot the hall seats "
                             r"\(it seats: planning, search, "),
    (_room(bot='"rlcard-rule"'), r"rooms\[0\]\.bot: 'rlcard-rule' is not a bot the hall"),
    (_room(N="0"), r"rooms\[0\]\.N: .*greater than or equal to 1"),
    (_room(N='"10"'), r"rooms\[0\]\.N: .*valid integer"),
    (_room(min_beans="DROP"), r"rooms\[0\]\.min_beans: Field required"),
    (_room(min_bean="5"), r"rooms\[0\]\.min_bean: Extra inputs"),
    (_room(id='"Bad Id"'), r"rooms\[0\]: id 'Bad Id'"),
    (_room() + "\n" + _room(), r"room id 'r1' is used twice"),
    ("rooms = []", r"rooms: an empty list"),
    ("[economy]\nstarting_beans = -5", r"economy\.starting_beans: .*greater than or equal to 0"),
    ("[economy.relief]\nper_day = 1.5", r"economy\.relief\.per_day: .*valid integer"),
    ("[limits]\nlogins_per_minute = 0", r"limits\.logins_per_minute"),
    ("[limits]\naccepts_per_second = 0", r"limits\.accepts_per_second"),
    ("[limit]\nx = 1", r"limit: Extra inputs"),
    ("[economy\n", r"not valid TOML"),
])
def test_bad_config_names_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(text)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.toml: cannot read"):
        load_config(tmp_path / "missing.toml")


@pytest.mark.parametrize(("given", "name", "name_en"), [
    ({}, "三人斗地主 r1", "Dou Dizhu r1"),
    ({"name": "好友场"}, "好友场", "好友场"),
    ({"name": "好友场", "name_en": "Friends"}, "好友场", "Friends"),
    ({"name_en": "Friends"}, "三人斗地主 r1", "Friends"),
])
def test_room_names_in_both_languages(given: dict[str, str], name: str, name_en: str) -> None:
    room = Room(id="r1", variant="ddz3", N=1, A=0, min_beans=0, **given)
    assert (room.name, room.name_en) == (name, name_en)
