"""A challenge and the ladder's arithmetic, pure: the match's kind, its outcome, the
ladder's rating move and the scheduler's pairing (docs/rulings.md, "Challenges and the
ladder"). Every rule here is held by tests/hall/test_challenge_rules.py.

- **A challenge** is a duplicate event (复式, ``events.duplicate``) of two entrants:
  each plays every deal alone against the same house bots (``planning``) on the other
  seats, and his seat rotates deal by deal (deal ``i`` at seat ``i mod players``) so
  that both sides of the game are played. A deal goes to whoever scored more on it
  (matchpoints 2 / 1 / 0); the match to whoever has more matchpoints; equal: a draw.
- **An anchor** (``planning``, ``search``) is a built-in bot one may challenge; its
  ladder rating is fixed (the config's μ): the scale's anchors never move.
- **The ladder's rating** of a competitor in a variant is an openskill rating under
  the key ``ladder:VARIANT``, moved once per match (a match is one "game" of two):
  won, lost or drawn.
- **Pairing** (one round of the continuous ladder): the round's variant is the next of
  the nine in turn; the competitors free to play are shuffled and paired; an odd one
  out meets an anchor (in turn by round).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from cardhall.games import VARIANTS
from cardhall.hall.domain.config import EventKind, Ladder
from cardhall.hall.domain.ratings import MODEL, Skill, bot_name, bot_subject
from cardhall.hall.events.duplicate import Line

#: A challenge's kind id: this and the variant (``ch-ddz3``); its room ``ev-ch-ddz3``.
PREFIX = "ch-"
#: A ladder rating's key in ``ratings.variant``.
LADDER = "ladder:"
#: The σ an anchor's fixed rating is taken with (sure of itself: it never moves).
ANCHOR_SIGMA = 1.0
#: Every variant, in the order the continuous ladder takes them round by round.
ORDER = tuple(VARIANTS)


def ladder_key(variant: str) -> str:
    return LADDER + variant


def is_challenge(kind_id: str) -> bool:
    return kind_id.startswith(PREFIX)


def kind_for(variant: str, deals: int, ladder: Ladder, bots: Sequence[str] = ("", "")
             ) -> EventKind:
    """A challenge's kind: the match of ``deals`` deals; ``bots`` by entrant, the anchor
    playing him ("": a player). Its room (the kind's ``room()``) depends on the variant
    and the ladder's pace only, so a restarted hall finds it (``rooms``)."""
    return EventKind(id=PREFIX + variant, name=f"{VARIANTS[variant].name} 挑战",
                     name_en=f"{VARIANTS[variant].name_en or variant} challenge",
                     format="duplicate", variant=variant, entrants=2, deals=deals, fee=0,
                     prizes=(100,), bot_wait_seconds=None, turn_seconds=ladder.turn_seconds,
                     bot_seconds=ladder.bot_seconds, between_seconds=ladder.between_seconds,
                     rotate=True, bots=tuple(bots))


def seat_of(deal: int, players: int) -> int:
    """The seat the entrants play at deal ``deal`` of a challenge."""
    return deal % players


def score(lines: Sequence[Line]) -> float | None:
    """The first entrant's result of a finished match (1 won, 0.5 drawn, 0 lost), from
    both entrants' lines in entry order; None while a deal is unplayed by either."""
    if len(lines) != 2 or any(p is None for line in lines for p in line.points):
        return None
    a, b = lines
    return 1.0 if a.total > b.total else 0.0 if a.total < b.total else 0.5


def anchor_skill(subject: str, anchors: Mapping[str, float]) -> Skill | None:
    """An anchor's fixed rating (None: ``subject`` is no anchor: his rating moves)."""
    name = bot_name(subject)
    return None if name is None or name not in anchors else Skill(anchors[name],
                                                                  ANCHOR_SIGMA)


def rate(a: Skill, b: Skill, first: float, fixed: tuple[bool, bool]) -> tuple[Skill, Skill]:
    """Both competitors' ratings after a match the first scored ``first`` in (1, 0.5,
    0); a ``fixed`` one (an anchor) keeps his."""
    ranks = [0.0, 1.0] if first == 1.0 else [1.0, 0.0] if first == 0.0 else [0.0, 0.0]
    (ra,), (rb,) = MODEL.rate([[MODEL.create_rating([a.mu, a.sigma])],
                               [MODEL.create_rating([b.mu, b.sigma])]], ranks=ranks)
    new_a = a if fixed[0] else Skill(ra.mu, ra.sigma, a.games + 1)
    new_b = b if fixed[1] else Skill(rb.mu, rb.sigma, b.games + 1)
    return new_a, new_b


def round_variant(round_no: int) -> str:
    """The variant a round of the continuous ladder plays."""
    return ORDER[round_no % len(ORDER)]


def pairs(free: Sequence[str], anchors: Sequence[str], round_no: int,
          rng: random.Random, owners: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """One round's matches: ``free`` (competitors' subjects, free to play) shuffled by
    ``rng`` and paired, never two bots of one owner (``owners``: a subject's owner) so
    no one rates his own bots by their games with each other; whoever is left meets an
    anchor, chosen in turn by round (none: he waits for the next round)."""
    owner_of = owners or {}
    order = sorted(set(free))
    rng.shuffle(order)
    out: list[tuple[str, str]] = []
    left: list[str] = []
    while order:
        a = order.pop(0)
        mate = next((b for b in order if owner_of.get(b, b) != owner_of.get(a, a)), None)
        if mate is None:
            left.append(a)
            continue
        order.remove(mate)
        out.append((a, mate))
    if anchors:
        out += [(x, bot_subject(anchors[(round_no + i) % len(anchors)]))
                for i, x in enumerate(left)]
    return out
