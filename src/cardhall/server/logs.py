"""Structured logs: one JSON object per line on standard error.

Fields given with ``extra=`` (``conn``, ``player``, ``event``, ``code``…) become
keys of the line, so a log can be filtered with ``jq`` rather than by regex.
"""

from __future__ import annotations

import json
import logging
import sys
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


def setup(level: str = "info") -> None:
    """JSON lines for cardhall's and uvicorn's loggers."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    for name in ("cardhall", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
