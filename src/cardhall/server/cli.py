"""The server's subcommands of ``cardhall``: ``serve``, ``admin create``, ``bot``, ``loadtest``.

``register(subparsers)`` adds them to the main parser (cardhall.cli). The
server's dependencies are imported only when one of them runs, so the library's
commands work without the ``server`` extra.

    cardhall serve [--host 127.0.0.1] [--port 8000] [--db sqlite:///hall.db] [--config FILE]
                   [--redis redis://host:6379/0 --lease 5]
    cardhall admin create NAME [--password-file FILE] [--db URL]   (else from stdin)
    cardhall bot --server URL [--bot planning] [--room R] [--games N]
                 [--name NAME [--password-file FILE] | --token-file FILE]

Secrets never go on the command line, where every user of the machine sees them
(``ps``, /proc/PID/cmdline, shell history): a password or token is read from a file
(``--password-file``, ``--token-file``; ``-`` is stdin), from the environment
(``CARDHALL_PASSWORD``, ``CARDHALL_TOKEN``), or from stdin, with a prompt that does
not echo when stdin is a terminal. The old forms (``admin create NAME PASSWORD``,
``bot --password PW``, ``bot --token T``) are refused with a message saying so.
    cardhall loadtest --url URL [--url URL2 ...] --clients N --duration S [--think S]
                      [--ramp S] [--variant V | --room R] [--workers W] [--json]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

DEFAULT_DB = "sqlite:///hall.db"


def _later(name: str) -> Callable[[argparse.Namespace], None]:
    """The command ``name`` of cardhall.server.commands, imported when it runs."""
    def run(args: argparse.Namespace) -> None:
        from cardhall.server import commands  # noqa: PLC0415 (the server extra, when used)
        getattr(commands, name)(args)
    return run


def register(sub: Any) -> None:
    """Add ``serve``, ``admin``, ``bot`` and ``loadtest`` to ``cardhall``'s subparsers."""
    serve = sub.add_parser("serve", help="run the hall (HTTP + WebSocket)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    serve.add_argument("--db", default=DEFAULT_DB, help="sqlite:///FILE or postgresql://…")
    serve.add_argument("--config", help="a TOML file with [[rooms]], [economy], [limits]")
    serve.add_argument("--redis", help="redis://host:port/db: run as one of several "
                       "processes sharing the hall (needs a postgresql:// --db)")
    serve.add_argument("--lease", type=float, default=5.0,
                       help="with --redis: seconds a table's lease lasts unrenewed (about "
                       "how long a dead process's tables wait for another to take them)")
    serve.add_argument("--db-pool", type=int, default=20,
                       help="PostgreSQL connections kept open (as many again for a burst)")
    serve.add_argument("--redis-pool", type=int, default=64,
                       help="with --redis: Redis connections at most (a command past them "
                       "waits for a free one)")
    serve.add_argument("--grace", type=float, default=30.0,
                       help="seconds a table between games waits with none of its "
                       "players connected before it closes (a drop during a game is "
                       "never a leave)")
    serve.add_argument("--bot-workers", type=int, default=1,
                       help="processes that run the bots' decisions")
    serve.add_argument("--log-level", default="info",
                       choices=["debug", "info", "warning", "error"])
    serve.set_defaults(run=_later("serve"))

    admin = sub.add_parser("admin", help="hall administration").add_subparsers(
        dest="admin_command", required=True)
    create = admin.add_parser("create", help="create an admin account, or promote one")
    create.add_argument("name")
    create.add_argument("password", nargs="?", help=argparse.SUPPRESS)  # refused: see above
    create.add_argument("--password-file", metavar="FILE",
                        help="read the password from the first line of FILE (- : stdin); "
                        "without it, from $CARDHALL_PASSWORD or stdin (a prompt on a terminal)")
    create.add_argument("--db", default=DEFAULT_DB)
    create.set_defaults(run=_later("admin_create"))

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
    bot.set_defaults(run=_later("bot"))

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
    load.set_defaults(run=_load_test)


def _load_test(args: argparse.Namespace) -> None:
    """``cardhall loadtest``; needs the client's packages (the server extra)."""
    from cardhall.client import loadreport  # noqa: PLC0415 (the server extra, when used)
    raise SystemExit(loadreport.command(args))
