"""Scripted deals the engine, server and browser tests share (the ``deal`` option,
docs/contract.md): the same cards and the same first plays at every layer."""

from __future__ import annotations

from typing import Any

#: A 癞子 deal (9 wild) whose landlord, seat 0, leads 33399955JJKKAA2XD + 8TQ: three wild
#: cards make 2 234 plays, so the view gives them as the ``plays`` diagram
#: (``legal_complete`` false). 3 5 9 9 reads as 399+5=333+5 or 599+3=555+3 (the rules
#: refuse the bare cards); 3 3 3 9 as 三带一 333+9=333+9 or the soft bomb 3339=3333
#: (which the rules prefer).
WILD_LEAD: dict[str, Any] = {
    "wild": "9", "landlord": 0,
    "deal": {"hands": ["33399955JJKKAA2XD", "34444556666778889", "77TTTJJQQQKKAA222"],
             "kitty": "8TQ"}}
