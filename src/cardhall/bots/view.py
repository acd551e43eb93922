"""What a climbing-game bot reads from an observation: hand, table, sides, and the cards out.

Every bot decision starts from ``observe(seat)`` and nothing else (the bot
contract). This module turns that JSON into the few facts a player keeps in
his head: his hand as rank counts, how many cards each seat holds, who is on
his side (known, or not yet: 五人斗地主's hidden landlord), the play to beat,
which cards have been played by whom, and which cards he cannot see (the
pool an opponent's hand is drawn from: the deck less his hand, the cards
played, and any hand or kitty shown to him).

Plays are read from the legal actions' text. In the wildcard game a play's
text says both what was played and what it stands for (``3335=3333``);
reading it through the wildcard rule set would mean classifying every
substitution, so the reading is taken from the stand-in text with the
natural rules and the bomb class set from how many wild cards it holds
(ddz-laizi §4: soft, hard, pure).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardhall.cards import NUM_RANKS, RANK_CHARS, Counts, parse_ranks, to_counts
from cardhall.rules import Play, RuleError, RuleSet
from cardhall.rules import get as get_rules
from cardhall.rules.wild import HARD, PURE, SOFT

Observation = Mapping[str, Any]


class PlayReader:
    """Action text → ``Play`` for one rule set, memoised (texts repeat all game long)."""

    def __init__(self, rs: RuleSet, wild: int | None = None) -> None:
        self.rs = rs
        self.wild = wild
        self._cache: dict[str, Play] = {}

    def read(self, text: str) -> Play:
        """The play named by ``text`` (without the ``play`` verb)."""
        found = self._cache.get(text)
        if found is None:
            found = self._cache[text] = self._read(text)
        return found

    def _read(self, text: str) -> Play:
        cards, _, stands = text.partition("=")
        if self.wild is None:
            return self.rs.parse_play(cards)
        natural = self.rs.parse_play(stands or cards)
        if not stands:
            return natural
        main_text, _, kick_text = cards.partition("+")
        main = tuple(sorted(parse_ranks(main_text)))
        kickers = tuple(sorted(parse_ranks(kick_text)))
        tier = natural.tier
        if natural.kind == "bomb":
            wilds = main.count(self.wild)
            tier = PURE if wilds == len(main) else SOFT if wilds else HARD
        return Play(natural.kind, natural.key, natural.length, main, kickers, tier,
                    natural.subkey, natural.main, natural.kickers)


_READERS: dict[tuple[str, int | None], PlayReader] = {}


def reader(variant: str, wild: int | None) -> PlayReader:
    """The shared reader of a variant (and wild rank)."""
    key = (variant, wild)
    found = _READERS.get(key)
    if found is None:
        found = _READERS[key] = PlayReader(get_rules(variant), wild)
    return found


def play_text(play: Play) -> str:
    """The canonical action argument of a play, with its stand-in part if any."""
    return play.text if play.as_text is None else f"{play.text}={play.as_text}"


@dataclass
class View:
    """One seat's knowledge at one decision."""

    variant: str
    rs: RuleSet
    seat: int
    players: int
    hand: Counts
    counts: list[int]
    #: Seats known to be on this seat's side, and known to be against it.
    partners: frozenset[int]
    opponents: frozenset[int]
    wild: int | None
    trick: Play | None
    trick_seat: int | None
    #: Cards this seat cannot see: the pool the other hands (and any hidden cards) come from.
    unseen: Counts
    #: Seats whose whole hand this seat sees (shown hands, a revealed partner).
    exact: dict[int, Counts] = field(default_factory=dict)
    #: Cards a seat is known to hold at least (the public kitty, until played).
    known: dict[int, Counts] = field(default_factory=dict)
    played: list[Counts] = field(default_factory=list)
    landlord: int | None = None

    @property
    def unknown(self) -> frozenset[int]:
        """Other seats whose side is not known yet (五人斗地主 before the reveal)."""
        return frozenset(range(self.players)) - self.partners - self.opponents - {self.seat}

    def against(self) -> frozenset[int]:
        """Seats to play against: known opponents, and the unknown ones too."""
        return self.opponents | self.unknown

    def opponent_pool(self) -> Counts:
        """Cards some opponent might hold: unseen cards, less a known partner's hand."""
        pool = list(self.unseen)
        for seat, hand in self.exact.items():
            if seat in self.partners:
                continue
            for r in range(NUM_RANKS):
                pool[r] += hand[r]
        return tuple(pool)

    def next_seat(self, seat: int) -> int:
        """The next seat still holding cards (a finished player is skipped: 保皇)."""
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if self.counts[nxt] > 0:
                return nxt
        return seat


def sides(obs: Observation, players: int) -> tuple[frozenset[int], frozenset[int]]:
    """(partners, opponents) as this seat knows them; unknown seats are in neither.

    Read from the most specific facts the observation gives: explicit
    per-seat sides, 五人斗地主's landlords and role, else one landlord against
    the rest, else everyone against everyone.
    """
    seat = obs["seat"]
    others = frozenset(range(players)) - {seat}
    given = obs.get("sides")
    if isinstance(given, list) and len(given) == players and given[seat] is not None:
        mine = given[seat]
        return (frozenset(s for s in others if given[s] == mine),
                frozenset(s for s in others if given[s] is not None and given[s] != mine))
    if "landlords" in obs and obs.get("landlord") is not None:
        lords = frozenset(obs["landlords"])
        role = obs.get("role", "")
        if role == "farmer":
            if obs.get("hidden_landlord") is not None or obs.get("single_landlord"):
                return others - lords, lords & others
            return frozenset(), lords & others
        if obs.get("hidden_landlord") is not None or obs.get("single_landlord"):
            return lords & others, others - lords
        return frozenset(), frozenset()
    landlord = obs.get("landlord")
    if landlord is not None:
        if seat == landlord:
            return frozenset(), others
        return others - {landlord}, frozenset({landlord})
    return frozenset(), others


def read_view(obs: Observation, rs: RuleSet) -> View:
    """Everything a play decision needs, from one observation."""
    seat = obs["seat"]
    counts = list(obs["counts"])
    players = len(counts)
    hand = to_counts(parse_ranks(obs.get("hand", "")))
    wild = RANK_CHARS.index(obs["wild"]) if obs.get("wild") else None
    read = reader(obs["variant"], wild) if rs.comparison == "ladder" else None
    partners, opponents = sides(obs, players)
    played = [[0] * NUM_RANKS for _ in range(players)]
    last: tuple[int, str] | None = None
    for event in obs.get("log", ()):
        kind = event.get("type")
        if kind == "play":
            for r in parse_ranks(event["cards"]):
                played[event["seat"]][r] += 1
            last = (event["seat"], event["cards"] + (f"={event['as']}" if event.get("as") else ""))
        elif kind in ("trick-over", "deal", "redeal", "void"):
            last = None
            if kind != "trick-over":
                played = [[0] * NUM_RANKS for _ in range(players)]
    trick = obs.get("trick")
    trick_play: Play | None = None
    trick_seat: int | None = None
    if trick:
        trick_seat = trick["seat"]
        text = last[1] if last is not None and last[0] == trick_seat else trick["cards"]
        trick_play = _read_trick(rs, read, text, trick.get("kind"))
    exact = _exact_hands(obs, seat)
    known: dict[int, Counts] = {}
    landlord = obs.get("landlord")
    kitty = obs.get("kitty")
    # A kitty this seat is shown though it is not the landlord's was shown to everyone
    # (ddz3, ddz2, 欢乐, 癞子); it is in the landlord's hand until he plays it.
    if landlord is not None and landlord != seat and kitty and landlord not in exact:
        have = to_counts(parse_ranks(kitty))
        out = played[landlord]
        known[landlord] = tuple(max(0, have[r] - out[r]) for r in range(NUM_RANKS))
    unseen = list(rs.limits)
    for r in range(NUM_RANKS):
        unseen[r] -= hand[r] + sum(p[r] for p in played)
        for h in exact.values():
            unseen[r] -= h[r]
    return View(obs["variant"], rs, seat, players, hand, counts, partners, opponents, wild,
                trick_play, trick_seat, tuple(max(0, u) for u in unseen), exact, known,
                [tuple(p) for p in played], landlord)


def _read_trick(rs: RuleSet, read: PlayReader | None, text: str, kind: str | None) -> Play:
    """The play to beat: read from its text, else the reading of the announced kind."""
    found = _try_read(read, text) if read is not None else None
    if found is not None:
        return found
    cards = text.partition("=")[0].replace("+", "")
    readings = [p for p in rs.classify(cards) if kind is None or p.kind == kind]
    if not readings:
        raise RuleError(f"cannot read the play to beat: {text!r}")
    return readings[0]


def _try_read(read: PlayReader, text: str) -> Play | None:
    """``read.read(text)``, or None when the text names several readings (bare cards)."""
    try:
        return read.read(text)
    except RuleError:
        return None


def _exact_hands(obs: Observation, seat: int) -> dict[int, Counts]:
    """Hands this seat sees in full: shown hands (欢乐) and a revealed partner (五人)."""
    out: dict[int, Counts] = {}
    for shown in obs.get("shown", ()) or ():
        if shown.get("seat") != seat and obs.get("dealt", 17) >= 17:
            out[shown["seat"]] = to_counts(parse_ranks(shown.get("hand", "")))
    partner = obs.get("partner")
    if isinstance(partner, dict) and partner.get("seat") is not None:
        out[partner["seat"]] = to_counts(parse_ranks(partner.get("hand", "")))
    return out


def action_text(texts: dict[str, Play | None], choice: Play | None) -> str | None:
    """The legal action's text for a chosen play (``pass`` for None); None if not offered."""
    if choice is None:
        return "pass"
    return next((text for text, play in texts.items() if play is choice), None)


def legal_plays(obs: Observation, view: View) -> dict[str, Play | None]:
    """The legal actions of a play decision: text → play (None for ``pass``).

    For the natural ladder games the plays are regenerated with the fast
    move generator and matched by text (a few microseconds per play); other
    texts are read one by one.
    """
    texts: Sequence[str] = obs.get("legal_actions", ())
    out: dict[str, Play | None] = {}
    rs = view.rs
    by_text: dict[str, Play] = {}
    if view.wild is None and rs.comparison == "ladder":
        gen = rs.gen
        for code in gen.codes(view.hand, view.trick):
            play = gen.play(code)
            by_text["play " + play.text] = play
    read = reader(view.variant, view.wild) if rs.comparison == "ladder" else None
    for text in texts:
        if text == "pass":
            out[text] = None
            continue
        if not text.startswith("play "):
            continue
        known = by_text.get(text)
        if known is None:
            arg = text[5:]
            known = read.read(arg) if read is not None else rs.parse_play(arg)
        out[text] = known
    return out


def counts_minus(hand: Sequence[int], cards: Iterable[int]) -> Counts:
    out = list(hand)
    for r in cards:
        out[r] -= 1
    return tuple(out)
