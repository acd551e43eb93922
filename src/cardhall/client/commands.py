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
from cardhall.client import ClientError
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
