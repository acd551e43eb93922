"""The sampling bot (its name as a player: ``search``): tries its best few plays against
sampled deals of the unseen cards.

The planning bot judges a play by the hand it leaves; it cannot see that a
play loses two tricks later. The search bot plays it out instead. At each
play decision it

1. asks the planning policy for its ranked answers and keeps the best few
   (an answer the policy calls forced, such as going out, is played at once);
2. deals the cards it cannot see to the other seats, consistently with what
   it has seen: each seat's card count, the hands shown to it, the public
   kitty still in the landlord's hand (``determinise``);
3. plays every candidate out on each sampled deal with the planning policy
   at every seat, on a small internal simulator of the shared play phase
   (hands as rank counts, pass or beat, first out ends the game), and
4. picks the candidate with the most wins over the samples; the same samples
   serve every candidate, so differences come from the plays, not the deals.

Perfect-information rollouts on sampled deals (determinisation) are a known
weakness in theory — every sampled world is played as if its holder could see
it — but in climbing games, where most information comes out as cards are
played, they are strong in practice and cheap.

The budget is ``samples`` deals per decision (reproducible: the samples come
from the bot's seeded random source) with a wall-clock cap ``seconds`` as a
safety net. The search applies where the sides are known and the first
player out ends the game (every Dou Dizhu variant once 五人斗地主's hidden
landlord is known); elsewhere (保皇's finishing order, an unknown hidden
landlord, 找朋友's tricks) the bot plays the planning bot's move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from cardhall.bots.base import Bot, BotError, Observation
from cardhall.bots.planning import DECISIVE, PlanningBot, Policy
from cardhall.bots.view import View, action_text, legal_plays, read_view, rule_set, trick_game
from cardhall.cards import NUM_RANKS, Counts
from cardhall.games import VARIANTS
from cardhall.rules import Play

#: Sampled deals per decision (each candidate is played out once on each).
SAMPLES = 64
#: Candidate answers tried (the planning policy's best ones, pass included if ranked).
CANDIDATES = 5
#: Wall-clock cap per decision, seconds: a safety net; the sample count is the budget
#: (it binds in the two-pack games and 癞子, whose hands and move lists are larger). Where
#: it binds, the samples played, and so the choice, depend on the machine's speed and
#: load and on the loop built (the Python loop is some ten times slower): a seeded game
#: repeats move for move only with ``seconds=inf`` (``benchmarks/bot_traces.py``).
SECONDS = 0.8
#: Plays after which a rollout is scored by the hands' worth instead of played on.
HORIZON = 200


def searches(variant: str) -> bool:
    """Whether the search bot searches in ``variant`` at all: a ladder game, which ends
    when the first player goes out (every Dou Dizhu variant). Elsewhere (保皇, 找朋友)
    every move it makes is the planning bot's, so a hall seats ``planning`` there."""
    found = VARIANTS.get(variant)
    return found is not None and found.rules is not None and found.rules.comparison == "ladder"


class SamplingBot(Bot):
    """Determinised rollouts over the planning bot's best candidates. Its name as a
    player stays ``search``: a rated identity that halls, ratings and scripts know."""

    name = "search"
    stand_in = PlanningBot.name

    def __init__(self, variant: str, seat: int, seed: int = 0, samples: int = SAMPLES,
                 candidates: int = CANDIDATES, seconds: float = SECONDS) -> None:
        super().__init__(variant, seat, seed)
        self.planning = PlanningBot(variant, seat, seed)
        self.samples = samples
        self.candidates = candidates
        self.seconds = seconds
        #: Rollouts played for the last decision (0: answered without searching).
        self.last_rollouts = 0

    def choose(self, observation: Observation, legal: list[str]) -> str:
        self.last_rollouts = 0
        if observation.get("phase") != "play" or trick_game(observation.get("variant")):
            return self.planning.choose(observation, legal)
        policy = self.planning.policy(rule_set(observation))
        view = read_view(observation, policy.rs)
        texts = legal_plays(observation, view, legal)
        plays = [p for p in texts.values() if p is not None]
        ranked = policy.ranked(view, plays, "pass" in texts)
        choice = ranked[0][1]
        if len(ranked) > 1 and ranked[0][0] < DECISIVE and self._searchable(view):
            tried: list[Play | None] = []
            for _, answer in ranked:
                if answer not in tried:
                    tried.append(answer)
                if len(tried) == self.candidates:
                    break
            choice = self.search(view, policy, tried)
        text = action_text(texts, choice)
        if text is None:
            raise BotError(f"seat {self.seat}: the search chose a play not offered ({choice})")
        return text

    def _searchable(self, view: View) -> bool:
        """Sides known to this seat, and a game that ends when the first player goes out."""
        if view.rs.comparison != "ladder":
            return False
        return not view.unknown

    def search(self, view: View, policy: Policy, tried: Sequence[Play | None]) -> Play | None:
        """The candidate with the most wins over the sampled deals (the first on ties).

        Every candidate is played on every complete sample; a sample cut short
        by the clock is dropped, so the counts stay comparable.
        """
        wins = [0.0] * len(tried)
        deadline = time.perf_counter() + self.seconds
        done = 0
        for _ in range(self.samples):
            hands = determinise(view, self.rng)
            sample = []
            for answer in tried:
                if done and time.perf_counter() > deadline:
                    break
                sample.append(Rollout(view, policy, hands).play(answer))
            if len(sample) < len(tried):
                break
            wins = [w + x for w, x in zip(wins, sample, strict=True)]
            done += 1
        self.last_rollouts = done * len(tried)
        best = max(range(len(tried)), key=lambda i: (wins[i], -i))
        return tried[best]


def determinise(view: View, rng: random.Random) -> list[Counts]:
    """Hands for every seat: this seat's, the ones it sees, the rest dealt from the unseen.

    Cards a seat is known to hold (the public kitty in the landlord's hand) go
    to it first; then the unseen pool is shuffled and dealt to fill every
    seat's count. Cards left over are the ones out of play (a hidden kitty,
    dead cards).
    """
    pool = list(view.unseen)
    hands: list[list[int]] = [[0] * NUM_RANKS for _ in range(view.players)]
    hands[view.seat] = list(view.hand)
    for seat, hand in view.exact.items():
        hands[seat] = list(hand)
    for seat, floor in view.known.items():
        if seat in view.exact or seat == view.seat:
            continue
        for r in range(NUM_RANKS):
            take = min(floor[r], pool[r])
            hands[seat][r] += take
            pool[r] -= take
    cards = [r for r in range(NUM_RANKS) for _ in range(pool[r])]
    rng.shuffle(cards)
    for seat in range(view.players):
        if seat == view.seat or seat in view.exact:
            continue
        need = view.counts[seat] - sum(hands[seat])
        for r in cards[:max(0, need)]:
            hands[seat][r] += 1
        cards = cards[max(0, need):]
    return [tuple(h) for h in hands]


class Rollout:
    """The shared play phase on rank counts, every seat played by the planning policy."""

    def __init__(self, view: View, policy: Policy, hands: Sequence[Counts]) -> None:
        self.view = view
        self.policy = policy
        self.rs = policy.rs
        self.hands = [list(h) for h in hands]
        self.me = view.seat
        mine = view.partners | {view.seat}
        self.side = [0 if s in mine else 1 for s in range(view.players)]

    def play(self, first: Play | None) -> float:
        """1 if this seat's side goes out first after ``first`` (None: pass), else 0."""
        players = self.view.players
        trick, owner = self.view.trick, self.view.trick_seat
        passes = self._passes_so_far()
        seat = self.me
        answer = first
        for _ in range(HORIZON):
            if answer is None:
                passes += 1
                if passes >= players - 1:
                    trick, owner, passes = None, None, 0
            else:
                hand = self.hands[seat]
                for r in answer.cards:
                    hand[r] -= 1
                if not any(hand):
                    return 1.0 if self.side[seat] == self.side[self.me] else 0.0
                trick, owner, passes = answer, seat, 0
            seat = (seat + 1) % players
            answer = self._decide(seat, trick, owner)
        return 0.5

    def _passes_so_far(self) -> int:
        """Passes since the trick's play: the seats between its owner and this one."""
        owner = self.view.trick_seat
        if owner is None:
            return 0
        return (self.me - owner - 1) % self.view.players

    def _decide(self, seat: int, trick: Play | None, owner: int | None) -> Play | None:
        hand = tuple(self.hands[seat])
        rs = self.rs
        if self.view.wild is None:
            gen = rs.gen
            plays = gen.plays(gen.codes(hand, trick))
        else:
            plays = rs.moves(hand, trick)
        if trick is not None and not plays:
            return None
        others = [0] * NUM_RANKS
        for s, h in enumerate(self.hands):
            if s != seat:
                for r in range(NUM_RANKS):
                    others[r] += h[r]
        mine = self.side[seat]
        partners = frozenset(s for s in range(len(self.hands)) if s != seat
                             and self.side[s] == mine)
        opponents = frozenset(s for s in range(len(self.hands)) if self.side[s] != mine)
        view = View(self.view.variant, rs, seat, len(self.hands), hand,
                    [sum(h) for h in self.hands], partners, opponents, self.view.wild,
                    trick, owner, tuple(others))
        return self.policy.choose(view, plays, trick is not None)
