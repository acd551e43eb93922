"""cardhall: the Dou Dizhu family, 找朋友 and 保皇 — rules, games and bots.

The layers (see ARCHITECTURE): ``cards`` → ``rules`` → ``games`` → ``bots`` →
``hall`` → ``server``; a lower layer never imports a higher one.
"""

from cardhall.cards import CardError
from cardhall.rules import Play, RuleError, RuleSet

__all__ = ["CardError", "Play", "RuleError", "RuleSet"]
__version__ = "0.1.0"
