"""The built-in 残局: two-hand endgames of graded difficulty, written as data.

Each is a forced win for the player, who moves first; the tests solve every one and
pin how many first moves win (``WINNING``: most have one, which is what makes a
puzzle). The themes are the classic ones: lead small to draw the big card out, keep
the 2 for the tempo, break a pair or a trio for a straight, take a bomb out with two
kickers when the rocket waits, answer a play with the card that keeps the lead.
"""

from __future__ import annotations

from cardhall.puzzles.puzzle import Puzzle

CLASSIC: tuple[Puzzle, ...] = (
    Puzzle("c01", "以小引大", "A small card draws the king", "466A", "77K", level=1),
    Puzzle("c02", "四带二", "Four with two", "349999", "5XD", level=1),
    Puzzle("c03", "顺子先走", "The straight goes first", "345678J", "22Q", level=1),
    Puzzle("c04", "三带一", "A trio takes one", "34JJJ", "225", level=1),
    Puzzle("c05", "别急出二", "Do not rush the 2", "234", "AK", level=1),
    Puzzle("c06", "接牌", "Answer the 4", "3A2", "KQQ", "4", level=1),
    Puzzle("c07", "对子开路", "A pair opens the way", "455TTA", "88JKX", level=2),
    Puzzle("c08", "小对先行", "The small pair first", "34479A", "468K2", level=2),
    Puzzle("c09", "单张试探", "A single to test the water", "45589A", "448KA", level=2),
    Puzzle("c10", "三三开局", "Threes first", "3346JA", "458QD", level=2),
    Puzzle("c11", "顺子清路", "The straight clears the way", "45678JQ", "7TKKA2", level=2),
    Puzzle("c12", "顺后出小", "The small card after the straight", "36789TQ", "35QKAX", level=3),
    Puzzle("c13", "顺子与对五", "A straight against a pair of fives", "6789TKA", "559TA2",
           level=3),
    Puzzle("c14", "二在手中", "The 2 stays in hand", "79TJQK2", "46822X", level=3),
    Puzzle("c15", "王在对面", "The joker is across", "6789TQA", "349Q2X", level=3),
    Puzzle("c16", "拆对成顺", "Break a pair for the straight", "456788TT", "67TJA22", level=4),
    Puzzle("c17", "中张破局", "A middle card breaks it", "335688QQ", "44677QK", level=4),
    Puzzle("c18", "拆三张", "Break the trio", "58889TJQ", "34JKAAX", level=4),
    Puzzle("c19", "五张顺", "Five in a row", "356789JK", "689TKA2", level=4),
    Puzzle("c20", "大王压阵", "The big joker holds the rear", "35778Q2D", "35TAA2X", level=4),
    Puzzle("c21", "六连顺", "Six in a row", "69TJJQKKA", "4489QA2X", level=5),
    Puzzle("c22", "双二在手", "Two 2s in hand", "3348TKKA22", "6678QAA2X", level=5),
    Puzzle("c23", "长线作战", "The long line", "456778JQA", "34899Q22", level=5),
    Puzzle("c24", "以八接七", "An 8 on the 7", "3488TQK2", "379JQQK", "7", level=5),
    Puzzle("c25", "以七接四", "A 7 on the 4", "7899TKK2", "578KKAA", "4", level=5),
)

#: How many first moves win each puzzle (the tests check it against the solver).
WINNING: dict[str, int] = {
    "c01": 1, "c02": 1, "c03": 1, "c04": 2, "c05": 2, "c06": 2, "c07": 1, "c08": 1,
    "c09": 1, "c10": 1, "c11": 1, "c12": 1, "c13": 1, "c14": 1, "c15": 1, "c16": 1,
    "c17": 1, "c18": 1, "c19": 1, "c20": 1, "c21": 1, "c22": 1, "c23": 1, "c24": 1,
    "c25": 1,
}

BY_ID: dict[str, Puzzle] = {p.id: p for p in CLASSIC}
