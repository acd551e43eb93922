"""What an analysis says: each decision judged, the game's accuracy, and their JSON.

The JSON shape is the one the command line prints (``cardhall analyze --json``), the
hall stores with the game and the replay's 分析 view reads (docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardhall.analysis.marks import Mark, mark

#: Bumped whenever the same game would be judged differently (samples, candidates, marks,
#: the policy): an analysis stored under another version is computed again. 2: 保皇, 找朋友
#: and 五人斗地主 before the reveal judged by rollouts.
VERSION = 2


@dataclass(frozen=True, slots=True)
class Judged:
    """One move (canonical action text) with its win chance (0..1) and expected points."""

    move: str
    win: float
    points: float

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "win": round(self.win, 4), "points": round(self.points, 3)}


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat: the move played against the best move found.

    ``ply`` is the action's index in the record, so the position it was played from is
    the replay's frame ``ply`` and the move's result frame ``ply + 1``. ``exact``: judged
    by the solver in every hand the other seat could hold, not by samples.
    """

    ply: int
    played: Judged
    best: Judged
    mark: Mark | None
    exact: bool
    candidates: tuple[Judged, ...]

    @classmethod
    def verdict(cls, ply: int, played: str, judged: Iterable[Judged], exact: bool,
                keep: int) -> Decision:
        """The decision from its moves judged (``played`` among them): the best found is
        the highest win chance, then expected points, the move played on a tie; the
        ``keep`` best are kept as the candidates."""
        ranked = sorted(judged, key=lambda j: (-j.win, -j.points, j.move != played))
        best, mine = ranked[0], next(j for j in ranked if j.move == played)
        if best.win <= mine.win:
            best = mine
        return cls(ply, mine, best, mark(best.win - mine.win), exact, tuple(ranked[:keep]))

    @property
    def loss(self) -> float:
        """Win chance given up by the move played (0 when it was the best found)."""
        return max(0.0, self.best.win - self.played.win)

    @property
    def forced_win_missed(self) -> bool:
        """Certain: the seat could see a move that wins whatever the other holds, and
        played one that does not."""
        return self.exact and self.best.win >= 1.0 and self.played.win < 1.0

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "played": self.played.to_json(), "best": self.best.to_json(),
                "loss": round(self.loss, 4), "mark": None if self.mark is None else
                self.mark.value, "exact": self.exact,
                "forced_win_missed": self.forced_win_missed,
                "candidates": [c.to_json() for c in self.candidates]}


@dataclass(frozen=True, slots=True)
class Analysis:
    """A seat's decisions in one finished game, judged from that seat's information."""

    variant: str
    seat: int
    seed: int
    samples: int
    decisions: tuple[Decision, ...]
    accuracy: float | None
    #: Decisions of the seat left out: set-up decisions (bidding, calling, doubling), a
    #: single legal action.
    skipped: int
    #: Worlds each decision judged by rollouts was played out in (``rollout``).
    rollouts: int = 0

    @property
    def worst(self) -> Decision | None:
        """The decision that gave up most (the first of equals), None if none lost."""
        lost = [d for d in self.decisions if d.loss > 0]
        return max(lost, key=lambda d: (d.loss, -d.ply)) if lost else None

    def to_json(self) -> dict[str, Any]:
        worst = self.worst
        return {"version": VERSION, "variant": self.variant, "seat": self.seat,
                "seed": self.seed,
                "samples": self.samples, "rollouts": self.rollouts,
                "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
                "worst": None if worst is None else worst.ply, "skipped": self.skipped,
                "decisions": [d.to_json() for d in self.decisions]}

    def lines(self) -> list[str]:
        """The analysis for a person: one line a decision, then the accuracy."""
        out = [f"{self.variant}, seat {self.seat}: {len(self.decisions)} decisions analysed "
               f"({self.skipped} left out), {self.samples} samples each"
               + (f" ({self.rollouts} rollouts where played out)" if self.rollouts else "")]
        for d in self.decisions:
            how = "exact" if d.exact else "est."
            flag = "  forced win missed" if d.forced_win_missed else ""
            note = f"  {d.mark.value}: best {d.best.move} ({d.best.win:.0%})" if d.mark else ""
            out.append(f"{d.ply + 1:4d}. {d.played.move:<20} win {d.played.win:4.0%} "
                       f"pts {d.played.points:+6.2f} loss {d.loss:4.0%} {how}{note}{flag}")
        acc = "n/a" if self.accuracy is None else f"{self.accuracy:.1f}"
        out.append(f"accuracy {acc}")
        return out
