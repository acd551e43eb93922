"""Judging a decision by playing the game out: for the decisions the climbing judge cannot
take (保皇, a 五人斗地主 farmer before the reveal, 找朋友's tricks).

The fast judge (``sampled``, ``endgame``) plays a shared climbing play phase on rank
counts, where the first player out ends the game and the sides are known. Where either
fails (保皇 scores a finishing order and hides the guard, 找朋友 is a trick game with a
hidden friend), the decision is judged on the real engine instead:

1. the unseen cards are dealt afresh, consistently with the seat's view, and the sides
   that the cards decide follow from them (``worlds.sample``);
2. each candidate is played in that world, and the variant's own planning bots (the
   climbing policy, 找朋友's ``trick.plan``) play every seat to the end of the game;
3. the game's own settlement scores it for the seat: the expected points are the real
   points, a win is the seat among the result's winners (half a win when nobody won).

The same worlds serve every candidate, so the difference between two moves comes from
the moves. The candidates are the bot's own best few (the planning policy's ranking; in
找朋友 the trick planner's scores) and the move played; in 找朋友 every legal play when
there are at most ``ALL_LEGAL``. A rollout is a whole game's tail played by bots (some
30 ms in 保皇, 60 in 找朋友), so ``ROLLOUTS`` worlds per decision (the climbing judge
deals 48) keep a whole game's analysis of one seat well within a minute on a busy
machine (measured under a load of 6 on 2 cores: 保皇 12 s, 找朋友 15 s); the estimate
is the coarser for it.

Deterministic: the worlds of the decision at ply ``k`` come from a random source seeded
with (``seed``, ``k``), and the bots choose without randomness.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cardhall.analysis.report import Decision, Judged
from cardhall.analysis.worlds import sample
from cardhall.bots.base import Bot
from cardhall.bots.planning import PlanningBot
from cardhall.bots.trick.plan import Scorer
from cardhall.bots.trick.view import cards_of
from cardhall.bots.trick.view import read as read_trick
from cardhall.bots.view import (
    action_text,
    legal_plays,
    legal_texts,
    read_view,
    rule_set,
    trick_game,
)
from cardhall.games.base import GameState, Observation

#: Worlds per decision (every candidate is played out in each).
ROLLOUTS = 12
#: The bot's best answers judged besides the move played.
TRIED = 3
#: A trick-game decision with at most this many legal plays has every one judged.
ALL_LEGAL = 4
#: Actions a rollout may take before it is scored as a draw (no game is nearly this long).
LIMIT = 2_000


class Rollouts:
    """Judges one seat's decisions of one game by rollouts; the bots kept between them."""

    def __init__(self, variant: str, seat: int, players: int, seed: int = 0,
                 samples: int = ROLLOUTS, tried: int = TRIED) -> None:
        self.variant = variant
        self.seat = seat
        self.seed = seed
        self.samples = samples
        self.tried = tried
        self.players: list[Bot] = [PlanningBot(variant, s, seed) for s in range(players)]

    def decision(self, ply: int, state: GameState, played: str,
                 keep: int) -> Decision | None:
        """The decision at ``ply`` (``state`` before it) judged; None if no world could
        be dealt (or the move played is not one the state accepts)."""
        obs = state.observe(self.seat)
        try:
            played = state.canonical(played)
        except ValueError:
            return None
        moves = self.candidates(obs, played)
        rng = random.Random(f"analysis:{self.seed}:{ply}")
        wins = [0.0] * len(moves)
        points = [0.0] * len(moves)
        done = 0
        for _ in range(self.samples):
            world = sample(state, self.seat, rng)
            if world is None:
                continue
            for i, move in enumerate(moves):
                won, got = self.play_out(world.clone(), move)
                wins[i] += won
                points[i] += got
            done += 1
        if not done:
            return None
        judged = [Judged(m, w / done, p / done) for m, w, p in zip(moves, wins, points,
                                                                 strict=True)]
        return Decision.verdict(ply, played, judged, exact=False, keep=keep)

    def candidates(self, obs: Observation, played: str) -> list[str]:
        """The bot's best ``tried`` answers (every legal play of a short trick-game list),
        and the move played."""
        if trick_game(obs.get("variant")):
            found = _trick_candidates(obs, self.tried)
        else:
            found = self._climbing_candidates(obs)
        if played not in found:
            found.append(played)
        return found

    def _climbing_candidates(self, obs: Mapping[str, Any]) -> list[str]:
        bot = self.players[self.seat]
        assert isinstance(bot, PlanningBot)
        policy = bot.policy(rule_set(obs))
        view = read_view(obs, policy.rs)
        texts = legal_plays(obs, view)
        plays = [p for p in texts.values() if p is not None]
        tried: list[str] = []
        for _, answer in policy.ranked(view, plays, "pass" in texts):
            text = action_text(texts, answer)
            if text is not None and text not in tried:
                tried.append(text)
            if len(tried) == self.tried:
                break
        return tried

    def play_out(self, world: GameState, move: str) -> tuple[float, float]:
        """(win 0, ½ or 1; the seat's points) of ``move`` played and the bots playing on."""
        world.apply(move)
        for _ in range(LIMIT):
            actor = world.to_act
            if actor is None:
                break
            world.apply(self.players[actor].act(world.observe(actor)))
        result = world.result()
        if result is None:
            return 0.5, 0.0
        winners: Sequence[int] = result.get("winners") or ()
        won = 1.0 if self.seat in winners else 0.5 if not winners else 0.0
        return won, float(result["points"][self.seat])


def _trick_candidates(obs: Observation, tried: int) -> list[str]:
    """Every legal play if few, else the trick planner's best ``tried`` by its scores."""
    legal = [t for t in legal_texts(obs) if t.startswith("play ")]
    if len(legal) <= ALL_LEGAL:
        return legal
    scorer = Scorer(read_trick(obs))
    scored = sorted(legal, key=lambda t: -scorer.score(cards_of(t[5:])))
    return scored[:tried]
