"""The edge's Gate (cardhall.server.edge) with an injected clock: caps and the rate of
new connections per address."""

from __future__ import annotations

from cardhall.server.edge import (
    ANSWERS_PER_SECOND,
    CONNECT_BURST,
    NO_HELLO_COST,
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
    gate.penalize("10.0.0.1")  # an empty bucket stays empty, not negative
    clock.now = 1.0
    assert gate.admit(object(), "10.0.0.1") is None
