"""A connection's budget of messages (``server.connection.TokenBucket``) on a clock the
test moves: ``rate`` at once, then one more every ``1/rate`` s, never more than
``rate`` saved up. The hall's own limit (``messages_per_second``) is this bucket, one
per connection; tests/server/test_http.py shows a real hall refusing with it."""

from __future__ import annotations

from cardhall.server.connection import TokenBucket
from tests.hall.clock import Clock


def test_a_burst_of_rate_messages_then_refusals() -> None:
    bucket = TokenBucket(4, Clock())
    assert [bucket.take() for _ in range(6)] == [True] * 4 + [False] * 2


def test_the_bucket_refills_at_the_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(4, clock)
    assert all(bucket.take() for _ in range(4))
    clock.now = 0.125  # half a message's time: still refused
    assert not bucket.take()
    clock.now = 0.25  # one message's time since the bucket was emptied
    assert bucket.take()
    assert not bucket.take()


def test_a_long_rest_saves_up_one_seconds_burst_only() -> None:
    clock = Clock()
    bucket = TokenBucket(4, clock)
    assert all(bucket.take() for _ in range(4)) and not bucket.take()
    clock.now = 1.5  # after a refill longer than a second (test_http.py's old sleep)
    assert [bucket.take() for _ in range(5)] == [True] * 4 + [False]
    clock.now = 100.0
    assert [bucket.take() for _ in range(5)] == [True] * 4 + [False]
