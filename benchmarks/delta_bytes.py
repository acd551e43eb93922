"""Bytes on the wire per action: full ``state`` messages against deltas (docs/protocol.md).

Plays seeded random games of each variant (every decision a uniform choice from
``legal_actions()``) and, after every action, codes every seat's ``state`` message
the way a connection does: as it is (a client without the opt-in) and through
``server.deltas.DeltaCoder`` (a client with ``"deltas": true``; a full state every
``--every`` messages, as ``limits.full_state_every``). The messages are the hall's
own (``State`` with a five-seat-sized ``players`` list, the engine's events per
seat), serialized as the server does; no socket, no compression. Prints per variant
the bytes per action summed over the seats, full and with deltas, and the saving.

    .venv/bin/python benchmarks/delta_bytes.py --games 20
    .venv/bin/python benchmarks/delta_bytes.py --games 5 --every 1   # deltas off in effect
"""

from __future__ import annotations

import argparse
import random

from cardhall.games import VARIANTS, new_game
from cardhall.protocol.messages import SeatInfo, State
from cardhall.server.deltas import FULL_EVERY, DeltaCoder


def players(n: int) -> list[SeatInfo]:
    return [SeatInfo(seat=i, id=f"{i:08x}-6b1c-4f0e-9d7a-3c55e2a1b0f{i}", name=f"游客0717{i:02d}",
                     title="包身工", bot=False, connected=True, auto=False) for i in range(n)]


def measure(name: str, games: int, seed: int, every: int) -> tuple[int, int, int]:
    """(actions, full bytes, delta bytes) over ``games`` games of ``name``."""
    actions = full = delta = 0
    for g in range(games):
        state = new_game(name, seed=seed + g)
        rng = random.Random(seed + g)
        seats = players(state.players)
        coders = [DeltaCoder(every) for _ in seats]
        events: list[dict[str, object]] = []
        seq = 0
        while True:
            for s, coder in enumerate(coders):
                msg = State(table="te8a26d022827", room=f"{name}-novice", game="9f2c" * 8,
                            seq=seq, seat=s, view=state.observe(s), deadline=1764575640317,
                            players=seats, events=state.events_for(events, s))
                text = msg.model_dump_json()
                full += len(text.encode())
                delta += len(coder.encode(msg, text).encode())
            if state.over:
                break
            events = state.apply(rng.choice(state.legal_actions()))
            seq += 1
            actions += 1
    return actions, full, delta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=FULL_EVERY)
    parser.add_argument("--variants", nargs="*", default=sorted(VARIANTS))
    args = parser.parse_args()
    print(f"{'variant':<14}{'actions':>8}{'full B/action':>15}{'delta B/action':>16}"
          f"{'saved':>8}")
    total = [0, 0, 0]
    for name in args.variants:
        actions, full, delta = measure(name, args.games, args.seed, args.every)
        total = [total[0] + actions, total[1] + full, total[2] + delta]
        print(f"{name:<14}{actions:>8}{full / actions:>15.0f}{delta / actions:>16.0f}"
              f"{1 - delta / full:>8.0%}")
    actions, full, delta = total
    print(f"{'all':<14}{actions:>8}{full / actions:>15.0f}{delta / actions:>16.0f}"
          f"{1 - delta / full:>8.0%}")


if __name__ == "__main__":
    main()
