"""The ``planning`` bot: plays the climbing games from a split of its hand and the cards out.

(找朋友, the trick-taking game, is played by ``trick.plan``; ``PlanningBot`` hands it
those observations.)

Every play decision compares the legal plays by the worth of the hand each
leaves (``hands.Planner``: fewest, strongest plays), then bends that by what
the table shows:

- **Going out** beats everything; a hand that is all unbeatable plays but one
  (counting the cards still unseen) plays those first and wins.
- **With its side**: it never beats a partner who holds the trick unless that
  play empties its hand, and it feeds a partner with one or two cards left (its
  lowest single or pair).
- **Blocking**: against an opponent with one or two cards left it does not lead
  a single (a pair) he could beat, follows with its highest or unbeatable play,
  and bombs if it must.
- **Following** an opponent costs what the play takes out of the split; a 2 or
  a joker spent on a small card, or a bomb spent without need, is charged for.

The set-up decisions (bidding, calling, robbing, doubling, showing, the kitty
choice, 保皇's emperor and guard) are in ``setup.py``; how the candidates are
scored, the hopeless ones left unsearched by bounds, in ``scoring.py``. The same
``Policy`` drives the search bot's rollouts, from a ``View`` it builds itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardhall.bots import set_answers, setup
from cardhall.bots.base import Bot, BotError, Observation, bare
from cardhall.bots.scoring import BOUND_MARGIN, RELAX_AT, CandidateScoring
from cardhall.bots.split.hands import Planner
from cardhall.bots.split.mirror import TIE_MARGIN, MirrorPlanner
from cardhall.bots.split.relaxed import RelaxedPlanner
from cardhall.bots.split.sift import pack_cards, sift
from cardhall.bots.split.splits import Plan
from cardhall.bots.trick import plan as trick_plan
from cardhall.bots.view import (
    View,
    action_text,
    counts_minus,
    legal_plays,
    play_text,
    read_plays,
    read_view,
    rule_set,
    trick_game,
)
from cardhall.cards import ACE, SMALL_JOKER, TWO, Counts
from cardhall.games import VARIANTS, rules_of
from cardhall.rules import Play, RuleError, RuleSet

#: Worth bonus that makes a decision override the split (going out, a forced block).
DECISIVE = 50.0
#: Charge for spending a 2 or a joker on a trick that a smaller play could have taken.
CONTROL_CHARGE = 8.0
#: Lead: a single (pair) an opponent with one (two) cards could beat is nearly ruled out.
BLOCK_CHARGE = 30.0
#: Lead: preference for the lowest single (pair) when feeding a partner about to go out.
FEED_BONUS = 25.0
#: Follow: extra will to take the trick when an opponent is close to going out.
URGENT_BONUS = 15.0
#: An opponent with this many cards or fewer is about to go out: block him at any cost;
#: an opponent who holds the trick, with at most ``SHORT_OWNER`` cards (in two-pack Dou
#: Dizhu ``SHORT_OWNER_PACKS``: hands are half as long again, bombs far more common; in
#: duplicate self-play 10 beats 3 in ddz4 by 76%), as well.
SHORT = 2
SHORT_OWNER, SHORT_OWNER_PACKS = 3, 10
#: Blocking: charge per play the opponents might still beat ours with.
ANSWER_CHARGE = 2.0
#: Follow: what taking the lead is worth beyond the cards played (a turn of tempo). Passing
#: lets the opponent who holds the trick lead again. In duplicate self-play, 10 against 1
#: wins 60.8% of 300 ddz3 deals (15: 58.3%, 25: 56.8%); with ``SHORT_OWNER_PACKS`` = 10
#: the pair beats (1, 3) in every Dou Dizhu variant, 55% (ddz3) to 77% (ddz4). 保皇's sets
#: keep the small value: with nothing but sets to follow, spending them early loses (47%
#: at 6).
TEMPO, TEMPO_SETS = 10.0, 1.0
#: New split-search states one decision may expand (``Planner.limit``): about 2-3 ms of
#: search, so that a decision stays near the 5 ms the benchmark asks at the 99th
#: percentile; past it the split of a state is a greedy one. In duplicate self-play
#: against the uncapped planner with no shortlist (200 deals, ddz_emperor) 400 states and
#: 4 candidates scored past the cap won 42%, 800 and every shortlisted candidate 45%,
#: 1600 47%, no cap 50%: there the cap is what costs strength. In ddz3_laizi (400 deals)
#: it is the shortlist: 45-46% at 800, 1600 or no cap with 12 or 24 candidates, 50%
#: uncapped with every candidate. In ddz4 (300 deals, seed 1) 600 states, which bring the
#: planning p99 under 5 ms there (4.5 ms, cpu clock), win 46.0% [42.9, 49.1], -0.36
#: points a game, the same with the set-up decisions uncapped; and stopping at the first
#: candidate scored past the cap (instead of scoring the rest by greedy splits) wins 33.5%:
#: the best play is often one the bound order reaches late. So both stay off (None: no
#: cap, every candidate scored, the planner's full strength) until a capped search plays as
#: well; the cheaper search itself is what serves the time budget for now.
#: ``PlanningBot.states`` holds it per bot, so that a script can seat a capped bot against
#: the uncapped one.
DECISION_STATES: int | None = None
#: Candidate plays a decision scores in full (the split's own plays first, see
#: ``shortlist``); None: every candidate.
SHORTLIST: int | None = None


class Policy(CandidateScoring):
    """Play decisions for one rule set, from a ``View`` and the legal plays."""

    def __init__(self, rs: RuleSet) -> None:
        self.rs = rs
        self.planner = Planner(rs)
        #: The same search from the 3s up, for the hands low plays leave (see ``mirror``);
        #: 保皇's sets keep the one search (its decisions are quick).
        self.mirror = MirrorPlanner(rs) if rs.comparison != "sets" else None
        self.packs = max(rs.limits[:SMALL_JOKER]) // 4
        #: The mirrored search with kickers riding at any count at some ranks: bounds where
        #: the plain one's fail (see ``_bounds``).
        self.relaxed = RelaxedPlanner(rs, self.mirror) if self.mirror is not None else None
        for search in (self.planner, self.mirror, self.relaxed):
            if search is not None:
                search.warm()

    # -- helpers ---------------------------------------------------------------------

    def beatable(self, view: View, play: Play, pool: Counts) -> tuple[bool, bool]:
        """(by a play of its own kind, by a bomb): what the opponents might answer with.

        The unseen cards are pooled, so this is the worst case; a play bigger
        than every opponent's hand cannot be answered in kind.
        """
        against = [view.counts[s] for s in view.against() if view.counts[s] > 0]
        if not against:
            return False, False
        most = max(against)
        if self.rs.comparison == "sets":
            return set_answers.count(self.rs, pool, play, most) > 0, False
        kind = bomb = False
        gen = self.rs.gen
        for code in gen.codes(pool, play):
            answer = gen.play(code)
            if answer.size > most:
                continue
            if answer.tier and not play.tier:
                bomb = True
            else:
                kind = True
            if kind and bomb:
                break
        return kind, bomb

    def is_boss(self, view: View, play: Play, pool: Counts) -> bool:
        kind, bomb = self.beatable(view, play, pool)
        return not kind and not bomb

    def answers(self, view: View, play: Play, pool: Counts) -> int:
        """How many plays of its own kind the opponents might beat ``play`` with (pooled)."""
        most = max((view.counts[s] for s in view.against()), default=0)
        if self.rs.comparison == "sets":
            return set_answers.count(self.rs, pool, play, most)
        gen = self.rs.gen
        return sum(1 for code in gen.codes(pool, play)
                   if gen.play(code).size <= most and (play.tier or not gen.play(code).tier))

    @staticmethod
    def candidates(plays: Sequence[Play]) -> list[Play]:
        """One play per set of cards, and only the few lowest kicker choices per main part.

        Of the readings of one set of cards the first is kept, or the first not a
        bomb (the same cards read as a bomb double the stake: avoid); they are
        grouped by reading and main part, and each group keeps its
        ``KICKER_VARIANTS`` lowest kicker choices (``sift``).
        """
        return sift(plays).candidates

    def shortlist(self, plan: Plan, plays: list[Play]) -> list[Play]:
        """The candidates worth a full score, at most ``SHORTLIST``; why: effort.

        Scoring a play means searching the split of the hand it leaves, and a
        two-pack lead has hundreds of plays. The cheap first score is the split
        itself: a play of the best split (its main part, any kickers) keeps the
        rest of the split whole, so it comes first; then the lowest play of each
        kind (the usual lead when the split's plays are blocked), then the rest
        in the order given. A hand with few plays keeps them all.
        """
        if SHORTLIST is None or len(plays) <= SHORTLIST:
            return plays
        mains = {tuple(sorted(g.main)) for g in plan.groups}
        mains.update(tuple(sorted(g.cards)) for g in plan.groups)

        def own(p: Play) -> bool:
            main = tuple(sorted(p.as_main if p.as_main is not None else p.main))
            return main in mains or tuple(sorted(p.cards)) in mains

        first = [p for p in plays if own(p)]
        lowest: dict[tuple[str, int], Play] = {}
        for p in plays:
            k = (p.kind, p.length)
            if k not in lowest or (p.key, p.size) < (lowest[k].key, lowest[k].size):
                lowest[k] = p
        picked: list[Play] = []
        seen: set[int] = set()
        for p in (*first, *sorted(lowest.values(), key=lambda p: (p.key, -p.size)), *plays):
            if id(p) not in seen:
                seen.add(id(p))
                picked.append(p)
            if len(picked) == SHORTLIST:
                break
        return picked

    def bossless(self, view: View, plays: list[Play], pool: Counts) -> bool:
        """Whether no split of the hand has a winning line, seen without a search of it.

        So when the opponents can bomb any plain play (a bomb among the unseen
        cards, no bigger than the hand of one of them): then only the hand's
        bombs beyond all of theirs are unbeatable, and a line plays every group of
        the split but one as such bombs. There is none if no bomb is, or if the
        cards of the ranks no such bomb holds are in no one play of the hand (the
        split's groups are plays of it): cheap, against a search of the hand.
        """
        most = max((view.counts[s] for s in view.against() if view.counts[s] > 0), default=0)
        plain = next((p for p in plays if not p.tier), None)
        if not most or plain is None or self.rs.comparison == "sets":
            return False
        gen = self.rs.gen
        if not any(gen.play(code).tier and gen.play(code).size <= most
                   for code in gen.codes(pool, plain)):
            return False
        tops = {r for p in plays if p.tier and not any(
            gen.play(code).size <= most for code in gen.codes(pool, p)) for r in p.cards}
        need = [(r, n) for r, n in enumerate(view.hand) if n and r not in tops]
        total = sum(n for _, n in need)
        return not tops or not any(p.size >= total and all(p.cards.count(r) >= n for r, n in need)
                                   for p in plays)

    def winning_line(self, view: View, plan: Plan, plays: list[Play], pool: Counts) -> Play | None:
        """If every play of the split but one is unbeatable, the biggest unbeatable one."""
        if plan.turns < 2:
            return None
        by_cards = sift(plays).lasts  # each set of cards' last reading
        bosses: list[Play] = []
        weak = 0
        for group in plan.groups:
            play = by_cards.get(pack_cards(group.cards))
            if play is not None and self.is_boss(view, play, pool):
                bosses.append(play)
            else:
                weak += 1
        if weak > 1 or not bosses:
            return None
        return max(bosses, key=lambda p: (p.size, -p.tier, p.key))

    # -- the decision ----------------------------------------------------------------

    def choose(self, view: View, plays: list[Play], can_pass: bool) -> Play | None:
        """The play to make, or None to pass (only when ``can_pass``).

        Only the best answer is wanted, so candidates that provably cannot
        be it are not scored (``ranked``'s ``best_only``): the same answer, sooner.
        """
        return self.ranked(view, plays, can_pass, best_only=True)[0][1]

    def ranked(self, view: View, plays: list[Play], can_pass: bool,
               best_only: bool = False) -> list[tuple[float, Play | None]]:
        """Candidate answers, best first, with the scores that ranked them (None: pass).

        A forced answer (going out, a partner's trick, a winning line) comes
        alone; otherwise every candidate is listed, so that the search bot can
        try the few best. With ``best_only`` the list may leave out candidates
        that score below the first one (see ``_scored``); the first is the same.
        """
        if not plays:
            return [(0.0, None)]
        plays = sift(plays, total=sum(view.hand))  # read once, per set of cards
        if plays.whole is not None:  # going out, with the lowest bomb there is
            return [(DECISIVE, plays.whole)]
        if can_pass and view.trick_seat in view.partners:
            return [(DECISIVE, None)]  # never beat a partner who holds the trick
        if view.trick is None or not can_pass:
            scored = self.lead(view, plays, best_only)
        else:
            scored = self.follow(view, plays, best_only)
        scored.sort(key=lambda item: -item[0])
        return scored

    def lead(self, view: View, plays: list[Play],
             best_only: bool = False) -> list[tuple[float, Play | None]]:
        pool = view.opponent_pool()
        plan: Plan | None = None
        if self.mirror is not None and SHORTLIST is None and not self.planner.capped \
                and (view.wild is None or not view.hand[view.wild]) \
                and self.bossless(view, plays, pool):
            # No split has a winning line, so the split itself is not needed: the worth of
            # the hand from the mirrored search, whose states the low candidates share.
            whole = self.mirror.worth(view.hand)
        else:
            plan = self.planner.plan(view.hand)
            line = self.winning_line(view, plan, plays, pool)
            if line is not None:
                return [(DECISIVE, line)]
            whole = plan.worth
        against = [view.counts[s] for s in view.against() if view.counts[s] > 0]
        short = min(against, default=99)
        feed = min((view.counts[s] for s in view.partners if view.counts[s] > 0), default=99)

        def score(p: Play) -> Callable[[float], float]:
            """The play's score as a function of the worth of the hand it leaves."""
            plain = not p.tier
            charge = 0.0
            block = plain and short <= SHORT and p.size == short \
                and p.kind in ("single", "pair", "set") and not self.is_boss(view, p, pool)
            if block:
                # He goes out on it: avoid it, and if forced, the hardest one to beat.
                charge = BLOCK_CHARGE + ANSWER_CHARGE * self.answers(view, p, pool)
            cannot_follow = plain and short <= SHORT and p.size > short  # a play he can't follow
            feeds = feed <= SHORT and plain and p.size == feed and p.length == 1 \
                and p.kind in ("single", "pair", "set") and short > SHORT

            def value(worth: float) -> float:
                if block:
                    worth -= charge
                if cannot_follow:
                    worth += 3.0
                if feeds:
                    worth += FEED_BONUS - p.key
                return worth
            return value

        candidates = self.candidates(plays)
        if plan is not None:
            candidates = self.shortlist(plan, candidates)
        return self._scored(view, whole,
                            [(p, f, f) for p in candidates for f in (score(p),)], [], best_only)

    def follow(self, view: View, plays: list[Play],
               best_only: bool = False) -> list[tuple[float, Play | None]]:
        assert view.trick is not None
        pool = view.opponent_pool()
        base = self.worth(view, view.hand)
        against = [view.counts[s] for s in view.against() if view.counts[s] > 0]
        short = min(against, default=99)
        ladder = self.rs.comparison == "ladder"
        owner_short = SHORT_OWNER_PACKS if ladder and self.packs > 1 else SHORT_OWNER
        urgent = short <= SHORT or (view.trick_seat is not None
                                    and view.counts[view.trick_seat] <= owner_short)
        tempo = TEMPO if ladder else TEMPO_SETS
        trick = view.trick
        shortlist = self.candidates(plays)
        if SHORTLIST is not None and len(shortlist) > SHORTLIST:
            shortlist = self.shortlist(self.planner.plan(view.hand), shortlist)

        def gain(p: Play) -> tuple[Play, Callable[[float], float], Callable[[float], float]]:
            """The play's gain as a function of the worth of the hand it leaves, and a bound.

            A bomb's gain also depends on the plays that hand takes; the bound
            gives it the better of the two.
            """
            high = p.key >= TWO and not p.tier
            answers = self.answers(view, p, pool) if urgent else 0

            def value(worth: float, bound: bool = False) -> float:
                g = worth - base + tempo
                if high and trick.key < ACE and not urgent:
                    g -= CONTROL_CHARGE
                if urgent:
                    # Shape matters less than stopping him: the fewer answers, the better.
                    g = g / 4 + URGENT_BONUS - ANSWER_CHARGE * answers
                if p.tier and not urgent:
                    if not bound and self.planner.plan(
                            counts_minus(view.hand, p.cards)).turns > 2:
                        g -= DECISIVE  # keep the bomb: it cannot win the hand from here
                    else:
                        g += DECISIVE / 5
                return g
            return p, value, lambda worth: value(worth, True)

        passing: list[tuple[float, Play | None]] = [(0.0 if not urgent else -DECISIVE, None)]
        return self._scored(view, base, [gain(p) for p in shortlist], passing, best_only)


#: Rule sets (by name) whose search tables ``warm`` has built in this process.
_WARMED: set[str] = set()


def warm(rs: RuleSet) -> None:
    """Build the searches' step tables for a rule set now, once per process.

    ``Policy`` builds them as it is made (``Planner.warm``: 5-35 ms), so that
    no decision pays for them; a bot calls this as it is made, so that its
    first decision does not either. They are shared by every rule set of the
    name (a wild rank, 烤牌 and 憋6 change no table).
    """
    if rs.name not in _WARMED:
        Policy(rs)
        _WARMED.add(rs.name)


class PlanningBot(Bot):
    """Splits its hand, counts cards, plays with its side; every set-up decision too."""

    name = "planning"
    #: The split-search states one decision may expand (see ``DECISION_STATES``).
    states: int | None = DECISION_STATES

    def __init__(self, variant: str, seat: int, seed: int = 0) -> None:
        super().__init__(variant, seat, seed)
        self._policies: dict[str, Policy] = {}
        if trick_game(variant):
            return  # played by trick.plan, not by a climbing policy
        try:
            rs = rules_of(variant)
        except RuleError:
            tricks = " and ".join(v.id for v in VARIANTS.values() if v.family == "trick")
            raise BotError(f"the planning bot plays the climbing games and {tricks}; "
                           f"{variant} is neither") from None
        warm(rs)

    def policy(self, rs: RuleSet) -> Policy:
        key = f"{rs.name}:{rs.wild}:{rs.kaopai}:{rs.bie6}"
        found = self._policies.get(key)
        if found is None:
            found = self._policies[key] = Policy(rs)
        return found

    def act(self, observation: Observation) -> str:
        """As ``Bot.act``, but a wildcard lead's plays are generated once, in ``choose_play``.

        ``Bot.act`` would spell out the action text of each of its thousands of
        plays first; only the chosen one needs it.
        """
        if observation.get("legal_complete", True) or observation.get("phase") != "play" \
                or trick_game(observation.get("variant")):
            return super().act(observation)
        tagged: dict[str, str] = {bare(text): text for text in observation.get("legal") or ()}
        choice = self.choose(observation, list(tagged))
        return tagged.get(choice, choice)

    def choose(self, observation: Observation, legal: list[str]) -> str:
        if trick_game(observation.get("variant")):
            return trick_plan.choose(observation, legal)
        policy = self.policy(rule_set(observation))
        policy.planner.limit(self.states)
        try:
            if observation.get("phase") != "play":
                return setup.decide(observation, legal, policy)
            return self.choose_play(observation, legal)
        finally:
            policy.planner.limit(None)

    def choose_play(self, observation: Observation, legal: list[str]) -> str:
        policy = self.policy(rule_set(observation))
        view = read_view(observation, policy.rs)
        if not observation.get("legal_complete", True):
            # A wildcard lead: thousands of generated plays, of which only the chosen
            # one needs its action text.
            choice = policy.choose(view, read_plays(observation, view), "pass" in legal)
            return "pass" if choice is None else "play " + play_text(choice)
        texts = legal_plays(observation, view, legal)
        plays = [p for p in texts.values() if p is not None]
        choice = policy.choose(view, plays, "pass" in texts)
        text = action_text(texts, choice)
        if text is None:
            raise BotError(f"seat {self.seat}: chose a play that is not legal ({choice})")
        return text


#: Re-exported for callers that import them from here: ``BOUND_MARGIN`` and ``RELAX_AT``
#: live in ``scoring``, ``TIE_MARGIN`` in ``split.mirror``.
__all__ = ["ANSWER_CHARGE", "BLOCK_CHARGE", "BOUND_MARGIN", "CONTROL_CHARGE", "DECISION_STATES",
           "DECISIVE", "FEED_BONUS", "RELAX_AT", "SHORT", "SHORTLIST", "SHORT_OWNER",
           "SHORT_OWNER_PACKS", "TEMPO", "TEMPO_SETS", "TIE_MARGIN", "URGENT_BONUS",
           "PlanningBot", "Policy", "warm"]
