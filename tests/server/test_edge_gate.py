"""The edge's Gate (cardhall.server.edge) with an injected clock: caps and the rate of
new connections per address."""

from __future__ import annotations

from cardhall.server.edge import (
    ANSWERS_PER_SECOND,
    CONNECT_BURST,
    NO_HELLO_COST,
    TRUST_CACHE,
    Gate,
    total_cap,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_new_connections_refill_at_the_minute_rate() -> None:
    clock = Clock()
    gate = Gate(per_address=100, total=1000, connects_per_minute=3, clock=clock)
    for i in range(3):
        assert gate.admit(object(), "10.0.0.1") is None, i
    refused = gate.admit(object(), "10.0.0.1")
    assert refused is not None and refused[:2] == (429, "too_many_connects")
    assert gate.admit(object(), "10.0.0.2") is None  # its own bucket
    clock.now = 20.0  # a third of a minute: one connection back
    assert gate.admit(object(), "10.0.0.1") is None
    assert gate.admit(object(), "10.0.0.1") is not None


def test_a_burst_is_at_most_twenty() -> None:
    clock = Clock()
    gate = Gate(per_address=100, total=1000, connects_per_minute=600, clock=clock)
    assert sum(gate.admit(object(), "10.0.0.1") is None for _ in range(30)) == CONNECT_BURST
    clock.now = 1.0  # 600 a minute: ten a second
    assert sum(gate.admit(object(), "10.0.0.1") is None for _ in range(30)) == 10


def test_a_trusted_proxy_has_no_rate_and_no_address_cap() -> None:
    gate = Gate(per_address=2, total=10, connects_per_minute=1, trusted=["10.1.0.0/16"])
    assert all(gate.admit(object(), "10.1.2.3") is None for _ in range(5))
    assert gate.admit(object(), "10.2.0.1") is None
    assert gate.admit(object(), "10.2.0.1") is not None


def test_release_frees_the_slot_once() -> None:
    gate = Gate(per_address=1, total=10)
    first = object()
    assert gate.admit(first, "10.0.0.1") is None
    assert gate.admit(object(), "10.0.0.1") is not None
    gate.release(first)
    gate.release(first)  # the WebSocket's and the HTTP protocol's both
    assert gate.by_address == {} and gate.open == {}
    assert gate.admit(object(), "10.0.0.1") is None


def test_answers_to_refusals_are_rationed() -> None:
    clock = Clock()
    gate = Gate(per_address=1, total=1, clock=clock)
    assert sum(gate.may_answer() for _ in range(3 * ANSWERS_PER_SECOND)) == ANSWERS_PER_SECOND
    clock.now = 0.5
    assert sum(gate.may_answer() for _ in range(ANSWERS_PER_SECOND)) == ANSWERS_PER_SECOND // 2


def test_the_total_cap_stays_under_the_file_limit() -> None:
    assert total_cap(10_000, 1 << 20) == 10_000
    assert total_cap(10_000, 2048) == 2048 - 512 - 256
    assert total_cap(10_000, 400) == 200  # a low limit: half of it kept in reserve


def test_a_socket_closed_for_no_hello_costs_its_address() -> None:
    clock = Clock()
    gate = Gate(per_address=100, total=1000, connects_per_minute=60, clock=clock)
    assert gate.admit(object(), "10.0.0.1") is None
    gate.penalize("10.0.0.1")
    assert sum(gate.admit(object(), "10.0.0.1") is None
               for _ in range(30)) == CONNECT_BURST - 1 - NO_HELLO_COST
    gate.penalize("10.0.0.1")  # an empty bucket goes into debt: 5 connections' worth
    clock.now = 5.5  # refilled 5.5 tokens (one a second): back to 0.5, still short of one
    assert gate.admit(object(), "10.0.0.1") is not None
    clock.now = 6.5
    assert gate.admit(object(), "10.0.0.1") is None


def test_the_no_hello_debt_is_bounded() -> None:
    """A flood of idle sockets pays for each, but never owes more than a minute of its
    rate: an address that stops is served again within a minute."""
    clock = Clock()
    gate = Gate(per_address=100, total=1000, connects_per_minute=60, clock=clock)
    for _ in range(1000):
        gate.penalize("10.0.0.1")
    clock.now = 60.0  # -60 + 60 tokens: empty, not yet one
    assert gate.admit(object(), "10.0.0.1") is not None
    clock.now = 61.0
    assert gate.admit(object(), "10.0.0.1") is None
    assert gate.admit(object(), "10.0.0.2") is None  # another address never paid


def test_the_screen_takes_nothing_and_drops_only_what_could_not_be_answered() -> None:
    clock = Clock()
    gate = Gate(per_address=100, total=1000, connects_per_minute=2, clock=clock)
    assert all(gate.screen("10.0.0.1") for _ in range(10))  # asked, nothing taken
    assert [gate.admit(object(), "10.0.0.1") is None for _ in range(3)] == [True, True, False]
    assert gate.screen("10.0.0.1")  # refused, but an answer is left: it gets its 429
    for _ in range(ANSWERS_PER_SECOND):
        gate.may_answer()
    assert not gate.screen("10.0.0.1")  # refused and no answer left: dropped
    assert gate.screen("10.0.0.2")  # another address still comes in
    assert gate.refused == {("too_many_connects", "dropped"): 1}


def test_a_full_hall_drops_at_the_screen_once_answers_run_out() -> None:
    gate = Gate(per_address=1, total=2, clock=Clock())
    assert gate.admit(object(), "10.0.0.1") is None and gate.admit(object(), "10.0.0.2") is None
    assert gate.screen("10.0.0.3") and gate.refused == {}  # its 503 can still be answered
    while gate.may_answer():
        pass
    assert not gate.screen("10.0.0.3") and not gate.screen("10.0.0.4")
    assert gate.refused == {("hall_full", "dropped"): 2}


def test_trust_is_remembered_within_bounds() -> None:
    gate = Gate(per_address=1, total=10, trusted=["10.1.0.0/16"])
    assert gate.is_trusted("10.1.2.3") and not gate.is_trusted("10.2.0.1")
    assert not gate.is_trusted("not an address")
    for i in range(TRUST_CACHE + 10):
        gate.is_trusted(f"10.3.{i // 250}.{i % 250}")
    assert len(gate._trust) <= TRUST_CACHE
    assert gate.is_trusted("10.1.2.3") and not gate.is_trusted("10.2.0.1")
