"""The bot ladder in the database: who competes and opted in, the ladder's ratings, the
finished matches (docs/rulings.md, "Challenges and the ladder").

A match moves the ladder's ratings once: ``rated`` runs inside ``store.finish``'s
transaction, which changes the challenge's event from running to done (a finish done
twice, or after a crash, finds it done and moves nothing), and writes the match's
``ladder_matches`` row (keyed by the event) with the ratings before and after. The
ratings are ``ratings`` rows under ``ladder:VARIANT`` (``challenge.ladder_key``),
locked in subject order like every rating's; an anchor's is never written: its rating
is the config's, fixed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.domain.config import EventKind
from cardhall.hall.domain.names import name_key
from cardhall.hall.domain.ratings import MODEL, Skill, bot_name, bot_subject, change
from cardhall.hall.events import challenge
from cardhall.hall.events.duplicate import Line
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import (
    Event,
    EventEntrant,
    EventGame,
    LadderMatch,
    LadderOptIn,
    Player,
    Rating,
)

#: Matches a variant's page lists (the latest).
RECENT = 20


def is_competitor(player: Player) -> bool:
    """Whether ``player`` may be challenged and join the ladder: a live bot account
    (docs/bots.md), never a person, who is only ever challenged by his own choice
    (``may_challenge``: a person may challenge a ladder bot)."""
    return player.is_bot and not player.retired and not player.banned


def may_challenge(player: Player) -> bool:
    """Whether ``player`` may make a challenge: any registered account in good standing
    (a person plays a rated match against a ladder bot; a bot challenges another)."""
    return not player.is_guest and not player.banned and not player.retired


def subject_of(entrant: EventEntrant, bots: Sequence[str]) -> str:
    """A challenge entrant's rated identity: his player id, or his anchor's ``bot:``."""
    if entrant.player_id is not None:
        return entrant.player_id
    return bot_subject(bots[entrant.no] if entrant.no < len(bots) else "")


async def set_opt_in(db: Database, player: str, on: bool) -> None:
    """Opt ``player`` into the ladder (``on``) or out; done twice, the same."""
    async with db.transaction() as s:
        await s.execute(delete(LadderOptIn).where(LadderOptIn.player_id == player))
        if on:
            s.add(LadderOptIn(player_id=player))


async def opted_in(db: Database, players: Sequence[str] | None = None) -> set[str]:
    """Those of ``players`` (None: everyone) who opted in."""
    async with db.read() as s:
        query = select(LadderOptIn.player_id)
        if players is not None:
            query = query.where(LadderOptIn.player_id.in_(list(players)))
        return {str(p) for p in (await s.execute(query)).scalars()}


async def _lock(s: AsyncSession, subjects: Sequence[str], key: str) -> dict[str, Rating]:
    """The ladder rating rows of ``subjects`` (made where missing), locked in order."""
    if not subjects:
        return {}
    dialect = s.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    await s.execute(insert(Rating).values([
        {"subject": x, "variant": key, "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0}
        for x in sorted(set(subjects))]).on_conflict_do_nothing())
    rows = (await s.execute(select(Rating).where(Rating.subject.in_(set(subjects)),
                                                 Rating.variant == key)
                            .order_by(Rating.subject).with_for_update())).scalars()
    return {r.subject: r for r in rows}


async def rated(s: AsyncSession, event: Event, entrants: Sequence[EventEntrant],
                lines: Sequence[Line], anchors: Mapping[str, float], now: datetime) -> None:
    """Inside the finish of a challenge: move both ladder ratings by the match's
    outcome (an anchor's fixed) and write the match's row. A match one side never played
    a deal of (it cannot happen: every deal is dealt until played) moves nothing."""
    first = challenge.score(lines)
    if first is None or len(entrants) != 2:
        return
    kind = EventKind.model_validate(event.config, strict=False)
    key = challenge.ladder_key(kind.variant)
    subjects = [subject_of(e, kind.bots) for e in entrants]
    fixed = [challenge.anchor_skill(x, anchors) for x in subjects]
    rows = await _lock(s, [x for x, f in zip(subjects, fixed, strict=True) if f is None],
                       key)
    before = [f if f is not None else Skill(rows[x].mu, rows[x].sigma, rows[x].games)
              for x, f in zip(subjects, fixed, strict=True)]
    after = challenge.rate(before[0], before[1], first, (fixed[0] is not None,
                                                         fixed[1] is not None))
    for x, f, new in zip(subjects, fixed, after, strict=True):
        if f is None:
            rows[x].mu, rows[x].sigma, rows[x].games, rows[x].updated = \
                new.mu, new.sigma, new.games, now
    moved = [change(b, a) for b, a in zip(before, after, strict=True)]
    s.add(LadderMatch(event_id=event.id, variant=kind.variant, deals=kind.deals,
                      a=subjects[0], b=subjects[1], a_name=entrants[0].name,
                      b_name=entrants[1].name, score=first, a_points=lines[0].total,
                      b_points=lines[1].total, a_before=moved[0].before,
                      a_after=moved[0].after, b_before=moved[1].before,
                      b_after=moved[1].after, ended=now))


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a variant's ladder: a competitor's rating and matches."""

    subject: str
    name: str
    rating: int
    mu: float
    sigma: float
    matches: int
    deals: int
    anchor: bool

    def to_json(self) -> dict[str, Any]:
        return {"subject": self.subject, "name": self.name, "rating": self.rating,
                "mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "matches": self.matches, "deals": self.deals, "anchor": self.anchor}


async def board(db: Database, variant: str, anchors: Mapping[str, float]
                ) -> tuple[list[Standing], list[dict[str, Any]]]:
    """A variant's ladder: every rated competitor and the anchors, best first, with
    matches and deals played; and its latest matches, each with its games' ids by
    deal and entrant (for their replays: a finished match's are open)."""
    key = challenge.ladder_key(variant)
    async with db.read() as s:
        rows = list((await s.execute(select(Rating).where(Rating.variant == key))).scalars())
        names = {str(i): str(n) for i, n in (await s.execute(
            select(Player.id, Player.name).where(Player.id.in_([r.subject for r in rows]))
        )).all()}
        played: dict[str, tuple[int, int]] = {}
        for side in (LadderMatch.a, LadderMatch.b):
            for who, n, deals in (await s.execute(
                    select(side, func.count(), func.sum(LadderMatch.deals))
                    .where(LadderMatch.variant == variant).group_by(side))).all():
                m, d = played.get(str(who), (0, 0))
                played[str(who)] = (m + int(n), d + int(deals or 0))
        recent = list((await s.execute(
            select(LadderMatch).where(LadderMatch.variant == variant)
            .order_by(LadderMatch.ended.desc(), LadderMatch.event_id).limit(RECENT))
        ).scalars())
        games: dict[str, dict[int, dict[int, str]]] = {}
        if recent:
            for g in (await s.execute(select(EventGame).where(
                    EventGame.event_id.in_([m.event_id for m in recent]),
                    EventGame.deal.is_not(None)))).scalars():
                for no in g.moves:
                    games.setdefault(g.event_id, {}).setdefault(int(no), {})[
                        int(g.deal or 0)] = g.game_id
    lines = [Standing(r.subject, names.get(r.subject, r.subject), Skill(r.mu, r.sigma).display,
                      r.mu, r.sigma, *played.get(r.subject, (0, 0)), False) for r in rows]
    for name, mu in anchors.items():
        x = bot_subject(name)
        lines.append(Standing(x, name, Skill(mu).display, mu, challenge.ANCHOR_SIGMA,
                              *played.get(x, (0, 0)), True))
    lines.sort(key=lambda line: (-line.mu, line.subject))
    matches = [{"challenge": m.event_id, "deals": m.deals,
                "ended": m.ended.isoformat(), "score": m.score,
                "a": {"subject": m.a, "name": m.a_name, "matchpoints": m.a_points,
                      "before": m.a_before, "after": m.a_after, "anchor": _anchor(m.a),
                      "games": _by_deal(games.get(m.event_id, {}).get(0, {}), m.deals)},
                "b": {"subject": m.b, "name": m.b_name, "matchpoints": m.b_points,
                      "before": m.b_before, "after": m.b_after, "anchor": _anchor(m.b),
                      "games": _by_deal(games.get(m.event_id, {}).get(1, {}), m.deals)}}
               for m in recent]
    return lines, matches


def _anchor(subject: str) -> bool:
    return bot_name(subject) is not None


def _by_deal(games: Mapping[int, str], deals: int) -> list[str | None]:
    return [games.get(d) for d in range(deals)]


async def by_name(db: Database, name: str) -> Player | None:
    """The registered player called ``name`` (as names compare: ``names.name_key``)."""
    async with db.read() as s:
        return (await s.execute(select(Player).where(
            Player.name_key == name_key(name)))).scalar_one_or_none()


async def player(db: Database, player_id: str) -> Player | None:
    async with db.read() as s:
        return await s.get(Player, player_id)


async def live_of(db: Database, players: Sequence[str]) -> set[str]:
    """Those of ``players`` in a running match or event now (not free to be paired)."""
    if not players:
        return set()
    async with db.read() as s:
        return {str(p) for p in (await s.execute(
            select(EventEntrant.player_id).where(
                EventEntrant.player_id.in_(list(players)), EventEntrant.status == "in"))
        ).scalars()}


async def live_challenge(db: Database, player: str) -> str | None:
    """The running challenge ``player`` is in (entered or challenged), if any."""
    async with db.read() as s:
        return await s.scalar(select(Event.id).join(
            EventEntrant, EventEntrant.event_id == Event.id).where(
            EventEntrant.player_id == player, Event.status == "running",
            Event.kind.like(challenge.PREFIX + "%")).limit(1))
