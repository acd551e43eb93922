"""The body of ``cardhall bot`` (see cardhall.client.cli): a bot seated at a remote
hall through the public protocol; its secret comes from cardhall.secret_input, never
from argv.

Imported only when it runs: it needs the ``server`` extra's client packages.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from cardhall.bots import BotError
from cardhall.client import ClientError, HallClient
from cardhall.client.botrun import play
from cardhall.secret_input import SecretError, read_secret, refuse_argv


def bot(args: argparse.Namespace) -> None:

    if args.games < 1:
        raise SystemExit("cardhall: --games must be at least 1")
    try:
        if args.password is not None:
            raise refuse_argv("password", "--password-file")
        if args.token is not None:
            raise refuse_argv("token", "--token-file")
        token = password = None
        if args.token_file is not None or os.environ.get("CARDHALL_TOKEN"):
            token = read_secret("token", file=args.token_file, env="CARDHALL_TOKEN")
        elif args.name is not None:
            password = read_secret("password", file=args.password_file,
                                   env="CARDHALL_PASSWORD")
    except SecretError as exc:
        raise SystemExit(f"cardhall: {exc}") from None
    try:
        asyncio.run(play(args.server, args.bot, args.games, args.room, args.name,
                         password, token, sys.stdout))
    except (ClientError, BotError, OSError) as exc:
        raise SystemExit(f"cardhall: {exc}") from None


def bot_account(args: argparse.Namespace) -> None:
    """``cardhall bot-account``: the owner logs in, then one call of docs/bots.md."""
    if args.action != "list" and not args.bot:
        raise SystemExit(f"cardhall: bot-account {args.action} needs the bot's name")
    try:
        password = read_secret("password", file=args.password_file, env="CARDHALL_PASSWORD")
    except SecretError as exc:
        raise SystemExit(f"cardhall: {exc}") from None
    try:
        print(asyncio.run(_bot_account(args.server, args.name, password, args.action,
                                       args.bot)))
    except (ClientError, OSError) as exc:
        raise SystemExit(f"cardhall: {exc}") from None


async def _bot_account(server: str, owner: str, password: str, action: str,
                       name: str | None) -> str:
    """What the action prints: a token alone on its line (create, token), so that
    ``> bot.token`` keeps it; the bots' names (list); the retired bot's name."""
    async with HallClient(server) as client:
        await client.login(owner, password)
        if action == "create":
            return str((await client.post("/api/bots", {"name": name}))["token"])
        if action == "token":
            return str((await client.post(f"/api/bots/{name}/token"))["token"])
        if action == "retire":
            return str((await client.request("DELETE", f"/api/bots/{name}"))["name"])
        listed = await client.get("/api/bots")
        return "\n".join(f"{b['name']}\t{b['id']}" for b in listed["bots"])
