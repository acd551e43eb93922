"""The hall's own words in English: what ``GET /api/names`` sends.

The hall names some things itself, in Chinese, in the messages it sends: the level
titles (头衔, the platform rules' table B), its bots' names and their title, and the
names of guests (游客 and six digits). A page in English shows each from this table
(web/names.js), keyed by the Chinese as the messages carry it, so that no message
changes. A name a player chose is his own and is shown as he wrote it: the reserved
prefixes (``accounts.RESERVED_PREFIXES``) keep it from ever looking like a guest's or
a bot's.
"""

from __future__ import annotations

from typing import TypedDict

from cardhall.hall.domain.levels import TITLES_EN
from cardhall.hall.live.seats import BOT_NAMES, BOT_NAMES_EN, BOT_TITLE, BOT_TITLE_EN
from cardhall.hall.store.accounts import GUEST_PREFIX, GUEST_PREFIX_EN


class Prefix(TypedDict):
    zh: str
    en: str


class Names(TypedDict):
    """``titles`` and ``bots``: each Chinese name with its English one; ``guest``: the
    prefix of a guest's name in each language (the digits after it stay)."""

    titles: dict[str, str]
    bots: dict[str, str]
    guest: Prefix


def names() -> Names:
    return Names(titles={**TITLES_EN, BOT_TITLE: BOT_TITLE_EN},
                 bots=dict(zip(BOT_NAMES, BOT_NAMES_EN, strict=True)),
                 guest=Prefix(zh=GUEST_PREFIX, en=GUEST_PREFIX_EN))
