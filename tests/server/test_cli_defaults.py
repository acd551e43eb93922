"""``cardhall serve``'s defaults are the hall's own constants.

cardhall.server.cli must not import the server's dependencies (the library's commands
work without them), so it spells its defaults as literals; this keeps them the same
numbers as the constants the hall uses when it is built without the command line.
"""

from __future__ import annotations

import argparse

from cardhall.hall.live import table, timers
from cardhall.hall.store import db
from cardhall.server import cli


def test_serve_defaults_are_the_halls_constants() -> None:
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve"])
    assert args.db_pool == db.POOL
    assert args.redis_pool == timers.REDIS_POOL
    assert args.lease == timers.LEASE_SECONDS
    assert args.grace == table.GRACE_SECONDS
    assert args.db == db.DEFAULT_URL
