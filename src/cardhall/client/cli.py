"""The protocol's client tools as subcommands of ``cardhall``: ``bot``, ``bot-account``
and ``loadtest``.

``register(subparsers)`` adds them to the main parser (cardhall.cli). They speak only
the public protocol (HTTP + WebSocket, cardhall.client) to a hall anywhere; their
packages (httpx, websockets: the ``server`` extra) are imported only when one runs.

    cardhall bot --server URL [--bot planning] [--room R] [--games N]
                 [--name NAME [--password-file FILE] | --token-file FILE]
    cardhall bot-account {create,list,token,retire} [BOT] --server URL --name OWNER
                         [--password-file FILE]
    cardhall loadtest --url URL [--url URL2 ...] --clients N --duration S [--think S]
                      [--ramp S] [--variant V | --room R] [--workers W] [--json]

A password or token never goes on the command line (cardhall.secret_input): it is read
from a file (``--password-file``, ``--token-file``; ``-`` is stdin), from
``CARDHALL_PASSWORD`` / ``CARDHALL_TOKEN``, or from stdin. The old forms (``bot
--password PW``, ``bot --token T``) are refused with a message saying so.
"""

from __future__ import annotations

import argparse
from typing import Any


def _bot(args: argparse.Namespace) -> None:
    from cardhall.client import commands  # noqa: PLC0415 (the server extra, when used)
    commands.bot(args)


def _bot_account(args: argparse.Namespace) -> None:
    from cardhall.client import commands  # noqa: PLC0415 (the server extra, when used)
    commands.bot_account(args)


def _load_test(args: argparse.Namespace) -> None:
    from cardhall.client import loadreport  # noqa: PLC0415 (the server extra, when used)
    raise SystemExit(loadreport.command(args))


def register(sub: Any) -> None:
    """Add ``bot``, ``bot-account`` and ``loadtest`` to ``cardhall``'s subparsers."""
    bot = sub.add_parser("bot", help="seat a bot at a remote hall")
    bot.add_argument("--server", required=True, help="the hall's URL, e.g. http://host:8000")
    bot.add_argument("--bot", default="planning", help="a registered bot (cardhall.bots)")
    bot.add_argument("--room", help="a room id (default: the first it may join)")
    bot.add_argument("--games", type=int, default=1)
    bot.add_argument("--name", help="play as this account (registered if new); its password "
                     "from --password-file, $CARDHALL_PASSWORD or stdin")
    bot.add_argument("--password-file", metavar="FILE",
                     help="the password on the first line of FILE (- : stdin)")
    bot.add_argument("--token-file", metavar="FILE",
                     help="play with the session token on the first line of FILE (- : stdin); "
                     "or set $CARDHALL_TOKEN")
    bot.add_argument("--password", help=argparse.SUPPRESS)  # refused: visible in ps
    bot.add_argument("--token", help=argparse.SUPPRESS)  # refused: visible in ps
    bot.set_defaults(run=_bot)

    acct = sub.add_parser(
        "bot-account", help="make, list, re-key or retire your bot accounts at a hall",
        description="Bot accounts (docs/bots.md) of the registered player --name: create "
                    "prints the new bot's token (shown once: keep it in a file for "
                    "cardhall bot --token-file), token prints a new one (the old one stops "
                    "working), retire ends the bot, list shows them.")
    acct.add_argument("action", choices=("create", "list", "token", "retire"))
    acct.add_argument("bot", nargs="?", help="the bot's name (not for list)")
    acct.add_argument("--server", required=True, help="the hall's URL")
    acct.add_argument("--name", required=True, help="your (the owner's) account")
    acct.add_argument("--password-file", metavar="FILE",
                      help="your password on the first line of FILE (- : stdin); or set "
                      "$CARDHALL_PASSWORD")
    acct.set_defaults(run=_bot_account)

    load = sub.add_parser(
        "loadtest", help="many simulated players at running halls (the protocol only)",
        description="Guests quick-match in a room of humans only and play real games "
                    "through HTTP + WebSocket, a think time before each action; prints a "
                    "progress line, then actions/s, latency, games settled, errors and the "
                    "bean check (public API only). Exit status 1 on any error or failed check.")
    load.add_argument("--url", action="append", required=True,
                      help="a hall's URL; repeat it to spread clients round-robin")
    load.add_argument("--clients", type=int, default=100)
    load.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    load.add_argument("--think", type=float, default=1.0,
                      help="mean seconds before each action (0.5–1.5 × this)")
    load.add_argument("--ramp", type=float, default=5.0,
                      help="seconds over which the clients come in (not measured)")
    load.add_argument("--variant", default="ddz3", help="play in the first room of this "
                      "variant without bots")
    load.add_argument("--room", help="play in this room (it must have no bots)")
    load.add_argument("--workers", type=int, default=1,
                      help="processes driving the clients (figures merged)")
    load.add_argument("--json", action="store_true", help="print the report as JSON")
    load.add_argument("--metrics-token-file", help="a file holding the halls' metrics token: "
                      "their /metrics counts are then shown beside the run's")
    load.add_argument("--deltas", action="store_true", help="the clients opt into deltas "
                      "(a delta per change after a full state), as the browser does")
    load.set_defaults(run=_load_test)
