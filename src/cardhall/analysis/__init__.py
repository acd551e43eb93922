"""Post-game analysis: each decision of one seat judged from that seat's information.

    >>> from cardhall.analysis import analyze, what_if
    >>> report = analyze(record, seat=0)          # a finished game's record
    >>> report.accuracy, report.worst             # 0..100, the decision that lost most
    >>> what_if(record, report.worst.ply, report.worst.best.move).actions

For each play decision the seat made, the win chance and expected points of the move
played and of the best move found are estimated as the search bot estimates (the
unseen cards sampled, every seat played out by the planning policy: ``sampled``), or
computed exactly where the seat can count the other hand (``endgame``: the solver in
every hand it may be). Where that climbing judge does not apply (保皇's finishing order
and hidden guard, 找朋友's tricks and hidden friend, 五人斗地主's hidden landlord not yet
known to the seat), the game is played out on the real engine instead (``rollout``), in
worlds dealt from the seat's view (``worlds``) and scored by the game's own settlement.
The loss, the marks and the accuracy are in ``marks``; the walk over the record in
``game``; the continued line of another move in ``whatif``.
``cardhall analyze RECORD.json --seat S [--json]`` prints it.

This layer sits above the bots (it uses their sampling and policy) and below the hall,
which runs it in its bot workers.
"""

from __future__ import annotations

from cardhall.analysis.game import CANDIDATES, SAMPLES, analyze, positions
from cardhall.analysis.marks import BLUNDER, INACCURACY, MISTAKE, Mark, accuracy, mark
from cardhall.analysis.report import Analysis, Decision, Judged
from cardhall.analysis.rollout import ROLLOUTS
from cardhall.analysis.whatif import Line, what_if

__all__ = ["BLUNDER", "CANDIDATES", "INACCURACY", "MISTAKE", "ROLLOUTS", "SAMPLES", "Analysis",
           "Decision", "Judged", "Line", "Mark", "accuracy", "analyze", "mark", "positions",
           "what_if"]
