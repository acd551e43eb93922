"""``cardhall bot``: one of the library's bots plays at a remote hall, as anyone would.

It uses only the public protocol (``cardhall.client``): a guest account (or a
given token, a bot account's among them: docs/bots.md, or a name and password), a
quick-match ``join``, and for every ``state`` in which its seat is acting the bot's
answer to ``view``. It plays on
with ``next`` until it has finished the number of games asked for, joins again
when its table dissolves, and leaves at the end.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from cardhall import bots
from cardhall.client import HallClient, HttpError

log = logging.getLogger("cardhall.bot")


async def _account(client: HallClient, name: str | None, password: str | None) -> None:
    if client.token is not None:
        return
    if name is None:
        await client.guest()
        return
    if password is None:
        raise SystemExit("cardhall: --name needs its password (--password-file, "
                         "$CARDHALL_PASSWORD or stdin)")
    try:
        await client.register(name, password)
    except HttpError as exc:
        if exc.code != "name_taken":
            raise
        await client.login(name, password)


def _pick_room(rooms: list[dict[str, Any]], wanted: str | None, beans: int,
               bot_account: bool = False) -> dict[str, Any]:
    """``wanted``, else the first room it can afford that bots fill; a bot account's
    (docs/bots.md) among the rooms that take bot accounts only."""
    if wanted is not None:
        for room in rooms:
            if room["id"] == wanted:
                return room
        raise SystemExit(f"cardhall: no room {wanted!r} (rooms: "
                         f"{', '.join(r['id'] for r in rooms)})")
    for room in rooms:
        if room["min_beans"] <= beans and room["bot_wait_seconds"] is not None and (
                room.get("bot_accounts") or not bot_account):
            return room
    raise SystemExit("cardhall: no room to join: give --room")


async def play(server: str, bot_name: str, games: int, room_id: str | None = None,
               name: str | None = None, password: str | None = None,
               token: str | None = None, out: Any = None) -> int:
    """Play ``games`` games; returns how many settled."""
    bots.make(bot_name, "ddz3", 0)  # an unknown bot name fails here, before connecting
    async with HallClient(server, token) as client:
        await _account(client, name, password)
        welcome = await client.connect()
        me = welcome["player"]
        room = _pick_room(await client.get("/api/rooms"), room_id, me["beans"],
                          bool(me.get("bot")))
        print(f"{me['name']} ({bot_name}) joins {room['id']}", file=out, flush=True)
        await client.join(room["id"])
        done = 0
        seated: dict[str, bots.Bot] = {}
        acted: set[tuple[str, str, int]] = set()
        async for msg in client:
            kind = msg["type"]
            if kind == "state":
                view, seat, game = msg["view"], msg["seat"], msg["game"]
                key = (msg["table"], game or "", msg["seq"])
                if (msg["phase"] != "playing" or view is None or seat not in view["acting"]
                        or key in acted):
                    continue
                acted.add(key)
                bot = seated.get(game)
                if bot is None:
                    bot = seated[game] = bots.make(bot_name, room["variant"], seat, done)
                text = await asyncio.to_thread(bot.act, view)
                await client.act(msg["table"], text, msg["seq"])
            elif kind == "settled":
                done += 1
                mine = msg["beans"].get(str(client.states[msg["table"]]["seat"]))
                print(f"game {done}/{games}: {msg['game']} beans {mine:+}", file=out,
                      flush=True)
                seated.clear()
                acted.clear()
                if done >= games:
                    await client.leave(table=msg["table"])
                    return done
                if not msg["dissolved"]:
                    await client.next(msg["table"])
            elif kind == "left" and msg["reason"] == "dissolved":
                await client.join(room["id"])  # dissolved, not requeued: find another
            elif kind == "error":
                log.info("refused: %s %s", msg["code"], msg["message"])
                if msg["code"] in ("not_enough_beans", "unknown_room", "bots_not_allowed"):
                    raise SystemExit(f"cardhall: {msg['message']}")
            elif kind == "disconnected" and not msg["reconnecting"]:
                raise SystemExit(f"cardhall: the hall closed the connection ({msg['code']})")
    return done
