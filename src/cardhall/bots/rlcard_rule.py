"""``rlcard-rule``: RLCard's Dou Dizhu rule agent (``doudizhu-rule-v1``) in a cardhall seat.

RLCard's agent is the baseline the field knows, so cardhall's bots are
measured against it (``cardhall arena ddz3 --bots planning,rlcard-rule
--fixed-landlord``). The adapter shows the agent exactly what RLCard's own
environment would: its ``raw_obs`` with the hand, the end of the trace
of (player, action) pairs (the view is a snapshot: the play on the table and
the passes after it), cards played per player, the landlord, the cards it cannot
see, and its legal actions, all in RLCard's notation (ranks ``3…A2``, ``B``
small joker, ``R`` big joker, a play as its cards sorted by rank, no
kicker split). Its answer is translated back: the legal action with those
cards, of the hand type RLCard names where the cards have several readings.

RLCard is an optional dependency (the ``bench`` extra) and is imported only
when the bot is made; without it ``bots.make`` raises ``BotError``. RLCard
has no bidding, so the bot plays only the play phase of ``ddz3``: use the
arena's ``--fixed-landlord``. The agent draws from NumPy's global random
state when it follows with no play of the same type; the adapter seeds that
state from the bot's own seed before each decision, so games replay.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from cardhall.bots.base import Bot, BotError, Observation
from cardhall.bots.view import detail, ranks_of, read_view
from cardhall.cards import NUM_RANKS, RANK_CHARS, format_ranks, parse_ranks
from cardhall.rules import get as get_rules

#: Our rank characters in RLCard's spelling (the same order; jokers B and R).
TO_RLCARD = str.maketrans({"X": "B", "D": "R"})
FROM_RLCARD = str.maketrans({"B": "X", "R": "D"})
ORDER = "3456789TJQKA2BR"
#: RLCard's hand-type names (before the ``_N`` chain length) → ours.
KINDS = {"solo": "single", "pair": "pair", "trio": "trio", "trio_solo": "trio_single",
         "trio_pair": "trio_pair", "solo_chain": "straight", "pair_chain": "pair_chain",
         "trio_chain": "trio_chain", "trio_solo_chain": "plane_single",
         "trio_pair_chain": "plane_pair",
         "bomb": "bomb", "rocket": "rocket", "four_two_solo": "four_single",
         "four_two_pair": "four_pair"}


def to_rlcard(cards: str) -> str:
    """Our card text (a play's ``+`` split allowed) as RLCard's sorted string."""
    plain = cards.partition("=")[0].replace("+", "").translate(TO_RLCARD)
    return "".join(sorted(plain, key=ORDER.index))


def from_rlcard(cards: str) -> str:
    """RLCard's card string in our notation, canonical order, no kicker split."""
    return "".join(sorted(cards.translate(FROM_RLCARD), key=RANK_CHARS.index))


def _load() -> tuple[Any, Any, Any]:
    """RLCard's agent class, its card-type table and NumPy, or BotError if absent."""
    try:
        models = importlib.import_module("rlcard.models.doudizhu_rule_models")
        utils = importlib.import_module("rlcard.games.doudizhu.utils")
        numpy = importlib.import_module("numpy")
    except ImportError as exc:
        raise BotError("the rlcard-rule bot needs RLCard: pip install 'cardhall[bench]' "
                       f"({exc})") from None
    return models.DouDizhuRuleAgentV1, utils.CARD_TYPE[0], numpy


class RLCardRule(Bot):
    """Seats RLCard's ``DouDizhuRuleAgentV1`` (ddz3, play phase only)."""

    name = "rlcard-rule"

    def __init__(self, variant: str, seat: int, seed: int = 0) -> None:
        super().__init__(variant, seat, seed)
        if variant != "ddz3":
            raise BotError(f"rlcard-rule plays ddz3 only (RLCard's Dou Dizhu), not {variant}")
        agent_class, self.card_type, self.numpy = _load()
        self.agent = agent_class()
        self.rs = get_rules("ddz3")

    def choose(self, observation: Observation, legal: list[str]) -> str:
        if observation.get("phase") != "play":
            raise BotError("rlcard-rule cannot bid (RLCard has no bidding): seat it with a "
                           "fixed landlord (cardhall arena --fixed-landlord)")
        state = self.raw_obs(observation, legal)
        self.numpy.random.seed(self.rng.randrange(2**32))
        answer = self.agent.step({"raw_obs": state, "raw_legal_actions": state["actions"]})
        return self.translate(str(answer), legal)

    def raw_obs(self, obs: Observation, legal: Sequence[str]) -> dict[str, Any]:
        """The state dict RLCard's environment gives its agents (``raw_obs``).

        A view is a snapshot, not a log, so ``trace`` holds the part of the
        history the agent reads: the play on the table and the passes since
        (on a lead after a closed trick, the two passes that closed it).
        """
        players = len(obs["counts"])
        seat = obs["seat"]
        trace = _trace(obs, players)
        played = [to_rlcard(cards) for cards in obs.get("played") or [""] * players]
        actions = list(dict.fromkeys(
            "pass" if a == "pass" else to_rlcard(a.split(None, 1)[1]) for a in legal))
        actions = [a for a in actions if a == "pass" or a in self.card_type]
        view = read_view(obs, self.rs)
        others = "".join(RANK_CHARS[r] * view.unseen[r] for r in range(NUM_RANKS))
        return {
            "seen_cards": to_rlcard(detail(obs).get("kitty") or ""),
            "landlord": detail(obs)["landlord"],
            "trace": trace,
            "played_cards": played,
            "self": seat,
            "current_hand": to_rlcard(format_ranks(ranks_of(obs["hand"]))),
            "others_hand": to_rlcard(others),
            "num_cards_left": list(obs["counts"]),
            "actions": actions,
        }

    def translate(self, answer: str, legal: Sequence[str]) -> str:
        """RLCard's answer as our legal action: same cards, RLCard's reading if several."""
        if answer == "pass":
            if "pass" in legal:
                return "pass"
            raise BotError("rlcard-rule passed on its own lead")
        want = sorted(parse_ranks(from_rlcard(answer)))
        same = [a for a in legal if a.startswith("play ")
                and sorted(parse_ranks(a.split(None, 1)[1])) == want]
        if not same:
            raise BotError(f"rlcard-rule answered {answer!r}, which is not a legal play here")
        types = self.card_type.get(answer) or []
        kinds = {KINDS.get(t.rsplit("_", 1)[0] if t[-1].isdigit() else t) for t, _ in types}
        for action in same:
            if self.rs.parse_play(action.split(None, 1)[1]).kind in kinds:
                return action
        return same[0]


def _trace(obs: Observation, players: int) -> list[tuple[int, str]]:
    """The end of RLCard's trace as the view shows it: the last play, then the passes.

    On the table: its holder's play and the passes since. Leading after a
    closed trick, the trick was this seat's: its own last play (the view's
    ``last``) and every other seat's pass, which is what tells the agent it leads.
    """
    seat = obs["seat"]
    table = obs.get("table")
    last = obs.get("last") or [None] * players
    if table is not None:
        owner, cards = table["seat"], table["cards"]
    elif isinstance(last[seat], str) and last[seat].startswith("play "):
        owner, cards = seat, last[seat][5:]
    else:
        return []  # the first lead of the game
    trace = [(owner, to_rlcard(cards))]
    s = (owner + 1) % players
    while s != seat or (table is None and len(trace) < players):
        trace.append((s, "pass"))
        s = (s + 1) % players
    return trace
