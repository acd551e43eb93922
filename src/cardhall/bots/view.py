"""What a climbing-game bot reads from a view: hand, table, sides, and the cards out.

Every bot decision starts from ``observe(seat)`` (a ``games.view.View``) and
nothing else (the bot contract). This module turns it into the few facts a
player keeps in his head: his hand as rank counts (the view's ``hand`` is
suited card text), how many cards each seat holds, who is on his side (the
view's ``roles``, as this seat knows them: 五人斗地主's hidden landlord is
unknown to a farmer until revealed), the play to beat (``table``), which
cards each seat has played (``played``), and which cards he cannot see (the
pool an opponent's hand is drawn from: the deck less his hand, the cards
played, and any hand or kitty shown to him, from ``detail``).

The legal plays come from the view's ``legal`` list. When it is not complete
(``legal_complete`` false: a wildcard lead has thousands of plays) the bot
generates them itself from its hand and the table, with the rule set the game
plays by (``rule_set``: the variant, its wild rank, 烤牌 / 憋6), and keeps those
the view's ``plays`` index accepts.

In the wildcard game a play's text says both what was played and what it
stands for (``3335=3333``); reading it through the wildcard rule set would
mean classifying every substitution, so the reading is taken from the
stand-in text with the natural rules and the bomb class set from how many
wild cards it holds (ddz-laizi §4: soft, hard, pure).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cardhall.bots.split import native
from cardhall.bots.split.sift import LABELS, sift, sift_blocks, walk_of
from cardhall.cards import NUM_RANKS, RANK_CHARS, Counts, parse_ranks, to_counts
from cardhall.games import VARIANTS, rules_of
from cardhall.games.view import expand, judge
from cardhall.rules import Play, RuleError, RuleSet, wild
from cardhall.rules.wild import HARD, PURE, SOFT

Observation = Mapping[str, Any]
#: Which side a role of the view's ``roles`` is on: the landlord's, the emperor's and
#: the dealer's side against the rest. A role not listed is a side of its own name.
TEAMS = {"landlord": 0, "farmer": 1, "emperor": 0, "guard": 0, "rebel": 1,
         "dealer": 0, "friend": 0, "attacker": 1}
#: Options of a view that change how plays are judged (保皇's 烤牌 and 憋6).
RULE_OPTIONS = ("kaopai", "bie6")
_SUIT_MARKS = str.maketrans("", "", "shcd♠♥♣♦")


def detail(obs: Observation) -> Mapping[str, Any]:
    """The variant's own words in a view (``view["detail"]``)."""
    found = obs.get("detail")
    return found if isinstance(found, Mapping) else {}


def ranks_of(cards: str | Sequence[str] | None) -> tuple[int, ...]:
    """Ranks of card text, suited (``"Ts3h"``, ``["Ts", "X"]``) or bare (``"T3"``)."""
    if not cards:
        return ()
    if isinstance(cards, str):
        return _text_ranks(cards)
    return tuple(RANK_CHARS.index(c[0]) for c in cards)


@lru_cache(maxsize=4096)
def _text_ranks(text: str) -> tuple[int, ...]:
    """``ranks_of`` a text, remembered: a view's ``played`` texts are read at every decision
    and change one seat at a time (a game played out by bots reads them thousands of
    times: the analysis's rollouts spent half their time here)."""
    return parse_ranks(text.translate(_SUIT_MARKS))


def hand_counts(obs: Observation) -> Counts:
    """This seat's hand as rank counts (the view gives suited cards)."""
    return to_counts(ranks_of(obs.get("hand")))


def team(role: str | None) -> int | str | None:
    """The side a role is on (``TEAMS``); None for a role not known."""
    return None if role is None else TEAMS.get(role, role)


def trick_game(variant: str | None) -> bool:
    """Whether a variant's plays follow tricks, not a climbing rule set (its declaration's
    ``family``): its cards are suited and its bots are the trick players."""
    found = VARIANTS.get(variant or "")
    return found is not None and found.family == "trick"


def rule_set(obs: Observation) -> RuleSet:
    """The rules this view's game is played by: the variant, its wild rank, 烤牌 / 憋6."""
    options = obs.get("options") or {}
    house = tuple(sorted((k, bool(options[k])) for k in RULE_OPTIONS if k in options))
    return _rule_set(obs["variant"], detail(obs).get("wild") or None, house)


_RULE_SETS: dict[tuple[str, str | None, tuple[tuple[str, bool], ...]], RuleSet] = {}


def _rule_set(variant: str, wild: str | None, options: tuple[tuple[str, bool], ...]) -> RuleSet:
    key = (variant, wild, options)
    found = _RULE_SETS.get(key)
    if found is None:
        found = _RULE_SETS[key] = rules_of(variant, wild=wild, **dict(options))
    return found


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
        found = _READERS[key] = PlayReader(rules_of(variant), wild)
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
    """(partners, opponents) as this seat knows them, from the view's ``roles``.

    A seat whose role this seat does not know is in neither; before any role
    is fixed (bidding), everyone plays against everyone.
    """
    seat = obs["seat"]
    others = frozenset(range(players)) - {seat}
    roles = obs.get("roles") or [None] * players
    mine = team(roles[seat])
    if mine is None:
        return frozenset(), others
    teams = [team(r) for r in roles]
    return (frozenset(s for s in others if teams[s] == mine),
            frozenset(s for s in others if teams[s] is not None and teams[s] != mine))


def read_view(obs: Observation, rs: RuleSet) -> View:
    """Everything a play decision needs, from one view."""
    seat = obs["seat"]
    counts = list(obs["counts"])
    players = len(counts)
    words = detail(obs)
    hand = hand_counts(obs)
    wild = RANK_CHARS.index(words["wild"]) if words.get("wild") else None
    read = reader(obs["variant"], wild) if rs.comparison == "ladder" else None
    partners, opponents = sides(obs, players)
    played = [to_counts(ranks_of(cards)) for cards in obs.get("played") or [""] * players]
    table = obs.get("table")
    trick_play: Play | None = None
    trick_seat: int | None = None
    if table:
        trick_seat = table["seat"]
        text = table["cards"]
        if table.get("as") and "=" not in text:
            text = f"{text}={table['as']}"
        trick_play = _read_trick(rs, read, text, table.get("kind"))
    exact = _exact_hands(obs, seat)
    known: dict[int, Counts] = {}
    landlord = words.get("landlord")
    kitty = words.get("kitty")
    # A kitty this seat is shown though it is not the landlord's was shown to everyone
    # (ddz3, ddz2, 欢乐, 癞子); it is in the landlord's hand until he plays it.
    if landlord is not None and landlord != seat and kitty and landlord not in exact:
        have = to_counts(ranks_of(kitty))
        out = played[landlord]
        known[landlord] = tuple(max(0, have[r] - out[r]) for r in range(NUM_RANKS))
    unseen = list(rs.limits)
    for r in range(NUM_RANKS):
        unseen[r] -= hand[r] + sum(p[r] for p in played)
        for h in exact.values():
            unseen[r] -= h[r]
    return View(obs["variant"], rs, seat, players, hand, counts, partners, opponents, wild,
                trick_play, trick_seat, tuple(max(0, u) for u in unseen), exact, known,
                played, landlord)


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
    words = detail(obs)
    out: dict[int, Counts] = {}
    for shown in words.get("shown", ()) or ():
        if shown.get("seat") != seat and words.get("dealt", 17) >= 17:
            out[shown["seat"]] = to_counts(ranks_of(shown.get("hand", "")))
    partner = words.get("partner")
    if isinstance(partner, Mapping) and partner.get("seat") is not None:
        out[partner["seat"]] = to_counts(ranks_of(partner.get("hand", "")))
    return out


def action_text(texts: dict[str, Play | None], choice: Play | None) -> str | None:
    """The legal action's text for a chosen play (``pass`` for None); None if not offered."""
    if choice is None:
        return "pass"
    return next((text for text, play in texts.items() if play is choice), None)


def legal_plays(obs: Observation, view: View,
                legal: Sequence[str] | None = None) -> dict[str, Play | None]:
    """The legal actions of a play decision: text → play (None for ``pass``).

    ``legal`` are the action texts offered (default: the view's ``legal``). A
    view whose list is not complete has its plays generated (``generated``).
    For the natural ladder games the plays are regenerated with the fast move
    generator and matched by text (a few microseconds per play); other texts
    are read one by one, each once per variant (``PlayReader``).
    """
    texts: Sequence[str] = obs.get("legal", ()) if legal is None else legal
    out: dict[str, Play | None] = {}
    if "pass" in texts:
        out["pass"] = None
    if not obs.get("legal_complete", True):
        out.update(generated(obs, view))
        return out
    rs = view.rs
    by_text: dict[str, Play] = {}
    if view.wild is None and rs.comparison == "ladder":
        gen = rs.gen
        by_text = _with_texts(gen.play(code) for code in gen.codes(view.hand, view.trick))
    elif rs.comparison == "ladder" and sum(1 for t in texts if t.startswith("play ")) > 8:
        # Wildcard plays: generating them all, spelt as the game spells them, is cheaper
        # than reading each offered text through its substitutions (~20 us a text).
        plays, spelt = rs.spelt_moves(view.hand, view.trick)
        by_text = {"play " + text: play for play, text in zip(plays, spelt, strict=True)}
    # 保皇's texts are read through the variant's shared reader too: its options (烤牌, 憋6)
    # change how plays compare, not how a text reads, and a lead offers a hundred texts.
    read = reader(view.variant, view.wild)
    for text in texts:
        if not text.startswith("play "):
            continue
        known = by_text.get(text)
        out[text] = known if known is not None else read.read(text[5:])
    return out


#: Decisions whose generated plays are kept: a bot and its caller ask for one decision's
#: twice. A wildcard lead's are thousands of objects, which every full collection of the
#: garbage collector walks while they live (256 kept made such a pass some 20 ms).
_GENERATED_LIMIT = 2
_GENERATED: dict[tuple[str, str | None, bool, bool, Counts, Play | None], list[Play]] = {}
#: id of an interned play → (the play, kept alive so the id stays its own; its action text).
_TEXTS: dict[int, tuple[Play, str]] = {}
_TEXTS_LIMIT = 200_000


def generated(obs: Observation, view: View) -> dict[str, Play]:
    """Every legal play of a view whose ``legal`` list is not complete, by action text.

    The plays of ``generated_plays``: a natural hand's are interned, and their
    texts remembered (``_with_texts``); a wildcard hand's are made afresh.
    """
    plays = generated_plays(obs, view)
    if view.rs.wild is not None:
        return {"play " + play_text(p): p for p in plays}
    return _with_texts(plays)


def _with_texts(plays: Iterable[Play]) -> dict[str, Play]:
    """Interned plays (the natural generator's: one object a play) by action text, each
    text built once and remembered. Not for plays made afresh at each call (a wildcard
    hand's): remembered, every one of them would be kept alive, and walked by each full
    collection of the garbage collector."""
    texts = _TEXTS
    if len(texts) > _TEXTS_LIMIT:
        texts.clear()
    out: dict[str, Play] = {}
    for play in plays:
        known = texts.get(id(play))
        if known is None or known[0] is not play:
            known = texts[id(play)] = (play, "play " + play_text(play))
        out[known[1]] = play
    return out


def generated_plays(obs: Observation, view: View) -> list[Play]:
    """Every legal play of a view whose ``legal`` list is not complete.

    Generated from the hand and the play to beat with the game's rule set;
    where the view carries its ``plays`` index, only the plays it accepts are
    kept (it is the game's own judgement), each card multiset asked once
    (``sift``: a wildcard lead has thousands of plays, many readings of the
    same cards). The list is ``sift``'s, read for the hand: the policy reads it
    again. Memoised: a bot and its caller ask twice for one decision.
    """
    rs = view.rs
    key = (rs.name, None if rs.wild is None else RANK_CHARS[rs.wild], rs.kaopai, rs.bie6,
           view.hand, view.trick)
    found = _GENERATED.get(key)
    if found is not None:
        return found
    index = obs.get("plays")
    plays = rs.moves(view.hand, view.trick)
    walk = walk_of(index) if index is not None else None
    if index is not None and walk is None:
        plays = [p for p in plays if judge(index, _selection(p.cards))]
    sifted = sift(plays, walk, sum(view.hand))
    if len(_GENERATED) > _GENERATED_LIMIT:
        _GENERATED.clear()
    _GENERATED[key] = sifted
    return sifted


def read_plays(obs: Observation, view: View) -> list[Play]:
    """The plays of a view whose ``legal`` list is not complete, as a planning policy reads
    them: ``generated_plays``, or, for a lead holding wild cards on the C loop, only the
    plays it reads, read from the rules' blocks (``sift.sift_blocks``: a wildcard lead has
    thousands of plays, and making each costs more than the rest of the reading). Either
    way the policy finds the same candidates and chooses the same play: the loop built
    chooses how they are read (``tests/bots/test_either_loop.py``)."""
    rs = view.rs
    index = obs.get("plays")
    walk = walk_of(index) if index is not None else None
    if not native.NATIVE or rs.wild is None or view.trick is not None \
            or not view.hand[rs.wild] or (index is not None and walk is None):
        return generated_plays(obs, view)
    return sift_blocks(wild.blocks(rs, view.hand, rs.wild, None, spelt=False), rs.gen.play,
                       walk, sum(view.hand))


def _selection(cards: Iterable[int]) -> dict[str, int]:
    """A play's cards as the plays index counts them: label → how many."""
    out: dict[str, int] = {}
    labels = LABELS
    for r in cards:
        label = labels[r]
        out[label] = out.get(label, 0) + 1
    return out


def legal_texts(obs: Observation, rs: RuleSet | None = None) -> list[str]:
    """Every legal action text of a view: the listed ones, and generated plays if the
    list is not complete (for bots that choose among texts)."""
    listed = list(obs.get("legal") or ())
    index = obs.get("plays")
    if trick_game(obs.get("variant")):
        # A trick game's index is over suited cards and spells its plays out itself; a
        # list cut short is a fair sample of them, which a bot may choose from.
        return listed + (["play " + " ".join(cards) for cards in expand(index)] if index else [])
    if obs.get("legal_complete", True):
        return listed
    rs = rs if rs is not None else rule_set(obs)
    return listed + list(generated(obs, read_view(obs, rs)))


def counts_minus(hand: Sequence[int], cards: Iterable[int]) -> Counts:
    out = list(hand)
    for r in cards:
        out[r] -= 1
    return tuple(out)
