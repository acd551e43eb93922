"""The library's rule sets, declared as data (docs/rules/, one page each).

Each declaration names its hand types in the order moves are listed, its
bomb ladder (``tier``: higher beats lower, any bomb beats any other hand) and
the few switches that are truly its own. The engine in ``climb.py`` reads
these; nothing here is code that a variant copies from another.

A playable variant is declared once, in ``cardhall.games`` (its ``Variant``
holds the rule set object it takes from here); a new variant may build its
own rule set from these patterns instead (docs/adding-a-variant.md) and need
not be listed here. ``get(name)`` is the library's own door to them.
"""

from __future__ import annotations

from cardhall.cards import Rank
from cardhall.rules.patterns import ALL, WITH_JOKERS, Pattern
from cardhall.rules.ruleset import RuleError, RuleSet

CHAIN = 12  # the longest chain: 3 … A

# ddz-classic §3, the 13 hand types with kicker rules K1–K4; bomb < rocket.
_CLASSIC_BODY = (
    Pattern("single", 1, ranks=ALL),
    Pattern("pair", 2),
    Pattern("trio", 3),
    Pattern("trio_single", 3, kickers=(1,)),
    Pattern("trio_pair", 3, kickers=(2,)),
    Pattern("straight", 1, chain=(5, CHAIN)),
    Pattern("pair_chain", 2, chain=(3, CHAIN)),
    Pattern("trio_chain", 3, chain=(2, CHAIN)),
    Pattern("plane_single", 3, chain=(2, CHAIN), kickers=(1,)),
    Pattern("plane_pair", 3, chain=(2, CHAIN), kickers=(2,)),
    Pattern("four_single", 4, kickers=(1, 1)),
    Pattern("four_pair", 4, kickers=(2, 2)),
)


def _classic(bomb: int, rocket: int) -> tuple[Pattern, ...]:
    return (*_CLASSIC_BODY, Pattern("bomb", 4, tier=bomb),
            Pattern("rocket", jokers=((1, 1),), tier=rocket))


CLASSIC = _classic(bomb=1, rocket=2)
# ddz-laizi §4: soft (1) < hard (2) < pure-wild (3) < rocket (4); natural bombs are hard.
LAIZI = _classic(bomb=2, rocket=4)

# ddz-4p §3: no trio+single, plane+singles or four+two; joker pairs; bombs of 4–8
# cards, more cards first; the rocket is all four jokers.
FOUR_PLAYER = (
    Pattern("single", 1, ranks=ALL),
    Pattern("pair", 2, ranks=WITH_JOKERS),
    Pattern("trio", 3),
    Pattern("trio_pair", 3, kickers=(2,)),
    Pattern("straight", 1, chain=(5, CHAIN)),
    Pattern("pair_chain", 2, chain=(3, CHAIN)),
    Pattern("trio_chain", 3, chain=(2, CHAIN)),
    Pattern("plane_pair", 3, chain=(2, CHAIN), kickers=(2,)),
    *(Pattern("bomb", width, tier=width - 3) for width in range(4, 9)),
    Pattern("rocket", jokers=((2, 2),), tier=6),
)

# ddz-5p §3: pairs exclude jokers; ladder 4炸 < 双王 < 5炸 < 6炸 < 三王 < 7炸 < 8炸 < 天王.
FIVE_PLAYER = (
    Pattern("single", 1, ranks=ALL),
    Pattern("pair", 2),
    Pattern("pair_chain", 2, chain=(3, CHAIN)),
    Pattern("straight", 1, chain=(5, CHAIN)),
    Pattern("trio", 3),
    Pattern("trio_chain", 3, chain=(2, CHAIN)),
    Pattern("trio_pair", 3, kickers=(2,)),
    Pattern("plane_pair", 3, chain=(2, CHAIN), kickers=(2,)),
    Pattern("bomb", 4, tier=1),
    Pattern("two_jokers", jokers=((2, 0), (0, 2)), tier=2),
    Pattern("bomb", 5, tier=3),
    Pattern("bomb", 6, tier=4),
    Pattern("three_jokers", jokers=((2, 1), (1, 2)), tier=5),
    Pattern("bomb", 7, tier=6),
    Pattern("bomb", 8, tier=7),
    Pattern("four_jokers", jokers=((2, 2),), tier=8),
)

# dou-dizhu-emperor §3, the 16 types: longer minimum chains, fours that are not
# bombs, bombs of 5–8 cards, 天王 on top; every kicker group its own rank.
EMPEROR = (
    Pattern("single", 1, ranks=ALL),
    Pattern("straight", 1, chain=(5, CHAIN)),
    Pattern("pair", 2, ranks=WITH_JOKERS),
    Pattern("pair_chain", 2, chain=(4, CHAIN)),
    Pattern("trio", 3),
    Pattern("trio_chain", 3, chain=(3, CHAIN)),
    Pattern("trio_pair", 3, kickers=(2,)),
    Pattern("plane", 3, chain=(3, CHAIN), kickers=(2,)),
    Pattern("four", 4),
    Pattern("four_chain", 4, chain=(2, CHAIN)),
    Pattern("four_trio", 4, kickers=(3,)),
    Pattern("carrier", 4, chain=(2, CHAIN), kickers=(3,)),
    Pattern("dress", 4, kickers=(3, 2)),
    Pattern("spaceship", 4, chain=(2, CHAIN), kickers=(2,), second=3),
    *(Pattern("bomb", width, tier=width - 4) for width in range(5, 9)),
    Pattern("four_jokers", jokers=((2, 2),), tier=5),
)

_CLASSIC_TEXT = "13 hand types, K1–K4 kickers, bomb < rocket"
RULESETS: dict[str, RuleSet] = {
    "ddz2": RuleSet("ddz2", f"二人斗地主: one pack, {_CLASSIC_TEXT}", 1, CLASSIC),
    "ddz3": RuleSet("ddz3", f"三人斗地主: one pack, {_CLASSIC_TEXT}", 1, CLASSIC),
    "ddz3_happy": RuleSet("ddz3_happy", f"欢乐斗地主: one pack, {_CLASSIC_TEXT}", 1, CLASSIC),
    "ddz3_laizi": RuleSet(
        "ddz3_laizi", "癞子斗地主: classic types, one wild rank, soft < hard < pure-wild < rocket",
        1, LAIZI, wildcards=True),
    "ddz4": RuleSet("ddz4", "四人斗地主: two packs, bombs of 4–8 cards, four-joker rocket",
                    2, FOUR_PLAYER, joker_pairs=True),
    "ddz5": RuleSet("ddz5", "五人斗地主: two packs, joker bombs inside the bomb ladder",
                    2, FIVE_PLAYER),
    "ddz_emperor": RuleSet("ddz_emperor", "斗帝主: two packs, 16 hand types, bombs of 5–8 cards",
                           2, EMPEROR, joker_pairs=True),
    "baohuang": RuleSet("baohuang", "保皇: four packs without 3/4/5, sets and joker-hung sets",
                        4, comparison="sets", absent=(0, 1, 2)),
}


def get(name: str, wild: Rank | str | None = None, **options: object) -> RuleSet:
    """The rule set of variant ``name`` with the given options."""
    try:
        base = RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise RuleError(f"unknown variant {name!r} (known: {known})") from None
    return base.with_options(wild=wild, **options)
