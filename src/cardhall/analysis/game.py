"""Walk a finished game's record and judge each decision of one seat.

The record is replayed action by action (``cardhall.games``), and at each play
decision of the seat its own view (``observe(seat)``, nothing more) is read as the
search bot reads it. The candidates are the planning policy's best few answers and
the move played; each is judged by ``sampled.estimate`` or, where the seat can count
the other hand, by ``endgame.judge`` (exactly, with the solver's own winning moves).
The best move found is the one with the highest win chance (then expected points; the
move played on a tie), the loss is the win chance given up, and the mark follows
``marks``. The play decisions that judge cannot take (保皇, 找朋友, a 五人斗地主 seat
that does not know the hidden landlord yet) keep the game as it stood, and are judged
by rollouts on the real engine instead (``rollout``).

Deterministic: the samples of the decision at ply ``k`` come from a random source
seeded with (``seed``, ``k``) alone, so a decision's verdict does not depend on which
others were analysed, nor in which process.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardhall.analysis import endgame, endgame3, worlds
from cardhall.analysis.marks import accuracy
from cardhall.analysis.report import Analysis, Decision, Judged
from cardhall.analysis.rollout import ROLLOUTS, Rollouts
from cardhall.analysis.sampled import Outcome, estimate
from cardhall.bots.planning import PlanningBot, Policy
from cardhall.bots.view import (
    View,
    action_text,
    legal_plays,
    read_view,
    rule_set,
    trick_game,
)
from cardhall.games import new_game, replay
from cardhall.games.base import GameState
from cardhall.games.errors import BadSetup
from cardhall.rules import Play, RuleSet
from cardhall.rules.solve import Solver
from cardhall.rules.solve3 import ThreeHandSolver

#: Deals of the unseen cards per decision (each candidate is played out on every one).
SAMPLES = 48
#: The planning policy's best answers judged besides the move played.
CANDIDATES = 5
#: Positions each solver of a game's analysis remembers (some 200 bytes each): the memo
#: serves every world and move of a decision, and the decisions after it.
MEMO = 200_000

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Position:
    """A decision to judge: its ply, the seat's view before it, the move played; and
    for a decision judged by rollouts (``rollout``), the game before it."""

    ply: int
    view: Mapping[str, Any]
    played: str
    state: GameState | None = field(default=None, compare=False, repr=False)


def positions(record: Mapping[str, Any], seat: int) -> tuple[list[Position], int]:
    """The seat's play decisions that can be judged, and how many of its decisions
    cannot (set-up decisions, one legal action). Raises ``BadSetup`` for a record or a
    seat that is not of a finished game."""
    final = replay(dict(record))
    if final.to_act is not None:
        raise BadSetup("unfinished", "the record is of a game not finished: only finished "
                       "games are analysed")
    if not 0 <= seat < final.players:
        raise BadSetup("bad_seat", f"seat {seat} is not in this {final.players}-seat game")
    state = new_game(record["variant"], seed=record["seed"], options=record.get("options"))
    found: list[Position] = []
    skipped = 0
    for ply, text in enumerate(record["actions"]):
        said = state.parse_action(text).seat
        if (said if said is not None else state.to_act) == seat:
            obs = state.observe(seat)
            if _judgeable(obs):
                found.append(Position(ply, obs, text))
            elif _choice(obs) and worlds.supports(state):
                found.append(Position(ply, obs, text, state.clone()))
            else:
                skipped += 1
        state.apply(text)
    return found, skipped


def _choice(obs: Mapping[str, Any]) -> bool:
    """A play decision with more than one legal action."""
    if obs.get("phase") != "play":
        return False
    return not obs.get("legal_complete", True) or len(obs.get("legal") or ()) >= 2 \
        or bool(obs.get("plays"))


def _judgeable(obs: Mapping[str, Any]) -> bool:
    """A play decision the climbing judge takes: a climbing game with a choice, sides
    known (as the search bot searches: ``SamplingBot._searchable``); the others with a
    choice are judged by rollouts."""
    if obs.get("phase") != "play" or trick_game(obs.get("variant")):
        return False
    if obs.get("legal_complete", True) and len(obs.get("legal") or ()) < 2:
        return False
    rs = rule_set(obs)
    return rs.comparison == "ladder" and not read_view(obs, rs).unknown


class Judge:
    """Judges the positions of one game: the policy and the solver's memo kept warm."""

    def __init__(self, variant: str, seat: int, seed: int = 0, samples: int = SAMPLES,
                 candidates: int = CANDIDATES, rollouts: int = ROLLOUTS) -> None:
        self.bot = PlanningBot(variant, seat, seed)
        self.variant = variant
        self.seat = seat
        self.seed = seed
        self.samples = samples
        self.candidates = candidates
        self.rollouts = rollouts
        self._rollouts: Rollouts | None = None
        self._solvers: dict[str, Solver] = {}
        self._threes: dict[str, ThreeHandSolver] = {}

    def solver(self, rs: RuleSet) -> Solver:
        key = f"{rs.name}:{rs.wild}:{rs.kaopai}:{rs.bie6}"
        found = self._solvers.get(key)
        if found is None:
            found = self._solvers[key] = Solver(rs, limit=MEMO)
        return found

    def decision(self, position: Position) -> Decision | None:
        """The decision judged; None if the move played is not one this tree's reading
        of the view offers (a record of other rules)."""
        if position.state is not None:
            return self.rolled(position.ply, position.state, position.played)
        obs = position.view
        policy = self.bot.policy(rule_set(obs))
        view = read_view(obs, policy.rs)
        texts = legal_plays(obs, view)
        if position.played not in texts:
            return None
        stake = float((obs.get("multiplier") or {}).get("total") or 1)
        tried = self._candidates(position, view, policy, texts)
        outcomes = self._exact(view, texts, stake, tried)
        exact = outcomes is not None
        if outcomes is None:
            rng = random.Random(f"analysis:{self.seed}:{position.ply}")
            estimates = estimate(view, policy, [texts[t] for t in tried], stake, rng,
                                 self.samples)
            outcomes = dict(zip(tried, estimates, strict=True))
        judged = [Judged(t, o.win, o.points) for t, o in outcomes.items()]
        return Decision.verdict(position.ply, position.played, judged, exact,
                                self.candidates + 1)

    def rolled(self, ply: int, state: GameState, played: str) -> Decision | None:
        """A decision the climbing judge cannot take, judged by rollouts (``rollout``)."""
        if self._rollouts is None:
            self._rollouts = Rollouts(self.variant, self.seat, state.players, self.seed,
                                      self.rollouts)
        return self._rollouts.decision(ply, state, played, self.candidates + 1)

    def _exact(self, view: View, texts: dict[str, Play | None], stake: float,
               tried: list[str]) -> dict[str, Outcome] | None:
        """The solver's verdicts where the seat can count the other hands (two hands:
        ``endgame``; three: ``endgame3``)."""
        two = endgame.worlds(view)
        if two is not None:
            return endgame.judge(self.solver(view.rs), view, texts, stake, two, tried)
        three = endgame3.worlds(view)
        if three is None:
            return None
        return endgame3.judge(self.three(view.rs), view, texts, stake, three, tried)

    def three(self, rs: RuleSet) -> ThreeHandSolver:
        key = f"{rs.name}:{rs.wild}:{rs.kaopai}:{rs.bie6}"
        found = self._threes.get(key)
        if found is None:
            found = self._threes[key] = ThreeHandSolver(rs, limit=MEMO)
        return found

    def _candidates(self, position: Position, view: View, policy: Policy,
                    texts: dict[str, Play | None]) -> list[str]:
        """The planning policy's best ``candidates`` answers and the move played."""
        plays = [p for p in texts.values() if p is not None]
        ranked = policy.ranked(view, plays, "pass" in texts)
        tried: list[str] = []
        for _, answer in ranked:
            text = action_text(texts, answer)
            if text is not None and text not in tried:
                tried.append(text)
            if len(tried) == self.candidates:
                break
        if position.played not in tried:
            tried.append(position.played)
        return tried


def analyze(record: Mapping[str, Any], seat: int, seed: int = 0, samples: int = SAMPLES,
            progress: Progress | None = None, rollouts: int = ROLLOUTS) -> Analysis:
    """Every judgeable decision of ``seat`` in the finished game ``record``; ``progress``
    is told (decisions done, decisions in all) before the first and after each.
    ``samples`` deals serve a decision of the climbing judge, ``rollouts`` worlds one
    judged by rollouts."""
    found, skipped = positions(record, seat)
    judge = Judge(record["variant"], seat, seed, samples, rollouts=rollouts)
    decisions: list[Decision] = []
    if progress is not None:
        progress(0, len(found))
    for done, position in enumerate(found, start=1):
        decision = judge.decision(position)
        if decision is None:
            skipped += 1
        else:
            decisions.append(decision)
        if progress is not None:
            progress(done, len(found))
    return Analysis(record["variant"], seat, seed, samples, tuple(decisions),
                    accuracy(d.loss for d in decisions), skipped, rollouts)
