"""How a decision is judged: the loss, its mark, and a game's accuracy.

The *loss* of a decision is the win chance the best move found had, less the win
chance of the move played, both from the deciding seat's information (``0.25``: a
quarter of the games the best move wins, the played one loses). The marks are the
thresholds lichess uses on its own win-chance scale, so a player who knows them
there reads them the same here:

- inaccuracy: a loss of at least 0.10,
- mistake: at least 0.20,
- blunder: at least 0.30.

A game's accuracy is the mean over the seat's analysed decisions of

    accuracy(loss) = 103.1668 * exp(-4.354 * loss) - 3.1669   (clamped to 0..100)

(lichess's per-move accuracy, with the loss in win-chance points: no loss scores
100, a loss of 0.10 about 64, a blunder of 0.30 about 25). Decisions with a single
legal action are not decisions and count in neither.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable

#: Win-chance loss (0..1) from which each mark is given.
INACCURACY, MISTAKE, BLUNDER = 0.10, 0.20, 0.30


class Mark(enum.Enum):
    """How bad a decision was, by its loss."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


#: The marks from the worst down, each with its threshold.
_BY_LOSS = ((BLUNDER, Mark.BLUNDER), (MISTAKE, Mark.MISTAKE), (INACCURACY, Mark.INACCURACY))
#: Rounding slack: an estimate's noise below it is no loss (sums of floats).
_EPSILON = 1e-9


def mark(loss: float) -> Mark | None:
    """The mark a loss earns, None below the inaccuracy threshold."""
    for threshold, found in _BY_LOSS:
        if loss >= threshold - _EPSILON:
            return found
    return None


def move_accuracy(loss: float) -> float:
    """One decision's accuracy, 0..100 (the module's formula)."""
    value = 103.1668 * math.exp(-4.354 * max(0.0, loss)) - 3.1669
    return min(100.0, max(0.0, value))


def accuracy(losses: Iterable[float]) -> float | None:
    """The mean accuracy of the decisions' losses; None for a game with none analysed."""
    values = [move_accuracy(x) for x in losses]
    return sum(values) / len(values) if values else None
