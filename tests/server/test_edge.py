"""The connection edge against a real ``cardhall serve``: deadlines, caps, the body's
streaming cap, trusted proxies, the log's throttle (cardhall.server.edge, ws, api).

The halls here have short deadlines so that a test awaits the server's close rather
than sleeping past a long one; an attacker's trickle (a byte every 0.2 s) is the only
sleep, and it is the behaviour under test.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from cardhall.client import ClientError, HallClient
from tests.server.conftest import HallProcess, running_hall, start_hall

GENEROUS = "guests_per_minute = 1000\nlogins_per_minute = 1000\nmessages_per_second = 200\n"
#: The flood test's edge (the keys today's hall does not know: drop them to see it fail).
EDGE_LIMITS = "hello_seconds = 1.0\nconnections_per_address = 30\nconnects_per_minute = 60\n"


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    """Short deadlines; 3 guests a minute per address; no trusted proxy; 5 repeats of a
    log line per 600 s."""
    yield from running_hall(tmp_path_factory.mktemp("quick"), limits=(
        "guests_per_minute = 3\nlogins_per_minute = 1000\nmessages_per_second = 200\n"
        "hello_seconds = 0.5\nheader_seconds = 1.0\nbody_seconds = 1.0\n"
        "log_repeats = 5\nlog_repeat_seconds = 600\n"))


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    """Behind a trusted proxy at 127.0.0.1; 4 connections per address, 20 new ones a
    minute; 3 guests a minute; hello within 0.5 s."""
    yield from running_hall(tmp_path_factory.mktemp("proxied"), limits=(
        "guests_per_minute = 3\nlogins_per_minute = 1000\nmessages_per_second = 200\n"
        "connections_per_address = 4\nconnects_per_minute = 20\nhello_seconds = 0.5\n"
        "trusted_proxies = [\"127.0.0.1\"]\n"))


def _port(hall: HallProcess) -> int:
    return int(hall.url.rsplit(":", 1)[1])


def _ws(hall: HallProcess) -> str:
    return hall.url.replace("http://", "ws://") + "/ws"


async def _open(hall: HallProcess, source: str = "127.0.0.1") -> tuple[
        asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", _port(hall), local_addr=(source, 0))


async def _get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
               path: str = "/healthz") -> tuple[int, dict[str, object]]:
    """One keep-alive GET on an open socket: its status and JSON body."""
    writer.write(f"GET {path} HTTP/1.1\r\nhost: hall\r\n\r\n".encode())
    await writer.drain()
    return await _response(reader)


async def _response(reader: asyncio.StreamReader) -> tuple[int, dict[str, object]]:
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    lines = head.decode().split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
    body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 10)
    return int(lines[0].split()[1]), json.loads(body)


async def _closed(reader: asyncio.StreamReader, within: float = 10.0) -> bytes:
    """Everything the server sends until it closes (TimeoutError if it does not)."""
    out = b""
    async with asyncio.timeout(within):
        while chunk := await reader.read(65536):
            out += chunk
    return out


# -- 1. the hello deadline ---------------------------------------------------------------


async def test_a_socket_without_hello_is_closed(quick: HallProcess) -> None:
    started = time.monotonic()
    async with websockets.connect(_ws(quick)) as idle:
        await asyncio.wait_for(idle.wait_closed(), 10)
    assert idle.close_code == 4002
    assert idle.close_reason == "no valid hello within 0.5 s"
    assert time.monotonic() - started >= 0.5


async def test_a_bad_hello_does_not_stop_the_deadline(quick: HallProcess) -> None:
    async with websockets.connect(_ws(quick)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        assert json.loads(await ws.recv())["code"] == "bad_token"
        await asyncio.wait_for(ws.wait_closed(), 10)
    assert ws.close_code == 4002


async def test_a_connection_that_said_hello_stays(quick: HallProcess) -> None:
    player = HallClient(quick.url, timeout=10)
    await player.guest()
    await player.connect()
    try:
        async with websockets.connect(_ws(quick)) as idle:  # opened after: closed after
            await asyncio.wait_for(idle.wait_closed(), 10)
        await player.ping()
        await player.expect("pong")
    finally:
        await player.close()


# -- 3. slow headers and slow bodies -----------------------------------------------------


async def _trickle(writer: asyncio.StreamWriter, data: bytes) -> None:
    """The attacker: one byte every 0.2 s, until the server has closed."""
    for byte in data:
        writer.write(bytes([byte]))
        await asyncio.sleep(0.2)


@pytest.mark.parametrize("kept_alive", [False, True], ids=["new", "kept-alive"])
async def test_a_head_sent_a_byte_at_a_time_is_cut(quick: HallProcess, kept_alive: bool) -> None:
    """A new connection's head, or the next one on a kept-alive socket (timed from the
    previous response), must arrive whole within header_seconds."""
    reader, writer = await _open(quick)
    slow: asyncio.Task[None] | None = None
    try:
        if kept_alive:
            assert (await _get(reader, writer))[0] == 200
        slow = asyncio.create_task(_trickle(writer, b"GET /healthz HTTP/1.1\r\nx-pad: "
                                            + b"a" * 200))
        started = time.monotonic()
        answer = await _closed(reader)
        assert b" 408 " in answer.split(b"\r\n")[0]
        assert b"request_timeout" in answer
        assert 0.9 <= time.monotonic() - started < 5
    finally:
        if slow is not None:
            slow.cancel()
        writer.close()


async def test_a_body_trickled_is_refused(quick: HallProcess) -> None:
    reader, writer = await _open(quick)
    try:
        writer.write(b"POST /api/login HTTP/1.1\r\nhost: h\r\ncontent-type: application/json"
                     b"\r\ncontent-length: 100\r\n\r\n{\"name\":")
        status, body = await _response(reader)
        assert (status, body["error"]) == (408, "request_timeout")
        await _closed(reader)
    finally:
        writer.close()


# -- 4. the body's streaming cap ---------------------------------------------------------


async def test_a_declared_length_over_the_cap_is_refused_unread(quick: HallProcess) -> None:
    reader, writer = await _open(quick)
    try:
        writer.write(b"POST /api/login HTTP/1.1\r\nhost: h\r\ncontent-type: application/json"
                     b"\r\ncontent-length: 268435456\r\n\r\n")
        status, body = await _response(reader)
        assert (status, body["error"]) == (413, "too_large")
        await _closed(reader)  # not kept alive: the rest of the body is never read
    finally:
        writer.close()


async def test_a_chunked_body_is_cut_at_the_cap(quick: HallProcess) -> None:
    reader, writer = await _open(quick)
    try:
        chunk = b"x" * 4096
        writer.write(b"POST /api/login HTTP/1.1\r\nhost: h\r\ntransfer-encoding: chunked\r\n\r\n"
                     + (b"1000\r\n" + chunk + b"\r\n") * 5)  # 20 KiB, not ended
        status, body = await _response(reader)
        assert (status, body["error"]) == (413, "too_large")
    finally:
        writer.close()


def _status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in KiB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


async def _huge_post(hall: HallProcess, size: int) -> None:
    """A chunked POST of ``size`` bytes, sent until the server stops taking it."""
    _, writer = await _open(hall)
    chunk = b"x" * (1 << 20)
    try:
        writer.write(b"POST /api/login HTTP/1.1\r\nhost: h\r\ntransfer-encoding: chunked\r\n\r\n")
        for _ in range(size // len(chunk)):
            writer.write(b"100000\r\n" + chunk + b"\r\n")
            await asyncio.wait_for(writer.drain(), 10)
    except (ConnectionError, TimeoutError):
        pass  # the server answered 413 and closed: what the test wants
    finally:
        writer.close()


async def test_huge_bodies_do_not_grow_the_server(quick: HallProcess) -> None:
    pid = quick.proc.pid
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # the peak starts again from now
    before = _status(pid)["VmRSS"]
    for _ in range(4):
        await _huge_post(quick, 64 << 20)
    peak = _status(pid)["VmHWM"]
    assert peak - before < 24 * 1024, f"peak RSS grew by {(peak - before) // 1024} MiB"


# -- 2. connection caps ------------------------------------------------------------------


async def test_connections_per_address_are_capped(proxied: HallProcess) -> None:
    held: list[asyncio.StreamWriter] = []
    try:
        for _ in range(2):  # two HTTP keep-alive connections...
            reader, writer = await _open(proxied, "127.0.0.2")
            assert (await _get(reader, writer))[0] == 200
            held.append(writer)
        for _ in range(2):  # ...and two sockets that have said nothing yet
            held.append((await _open(proxied, "127.0.0.2"))[1])
        reader, writer = await _open(proxied, "127.0.0.2")
        held.append(writer)
        status, body = await _get(reader, writer)
        assert (status, body["error"]) == (429, "too_many_connections")
        assert "at most 4 open connections from one address" in str(body["message"])
        await _closed(reader)
        with pytest.raises(InvalidStatus) as refused:
            await websockets.connect(_ws(proxied), local_addr=("127.0.0.2", 0))
        assert refused.value.response.status_code == 429
        other = await _open(proxied, "127.0.0.3")  # another address is not affected
        held.append(other[1])
        assert (await _get(*other))[0] == 200
    finally:
        for w in held:
            w.close()


async def test_a_closed_connection_frees_its_slot(proxied: HallProcess) -> None:
    first = [await _open(proxied, "127.0.0.4") for _ in range(4)]
    for _, w in first:
        w.close()
        await w.wait_closed()
    for _ in range(50):  # the server sees each FIN in its own time: until it has
        reader, writer = await _open(proxied, "127.0.0.4")
        status, _ = await _get(reader, writer)
        writer.close()
        if status == 200:
            return
    raise AssertionError("the slots of closed connections were never freed")


async def test_new_connections_per_address_are_rate_limited(proxied: HallProcess) -> None:
    for _ in range(20):
        reader, writer = await _open(proxied, "127.0.0.8")
        assert (await _get(reader, writer))[0] == 200
        writer.close()
    reader, writer = await _open(proxied, "127.0.0.8")
    try:
        status, body = await _get(reader, writer)
        assert (status, body["error"]) == (429, "too_many_connects")
    finally:
        writer.close()
    reader, writer = await _open(proxied, "127.0.0.9")  # another address is not affected
    assert (await _get(reader, writer))[0] == 200
    writer.close()
    async with httpx.AsyncClient(base_url=proxied.url) as http:  # counted, by limit
        text = (await http.get("/metrics", headers=proxied.metrics_headers)).text
    assert 'cardhall_edge_refused_total{code="too_many_connects",fate="kept"}' in text


async def test_an_idle_websocket_costs_its_address_more(proxied: HallProcess) -> None:
    async with websockets.connect(_ws(proxied), local_addr=("127.0.0.11", 0)) as idle:
        await asyncio.wait_for(idle.wait_closed(), 10)
    assert idle.close_code == 4002
    served = 0
    for _ in range(20):
        reader, writer = await _open(proxied, "127.0.0.11")
        status, _ = await _get(reader, writer)
        writer.close()
        if status != 200:
            break
        served += 1
    # 20 at once, one spent on the WebSocket, five for its silence (and one back for
    # each 3 s the test took)
    assert 14 <= served <= 15


async def test_a_trusted_proxy_counts_only_in_the_total(proxied: HallProcess) -> None:
    held = [await _open(proxied, "127.0.0.1") for _ in range(6)]
    try:
        assert [(await _get(r, w))[0] for r, w in held] == [200] * 6
    finally:
        for _, w in held:
            w.close()


@pytest.mark.services  # starts its own hall in the test
async def test_connections_in_all_are_capped(tmp_path: Path) -> None:
    server = start_hall(tmp_path, limits=GENEROUS + "connections_total = 5\n")
    held: list[asyncio.StreamWriter] = []
    try:
        for i in range(5):
            reader, writer = await _open(server, f"127.0.1.{i + 1}")
            held.append(writer)
            assert (await _get(reader, writer))[0] == 200
        reader, writer = await _open(server, "127.0.1.9")
        held.append(writer)
        status, body = await _get(reader, writer)
        assert (status, body["error"]) == (503, "hall_full")
        assert "5 connections" in str(body["message"])
    finally:
        for w in held:
            w.close()
        server.stop()


# -- 6. trusted proxies ------------------------------------------------------------------


async def _guests(hall: HallProcess, source: str, forwarded: list[str]) -> list[int]:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=hall.url, transport=transport) as http:
        return [(await http.post("/api/guest", headers={"x-forwarded-for": f})).status_code
                for f in forwarded]


async def test_forwarded_for_is_ignored_without_a_trusted_proxy(quick: HallProcess) -> None:
    # From loopback, which uvicorn by itself trusts: each header would be a new client.
    codes = await _guests(quick, "127.0.0.1", [f"10.0.0.{i}" for i in range(1, 6)])
    assert codes[-1] == 429 and codes.count(201) <= 3


async def test_a_trusted_proxy_names_the_client(proxied: HallProcess) -> None:
    assert await _guests(proxied, "127.0.0.1",
                         [f"10.0.1.{i}" for i in range(1, 6)]) == [201] * 5
    assert await _guests(proxied, "127.0.0.1", ["10.0.2.1"] * 4) == [201, 201, 201, 429]
    # The proxy appends the address it saw: what the client wrote before it is not taken.
    assert await _guests(proxied, "127.0.0.1",
                         [f"10.9.9.{i}, 10.0.2.1" for i in range(1, 3)]) == [429, 429]
    # Another peer is not the proxy: its forwarded header is ignored.
    assert await _guests(proxied, "127.0.0.6",
                         [f"10.0.3.{i}" for i in range(1, 5)]) == [201, 201, 201, 429]


# -- 5. the log's throttle ---------------------------------------------------------------


async def test_repeated_log_lines_are_throttled(quick: HallProcess) -> None:
    sockets = [await websockets.connect(_ws(quick)) for _ in range(12)]
    for ws in sockets:
        await asyncio.wait_for(ws.wait_closed(), 10)
    lines = [json.loads(line) for line in quick.log.read_text().splitlines()
             if line.startswith("{")]
    late = [line for line in lines if line["message"] == "no hello in time"]
    assert len(late) == 5  # log_repeats: the rest of the window's are not written


# -- 7. new players while an attack runs -------------------------------------------------


async def _flood(hall: HallProcess, source: str, stop: asyncio.Event, held: list[int]) -> None:
    """Idle WebSockets from ``source``, each opened again as soon as it is closed (half
    a second after a refusal)."""
    while not stop.is_set():
        try:
            async with websockets.connect(_ws(hall), local_addr=(source, 0),
                                          open_timeout=5) as ws:
                held[0] += 1
                try:
                    await ws.wait_closed()
                finally:
                    held[0] -= 1
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
            await asyncio.sleep(0.5)


@pytest.mark.services  # starts its own hall in the test
async def test_new_players_are_served_while_idle_sockets_flood(tmp_path: Path) -> None:
    """A hall allowed 400 open files: 12 addresses × 40 idle WebSockets would take them
    all (today: "Too many open files" and nobody else gets in). The caps hold the
    flood below the limit and the hello deadline clears it, so a new player gets in,
    says hello and is answered."""
    server = start_hall(tmp_path, files=400, limits=GENEROUS + EDGE_LIMITS)
    stop, held = asyncio.Event(), [0]
    attackers = [asyncio.create_task(_flood(server, f"127.0.2.{a}", stop, held))
                 for a in range(1, 13) for _ in range(40)]
    try:
        async with asyncio.timeout(30):
            while held[0] < 150:  # the flood is on
                await asyncio.sleep(0.05)
        player = HallClient(server.url, timeout=20)
        async with asyncio.timeout(45):
            while True:  # a refusal (503/429) is an answer: he tries again, as a client does
                try:
                    await player.guest()
                    await player.connect()
                    break
                except (ClientError, OSError, httpx.HTTPError,
                        websockets.exceptions.WebSocketException):
                    await asyncio.sleep(0.2)
        await player.ping()
        await player.expect("pong")
        await player.close()
        assert "Too many open files" not in server.log.read_text()
    finally:
        stop.set()
        for t in attackers:
            t.cancel()
        await asyncio.gather(*attackers, return_exceptions=True)
        server.stop()
