"""观战 through a real server and real WebSocket clients (docs/protocol.md, "Watching").

A spectator sees nothing a seat hides: in every variant, two tables are dealt the same
cards but two seats' hands swapped (deals that agree on everything public), played in
lockstep with actions legal at both, and the spectator's views of them are the same
at every step. He sees the table ``watch_delay`` actions late (the game's end at
once); the bounds (watchers per table, tables per player) are refused with a clear
error, and so are a table he sits at and a private table closed to spectators; the
seats see how many watch; the lobby's list shows the tables one may watch.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cardhall.cards import CARD_TEXT
from cardhall.client import HallClient
from cardhall.games import VARIANTS, new_game
from cardhall.hall.live.spectator import spectator_view
from tests.server.conftest import ADMIN_NAME, ADMIN_PASSWORD, HallProcess, dealt_room, running_hall
from tests.server.play import guests, seat, variant_params

Message = dict[str, Any]

#: Everything else a seed decides, fixed, so that two tables differ only in the deal.
FIXED: dict[str, Any] = {"first": 0, "dealer": 0, "wild": "9", "emperor_card": 0,
                         "revealed": "4c"}
#: Lockstep actions compared per variant (each a step of both tables).
STEPS = 10


def _fixed(variant: str) -> dict[str, Any]:
    names = set(new_game(variant, 1, {}).record()["options"])
    fixed = {k: v for k, v in FIXED.items() if k in names}
    if variant == "ddz5":  # two decks: which 4c's holder leads is the seed's
        fixed["landlord"] = 0
    return fixed


def _public(game: Any) -> Message:
    return spectator_view([game.observe(s) for s in range(game.players)])


def swapped_deals(variant: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A deal (the ``deal`` option) and the same with two seats' hands swapped, chosen
    so that both start alike to every seat but those two (the same counts, roles)."""
    g = new_game(variant, 5, _fixed(variant))
    while not any(g.hands):  # 欢乐, 癞子: the cards come after every seat is ready
        for s in list(g.acting):
            g.apply(g.observe(s)["legal"][0], s)
    hands = [list(h) for h in g.hands]
    kitty = list(g.kitty) or list(getattr(g, "kitty_dealt", []) or [])
    if variant == "ddz5":  # its landlord holds the kitty already: dealt apart
        for h in hands:
            if kitty and all(c in h for c in kitty) and len(h) > min(map(len, hands)):
                for c in kitty:
                    h.remove(c)
    deal: dict[str, Any] = {"hands": ["".join(CARD_TEXT[c] for c in h) for h in hands]}
    if kitty and variant != "baohuang":
        deal["kitty"] = "".join(CARD_TEXT[c] for c in kitty)
    if getattr(g, "dead", None):
        deal["dead"] = "".join(CARD_TEXT[c] for c in g.dead)
    first = new_game(variant, 11, {**_fixed(variant), "deal": deal})
    n = len(hands)
    for i, j in itertools.combinations(range(n), 2):
        other = list(deal["hands"])
        other[i], other[j] = other[j], other[i]
        swapped = {**deal, "hands": other}
        if _public(first) == _public(new_game(variant, 12,
                                              {**_fixed(variant), "deal": swapped})):
            return deal, swapped
    raise AssertionError(f"{variant}: no two hands swap unseen")


def _rooms() -> str:
    out = []
    for v in variant_params():
        a, b = swapped_deals(v)
        for name, deal in (("a", a), ("b", b)):
            out.append(dealt_room(f"w-{v}-{name}", v, {**_fixed(v), "deal": deal})
                       .replace("bot_wait_seconds = 0\n", "watch_delay = 0\n"))
    for room in ("w-late", "w-count", "w-private", "w-again"):  # one a test: no queue shared
        out.append(dealt_room(room, "ddz3", {"landlord": 0, "first": 0})
                   .replace("bot_wait_seconds = 0\n", "watch_delay = 2\n"))
    return "".join(out)


@pytest.fixture(scope="module")
def watch_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("watching"), rooms=_rooms(),
                            extra="\n[watching]\nper_table = 2\nper_player = 2\n")


async def _at(c: HallClient, table: str, seq: int) -> Message:
    """The client's state of ``table`` once it is at ``seq``."""
    while c.states.get(table, {}).get("seq") != seq:
        await c.expect("state", table=table)
    return c.states[table]


def _seen(state: Message) -> Message:
    """What a spectator's state says of the game, without the ids and names of the
    table and its players and the deadline's time (they differ from table to table)."""
    return {**{k: state[k] for k in ("seq", "seat", "view", "phase", "watchers")},
            "deadline": state["deadline"] is not None}  # its time differs, not its being


# -- nothing a seat hides --------------------------------------------------------------


@pytest.mark.parametrize("variant", variant_params())
async def test_a_spectator_sees_nothing_a_seat_hides(watch_hall: HallProcess,
                                                     variant: str) -> None:
    n = VARIANTS[variant].players
    async with guests(watch_hall.url, 2 * n + 1, timeout=40) as clients:
        spectator, sides = clients[0], (clients[1:n + 1], clients[n + 1:])
        tables, seats = [], []
        for name, side in zip("ab", sides, strict=True):
            table, firsts = await seat(list(side), f"w-{variant}-{name}")
            tables.append(table)
            seats.append({s["seat"]: side[i] for i, s in enumerate(firsts)})
        for table in tables:
            await spectator.watch(table)
        compared = 0
        for step in range(STEPS):
            seen = [_seen(await _at(spectator, t, step)) for t in tables]
            assert seen[0] == seen[1], f"{variant} step {step}: the hidden cards show: " + \
                str({k: (v, seen[1]["view"].get(k)) for k, v in seen[0]["view"].items()
                     if v != seen[1]["view"].get(k)})
            assert seen[0]["view"]["hand"] == [] and seen[0]["seat"] == -1
            compared += 1
            chosen = None
            # a seat with an action legal at both (who acts may be hidden: 五人's identity)
            for s in seen[0]["view"]["acting"] or range(n):
                legal = [(await _at(seats[k][s], tables[k], step))["view"]["legal"]
                         for k in (0, 1)]
                common = sorted((a for a in legal[0] if a in legal[1]),
                                key=lambda a: a == "pass")
                if common:
                    chosen = (s, common[0])
                    break
            if chosen is None:
                break
            for k in (0, 1):
                await seats[k][chosen[0]].act(tables[k], chosen[1], step)
        assert compared >= 3, f"{variant}: only {compared} steps compared"


# -- late, and the end at once -----------------------------------------------------------


async def test_a_spectator_sees_the_table_late_and_its_end_at_once(
        watch_hall: HallProcess) -> None:
    async with guests(watch_hall.url, 4) as clients:
        spectator, players = clients[0], clients[1:]
        table, firsts = await seat(players, "w-late")
        by_seat = {s["seat"]: players[i] for i, s in enumerate(firsts)}
        await spectator.watch(table)
        assert (await _at(spectator, table, 0))["seq"] == 0
        seq = 0
        for _ in range(4):  # seat 0, the landlord, leads; the others pass
            st = await _at(by_seat[seq % 3], table, seq)
            legal = st["view"]["legal"]
            await by_seat[seq % 3].act(table, next(a for a in legal if a != "pass")
                                       if seq % 3 == 0 else "pass", seq)
            seq += 1
            late = await spectator.expect("state", table=table)
            assert late["seq"] == max(0, seq - 2) and late["deadline"] is None
        for c in players:  # the players saw seq 4; the spectator still sees seq 2
            await _at(c, table, seq)
        assert spectator.states[table]["seq"] == 2
        await by_seat[seq % 3].leave(table=table)  # an escape ends the game at once
        end = await spectator.expect("state", table=table,
                                     where=lambda m: m["view"]["phase"] == "over")
        assert end["seq"] == seq + 1, "the game's end is shown at once"


# -- who may watch, and how many ---------------------------------------------------------


async def _refused(c: HallClient, table: str) -> Message:
    await c.watch(table)
    return await c.expect("error")


async def test_watching_is_bounded_and_seats_see_the_count(watch_hall: HallProcess) -> None:
    async with guests(watch_hall.url, 9) as clients:
        players, watchers = clients[:3], clients[3:]
        table, _ = await seat(players, "w-count")
        refused = await _refused(players[0], table)
        assert refused["code"] == "not_allowed" and "you sit at this table" in refused["message"]
        await watchers[0].watch(table)
        counted = await players[1].expect("state", table=table, watchers=1)
        assert counted["seat"] >= 0
        await watchers[1].watch(table)
        await players[1].expect("state", table=table, watchers=2)
        refused = await _refused(watchers[2], table)  # per_table = 2
        assert refused["code"] == "not_allowed" and "2 watchers" in refused["message"]
        await watchers[0].leave(table=table)
        assert (await watchers[0].expect("left", table=table))["reason"] == "unwatched"
        await players[1].expect("state", table=table, watchers=1)
        await watchers[2].watch(table)
        await watchers[2].expect("state", table=table, watchers=2)
        await players[1].expect("state", table=table, watchers=2)  # told within a second
        # per_player = 2: a third table is refused until he leaves one
        other, _ = await seat(watchers[3:6], "w-count")
        await watchers[2].watch(other)
        await watchers[2].expect("state", table=other)
        third = await _private(watchers[0], spectators=True, room="w-count")
        refused = await _refused(watchers[2], third)
        assert refused["code"] == "not_allowed" and "2 tables" in refused["message"]
        refused = await _refused(watchers[1], "tnosuchtable")
        assert refused["code"] == "unknown_table"
        await watchers[2].close()  # a dropped connection stops watching
        await players[1].expect("state", table=table, watchers=1)


async def test_a_second_connection_takes_the_watches_over(watch_hall: HallProcess) -> None:
    """The same player connects again (his page reloaded while the hall still held his
    old connection, which is superseded): his watch goes on through the new one, whose
    first messages hold the watched table's state (he need not know he watched it), and
    whose drop stops it. (To another process: test_cluster_watching.)"""
    async with guests(watch_hall.url, 4) as clients:
        watcher, players = clients[0], clients[1:]
        table, _ = await seat(players, "w-again")
        await watcher.watch(table)
        await watcher.expect("state", table=table)
        await players[0].expect("state", table=table, watchers=1)
        again = HallClient(watch_hall.url, token=watcher.token, timeout=20)
        try:
            await again.connect()
            taken = await again.expect("state", table=table)
            assert taken["seat"] == -1 and taken["view"]["hand"] == []
            assert (await watcher.expect("error"))["code"] == "superseded"
        finally:
            await again.close()
        await players[0].expect("state", table=table, watchers=0)


async def _private(owner: HallClient, spectators: bool, room: str = "w-private") -> str:
    await owner.send({"type": "private", "room": room, "spectators": spectators})
    return str((await owner.expect("invite"))["table"])


async def test_a_private_table_closed_to_spectators_is_refused_and_unlisted(
        watch_hall: HallProcess) -> None:
    async with guests(watch_hall.url, 3) as (owner, friend, stranger):
        closed = await _private(owner, spectators=False)
        refused = await _refused(stranger, closed)
        assert refused["code"] == "forbidden" and "closed to spectators" in refused["message"]
        opened = await _private(friend, spectators=True)
        await stranger.watch(opened)
        watched = await stranger.expect("state", table=opened)
        assert watched["seat"] == -1 and watched["phase"] == "waiting"
        assert watched["code"] is None, "the invite code would seat a stranger"
        await owner.expect("state", table=closed)
        listed = await _listed(watch_hall.url, stranger, "w-private")
        ids = [t["id"] for t in listed["tables"]]
        assert closed not in ids and opened in ids
        row = next(t for t in listed["tables"] if t["id"] == opened)
        assert row["watchers"] == 1 and row["private"] and row["variant"] == "ddz3"
        # no live seq: polled, it would time each seat's moves (an attacker's finding)
        assert set(row) == {"id", "variant", "phase", "players", "watchers", "private"}
        assert row["players"][0] == friend.welcome["player"]["name"]
        async with HallClient(watch_hall.url) as admin:  # an admin watches any table
            await admin.login(ADMIN_NAME, ADMIN_PASSWORD)
            await admin.connect()
            await admin.watch(closed)
            assert (await admin.expect("state", table=closed))["seat"] == -1


async def _listed(url: str, c: HallClient, room: str) -> Message:
    async with httpx.AsyncClient(base_url=url) as http:
        answer = await http.get(f"/api/rooms/{room}/tables",
                                headers={"authorization": f"Bearer {c.token}"})
        assert answer.status_code == 200, answer.text
        listed: Message = answer.json()
        missing = await http.get("/api/rooms/nosuchroom/tables",
                                 headers={"authorization": f"Bearer {c.token}"})
        assert missing.status_code == 404
        anonymous = await http.get(f"/api/rooms/{room}/tables")
        assert anonymous.status_code == 401
        return listed


async def test_the_owner_closes_his_table_to_spectators_and_opens_it_again(
        watch_hall: HallProcess) -> None:
    """``spectators`` (docs/protocol.md, "Watching"): the owner's alone; closing sends
    the watcher away and refuses him, opening lets him in again; every seat sees it."""
    async with guests(watch_hall.url, 4) as (owner, friend, stranger, outsider):
        table = await _private(owner, spectators=True)
        invite = await owner.expect("state", table=table)
        assert invite["spectators"] is True
        await friend.send({"type": "join", "code": invite["code"]})
        await friend.expect("state", table=table)
        await stranger.watch(table)
        assert (await stranger.expect("state", table=table))["seat"] == -1

        await friend.send({"type": "spectators", "table": table, "on": False})
        refused = await friend.expect("error")
        assert refused["code"] == "forbidden" and "owner" in refused["message"]
        await outsider.send({"type": "spectators", "table": table, "on": False})
        assert (await outsider.expect("error"))["code"] == "not_seated"

        await owner.send({"type": "spectators", "table": table, "on": False})
        assert (await stranger.expect("left", table=table))["reason"] == "closed_to_spectators"
        await friend.expect("state", table=table, spectators=False)
        refused = await _refused(stranger, table)
        assert refused["code"] == "forbidden" and "closed to spectators" in refused["message"]
        listed = await _listed(watch_hall.url, stranger, "w-private")
        assert table not in [t["id"] for t in listed["tables"]]

        await owner.send({"type": "spectators", "table": table, "on": True})
        await friend.expect("state", table=table, spectators=True)
        await stranger.watch(table)
        watched = await stranger.expect("state", table=table)
        assert watched["seat"] == -1 and watched["spectators"] is True
