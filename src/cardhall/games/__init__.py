"""Every variant as a complete, replayable game behind one contract (docs/contract.md).

    >>> from cardhall.games import new_game, replay
    >>> state = new_game("ddz3", seed=7)
    >>> state.phase == "bid", state.to_act in state.acting
    (True, True)
    >>> replay(state.record()).observe(0) == state.observe(0)
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardhall.games import baohuang_score, ddz5, zhaopengyou_match, zhaopengyou_setup
from cardhall.games.baohuang import Baohuang
from cardhall.games.baohuang import options as baohuang_options
from cardhall.games.base import Action, Event, GameState, IllegalAction, Option, Variant
from cardhall.games.climbing import ClimbingGame
from cardhall.games.ddz import Classic, Emperor, FourPlayer, TwoPlayer, common_options
from cardhall.games.ddz5 import FivePlayer
from cardhall.games.ddz5 import options as ddz5_options
from cardhall.games.errors import BadSetup
from cardhall.games.happy import Happy, Laizi, happy_options
from cardhall.games.zhaopengyou import ZhaoPengyou
from cardhall.games.zhaopengyou import options as zhaopengyou_options
from cardhall.rules import get as get_rules


def _packs(game: type[ClimbingGame]) -> int:
    """A climbing game's packs, as its rule set declares them (rules/variants.py)."""
    return get_rules(game.ruleset).packs


VARIANTS: dict[str, Variant] = {
    v.id: v for v in (
        Variant("ddz2", "二人斗地主", 2, _packs(TwoPlayer),
                "Two players, one pack, 11 dead cards; call or no-call.",
                common_options(2), TwoPlayer, version=2, name_en="Two-player Dou Dizhu"),
        Variant("ddz3", "三人斗地主", 3, _packs(Classic),
                "Classic three-player Dou Dizhu with 1/2/3-point bidding.",
                common_options(3), Classic, version=2, name_en="Dou Dizhu"),
        Variant("ddz4", "四人斗地主", 4, _packs(FourPlayer),
                "Four players, two packs, hidden 8-card kitty, big bombs double.",
                common_options(4), FourPlayer, version=2,
                name_en="Four-player Dou Dizhu"),
        Variant("ddz5", "五人斗地主", ddz5.PLAYERS, _packs(FivePlayer),
                "Five players, two packs; the revealed card names an open and a hidden landlord.",
                ddz5_options(), FivePlayer, version=2, name_en="Five-player Dou Dizhu"),
        Variant("ddz3_happy", "欢乐斗地主", 3, _packs(Happy),
                "Call and rob the landlord, show cards, double; beans with floors, caps and fee.",
                happy_options(), Happy, version=2),
        Variant("ddz3_laizi", "癞子斗地主", 3, _packs(Laizi),
                "Happy Dou Dizhu with a wild rank drawn after robbing; soft/hard/pure bombs.",
                happy_options(laizi=True), Laizi, version=2),
        Variant("ddz_emperor", "斗帝主", 3, _packs(Emperor),
                "Three players, two packs, 16 hand types; the emperor keeps any of 6 kitty cards.",
                common_options(3), Emperor, version=2, name_en="Dou Dizhu Emperor"),
        Variant("baohuang", "保皇", baohuang_score.PLAYERS, _packs(Baohuang),
                "Five players, four packs without 3/4/5: the emperor and his guard against "
                "three rebels; classic or simple mode, 烤牌, 憋6, 抢独.",
                baohuang_options(), Baohuang, version=2,
                # the guard card's seat names the simple mode's guard
                secret_options=("deal", "guard_card")),
        Variant("zhaopengyou", "找朋友", zhaopengyou_match.PLAYERS, zhaopengyou_setup.PACKS,
                "Five players, three packs, tricks with trumps and tractors; the dealer calls "
                "a friend by a card; every player keeps his own level.",
                zhaopengyou_options(), ZhaoPengyou, version=2, name_en="Find Friends",
                suits=True),
    )
}


def variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise BadSetup("unknown_variant", f"unknown variant {name!r} (known: {known})",
                       variant=str(name)[:40]) from None


def new_game(name: str, seed: int = 0, options: Mapping[str, Any] | None = None) -> GameState:
    """A new game of variant ``name``; the same seed and options give the same deal."""
    v = variant(name)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadSetup("bad_seed", f"a seed is an integer, not {seed!r}")
    return v.factory(v, seed, v.resolve(options))


def replay(record: Mapping[str, Any]) -> GameState:
    """Rebuild a game from ``state.record()``: same deal, same actions, same state.

    A record names the version of its variant; one of another version is
    refused, since the same actions could play differently there.
    """
    if not isinstance(record, Mapping):
        raise BadSetup("bad_record", "a record is a table with variant, version, seed and "
                       "actions")
    try:
        name, seed, version = record["variant"], record["seed"], record["version"]
        options, actions = record.get("options", {}), record["actions"]
    except KeyError as exc:
        raise BadSetup("bad_record", f"a record needs variant, version, seed and actions "
                       f"(missing {exc.args[0]})") from None
    v = variant(name)
    if version != v.version:
        raise BadSetup("record_version", f"this record is of {v.id} version {version!r}; "
                       f"this cardhall plays version {v.version} and cannot replay it",
                       variant=v.id, version=str(version)[:20], plays=v.version)
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise BadSetup("bad_record", "a record's actions are a list of action texts")
    state = new_game(name, seed, options)
    for i, text in enumerate(actions):
        try:
            state.apply(text)
        except IllegalAction as exc:
            raise BadSetup("record_action", f"record action {i + 1} ({text[:60]!r}): {exc}",
                           number=i + 1, cause=exc.reason) from None
    return state


__all__ = ["VARIANTS", "Action", "Event", "GameState", "IllegalAction", "Option", "Variant",
           "new_game", "replay", "variant"]
