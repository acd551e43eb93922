"""Playing whole games: bots at every seat (simulate), a person at one (terminal), replays.

Everything here goes through the game contract and ``observe``: a bot or a
person is shown exactly what that seat may know.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TextIO

from cardhall import bots
from cardhall.bots import Bot
from cardhall.games import GameState, IllegalAction, new_game, replay

#: A game that has not ended after this many deals or actions is abandoned: a
#: table of 托管 bots that never bid redeals forever under unlimited redeals.
MAX_DEALS = 50
MAX_ACTIONS = 20_000


def seat_bots(variant: str, names: Iterable[str], players: int, seed: int) -> list[Bot]:
    names = list(names)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise bots.BotError(f"{variant} has {players} seats: give 1 or {players} bot names")
    return [bots.make(name, variant, seat, seed) for seat, name in enumerate(names)]


def play_out(state: GameState, players: list[Bot]) -> bool:
    """Let the bots finish the game; False if it was abandoned (see MAX_ACTIONS)."""
    while not state.over:
        if len(state.actions) >= MAX_ACTIONS or getattr(state, "deals", 0) > MAX_DEALS:
            return False
        seat = state.to_act
        assert seat is not None
        state.apply(players[seat].act(state.observe(seat)))
    return True


def roles(state: GameState) -> list[str]:
    """Each seat's side for reporting: the result's own roles, else landlord / farmer."""
    result = state.result() or {}
    if "roles" in result:
        return list(result["roles"])
    side = getattr(state, "side", None)
    if side is None:
        return [f"seat {s}" for s in range(state.players)]
    return ["landlord" if s == 0 else "farmer" for s in side]


def multiplier(result: dict[str, Any]) -> float:
    detail = result.get("multiplier") or {}
    for key in ("total", "stake", "M"):
        if isinstance(detail.get(key), int | float):
            return float(detail[key])
    return 0.0


@dataclass
class Tally:
    games: int = 0
    abandoned: int = 0
    dissolved: int = 0
    seconds: float = 0.0
    multipliers: list[float] = field(default_factory=list)
    by_role: dict[str, list[float]] = field(default_factory=dict)

    def add(self, state: GameState) -> None:
        result = state.result() or {}
        if result.get("dissolved") or result.get("void"):
            self.dissolved += 1
            return
        self.multipliers.append(multiplier(result))
        for role, score in zip(roles(state), result["scores"], strict=True):
            self.by_role.setdefault(role, []).append(float(score))

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "games": self.games, "abandoned": self.abandoned, "dissolved": self.dissolved,
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "mean_multiplier": _mean(self.multipliers), "roles": {}}
        for role, scores in sorted(self.by_role.items()):
            out["roles"][role] = {"seats": len(scores),
                                  "win_rate": _mean([1.0 if s > 0 else 0.0 for s in scores]),
                                  "mean_points": _mean(scores)}
        return out


def _mean(xs: list[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def simulate(variant: str, games: int, seed: int, names: Iterable[str],
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``games`` seeded games between bots and summarise them."""
    names = list(names)
    tally = Tally()
    start = time.perf_counter()
    for i in range(games):
        state = new_game(variant, seed=seed + i, options=options)
        players = seat_bots(variant, names, state.players, seed + i)
        tally.games += 1
        if play_out(state, players):
            tally.add(state)
        else:
            tally.abandoned += 1
    tally.seconds = time.perf_counter() - start
    return {"variant": variant, "bots": names, "seed": seed, **tally.summary()}


# -- a person in the terminal --------------------------------------------------------------


def describe(obs: dict[str, Any]) -> str:
    """A few lines a player reads at his turn: hand, table, stakes."""
    lines = [f"[{obs['variant']}] {obs['phase']}: your turn (seat {obs['seat']})"]
    counts = obs.get("counts", [])
    last: dict[int, str] = {}
    for event in obs.get("log", []):
        seat = event.get("seat")
        if not isinstance(seat, int) or event.get("type") in ("deal", "flag", "first-bidder"):
            continue
        kind = event["type"]
        detail = event.get("cards") or (event.get("bid") if kind == "bid" else None)
        last[seat] = str(detail) if kind == "play" and detail else \
            f"{kind} {detail}" if detail is not None else kind
    for seat, n in enumerate(counts):
        role = " (landlord)" if obs.get("landlord") == seat else \
            " (emperor)" if obs.get("emperor") == seat else \
            " (dealer)" if obs.get("dealer") == seat else \
            " (friend)" if obs.get("friend") == seat else ""
        warn = "  ! 报警" if seat in obs.get("warnings", []) else ""
        you = " (you)" if seat == obs["seat"] else ""
        lines.append(f"  seat {seat}{you}{role}: {n:2d} cards, last {last.get(seat, '-')}{warn}")
    if obs.get("trick"):
        lines.append(f"  to beat: {obs['trick']['cards']} by seat {obs['trick']['seat']}")
    for key in ("contract", "stake", "kitty", "wild", "multiplier", "role", "called", "solo",
                "pile", "level", "trump", "friend_call", "attacker_points"):
        if obs.get(key) not in (None, "", 0):
            lines.append(f"  {key}: {obs[key]}")
    lines.append(f"  your hand: {obs['hand']}")
    return "\n".join(lines)


def terminal(variant: str, seat: int, seed: int, names: Iterable[str], stdin: TextIO,
             stdout: TextIO, options: dict[str, Any] | None = None,
             save: Callable[[dict[str, Any]], None] | None = None) -> GameState:
    """Play one game as ``seat`` against bots, reading actions from ``stdin``."""
    state = new_game(variant, seed=seed, options=options)
    if not 0 <= seat < state.players:
        raise IllegalAction(f"{variant} has seats 0 to {state.players - 1}")
    players = seat_bots(variant, names, state.players, seed)
    out = stdout.write
    out(f"You are seat {seat}. Type a play in card notation (e.g. 'play 33344+5' or just "
        f"'33344+5'), 'pass', 'hint' for the legal actions, 'quit' to leave.\n")
    while not state.over:
        actor = state.to_act
        assert actor is not None
        if actor != seat:
            text = players[actor].act(state.observe(actor))
            state.apply(text)
            if text.startswith("bury "):
                text = "bury (face down)"  # 找朋友: the buried kitty is the dealer's secret
            out(f"seat {actor}: {text}\n")
            continue
        obs = state.observe(seat)
        out(describe(obs) + "\n")
        while True:
            out("> ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                out("\n(end of input: leaving the game)\n")
                return state
            text = line.strip()
            if text in ("hint", "?", "h"):
                out("legal: " + ", ".join(obs["legal_actions"]) + "\n")
                continue
            if text in ("quit", "exit"):
                return state
            if text and text[0] in "3456789TJQKA2XD1小大" and not text.startswith("play"):
                text = f"play {text}"
            try:
                state.apply(text)
            except IllegalAction as exc:
                out(f"not allowed: {exc}\n")
                continue
            break
    out(f"game over: {json.dumps(state.result(), ensure_ascii=False)}\n")
    if save is not None:
        save(state.record())
    return state


def replay_steps(record: dict[str, Any], stdout: TextIO, seat: int | None = None) -> GameState:
    """Print a saved game step by step, from the table's view or one seat's."""
    final = replay(record)  # validates the whole record first
    state = new_game(record["variant"], seed=record["seed"], options=record.get("options"))
    for i, text in enumerate(record["actions"]):
        actor = state.to_act
        state.apply(text)
        who = "" if actor is None else f"seat {actor}: "
        stdout.write(f"{i + 1:4d}. {who}{text}\n")
        if seat is not None:
            stdout.write("      " + describe(state.observe(seat)).replace("\n", "\n      ") + "\n")
    stdout.write(f"result: {json.dumps(final.result(), ensure_ascii=False)}\n")
    return state
