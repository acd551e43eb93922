"""Reading a password or token for a command without putting it on the command line.

A command line is public on a shared machine (``ps``, /proc/PID/cmdline) and stays in
shell history, so ``cardhall admin create`` and ``cardhall bot`` take secrets only
from a file (its first line; ``-`` is stdin), an environment variable, or stdin: with
a prompt that does not echo when stdin is a terminal, else its first line (a pipe or
a redirect from a file).
"""

from __future__ import annotations

import getpass
import os
import sys
from pathlib import Path
from typing import TextIO


class SecretError(ValueError):
    """No usable secret: the message says how to give one."""


def refuse_argv(what: str, flag: str) -> SecretError:
    """The refusal of a secret given on the command line (the old form)."""
    return SecretError(f"a {what} on the command line is visible to every user of this "
                       f"machine (ps) and stays in shell history; give it with {flag} FILE, "
                       "in the environment, or on stdin")


def _first_line(stream: TextIO, what: str, where: str) -> str:
    line = stream.readline().rstrip("\r\n")
    if not line:
        raise SecretError(f"no {what} on the first line of {where}")
    return line


def read_secret(what: str, *, file: str | None = None, env: str | None = None,
                stdin: TextIO | None = None, confirm: bool = False) -> str:
    """The secret from ``file``, else ``$env``, else stdin (prompted without echo on a
    terminal; asked twice when ``confirm``)."""
    stdin = stdin or sys.stdin
    if file == "-":
        return _first_line(stdin, what, "stdin")
    if file is not None:
        try:
            with Path(file).open(encoding="utf-8") as f:
                return _first_line(f, what, file)
        except OSError as exc:
            raise SecretError(f"cannot read the {what} file {file}: {exc.strerror}") from None
    if env is not None and os.environ.get(env):
        return os.environ[env]
    if stdin.isatty():
        secret = getpass.getpass(f"{what.capitalize()}: ")
        if confirm and getpass.getpass(f"{what.capitalize()} again: ") != secret:
            raise SecretError(f"the two {what}s differ")
        if not secret:
            raise SecretError(f"an empty {what}")
        return secret
    return _first_line(stdin, what, "stdin")
