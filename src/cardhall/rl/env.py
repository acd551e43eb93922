"""Every cardhall game as a PettingZoo AEC environment: a thin shell over the game contract.

The game decides everything: who acts (``acting``, ``to_act`` first), what is legal
(``legal_actions``), what a seat sees (``observe``), how it ends (``result``). The
shell only turns the legal actions into a token tree (``rl.actions``) and a view into
a vector (``rl.observation``). In a window that several seats answer together the
seats are asked one after another, ``to_act`` first; the game keeps the answers
secret as it would at a table.

``reset(seed=S)`` starts ``new_game(variant, seed=S, options)``: the same deal.
``reset()`` without a seed draws the next game's seed from the last seed given (or
from the system's entropy before any), so a seeded run stays reproducible.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardhall.games import GameState, new_game, variant
from cardhall.rl.actions import HEADS, SIZE, TOKENS, BuryDecision, Decision, tokens
from cardhall.rl.observation import Layout, Vector, action_row, add_selection, encode

#: Bumped whenever the same game gives other observations, masks or token meanings.
VERSION = 0
REWARDS = ("points", "beans")


class CardhallEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """One variant as an AEC environment; ``env()`` below is the wrapped way to make one."""

    metadata: ClassVar[dict[str, Any]] = {"name": f"cardhall_v{VERSION}", "render_modes": ["ansi"],
                "is_parallelizable": False}

    def __init__(self, name: str, *, reward: str = "points", render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self.variant = variant(name)
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.reward, self.render_mode, self.options = reward, render_mode, dict(options)
        new_game(name, 0, self.options)  # a bad option or deal is refused here, not later
        self.layout = Layout.of(self.variant)
        self.possible_agents = [f"seat_{i}" for i in range(self.variant.players)]
        self.agents: list[str] = []
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (SIZE,), np.int8)})
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(SIZE) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: GameState | None = None
        self.decision: Decision | BuryDecision | None = None
        #: each agent's vector of the current decision's view, without tokens chosen
        self._seen: dict[str, Vector] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC loop --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**63)
        self.start(new_game(self.variant.id, game_seed, self.options))

    def start(self, game: GameState) -> None:
        """Play on from ``game`` (a reset, or a state built elsewhere: a test's swapped deal)."""
        self.game = game
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._next_decision()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game, decision = self._live()
        if action is None or int(action) not in decision.legal():
            raise ValueError(f"{agent}: action {action!r} is not legal now (see action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        chosen = decision.choose(int(action))
        if chosen is not None:
            game.apply(chosen, seat=self._seat(agent))
            self._next_decision()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        game = self._game()
        mask = np.zeros(SIZE, dtype=np.int8)
        base = self._seen.get(agent)
        if base is None:
            # The view does not change while a decision's tokens are chosen: encode it
            # once per decision (``_next_decision`` forgets it), add the tokens after.
            base = self._seen[agent] = self.observation_vector(
                game.observe(self._seat(agent)), [])
        vector = base.copy()
        if self.decision is not None and agent == self.agent_selection:
            mask[self.decision.mask()] = 1
            add_selection(self.layout, vector, self.decision.chosen)
        return {"observation": vector, "action_mask": mask}

    def observation_vector(self, view: dict[str, Any], chosen: list[int]) -> Vector:
        """``view`` and the tokens ``chosen`` as a vector (``observe`` passes none and
        adds the chosen tokens itself)."""
        return encode(self.layout, view, chosen)

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        seat = self.game.to_act if self.game.to_act is not None else 0
        view = self.game.observe(seat)
        return (f"{self.variant.id} {view['phase']} seat {seat}: hand {' '.join(view['hand'])}"
                f" | counts {view['counts']} | table {view['table']}")

    def close(self) -> None:
        self.game, self.decision = None, None

    # -- beyond PettingZoo ---------------------------------------------------------------

    def action_text(self, agent: str, action: int) -> str:
        """What ``action`` means for ``agent`` now: the canonical text of the action it
        completes (``play 333+4``), the text so far while it does not (``play 33``), or
        the token's own name where it is not legal now (``TOKENS[action]``)."""
        if self.decision is not None and agent == self.agent_selection \
                and action in self.decision.legal():
            return self.decision.text_after(action)
        return TOKENS[action]

    def legal_texts(self, agent: str) -> list[str]:
        """The game's legal actions of ``agent`` as text (the actions its tokens spell)."""
        game = self._game()
        if self.decision is None or agent != self.agent_selection:
            return []
        return [a.text for a in game.legal_actions(self._seat(agent))]

    def action_features(self, agent: str) -> tuple[list[str], Vector]:
        """Each legal action of ``agent`` as features, for agents that score whole actions
        (DouZero-style): its texts, and one row per action of ``action_width`` floats,
        the one-hot of its first token (a word or a verb) then its cards on the card
        axis then what they stand for (癞子's ``=``; else the cards again). Empty for an
        agent not to act. 找朋友's bury lists the game's suggestions only (any seven cards
        are legal: step their tokens, ``tokens_for``)."""
        texts = self.legal_texts(agent)
        rows = np.zeros((len(texts), self.action_width), dtype=np.float32)
        for i, text in enumerate(texts):
            rows[i] = action_row(self.layout, text.split(" ", 1)[1] if text[0] == "@"
                                 else text)
        return texts, rows

    @property
    def action_width(self) -> int:
        return HEADS + 2 * self.layout.axis

    def tokens_for(self, agent: str, text: str) -> list[int]:
        """The tokens that take the legal action ``text`` for ``agent`` now (step them in
        order); ValueError if the masks do not lead to it."""
        if self.decision is None or agent != self.agent_selection:
            raise ValueError(f"{agent} is not to act")
        seq = list(tokens(text.split(" ", 1)[1] if text.startswith("@") else text))
        if isinstance(self.decision, BuryDecision):
            seq = [seq[0], *sorted(seq[1:-1]), seq[-1]]
        elif tuple(seq) not in self.decision.actions:
            raise ValueError(f"{text!r} is not a legal action of {agent} now")
        return seq

    def record(self) -> dict[str, Any]:
        """The game's record: ``cardhall.games.replay`` rebuilds it."""
        return self._game().record()

    # -- inside --------------------------------------------------------------------------

    def _next_decision(self) -> None:
        game = self._game()
        self._seen = {}
        if game.over:
            self.decision = None
            result = game.result()
            assert result is not None
            values = result.get(self.reward)
            if values is None:
                raise ValueError(f"{self.variant.id} settles no {self.reward} "
                                 f"(use reward='points')")
            for i, agent in enumerate(self.possible_agents):
                self.rewards[agent] = float(values[i])
                self.terminations[agent] = True
            return
        seat = game.acting[0]
        self.agent_selection = self.possible_agents[seat]
        bury = self.variant.id == "zhaopengyou" and str(game.phase) == "bury"
        self.decision = (BuryDecision if bury else Decision).of(game, seat)

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _game(self) -> GameState:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _live(self) -> tuple[GameState, Decision | BuryDecision]:
        game = self._game()
        assert self.decision is not None, "a live agent always has a decision"
        return game, self.decision


class _Ordered(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, with ``last()`` read from the environment itself once
    reset: the same answer without a trip through each wrapper per attribute (``last``
    runs every step; benchmarks/rl_bench.py)."""

    def last(self, observe: bool = True) -> Any:
        if not self._has_reset:
            return super().last(observe)  # PettingZoo's own error
        return self.unwrapped.last(observe)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own wrapper prints: the environment's name


class _InBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's bounds assertion, answered without numpy for a plain int (what
    ``Discrete(SIZE).contains`` says of one); anything else goes to PettingZoo's."""

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < SIZE:
            self.env.step(action)
        else:
            super().step(action)


def env(name: str, **options: Any) -> Any:
    """Variant ``name`` as a PettingZoo AEC environment (``e.unwrapped``: ``CardhallEnv``).

    ``options`` are the game's own options (``deal=…`` for a given deal, ``first=0``, …)
    and the environment's: ``reward`` (``"points"``, or ``"beans"`` where the game
    settles beans) and ``render_mode`` (``"ansi"``).
    """
    raw = CardhallEnv(name, **options)
    return _Ordered(_InBounds(raw))  # an AECEnv
