"""Climbing-game rules: one declared rule set per variant, one engine for all.

    >>> from cardhall import rules
    >>> ddz = rules.get("ddz3")
    >>> [p.text for p in ddz.moves("34567", ddz.parse_play("3"))]
    ['4', '5', '6', '7']

Pure functions over rank-count vectors, standard library only.
"""

from cardhall.rules.plays import Play
from cardhall.rules.ruleset import RuleError, RuleSet
from cardhall.rules.variants import RULESETS, get

__all__ = ["RULESETS", "Play", "RuleError", "RuleSet", "get"]
