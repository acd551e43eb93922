"""Player names: what a name may hold, and when two names would pass for each other.

A name is shown to other players beside the cards and on the leaderboards, so a
name that looks like someone else's (``аdmin`` with a Cyrillic ``а`` for ``admin``)
or that shows as nothing (Hangul fillers, zero-width characters) lets one player
pass for another or hide. So:

- **Normalised** with NFKC (``Ａｌｉｃｅ`` is ``Alice``) and then checked: 2–16
  characters, each a letter of some script, a decimal digit, ``_`` or ``-``.
  Invisible letters are refused by name (``INVISIBLE``: the Hangul fillers are
  category ``Lo`` yet show as blank), and so is every character that is not a
  letter or digit: format characters (zero-width joiners, bidi controls),
  unassigned and private-use code points, and combining marks (which only
  decorate another letter: a name of marks alone shows as nothing).
- **Scripts are not mixed** with Latin: a name with Latin letters holds no Cyrillic
  or Greek letter (``pаypal``), as that is how look-alikes are made. Names entirely
  in Cyrillic or Greek, and names mixing Latin or digits with Chinese, Japanese or
  Korean (``小明123``, ``Tom张``), are fine.
- **Skeletons decide uniqueness.** ``skeleton(name)`` is NFKC, case-folded, with
  each Cyrillic and Greek letter that looks like a Latin letter or a digit replaced
  by it (``HOMOGLYPHS``, a small table for the scripts players here use: Python has
  no Unicode confusables table, and the full one is mostly other scripts), and the
  Latin look-alikes folded too (``0→o``, ``1→l``, ``i→l``, ``rn→m``). Two names with one
  skeleton are one name: the second is refused as taken. The players table keeps
  the skeleton in a unique column, so two registrations racing cannot both pass.
"""

from __future__ import annotations

import unicodedata

from cardhall.hall.errors import BadName

NAME_MIN, NAME_MAX = 2, 16
_NAME_PUNCT = frozenset("_-")

#: Letters (by Unicode category) that render as blank space: the Hangul fillers.
INVISIBLE = frozenset("\u3164\u115f\u1160\uffa0")

#: Cyrillic and Greek letters (lower case, after casefold) that look like a Latin
#: letter or a digit, mapped to it. Upper-case forms fold to these first.
HOMOGLYPHS: dict[str, str] = {
    # Cyrillic
    "а": "a", "в": "b", "г": "r", "е": "e", "ё": "e", "з": "3", "и": "u", "і": "i",
    "ї": "i", "ј": "j", "к": "k", "л": "n", "м": "m", "н": "h", "о": "o", "п": "n",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ъ": "b", "ь": "b", "ӏ": "l", "һ": "h", "ո": "n", "ч": "4", "б": "6",
    # Greek
    "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e", "ζ": "z", "η": "n", "ι": "i",
    "κ": "k", "μ": "u", "ν": "v", "ο": "o", "ρ": "p", "σ": "o", "ς": "c", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
}

#: Latin letters and digits that pass for each other in most fonts.
_LATIN_ALIKE = {"0": "o", "1": "l", "i": "l", "5": "s", "rn": "m", "vv": "w"}


def script_of(ch: str) -> str:
    """The script of a letter, as far as the mixing rule cares: latin, cyrillic,
    greek or other (Chinese, Japanese, Korean, Arabic...)."""
    name = unicodedata.name(ch, "")
    for script in ("LATIN", "CYRILLIC", "GREEK"):
        if name.startswith(script):
            return script.lower()
    return "other"


def normalise_name(name: object) -> str:
    """The name as it will be stored (NFKC, checked); BadName says what is wrong."""
    if not isinstance(name, str):
        raise BadName("a name is text")
    n = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(n) <= NAME_MAX:
        raise BadName(f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(n)}")
    scripts: set[str] = set()
    for ch in n:
        cat = unicodedata.category(ch)
        if ch in INVISIBLE:
            raise BadName(f"a name may not hold the invisible character U+{ord(ch):04X}")
        if not (cat.startswith("L") or cat == "Nd" or ch in _NAME_PUNCT):
            what = {"Mn": "a combining mark", "Me": "a combining mark",
                    "Mc": "a combining mark", "Cf": "an invisible format character",
                    "Cn": "an unassigned character", "Co": "a private-use character",
                    }.get(cat, repr(ch))
            raise BadName(f"a name may hold letters, digits, _ and -, not {what} "
                          f"(U+{ord(ch):04X})")
        if cat.startswith("L"):
            scripts.add(script_of(ch))
    if "latin" in scripts and scripts & {"cyrillic", "greek"}:
        raise BadName("a name may not mix Latin letters with Cyrillic or Greek ones")
    return n


def name_key(name: str) -> str:
    """The normalised name, case-folded (how a login names its account)."""
    return unicodedata.normalize("NFKC", name).casefold()


def skeleton(name: str) -> str:
    """What two names must differ in: the case-folded NFKC name with look-alike
    letters and digits folded to one Latin form.

        >>> skeleton("Admin") == skeleton("аdmin") == skeleton("ΑDMIN")
        True
        >>> skeleton("张三") == skeleton("張三")
        False
        >>> skeleton("bob1") == skeleton("BOBl")
        True
    """
    folded = name_key(name)
    out = "".join(HOMOGLYPHS.get(ch, ch) for ch in folded)
    for alike, latin in _LATIN_ALIKE.items():
        out = out.replace(alike, latin)
    return out
