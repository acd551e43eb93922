"""The attacker of ``benchmarks/abuse_bench.py``, a process of its own (its own event loop
and CPU): idle WebSockets that never say ``hello`` and slow request heads, each re-opened
a second after the hall refuses or closes it, spread over loopback source addresses; a
decoy listener for the bench's ``--control``; and what one address alone gets.

It prints its counts (``Counts``) as a JSON line every second on standard output, which
the bench reads.

    .venv/bin/python benchmarks/abuse_attacker.py --port P --idle 5000 --slow 200 --seconds 90
    .venv/bin/python benchmarks/abuse_attacker.py --decoy
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import time
from dataclasses import dataclass, field

#: The attacker's source addresses (loopback's), and the one-address check's.
ATTACKERS = [f"127.0.0.{i}" for i in range(2, 251)]
SINGLE = "127.0.0.251"


# -- the attacker (a child process: its own event loop and CPU) --------------------------


@dataclass
class Counts:
    idle_held: int = 0
    slow_held: int = 0
    attempts: int = 0  # connects tried, re-tries included
    opened: int = 0  # connections the kernel completed (the hall still has to accept them)
    upgraded: int = 0  # WebSockets the hall let in (101)
    closed_by_hall: dict[str, int] = field(default_factory=dict)  # why, how many
    refused: dict[str, int] = field(default_factory=dict)  # "429 too_many_connects", ...
    failed: dict[str, int] = field(default_factory=dict)  # connect errors

    def count(self, where: dict[str, int], key: str) -> None:
        where[key] = where.get(key, 0) + 1


#: What the attacker counts a connection the hall dropped before answering anything as
#: (past ``edge.ANSWERS_PER_SECOND`` refusals, or ``edge.REFUSING`` waiting).
DROPPED = "dropped unanswered"


def _upgrade(port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET /ws HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\nupgrade: websocket\r\n"
            f"connection: Upgrade\r\nsec-websocket-key: {key}\r\n"
            "sec-websocket-version: 13\r\n\r\n").encode()


async def _refusal(reader: asyncio.StreamReader, head: bytes) -> str:
    """"429 too_many_connects" and the like: the status and the body's error code."""
    status = head.split(b" ", 2)[1].decode()
    try:
        body = await asyncio.wait_for(reader.read(4096), 5.0)
        return f"{status} {json.loads(body)['error']}"
    except (OSError, TimeoutError, ValueError, KeyError):
        return status


async def _connect(port: int, source: str, counts: Counts) -> tuple[
        asyncio.StreamReader, asyncio.StreamWriter] | None:
    counts.attempts += 1
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(source, 0))
    except ConnectionResetError:  # reset as it was accepted (edge.Screen)
        counts.count(counts.refused, DROPPED)
        await asyncio.sleep(1.0)
        return None
    except OSError as exc:
        counts.count(counts.failed, type(exc).__name__)
        await asyncio.sleep(1.0)
        return None
    counts.opened += 1
    return reader, writer


async def _idle(port: int, source: str, counts: Counts, end: float) -> None:
    """One WebSocket that never says hello, opened again whenever it is closed."""
    while time.monotonic() < end:
        if (pair := await _connect(port, source, counts)) is None:
            continue
        reader, writer = pair
        try:
            writer.write(_upgrade(port))
            head = await reader.readuntil(b"\r\n\r\n")
            if head.split(b" ", 2)[1] != b"101":
                counts.count(counts.refused, await _refusal(reader, head))
                await asyncio.sleep(1.0)
                continue
            counts.upgraded += 1
            counts.idle_held += 1
            try:
                frame = await reader.read(4096)  # the hall's close frame, or EOF
            finally:
                counts.idle_held -= 1
            code = int.from_bytes(frame[2:4]) if len(frame) >= 4 and frame[0] == 0x88 else 0
            counts.count(counts.closed_by_hall, f"ws close {code}" if code else "eof")
        except (ConnectionResetError, asyncio.IncompleteReadError):  # before any answer
            counts.count(counts.refused, DROPPED)
            await asyncio.sleep(1.0)
        except OSError as exc:
            counts.count(counts.failed, type(exc).__name__)
            await asyncio.sleep(1.0)
        finally:
            writer.close()


async def _slow(port: int, source: str, counts: Counts, end: float) -> None:
    """One request head sent a byte every 10 s, opened again whenever it is closed."""
    head = b"GET /healthz HTTP/1.1\r\nhost: hall\r\nx-pad: " + b"a" * 1000
    while time.monotonic() < end:
        if (pair := await _connect(port, source, counts)) is None:
            continue
        reader, writer = pair
        counts.slow_held += 1
        try:
            for byte in head:
                writer.write(bytes([byte]))
                try:
                    got = await asyncio.wait_for(reader.read(4096), 10.0)  # until closed
                except TimeoutError:
                    continue  # ten seconds passed: the next byte
                status = got.split(b" ", 2)[1].decode() if got.startswith(b"HTTP/") else "eof"
                counts.count(counts.closed_by_hall, f"http {status}")
                break
        except ConnectionResetError:
            counts.count(counts.refused, DROPPED)
            await asyncio.sleep(1.0)
        except OSError as exc:
            counts.count(counts.failed, type(exc).__name__)
            await asyncio.sleep(1.0)
        finally:
            counts.slow_held -= 1
            writer.close()


async def _attack(port: int, idle: int, slow: int, seconds: float) -> None:
    counts = Counts()
    end = time.monotonic() + seconds
    tasks = []
    for i in range(idle):
        tasks.append(asyncio.create_task(_idle(port, ATTACKERS[i % len(ATTACKERS)], counts,
                                               end)))
        if i % 200 == 199:
            await asyncio.sleep(0.05)  # a ramp, so the kernel's accept queue keeps up
    for i in range(slow):
        tasks.append(asyncio.create_task(_slow(port, ATTACKERS[-1 - i % len(ATTACKERS)],
                                               counts, end)))
    while time.monotonic() < end:
        print(json.dumps(counts.__dict__), flush=True)
        await asyncio.sleep(1.0)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(counts.__dict__), flush=True)


def attacker_main(args: argparse.Namespace) -> None:
    import resource  # noqa: PLC0415 (the attacker's own file limit)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(_attack(args.port, args.idle, args.slow, args.seconds))


def decoy_main() -> None:
    """``--control``'s target: a listener that resets every connection it accepts, as the
    hall's edge does most of a flood's, on the attacker's side of the machine."""
    import socket  # noqa: PLC0415 (the decoy's own)
    import struct  # noqa: PLC0415
    reset = struct.pack("ii", 1, 0)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(4096)
        print(sock.getsockname()[1], flush=True)
        while True:
            conn, _ = sock.accept()
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, reset)
            conn.close()


# -- one address alone -------------------------------------------------------------------


async def single_address(port: int, tries: int) -> dict[str, int]:
    """How many idle WebSockets one address can hold at once, and what the rest get."""
    got: dict[str, int] = {}
    writers = []
    try:
        for _ in range(tries):
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                               local_addr=(SINGLE, 0))
                writers.append(writer)
                writer.write(_upgrade(port))
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            except (ConnectionResetError, asyncio.IncompleteReadError):
                got["dropped unanswered"] = got.get("dropped unanswered", 0) + 1
                continue
            status = head.split(b" ", 2)[1].decode()
            if status != "101":
                body = await asyncio.wait_for(reader.read(4096), 10)
                status += " " + json.loads(body)["error"]
            got[status] = got.get(status, 0) + 1
    finally:
        for w in writers:
            w.close()
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, help="the hall's port")
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--decoy", action="store_true",
                        help="be the decoy instead: print a port, reset what comes to it")
    args = parser.parse_args()
    if args.decoy:
        decoy_main()
    else:
        attacker_main(args)


if __name__ == "__main__":
    main()
