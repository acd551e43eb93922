"""A DouZero-style agent: Deep Monte-Carlo over whole actions, in PyTorch on the CPU.

DouZero (Zha et al., 2021) learns Dou Dizhu without search or human data: one network
scores a (state, action) pair, every legal action is scored and the best is played, and
the target of every decision is simply the game's final outcome for the seat that made
it (a Monte-Carlo return: no bootstrapping, so no value estimates chasing each other).
Exploration is epsilon-greedy self-play. That works because Dou Dizhu's actions are
well described by their cards: the network sees a play's features, not an index into
a huge action list, and so generalises from one play to its neighbours.

Here the state is ``cardhall.rl``'s observation vector and an action is its row of
``CardhallEnv.action_features`` (docs/rl.md), the same for bidding and card play, so one
network plays the whole game; the seat's role is in the observation. DouZero's LSTM
over the history and its separate networks per position are left out: this is the
small version that shows the method on a laptop's CPU (examples/train_ddz3.py).

``bot_class`` wraps a trained agent as a ``cardhall.bots.Bot``: it encodes the view the
bot is given with the same encoder, so it plays in the arena, the terminal or the hall
as any bot does. This module needs the ``train`` extra (torch); nothing else in
cardhall imports it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

try:
    import torch
    from torch import nn
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(f"cardhall.rl.dmc needs torch ({exc.name} is missing): "
                      "pip install 'cardhall[rl,train]'") from exc

import numpy as np

from cardhall import bots
from cardhall.bots.base import Bot, Observation
from cardhall.games import variant as variant_of
from cardhall.rl.actions import HEADS
from cardhall.rl.env import env
from cardhall.rl.observation import Layout, Vector, action_row, encode

#: The saved file's format; bumped when a saved agent would not load the same.
FORMAT = 1
HIDDEN = (256, 128)


class QNet(nn.Module):
    """Q(observation, action): an MLP over the two vectors side by side."""

    def __init__(self, obs_size: int, action_width: int, hidden: Sequence[int] = HIDDEN) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = obs_size + action_width
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, 1))
        self.mlp = nn.Sequential(*layers)

    def forward(self, obs: torch.Tensor, actions: torch.Tensor) -> torch.Tensor:
        """One value per row of ``actions``; ``obs`` is one row (broadcast) or one per action."""
        if obs.dim() == 1:
            obs = obs.expand(actions.shape[0], -1)
        return self.mlp(torch.cat([obs, actions], dim=1)).squeeze(1)  # type: ignore[no-any-return]


@dataclass
class Agent:
    """A network and the variant it plays: scores a decision's actions and picks one."""

    variant: str
    net: QNet
    hidden: tuple[int, ...] = HIDDEN

    @classmethod
    def new(cls, variant: str, hidden: Sequence[int] = HIDDEN, seed: int = 0) -> Agent:
        layout = Layout.of(variant_of(variant))
        torch.manual_seed(seed)
        width = HEADS + 2 * layout.axis  # CardhallEnv.action_width
        return cls(variant, QNet(layout.size, width, hidden), tuple(hidden))

    @property
    def layout(self) -> Layout:
        return Layout.of(variant_of(self.variant))

    def values(self, obs: Vector, rows: Vector) -> torch.Tensor:
        with torch.no_grad():
            out: torch.Tensor = self.net(torch.from_numpy(obs), torch.from_numpy(rows))
        return out

    def choose(self, obs: Vector, rows: Vector, epsilon: float = 0.0,
               rng: random.Random | None = None) -> int:
        """The index of the best-valued action, or with probability ``epsilon`` any one."""
        if epsilon and rng is not None and rng.random() < epsilon:
            return rng.randrange(len(rows))
        if len(rows) == 1:
            return 0
        return int(self.values(obs, rows).argmax())

    def save(self, path: str | Path) -> None:
        torch.save({"format": FORMAT, "variant": self.variant, "hidden": list(self.hidden),
                    "state": self.net.state_dict()}, path)

    @classmethod
    def load(cls, path: str | Path) -> Agent:
        data = torch.load(path, weights_only=True)  # tensors and plain values: no code runs
        if data.get("format") != FORMAT:
            raise ValueError(f"{path}: not a saved agent of format {FORMAT}")
        agent = cls.new(data["variant"], data["hidden"])
        agent.net.load_state_dict(data["state"])
        return agent


# -- self-play ---------------------------------------------------------------------------


@dataclass
class Episode:
    """One self-play game: every decision's observation and chosen action row, with the
    deciding seat's final reward as its target."""

    obs: list[Vector] = field(default_factory=list)
    actions: list[Vector] = field(default_factory=list)
    targets: list[float] = field(default_factory=list)
    rewards: dict[str, float] = field(default_factory=dict)


def play_episode(e: Any, agent: Agent, seed: int, epsilon: float, rng: random.Random,
                 target: Callable[[float], float]) -> Episode:
    """Play one game of ``e`` (a ``cardhall.rl.env``) with every seat run by ``agent``.

    Each decision scores the legal whole actions (``action_features``) and steps the
    chosen one's tokens (``tokens_for``); the environment refuses any token its masks
    forbid, so every action played was legal.
    """
    u = e.unwrapped
    e.reset(seed=seed)
    seen: dict[str, list[tuple[Vector, Vector]]] = {a: [] for a in u.possible_agents}
    out = Episode()
    for name in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            out.rewards[name] = float(reward)
            e.step(None)
            continue
        texts, rows = u.action_features(name)
        i = agent.choose(obs["observation"], rows, epsilon, rng)
        seen[name].append((obs["observation"], rows[i]))
        for token in u.tokens_for(name, texts[i]):
            e.step(token)
    for name, decisions in seen.items():
        for o, a in decisions:
            out.obs.append(o)
            out.actions.append(a)
            out.targets.append(target(out.rewards[name]))
    return out


OBJECTIVES: dict[str, Callable[[float], float]] = {
    # DouZero's two: WP, the win (+1) or loss (-1); ADP, the points won (here scaled down
    # by a typical stake, so that the loss does not swing with a bombed game's size)
    "wp": lambda r: float(np.sign(r)),
    "adp": lambda r: r / 4.0,
}


@dataclass
class Stats:
    episodes: int = 0
    decisions: int = 0
    updates: int = 0
    losses: list[float] = field(default_factory=list)
    seconds: float = 0.0


def update(agent: Agent, optimizer: torch.optim.Optimizer, obs: Sequence[Vector],
           actions: Sequence[Vector], targets: Sequence[float]) -> float:
    """One gradient step of the mean squared error between Q and the targets."""
    q = agent.net(torch.from_numpy(np.stack(obs)), torch.from_numpy(np.stack(actions)))
    loss = nn.functional.mse_loss(q, torch.tensor(targets, dtype=torch.float32))
    optimizer.zero_grad()
    loss.backward()  # type: ignore[no-untyped-call]
    nn.utils.clip_grad_norm_(agent.net.parameters(), 40.0)  # DouZero's clip
    optimizer.step()
    return loss.item()


def train(variant: str = "ddz3", *, decisions: int | None = None,
          seconds: float | None = None, seed: int = 0, agent: Agent | None = None,
          epsilon: float = 0.1, batch: int = 64, lr: float = 1e-3, objective: str = "adp",
          log: Callable[[Stats], None] | None = None, log_every: int = 100) -> tuple[Agent, Stats]:
    """Self-play DMC until ``decisions`` decisions have been played or ``seconds`` passed.

    Each game's decisions join a buffer; every full ``batch`` of it is one gradient step
    and is then dropped (on-policy, as DouZero's learner consumes its actors' batches).
    The same ``seed`` gives the same agent (with ``torch.set_num_threads(1)``).
    """
    if decisions is None and seconds is None:
        raise ValueError("give decisions or seconds (or both): when to stop")
    target = OBJECTIVES[objective]
    agent = agent or Agent.new(variant, seed=seed)
    optimizer = torch.optim.Adam(agent.net.parameters(), lr=lr)
    rng = random.Random(seed)
    e = env(variant)
    stats = Stats()
    start = time.perf_counter()
    buf_obs: list[Vector] = []
    buf_act: list[Vector] = []
    buf_tgt: list[float] = []

    def done() -> bool:
        return ((decisions is not None and stats.decisions >= decisions)
                or (seconds is not None and time.perf_counter() - start >= seconds))

    while not done():
        ep = play_episode(e, agent, rng.randrange(2**63), epsilon, rng, target)
        stats.episodes += 1
        stats.decisions += len(ep.targets)
        buf_obs += ep.obs
        buf_act += ep.actions
        buf_tgt += ep.targets
        while len(buf_tgt) >= batch:
            order = rng.sample(range(len(buf_tgt)), batch)
            loss = update(agent, optimizer, [buf_obs[i] for i in order],
                          [buf_act[i] for i in order], [buf_tgt[i] for i in order])
            stats.losses.append(loss)
            stats.updates += 1
            keep = sorted(set(range(len(buf_tgt))) - set(order))
            buf_obs = [buf_obs[i] for i in keep]
            buf_act = [buf_act[i] for i in keep]
            buf_tgt = [buf_tgt[i] for i in keep]
            if log is not None and stats.updates % log_every == 0:
                stats.seconds = time.perf_counter() - start
                log(stats)
    stats.seconds = time.perf_counter() - start
    if any(not math.isfinite(x) for x in stats.losses):
        raise FloatingPointError("the loss diverged")
    return agent, stats


# -- as a bot ----------------------------------------------------------------------------


class DMCBot(Bot):
    """A trained ``Agent`` as a bot: it reads the view it is given, as every bot does."""

    name = "dmc"
    agent: ClassVar[Agent | None] = None

    def features(self, observation: Observation, legal: list[str]) -> tuple[Vector, Vector]:
        """The view and its legal actions as the environment encodes them for this seat."""
        layout = self._agent().layout
        rows = np.stack([action_row(layout, text) for text in legal])
        return encode(layout, observation, ()), rows

    def choose(self, observation: Observation, legal: list[str]) -> str:
        obs, rows = self.features(observation, legal)
        return legal[self._agent().choose(obs, rows)]

    def _agent(self) -> Agent:
        if self.agent is None:
            raise bots.BotError(f"{self.name}: no trained agent (use dmc.bot_class)")
        return self.agent


def bot_class(agent: Agent, name: str = "dmc") -> type[DMCBot]:
    """A bot class that plays ``agent`` (greedy), for ``cardhall.bots.register``."""
    return type(f"DMCBot_{name}", (DMCBot,), {"name": name, "agent": agent})


@contextmanager
def registered(agent: Agent, name: str = "dmc") -> Iterator[str]:
    """``agent`` as bot ``name`` for the arena (``arena.run(..., jobs=1)``) while inside."""
    bots.register(bot_class(agent, name))
    try:
        yield name
    finally:
        del bots.BOTS[name]
