"""Adding a climbing variant is one declaration (docs/adding-a-variant.md): one is declared
here, in this file alone, registered for each test and played through every part that
plays variants: the games' shared contract and conformance suites, the bots, a real hall
(quick match, bots, settlement) and ``/api/variants``.

The variant, ``ddz3_no42``, 三人斗地主（不带四带二）: classic three-player Dou Dizhu
without 四带二. Its rules text: everything as in docs/rules/ddz3.md, except that four of a
kind cannot carry two singles or two pairs (``4444+56``, ``4444+5566`` are no hands); four
of a kind plays only as a bomb. Its rules module: ``NO_42`` below, the classic hand types
less those two.
"""

from __future__ import annotations

import copy
import inspect
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from cardhall import bots, cli
from cardhall.bots import setup
from cardhall.games import (
    VARIANTS,
    Display,
    IllegalAction,
    Layout,
    Ratings,
    Variant,
    new_game,
    register,
    registered,
    replay,
    rules_of,
)
from cardhall.games.ddz import Classic, common_options
from cardhall.hall.domain.config import HallConfig, default_rooms
from cardhall.hall.store import ledger
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.game_reads import get_game
from cardhall.protocol.messages import Join
from cardhall.rules import RuleSet
from cardhall.rules.variants import CLASSIC
from cardhall.server.app import create_app
from cardhall.sim import seat_bots
from tests.games import hidden, test_conformance, test_contract
from tests.hall.test_tables import guest, make_hall, play_to_end, room

ID = "ddz3_no42"

# -- the declaration: its rules module and its one Variant --------------------------------

NO_42 = RuleSet(ID, "三人斗地主（不带四带二）: one pack, classic types without four with two", 1,
                tuple(p for p in CLASSIC if p.kind not in ("four_single", "four_pair")))

NEW = Variant(
    ID, "不带四带二斗地主", 3, 1, "Classic three-player Dou Dizhu; four of a kind is only a bomb.",
    common_options(3), Classic, version=1, name_en="Dou Dizhu without four-with-two",
    rules=NO_42, layout=Layout(hand=17, kitty=3), ratings=Ratings(-52.0, 12.0),
    display=Display(roles={"landlord": ("大地主", "Squire")}))

# -----------------------------------------------------------------------------------------


@pytest.fixture
def declared() -> Iterator[Variant]:
    """The variant registered for one test; also what the contract suite's independent
    oracle (tests/games/hidden.py, written from the rules text) says of it: hands and
    kitty hidden as in classic Dou Dizhu, whose kitty is shown once taken."""
    with registered(NEW) as v, pytest.MonkeyPatch.context() as mp:
        mp.setitem(hidden.HIDDEN, ID, hidden.HIDDEN["ddz3"])
        mp.setitem(hidden.KITTY_PUBLIC, ID, True)
        yield v
    assert ID not in VARIANTS


def test_registering_is_undone_and_checked() -> None:
    with registered(NEW):
        assert VARIANTS[ID] is NEW and new_game(ID, seed=1).players == 3
        with pytest.raises(ValueError, match="already registered"):
            register(NEW)
    assert ID not in VARIANTS
    with pytest.raises(IllegalAction, match="unknown variant"):
        new_game(ID, seed=1)
    # a rule set name is the bots' key to their tables: another's name with other rules
    # would play by the wrong ones
    clash = Variant("ddz3_clash", "x", 3, 1, "x", common_options(3), Classic,
                    rules=RuleSet("ddz3", "not ddz3", 1, NO_42.patterns),
                    layout=Layout(hand=17, kitty=3))
    with pytest.raises(ValueError, match="rule set name 'ddz3'"):
        register(clash)
    assert "ddz3_clash" not in VARIANTS
    with pytest.raises(ValueError, match="packs"):
        Variant("ddz3_packs", "x", 3, 2, "x", {}, Classic, rules=NO_42)


def test_its_rules_are_its_own(declared: Variant) -> None:
    """Four with two is a hand of classic Dou Dizhu and none of this variant."""
    classic, own = rules_of("ddz3"), rules_of(ID)
    for cards, kind in (("333345", "four_single"), ("33334455", "four_pair")):
        assert kind in {p.kind for p in classic.classify(cards)}
        assert own.classify(cards) == []
    assert [p.kind for p in own.classify("3333")] == ["bomb"]
    # and so in the game: a landlord holding 3333, a 4 and a 5 may not lead 3333+45
    hand = "3333456789TJQKA2X"
    rest = list("3456789TJQKA2" * 4 + "XD")
    for c in hand:
        rest.remove(c)
    deal = {"hands": [hand, "".join(rest[:17]), "".join(rest[17:34])],
            "kitty": "".join(rest[34:])}
    leads = {a.text for a in new_game(ID, seed=3, options={"deal": deal, "landlord": 0})
             .legal_actions()}
    assert "play 3333" in leads and "play 3333+45" not in leads
    classic_leads = new_game("ddz3", seed=3, options={"deal": deal, "landlord": 0})
    assert "play 3333+45" in {a.text for a in classic_leads.legal_actions()}


def test_the_cli_knows_it(declared: Variant, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "classify", ID, "333345"]) == 0
    assert json.loads(capsys.readouterr().out) == {"readings": []}
    assert cli.main(["rules", "variants"]) == 0
    listed = json.loads(capsys.readouterr().out)["variants"]
    assert {"id": ID, "description": NO_42.description, "packs": 1} in listed


def _suite(module: ModuleType) -> Iterator[tuple[str, Callable[..., Any], dict[str, Any]]]:
    """Every test of a shared suite that takes a variant ``name``, with each combination of
    its other parametrized arguments: the suite as pytest runs it on every variant."""
    for test_name, fn in sorted(vars(module).items()):
        if not test_name.startswith("test_") or not callable(fn):
            continue
        if "name" not in inspect.signature(fn).parameters:
            continue
        combos: list[dict[str, Any]] = [{}]
        for mark in getattr(fn, "pytestmark", []):
            if mark.name != "parametrize" or mark.args[0] == "name":
                continue
            names = [n.strip() for n in mark.args[0].split(",")]
            rows = [row if len(names) > 1 else (row,) for row in mark.args[1]]
            combos = [{**c, **dict(zip(names, row, strict=True))} for c in combos for row in rows]
        for combo in combos:
            yield test_name, fn, combo


@pytest.mark.parametrize("module", [test_conformance, test_contract], ids=lambda m: m.__name__)
def test_the_shared_game_suites_pass(declared: Variant, module: ModuleType) -> None:
    ran = []
    for test_name, fn, combo in _suite(module):
        if "monkeypatch" in inspect.signature(fn).parameters:
            with pytest.MonkeyPatch.context() as mp:
                fn(name=ID, monkeypatch=mp, **combo)
        else:
            fn(name=ID, **combo)
        ran.append(test_name)
    every = {n for n, fn in vars(module).items() if n.startswith("test_") and callable(fn)
             and "name" in inspect.signature(fn).parameters}
    assert set(ran) == every and len(every) >= 7


@pytest.mark.parametrize("names", [["planning"], ["planning", "tuoguan", "random"],
                                   ["search", "planning", "tuoguan"]])
def test_bots_play_it_to_the_end(declared: Variant, names: list[str]) -> None:
    assert setup.percentile(ID, -52.0) == 0.5  # the declared rating scale is the one read
    for seed in range(2):
        state = new_game(ID, seed=seed)
        seats = seat_bots(ID, names, 3, seed)
        for _ in range(2000):
            if state.over:
                break
            seat = state.to_act
            assert seat is not None
            text = seats[seat].act(state.observe(seat))
            assert state.check(text) is None, f"{names[seat % len(names)]}: {text}"
            state.apply(text)
        result = state.result()
        assert result is not None and sum(result["points"]) == 0
        assert replay(state.record()).observe(0) == state.observe(0)


def test_a_bot_refuses_what_is_no_variant() -> None:
    with pytest.raises(bots.BotError, match=f"{ID} is neither"):
        bots.make("planning", ID, 0)


async def test_a_hall_quick_matches_it_with_bots_and_settles(declared: Variant,
                                                              tmp_path: Path) -> None:
    assert {f"{ID}-novice", f"{ID}-junior", f"{ID}-senior"} <= {r.id for r in default_rooms()}
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    await upgrade(url)
    db = Database.open(url)
    try:
        hall, inbox = await make_hall(db, room(ID))
        try:
            p = await guest(hall)
            await hall.handle(p, Join(type="join", room="r1"))
            settled = await play_to_end(hall, inbox, [p], seed=4)
            stored = await get_game(db, settled[p].game)
            assert stored is not None and stored.record["variant"] == ID
            assert stored.status in ("settled", "dissolved")
            seat = stored.players.index(p)
            assert await ledger.balance(db, p) == 10_000 + settled[p].beans[str(seat)]
            assert replay(stored.record).over
            assert hall.bots.fallbacks == 0  # the bots played it: no 托管 stood in for them
        finally:
            await hall.close()
    finally:
        await db.close()


async def test_api_variants_describes_it(declared: Variant, tmp_path: Path) -> None:
    app = create_app(HallConfig(rooms=(room(ID),)), f"sqlite:///{tmp_path / 'hall.db'}")
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://hall") as client:
        listed = (await client.get("/api/variants")).json()
    assert [v["id"] for v in listed] == list(VARIANTS) and listed[-1]["id"] == ID
    mine = listed[-1]
    assert mine["name"] == "不带四带二斗地主" and mine["players"] == 3 and mine["packs"] == 1
    assert mine["family"] == "climbing" and mine["rule_set"] == NO_42.description
    assert mine["layout"] == {"seats": 3, "hand": 17, "kitty": 3, "dead": 0}
    assert mine["display"] == {"roles": {"landlord": {"zh": "大地主", "en": "Squire"}},
                               "sort": "rank", "facts": [], "actions": {}, "suits": False}
    assert sum(mine["deck"].values()) == 54
    assert [o["name"] for o in mine["options"]] == [o["name"] for o in listed[1]["options"]]


def test_every_variant_declares_what_clients_read() -> None:
    """The hints the browser client and the terminal read instead of switching on ids."""
    described = {v.id: v.describe() for v in VARIANTS.values()}
    assert described["ddz_emperor"]["display"]["roles"] == {
        "emperor": {"zh": "帝主", "en": "Emperor"}}
    assert set(described["ddz5"]["display"]["roles"]) == {"open landlord", "hidden landlord"}
    assert described["baohuang"]["display"]["actions"] == {
        "call": {"zh": "叫侍卫 {arg}", "en": "Call guard {arg}"}}
    trick = described["zhaopengyou"]
    assert trick["family"] == "trick" and trick["rule_set"] is None
    assert trick["display"]["sort"] == "trump" and trick["display"]["suits"] is True
    assert trick["display"]["facts"] == ["level", "trump", "friend_call", "attacker_points"]
    for v in VARIANTS.values():
        assert v.layout is not None
        if v.rules is None:
            continue
        # a climbing game deals as its layout says: every hand, then the kitty and dead
        state = new_game(v.id, seed=2)
        sizes = [len(state.zones()[f"hand{s}"]) for s in range(v.players)]
        dealt = sum(sizes) + len(state.zones().get("kitty", ())) + len(state.zones().get(
            "dead", ()))
        assert dealt == sum(described[v.id]["deck"].values())
        assert max(sizes) <= v.layout.largest
        assert v.ratings is not None and setup.percentile(v.id, v.ratings.median) == 0.5


def test_a_copied_game_shares_its_declaration() -> None:
    """A declaration is immutable and shared: a deep copy of a game (tests copy positions)
    keeps it, rather than copying its rule set's move tables with it."""
    state = new_game("ddz3_laizi", seed=1)
    twin = copy.deepcopy(state)
    assert twin.variant is state.variant is VARIANTS["ddz3_laizi"]
    assert copy.copy(NEW) is NEW and twin.observe(0) == state.observe(0)
