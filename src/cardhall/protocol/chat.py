"""Quick chat (快捷语) and emotes (表情): the one fixed catalog a table may say.

A player never types a word to another: he picks one of these by its stable id, and
each client says it in its own player's language (``web/lang/zh.json`` and ``en.json``
hold the words under ``chat.ID``; docs/protocol.md lists both). So there is nothing to
moderate, nothing to log, and a line costs the hall a few bytes.

The ids are the wire's (``chat {table, say}``): a new one may be added, none renamed.
The limits are here too, because the hall enforces them and the docs quote them.
"""

from __future__ import annotations

from typing import Literal, get_args

#: The phrases, in the order the chat panel lists them.
Phrase = Literal["hello", "hurry", "thinking", "well_played", "lucky", "partner", "again",
                 "till_dawn", "dropped", "bye"]
#: The emotes (each drawn as one picture, the same in either language).
Emote = Literal["smile", "laugh", "cry", "angry", "cool", "shock", "wink", "heart"]
#: Anything a seat may say.
Say = Phrase | Emote

PHRASES: tuple[str, ...] = get_args(Phrase)
EMOTES: tuple[str, ...] = get_args(Emote)
SAYINGS: tuple[str, ...] = PHRASES + EMOTES

#: One player may chat at most once per this many seconds ...
GAP_SECONDS = 2.0
#: ... and at most this many lines per minute (``rate_limited`` past either): the
#: defaults of ``[limits]`` ``chat_gap_seconds`` and ``chat_lines_per_minute``.
PER_MINUTE = 10
#: Voices one listener may mute at one table (a table has at most five seats; players
#: come and go at a private table's).
MUTES_PER_LISTENER = 8
