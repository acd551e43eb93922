"""The connection registry closes a player's socket only for the sessions named, and
remembers ended sessions so a hello racing the end cannot outlive it (clock injected)."""

from __future__ import annotations

from cardhall.server.connection import CLOSE_SUPERSEDED, ENDED_MEMORY, Connection, Registry


class Quiet:
    """A socket nothing is written to (the writer task is never started)."""

    async def send_text(self, data: str) -> None:
        raise AssertionError("nothing is written in these tests")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        raise AssertionError("nothing is written in these tests")


def _conn(registry: Registry, player: str, session: str) -> Connection:
    conn = Connection(Quiet(), "127.0.0.1", 10)
    conn.player_id, conn.session = player, session
    registry.add(conn)
    registry.attach(conn, player)
    return conn


def test_only_the_named_sessions_socket_closes() -> None:
    registry = Registry()
    conn = _conn(registry, "p", "s-kept")
    assert not registry.close_player("p", 4401, "logged out", ["s-other"])
    assert conn.is_open
    assert registry.close_player("p", 4401, "logged out", ["s-other", "s-kept"])
    assert not conn.is_open and conn.close_code == 4401


def test_an_ended_session_is_remembered_for_a_while() -> None:
    now = [100.0]
    registry = Registry(clock=lambda: now[0])
    assert not registry.close_player("p", 4401, "logged out", ["s1"])  # nobody here yet
    assert registry.ended_lately("s1") and not registry.ended_lately("s2")
    now[0] += ENDED_MEMORY + 1
    assert not registry.ended_lately("s1")
    registry.close_player("p", 4401, "logged out", ["s2"])  # and old ones are dropped
    assert list(registry.ended) == ["s2"]


def test_a_connection_still_saying_hello_closes_when_superseded_elsewhere() -> None:
    """Another process's hello for the same player set his presence after this one's
    (its ``Supersede`` names this connection) while this one was still reading its
    welcome: it closes then, so it never registers beside the other."""
    registry = Registry()
    hello = Connection(Quiet(), "127.0.0.1", 10)
    registry.add(hello)
    other = Connection(Quiet(), "127.0.0.1", 10)
    registry.add(other)
    registry.supersede("p", hello.id)
    assert not hello.is_open and hello.close_code == CLOSE_SUPERSEDED and hello.superseded
    assert other.is_open  # only the one named
    registry.supersede("p", other.id + 1000)  # a connection no longer here: nothing
    assert other.is_open
