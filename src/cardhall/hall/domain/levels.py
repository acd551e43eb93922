"""Level titles (级别) from cumulative points: table B of the platform rules.

A player's level is the highest row whose threshold is at most his cumulative points
(积分, floored at 0; docs/rules-platform.md): under 100 he is a 包身工, from
100 000 000 an 帝王. Points, not beans, because beans also move with purchases, relief
and fees.

    >>> level_for(0).title, level_for(99).title, level_for(100).title
    ('包身工', '包身工', '短工')
    >>> level_for(100_000_000).number, level_for(100_000_000).title
    (23, '帝王')
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

#: (title, points needed), level 1 first. Table B (23 levels).
TABLE_B: tuple[tuple[str, int], ...] = (
    ("包身工", 0),
    ("短工", 100),
    ("长工", 200),
    ("佃户", 400),
    ("贫农", 600),
    ("渔夫", 800),
    ("猎人", 1_000),
    ("中农", 2_000),
    ("富农", 4_000),
    ("掌柜", 6_000),
    ("商人", 10_000),
    ("衙役", 20_000),
    ("小财主", 50_000),
    ("大财主", 100_000),
    ("小地主", 200_000),
    ("大地主", 500_000),
    ("知县", 1_000_000),
    ("通判", 2_000_000),
    ("知府", 5_000_000),
    ("总督", 10_000_000),
    ("巡抚", 20_000_000),
    ("丞相", 50_000_000),
    ("帝王", 100_000_000),
)

#: Each title in English (an English page shows these: /api/names): the ranks of old
#: China, from a bondsman up to the sovereign, in words an English reader knows and short
#: enough for a phone's settlement table (the role names Landlord and Emperor avoided).
TITLES_EN: dict[str, str] = {
    "包身工": "Bondsman",
    "短工": "Labourer",
    "长工": "Farmhand",
    "佃户": "Tenant",
    "贫农": "Poor peasant",
    "渔夫": "Fisherman",
    "猎人": "Hunter",
    "中农": "Smallholder",
    "富农": "Yeoman",
    "掌柜": "Shopkeeper",
    "商人": "Merchant",
    "衙役": "Constable",
    "小财主": "Rich man",
    "大财主": "Tycoon",
    "小地主": "Landowner",
    "大地主": "Great landowner",
    "知县": "Magistrate",
    "通判": "Sub-prefect",
    "知府": "Prefect",
    "总督": "Viceroy",
    "巡抚": "Governor",
    "丞相": "Chancellor",
    "帝王": "Sovereign",
}

_THRESHOLDS = [t for _, t in TABLE_B]


@dataclass(frozen=True, slots=True)
class Level:
    """A level: its number (1–23), title, the points it starts at, and the points the
    next one starts at (None at the top), so a client can draw progress."""

    number: int
    title: str
    threshold: int
    next_threshold: int | None


def level_for(points: int) -> Level:
    """The level held with ``points`` cumulative points (negative counts as 0)."""
    i = bisect_right(_THRESHOLDS, max(0, points)) - 1
    title, threshold = TABLE_B[i]
    nxt = _THRESHOLDS[i + 1] if i + 1 < len(_THRESHOLDS) else None
    return Level(i + 1, title, threshold, nxt)


def title_for(points: int) -> str:
    return level_for(points).title


#: The title of every bot, the hall's own and bot accounts alike: a bot account earns
#: no level title (docs/rulings.md, "The hall"), whatever its points.
BOT_TITLE = "机器人"


def title_of(points: int, bot: bool = False) -> str:
    """The title shown by a player's name: his level's, or a bot's ``BOT_TITLE``."""
    return BOT_TITLE if bot else title_for(points)
