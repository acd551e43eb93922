"""The server's subcommands of ``cardhall``: ``serve`` and ``admin create``.

``register(subparsers)`` adds them to the main parser (cardhall.cli). The
server's dependencies are imported only when one of them runs, so the library's
commands work without the ``server`` extra. The protocol's client tools (``bot``,
``loadtest``) are cardhall.client.cli's.

    cardhall serve [--host 127.0.0.1] [--port 8000] [--db sqlite:///hall.db] [--config FILE]
                   [--redis redis://host:6379/0 --lease 5]
    cardhall admin create NAME [--password-file FILE] [--db URL]   (else from stdin)

A password never goes on the command line, where every user of the machine sees it
(``ps``, /proc/PID/cmdline, shell history): it is read from a file (``--password-file``;
``-`` is stdin), from ``CARDHALL_PASSWORD``, or from stdin, with a prompt that does not
echo when stdin is a terminal (cardhall.secret_input). The old form ``admin create NAME
PASSWORD`` is refused with a message saying so.
"""

from __future__ import annotations

import argparse
from typing import Any

DEFAULT_DB = "sqlite:///hall.db"


def _serve(args: argparse.Namespace) -> None:
    from cardhall.server import commands  # noqa: PLC0415 (the server extra, when used)
    commands.serve(args)


def _admin_create(args: argparse.Namespace) -> None:
    from cardhall.server import commands  # noqa: PLC0415 (the server extra, when used)
    commands.admin_create(args)


def register(sub: Any) -> None:
    """Add ``serve`` and ``admin`` to ``cardhall``'s subparsers."""
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
    serve.set_defaults(run=_serve)

    admin = sub.add_parser("admin", help="hall administration").add_subparsers(
        dest="admin_command", required=True)
    create = admin.add_parser("create", help="create an admin account, or promote one")
    create.add_argument("name")
    create.add_argument("password", nargs="?", help=argparse.SUPPRESS)  # refused: see above
    create.add_argument("--password-file", metavar="FILE",
                        help="read the password from the first line of FILE (- : stdin); "
                        "without it, from $CARDHALL_PASSWORD or stdin (a prompt on a terminal)")
    create.add_argument("--db", default=DEFAULT_DB)
    create.set_defaults(run=_admin_create)
