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
  unassigned and private-use code points. Combining marks are refused alone and
  on Latin, Cyrillic and Greek letters (NFKC has already composed the real accented
  letters; what is left decorates or hides); scripts that write vowels as marks
  (Thai, Devanagari...) may put at most ``MARKS_MAX`` on one letter.
- **Scripts are not mixed**: the letters of a name are of one script, besides
  Chinese, Japanese and Korean, which may go with any (``小明123``, ``Tom张``). So
  ``pаypal`` (a Cyrillic ``а`` among Latin letters) is refused, as that is how
  look-alikes are made; names entirely in Cyrillic or Greek are fine.
- **Skeletons decide uniqueness.** ``skeleton(name)`` is NFKC, case-folded, with
  each Cyrillic and Greek letter that looks like a Latin letter or a digit replaced
  by it (``HOMOGLYPHS``, a small table for the scripts players here use: Python has
  no Unicode confusables table, and the full one is mostly other scripts), every
  decimal digit written as its ASCII digit (``١`` is ``1``), and the Latin
  look-alikes folded too (``0→o``, ``1→l``, ``i→l``, ``rn→m``). Two names with one
  skeleton are one name: the second is refused as taken. The players table keeps
  the skeleton in a unique column, so two registrations racing cannot both pass.
"""

from __future__ import annotations

import unicodedata

from cardhall.hall.domain.errors import BadName

NAME_MIN, NAME_MAX = 2, 16
_NAME_PUNCT = frozenset("_-")
#: Combining marks one letter may carry (Thai and Indic vowels and tones).
MARKS_MAX = 2
#: Scripts whose letters may go with another script's in one name.
_CJK = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "IDEOGRAPHIC")
#: Scripts whose accented letters NFKC composes: a mark left on them is not a letter's.
_NO_MARKS = frozenset({"latin", "cyrillic", "greek"})

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
    """The script of a letter or mark, as far as the mixing rule cares: the first word
    of its Unicode name (latin, cyrillic, thai...), or cjk for Chinese, Japanese and
    Korean."""
    name = unicodedata.name(ch, "")
    if name.startswith(_CJK):
        return "cjk"
    return name.split(" ", 1)[0].lower()


def normalise_name(name: object) -> str:
    """The name as it will be stored (NFKC, checked); BadName says what is wrong."""
    if not isinstance(name, str):
        raise BadName("a name is text")
    n = unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(n) <= NAME_MAX:
        raise BadName(f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(n)}")
    scripts: set[str] = set()
    base, marks = "", 0  # the script of the letter marks would sit on, and how many
    for ch in n:
        cat = unicodedata.category(ch)
        if ch in INVISIBLE:
            raise BadName(f"a name may not hold the invisible character U+{ord(ch):04X}")
        if cat in ("Mn", "Mc") and base and base not in _NO_MARKS and marks < MARKS_MAX:
            marks += 1
            continue
        if not (cat.startswith("L") or cat == "Nd" or ch in _NAME_PUNCT):
            what = {"Mn": "a combining mark here", "Me": "a combining mark",
                    "Mc": "a combining mark here", "Cf": "an invisible format character",
                    "Cn": "an unassigned character", "Co": "a private-use character",
                    }.get(cat, repr(ch))
            raise BadName(f"a name may hold letters, digits, _ and -, not {what} "
                          f"(U+{ord(ch):04X})")
        base, marks = (script_of(ch), 0) if cat.startswith("L") else ("", 0)
        if base:
            scripts.add(base)
    if len(scripts - {"cjk"}) > 1:
        raise BadName("a name may not mix letters of different scripts (such as Latin "
                      "with Cyrillic or Greek); Chinese, Japanese and Korean go with any")
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
    out = "".join(str(unicodedata.decimal(ch)) if unicodedata.category(ch) == "Nd"
                  else HOMOGLYPHS.get(ch, ch) for ch in folded)
    for alike, latin in _LATIN_ALIKE.items():
        out = out.replace(alike, latin)
    return out
