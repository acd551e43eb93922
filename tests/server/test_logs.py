"""The log's throttle (cardhall.server.logs.Throttle) with an injected clock."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from cardhall.server.logs import JsonLines, Throttle


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def setup() -> Iterator[tuple[logging.Logger, io.StringIO, Clock]]:
    out, clock = io.StringIO(), Clock()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonLines())
    handler.addFilter(Throttle(handler, 3, 10.0, clock=clock))
    logger = logging.getLogger("cardhall.test.throttle")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    yield logger, out, clock
    logger.handlers[:] = []


def lines(out: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_same_template_passes_n_times_per_window(
        setup: tuple[logging.Logger, io.StringIO, Clock]) -> None:
    logger, out, clock = setup
    for i in range(10):
        logger.warning("refused %s", f"10.0.0.{i}")  # a new address each time: one template
    logger.warning("another line")
    assert [line["message"] for line in lines(out)] == [
        "refused 10.0.0.0", "refused 10.0.0.1", "refused 10.0.0.2", "another line"]
    clock.now = 10.0
    logger.warning("refused %s", "10.0.0.99")
    told = lines(out)[4:]
    assert told[0]["message"] == "suppressed 7 similar lines: refused %s"
    assert told[0]["suppressed"] == 7 and told[0]["level"] == "warning"
    assert told[1]["message"] == "refused 10.0.0.99"


def test_a_window_that_dropped_lines_is_told_at_any_later_line(
        setup: tuple[logging.Logger, io.StringIO, Clock]) -> None:
    logger, out, clock = setup
    for _ in range(5):
        logger.info("noisy")
    clock.now = 25.0
    logger.info("quiet")
    assert [line["message"] for line in lines(out)][3:] == [
        "suppressed 2 similar lines: noisy", "quiet"]
    clock.now = 60.0
    logger.info("quiet")
    assert len(lines(out)) == 6  # nothing was dropped since: nothing more is told
