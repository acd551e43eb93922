"""Every variant as a complete, replayable game behind one contract (docs/contract.md).

    >>> from cardhall.games import new_game, replay
    >>> state = new_game("ddz3", seed=7)
    >>> state.phase == "bid", state.to_act in state.acting
    (True, True)
    >>> replay(state.record()).observe(0) == state.observe(0)
    True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from cardhall import rules
from cardhall.cards import Rank
from cardhall.games import (
    baohuang_score,
    ddz5,
    happy,
    sides,
    zhaopengyou_match,
    zhaopengyou_setup,
)
from cardhall.games.baohuang import Baohuang
from cardhall.games.baohuang import options as baohuang_options
from cardhall.games.base import Action, Event, GameState, IllegalAction, Option, Variant
from cardhall.games.ddz import Classic, Emperor, FourPlayer, TwoPlayer, common_options
from cardhall.games.ddz5 import FivePlayer
from cardhall.games.ddz5 import options as ddz5_options
from cardhall.games.errors import BadSetup
from cardhall.games.happy import Happy, Laizi, happy_options
from cardhall.games.variant import Display, Layout, Ratings
from cardhall.games.zhaopengyou import ZhaoPengyou
from cardhall.games.zhaopengyou import options as zhaopengyou_options
from cardhall.rules import RuleError, RuleSet

#: Every variant, each declared once: what it is, how it deals, what its plays follow
#: (its rule set, rules/variants.py), the bots' rating scale (benchmarks/calibrate.py)
#: and how a client shows it. Adding one: docs/adding-a-variant.md.
VARIANTS: dict[str, Variant] = {
    v.id: v for v in (
        Variant("ddz2", "二人斗地主", 2, 1,
                "Two players, one pack, 11 dead cards; call or no-call.",
                common_options(2), TwoPlayer, version=2, name_en="Two-player Dou Dizhu",
                rules=rules.get("ddz2"), layout=Layout(hand=20, kitty=3, dead=11),
                ratings=Ratings(-43.5, 11.7), side=sides.landlord),
        Variant("ddz3", "三人斗地主", 3, 1,
                "Classic three-player Dou Dizhu with 1/2/3-point bidding.",
                common_options(3), Classic, version=2, name_en="Dou Dizhu",
                rules=rules.get("ddz3"), layout=Layout(hand=17, kitty=3),
                ratings=Ratings(-50.9, 12.0), side=sides.landlord),
        Variant("ddz4", "四人斗地主", 4, 2,
                "Four players, two packs, hidden 8-card kitty, big bombs double.",
                common_options(4), FourPlayer, version=2,
                name_en="Four-player Dou Dizhu",
                rules=rules.get("ddz4"), layout=Layout(hand=25, kitty=8),
                ratings=Ratings(-27.4, 11.9), side=sides.landlord),
        Variant("ddz5", "五人斗地主", ddz5.PLAYERS, 2,
                "Five players, two packs; the revealed card names an open and a hidden landlord.",
                ddz5_options(), FivePlayer, version=2, name_en="Five-player Dou Dizhu",
                rules=rules.get("ddz5"), layout=Layout(hand=21, kitty=3),
                ratings=Ratings(-37.2, 12.7), side=sides.landlords,
                display=Display(roles={"open landlord": ("明地主", "Open landlord"),
                                       "hidden landlord": ("暗地主", "Hidden landlord")})),
        Variant("ddz3_happy", "欢乐斗地主", 3, 1,
                "Call and rob the landlord, show cards, double; beans with floors, caps and fee.",
                happy_options(), Happy, version=2, name_en="Happy Dou Dizhu",
                rules=rules.get("ddz3_happy"), layout=Layout(hand=happy.HAND, kitty=3),
                ratings=Ratings(-50.9, 12.0), side=sides.landlord),
        Variant("ddz3_laizi", "癞子斗地主", 3, 1,
                "Happy Dou Dizhu with a wild rank drawn after robbing; soft/hard/pure bombs.",
                happy_options(laizi=True), Laizi, version=2, name_en="Wildcard Dou Dizhu",
                rules=rules.get("ddz3_laizi"), layout=Layout(hand=happy.HAND, kitty=3),
                ratings=Ratings(-50.8, 12.2), side=sides.landlord),
        Variant("ddz_emperor", "斗帝主", 3, 2,
                "Three players, two packs, 16 hand types; the emperor keeps any of 6 kitty cards.",
                common_options(3), Emperor, version=2, name_en="Dou Dizhu Emperor",
                rules=rules.get("ddz_emperor"), layout=Layout(hand=34, kitty=6),
                ratings=Ratings(-20.8, 10.1), side=sides.landlord,
                display=Display(roles={"emperor": ("帝主", "Emperor")})),
        Variant("baohuang", "保皇", baohuang_score.PLAYERS, 4,
                "Five players, four packs without 3/4/5: the emperor and his guard against "
                "three rebels; classic or simple mode, 烤牌, 憋6, 抢独.",
                baohuang_options(), Baohuang, version=2, name_en="Protect the Emperor",
                # the guard card's seat names the simple mode's guard
                secret_options=("deal", "guard_card"),
                rules=rules.get("baohuang"), layout=Layout(hand=34, kitty=0),
                ratings=Ratings(-57.8, 6.7), side=sides.royal_side,
                display=Display(actions={"call": ("叫侍卫 {arg}", "Call guard {arg}")})),
        Variant("zhaopengyou", "找朋友", zhaopengyou_match.PLAYERS, zhaopengyou_setup.PACKS,
                "Five players, three packs, tricks with trumps and tractors; the dealer calls "
                "a friend by a card; every player keeps his own level.",
                zhaopengyou_options(), ZhaoPengyou, version=2, name_en="Find Friends",
                suits=True, side=sides.dealer_side,
                layout=Layout(hand=zhaopengyou_setup.HAND, kitty=zhaopengyou_setup.KITTY),
                display=Display(sort="trump",
                                facts=("level", "trump", "friend_call", "attacker_points"))),
    )
}


def register(v: Variant) -> Variant:
    """Add a variant to the registry: every layer that lists or looks up variants (the
    hall's default rooms, ``/api/variants``, the bots, the CLI) then knows it.

    Its id must be new, and its rule set's name too unless it is the very rule set
    of another variant (the bots key their tables by that name).
    """
    if v.id in VARIANTS:
        raise ValueError(f"a variant {v.id!r} is already registered")
    if v.rules is not None:
        for other in VARIANTS.values():
            if other.rules is not None and other.rules.name == v.rules.name \
                    and other.rules != v.rules:
                raise ValueError(f"{v.id}: rule set name {v.rules.name!r} is {other.id}'s, "
                                 "with other rules")
    VARIANTS[v.id] = v
    return v


def unregister(name: str) -> None:
    """Remove a registered variant (a test's, once it is done with it)."""
    del VARIANTS[name]


@contextmanager
def registered(v: Variant) -> Iterator[Variant]:
    """The variant registered for the block and removed after it, however it ends."""
    register(v)
    try:
        yield v
    finally:
        unregister(v.id)


def standing(result: Mapping[str, Any]) -> sides.Standing | None:
    """A finished game's teams and ranks (``games.sides``), its sides read as its variant
    declares; None for a game not played to a score."""
    declared = VARIANTS.get(result["variant"])
    return sides.standing(result, declared.side if declared is not None else None)


def rules_of(name: str, wild: Rank | str | None = None, **options: object) -> RuleSet:
    """The rule set variant ``name`` declares, with a wild rank or its options (烤牌, 憋6).

    A trick game or an unknown variant has none: ``RuleError``.
    """
    found = VARIANTS.get(name)
    if found is None or found.rules is None:
        known = ", ".join(v.id for v in VARIANTS.values() if v.rules is not None)
        what = "unknown variant" if found is None else "no rule set for the trick game"
        raise RuleError(f"{what} {name!r} (known: {known})")
    return found.rules.with_options(wild=wild, **options)


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


__all__ = ["VARIANTS", "Action", "Display", "Event", "GameState", "IllegalAction", "Layout",
           "Option", "Ratings", "Variant", "new_game", "register", "registered", "replay",
           "rules_of", "standing", "unregister", "variant"]
