"""Structured logs: one JSON object per line on standard error, repeats throttled.

Fields given with ``extra=`` (``conn``, ``player``, ``event``, ``code``…) become
keys of the line, so a log can be filtered with ``jq`` rather than by regex.

A client controls what the hall logs about it (a refused frame, a dropped
connection), so an attacker could fill the disk through the log: ``Throttle`` lets
the same message template through at most ``repeats`` times per window and then
writes one ``suppressed K similar lines`` line for the rest of that window.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

#: LogRecord attributes that are not extras.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(
                    timespec="milliseconds"),
                "level": record.levelname.lower(), "logger": record.name,
                "message": record.getMessage()}
        for key, value in vars(record).items():
            if key not in _STANDARD and key != "color_message" and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


@dataclass
class _Window:
    start: float
    name: str
    level: int
    template: str
    seen: int = 0


class Throttle(logging.Filter):
    """At most ``repeats`` records per (logger, level, message template) in a window of
    ``seconds``; what a window dropped is told in one line (``event: "suppressed"``)
    when it is over: at the template's next record, or at the next sweep (once per
    window, at any record).

    Keyed by the template (``record.msg``), not the formatted text, so "refused %s"
    with a new address each time is still the same line. The clock is injected.
    Memory: one small entry per template seen in the current window (templates are
    the code's, not the client's).
    """

    def __init__(self, handler: logging.Handler, repeats: int, seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.handler, self.repeats, self.seconds, self._clock = handler, repeats, seconds, clock
        self._windows: dict[tuple[str, int, str], _Window] = {}
        self._swept = clock()

    def filter(self, record: logging.LogRecord) -> bool:
        now = self._clock()
        self._sweep(now)
        key = (record.name, record.levelno, str(record.msg))
        window = self._windows.get(key)
        if window is None or now - window.start >= self.seconds:
            if window is not None:
                self._close(window)
            window = self._windows[key] = _Window(now, *key)
        window.seen += 1
        return window.seen <= self.repeats

    def _close(self, window: _Window) -> None:
        dropped = window.seen - self.repeats
        if dropped <= 0:
            return
        line = logging.LogRecord(window.name, window.level, __file__, 0,
                                 "suppressed %d similar lines: %s",
                                 (dropped, window.template), None)
        line.event, line.suppressed = "suppressed", dropped
        self.handler.acquire()
        try:
            self.handler.emit(line)
        finally:
            self.handler.release()

    def _sweep(self, now: float) -> None:
        """Close the windows that are over (at most once per window's length)."""
        if now - self._swept < self.seconds:
            return
        self._swept = now
        for key, window in list(self._windows.items()):
            if now - window.start >= self.seconds:
                del self._windows[key]
                self._close(window)


def setup(level: str = "info", repeats: int = 100, seconds: float = 60.0) -> None:
    """JSON lines for cardhall's and uvicorn's loggers, repeats throttled (``Throttle``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    handler.addFilter(Throttle(handler, repeats, seconds))
    for name in ("cardhall", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    # uvicorn's info lines are one per WebSocket opened and closed ("connection open"),
    # which the hall's own hello and disconnect lines already tell for the connections
    # that matter; below warning they would cost a record per socket of a flood.
    error = logging.getLogger("uvicorn.error")
    error.setLevel(max(error.level, logging.WARNING))
