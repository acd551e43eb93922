"""Set-up decisions of the planning bot: every answer before the first card is played.

Each decision turns on one number, the hand's *rating*: the worth of its best
split (``hands.Planner``, the measure the play decisions use) plus what wins
tricks for a landlord whatever the split, its jokers, 2s and bombs (in
measured ddz3 landlord games the rating ranks hands better with them: AUC 0.68
against 0.64 for the worth alone).

A threshold says how high among the variant's dealt hands a hand must rank
(its percentile, from the rating's median and spread the variant declares,
``Variant.ratings``, measured by ``benchmarks/calibrate.py``) to bid, call, rob,
double, show or reveal. Percentiles rather than fitted win rates, because the
fit is informative in the one-pack games and nearly flat in the two-pack
ones, where an absolute win-rate bar would leave the bot never bidding. So in
every variant the strongest hands bid; a rob, a double, a show need stronger
ones, since each doubles the stake.

Decisions with no hand to judge (happy Dou Dizhu's ``start`` before the deal,
showing after 8 of 17 cards) take the non-committal answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardhall.bots.base import Observation
from cardhall.bots.kitty import keep
from cardhall.bots.view import detail, hand_counts, ranks_of
from cardhall.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    SMALL_JOKER_CARD,
    TWO,
    Counts,
    card_rank,
    format_ranks,
    parse_card,
)
from cardhall.games import VARIANTS, Ratings

if TYPE_CHECKING:
    from cardhall.bots.planning import Policy
    from cardhall.bots.split.hands import Planner

#: Rating per control card on top of the split's worth (fitted weights, ddz3).
JOKER_RATING, TWO_RATING, BOMB_RATING = 8.0, 5.0, 10.0

#: Answers that raise nothing and commit to nothing, in order of preference.
NON_COMMITTAL = ("pass", "no-call", "no-rob", "no-double", "decline", "start", "no-show",
                 "take none", "hidden", "no", "no-solo", "hidden-solo", "accept", "cede")

#: How high among dealt hands a hand must rank for each answer (1.0: never). A bid of 1
#: risks little; a rob, a double, a show each double the stake; 保皇's solo plays 1 vs 4.
WANT = {"bid1": 0.55, "bid2": 0.70, "bid3": 0.85, "call": 0.60, "rob": 0.80,
        "double": 0.85, "show": 0.97, "farmer_double": 0.92, "reveal": 0.65,
        "single_reveal": 0.92, "accept": 0.40, "solo": 0.97, "open": 0.80, "rebel": 0.60,
        "hidden_solo": 0.90, "rob_solo": 0.99}

#: The scale of a variant that declares none (``Variant.ratings``): (median, spread).
NEUTRAL = Ratings(-40.0, 10.0)


def percentile(variant: str, value: float) -> float:
    """Where a hand rated ``value`` ranks among the variant's dealt hands (0 to 1): a
    logistic of the same variance, ``1 / (1 + exp(-(value - median) / spread))``."""
    found = VARIANTS.get(variant)
    scale = found.ratings if found is not None and found.ratings is not None else NEUTRAL
    median, spread = scale.median, scale.spread
    z = max(-50.0, min(50.0, (value - median) / spread))
    return 1.0 / (1.0 + math.exp(-z))


def hand_of(obs: Observation) -> Counts:
    return hand_counts(obs)


def _my_role(obs: Observation) -> str | None:
    roles = obs.get("roles") or ()
    seat = obs.get("seat", -1)
    return roles[seat] if 0 <= seat < len(roles) else None


def rating(counts: Counts, planner: Planner) -> float:
    """The worth of the best split plus the hand's controls: jokers, 2s and bombs."""
    plan = planner.plan(counts)
    bombs = sum(1 for g in plan.groups if g.tier)
    return (plan.worth + JOKER_RATING * (counts[SMALL_JOKER] + counts[BIG_JOKER])
            + TWO_RATING * counts[TWO] + BOMB_RATING * bombs)


def decide(obs: Observation, legal: Sequence[str], policy: Policy) -> str:
    """The answer to a set-up decision (no card is played in it)."""
    variant = obs["variant"]
    hand = hand_of(obs)
    p = percentile(variant, rating(hand, policy.planner)) if sum(hand) else 0.0
    have = set(legal)
    if variant == "baohuang":
        return baohuang(obs, legal, p)
    if any(a.startswith("bid ") for a in legal):
        return _bid(legal, p)
    if any(a.startswith("take ") for a in legal):
        return _kitty(obs, legal, policy)
    if "call" in have and "no-call" in have:
        return "call" if p >= WANT["call"] else "no-call"
    if "rob" in have:
        return "rob" if p >= WANT["rob"] else "no-rob"
    words = detail(obs)
    if "reveal" in have:
        single = words.get("single_landlord") and words.get("role") != "hidden landlord"
        return "reveal" if p >= WANT["single_reveal" if single else "reveal"] else "decline"
    if "double" in have:
        landlord = words.get("landlord") == obs.get("seat") or _my_role(obs) == "landlord" \
            or words.get("role") in ("open landlord", "hidden landlord", "single landlord")
        want = WANT["double"] if landlord else WANT["farmer_double"]
        odds = p if landlord else 1.0 - p
        no = "no-double" if "no-double" in have else "decline"
        return "double" if odds >= want else no
    if "show" in have and words.get("landlord") == obs.get("seat") and obs.get("phase") == "show":
        return "show" if p >= WANT["show"] else "no-show"
    return _non_committal(legal)


def _non_committal(legal: Sequence[str]) -> str:
    for answer in NON_COMMITTAL:
        if answer in legal:
            return answer
    return legal[0]


def _bid(legal: Sequence[str], p: float) -> str:
    """The highest bid the hand is worth, if it is still allowed; else pass."""
    for bid in (3, 2, 1):
        if p >= WANT[f"bid{bid}"]:
            if f"bid {bid}" in legal:
                return f"bid {bid}"
            break  # worth less than the bids left: pass
    return "pass"


def _kitty(obs: Observation, legal: Sequence[str], policy: Policy) -> str:
    """斗帝主: keep the kitty cards that raise the hand's worth, one at a time (``kitty``)."""
    kitty = ranks_of(detail(obs).get("kitty", ""))
    kept = keep(policy.planner, policy.mirror, hand_of(obs), kitty)
    want = f"take {format_ranks(kept)}" if kept else "take none"
    return want if want in legal else _non_committal(legal)


# -- 保皇 ----------------------------------------------------------------------------------


def baohuang(obs: Observation, legal: Sequence[str], p: float) -> str:
    """Emperor card, guard call, solo and rob, disclosure, rebellion (baohuang.md §2, §4).

    - *Emperor card*: the emperor's score is twice the guard's, so a hand in the
      lower part of the table cedes while ceding is allowed; in classic mode so
      does one with no card held three times, which could name no guard and
      would have to play the open solo.
    - *Guard call* (classic): a card held three times names the holder of the
      fourth copy as guard; a card held four times names nobody (暗独保:
      +12 only if first out, −12 from third on), so it is called only with a
      hand that expects to go out first; the open solo (±24) with a rarer one.
      Among three-copy calls, the highest rank (see ``_call_key``).
    - *Simple mode*, the emperor holding the guard card: he is alone either
      way; he opens his solo only with the strongest hands.
    - *抢独*: only a hand that beats nearly every dealt hand robs (it plays ±24
      alone against four).
    - *Disclosure*: the guard opens (×2) when his hand is strong enough that
      the royal side expects to win.
    - *造反* (simple mode): success doubles only the rebels' win, so a rebel
      whose hand is better than most calls it; the guard answers ``no`` (he
      gains nothing from a doubled loss).
    """
    have = set(legal)
    cards = [parse_card(c) for c in obs.get("hand") or ()]
    if "accept" in have:
        classic = (obs.get("options") or {}).get("mode", "classic") == "classic"
        callable_ = any(cards.count(c) >= 3 for c in set(cards) if c < SMALL_JOKER_CARD)
        able = not classic or callable_ or p >= WANT["solo"]  # else only the open solo is left
        return "accept" if (p >= WANT["accept"] and able) or "cede" not in have else "cede"
    if "rob-solo" in have:
        return "rob-solo" if p >= WANT["rob_solo"] else "no"
    calls = [a for a in legal if a.startswith("call ")]
    if calls or "solo" in have or "no-solo" in have or "hidden-solo" in have:
        if "solo" in have and p >= WANT["solo"]:
            return "solo"
        held = {a: cards.count(parse_card(a.split(None, 1)[1])) for a in calls}
        guarded = [a for a in calls if held[a] == 3]
        alone = [a for a in calls if held[a] >= 4]
        if alone and (p >= WANT["hidden_solo"] or not guarded):
            return max(alone, key=_call_key)
        if guarded:
            return max(guarded, key=_call_key)
        if "hidden-solo" in have:
            return "hidden-solo"
        for answer in ("no-solo", "redeal", "solo"):
            if answer in have:
                return answer
    if "open" in have:
        return "open" if p >= WANT["open"] else "hidden"
    if "rebel" in have:
        rebel = _my_role(obs) != "guard"
        return "rebel" if rebel and p >= WANT["rebel"] else "no"
    return _non_committal(legal)


def _call_key(action: str) -> tuple[int, int]:
    """Call the highest rank: its fourth copy will show who the guard is when played late."""
    card = parse_card(action.split(None, 1)[1])
    return card_rank(card), card
