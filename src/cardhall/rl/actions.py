"""The environment's action space: one fixed vocabulary of tokens for all nine games.

A Dou Dizhu play is a set of cards, and a two-pack hand has more sets than any list
can hold, so an action is not one index but a short sequence of tokens, each one a
step of the same seat (docs/rl.md, "Actions"):

- a *word* is a whole action that takes no cards (``pass``, ``bid 3``, ``rob``,
  ``take none``): choosing it acts at once;
- a *verb* (``play``, ``take``, ``bury``, ``declare``, ``call``, ``call-friend``) opens
  an action with cards; then come its *cards* (a rank ``3`` … ``D`` where the game
  writes ranks, a suited card ``3s`` … ``2d`` where it writes suits), the marks
  ``+`` (kickers follow) and ``=`` (what the wild cards stand for), the friend call's
  ordinal ``1`` … ``3``, in the order the canonical text writes them, and ``end``.

The tokens of the legal actions form a tree (``Decision``): the mask at each step is
the set of tokens that continue some legal action, so every sequence the mask allows
ends in exactly one legal action, named by its canonical text. Nothing here knows a
rule: the legal actions are the game's own ``legal_actions(seat)``.

找朋友's bury is the one choice the game does not list in full (7 of 38 cards, 12.6
million sets; its ``legal_actions`` names four suggestions): ``BuryDecision`` offers
every card of the hand, a card at a time in the vocabulary's order, until seven.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from cardhall.cards import RANK_CHARS, format_card
from cardhall.games import Action, GameState
from cardhall.games.zhaopengyou_setup import KITTY

#: Whole actions without cards, in every variant that has them.
WORDS = (
    "pass", "bid 1", "bid 2", "bid 3", "call", "no-call", "rob", "no-rob",
    "double", "no-double", "decline", "reveal", "start", "show-start", "show", "no-show",
    "eye 1 2", "eye 1 3", "eye 2 3", "take none",
    "accept", "cede", "solo", "hidden-solo", "no-solo", "redeal", "rob-solo", "no",
    "open", "hidden", "rebel",
)
#: Verbs whose argument is cards (保皇's ``call 7d`` names the guard card).
VERBS = ("play", "take", "bury", "declare", "call", "call-friend")
RANKS = tuple(RANK_CHARS)
SUITED = tuple(format_card(c) for c in range(52))
ORDINALS = ("1", "2", "3")
MARKS = ("+", "=")
END = "end"

#: Every token's name, by index: the action space is ``Discrete(len(TOKENS))``.
TOKENS: tuple[str, ...] = (*WORDS, *(f"{v} …" for v in VERBS), *RANKS, *SUITED,
                           *(f"#{o}" for o in ORDINALS), *MARKS, END)
SIZE = len(TOKENS)
WORD_AT = {w: i for i, w in enumerate(WORDS)}
VERB_AT = {v: len(WORDS) + i for i, v in enumerate(VERBS)}
CARD_AT = {c: len(WORDS) + len(VERBS) + i for i, c in enumerate((*RANKS, *SUITED))}
ORDINAL_AT = {o: TOKENS.index(f"#{o}") for o in ORDINALS}
MARK_AT = {m: TOKENS.index(m) for m in MARKS}
END_AT = TOKENS.index(END)
#: Tokens that start an action (words and verbs), the "last action" features use them.
HEADS = len(WORDS) + len(VERBS)


class TokenError(ValueError):
    """An action text with a part the vocabulary has no token for (a new verb or word)."""


@lru_cache(maxsize=16384)
def tokens(text: str) -> tuple[int, ...]:
    """The token sequence of an action text without its seat tag (``play 333+4``).

    Cached: the same texts come back in every game (``pass``, ``bid 3``, ``play 3``)."""
    if text in WORD_AT:
        return (WORD_AT[text],)
    verb, _, arg = text.partition(" ")
    if verb not in VERB_AT or not arg:
        raise TokenError(f"no token for the action {text!r}")
    out = [VERB_AT[verb]]
    for piece in arg.split():
        if piece in CARD_AT and len(piece) == 2:  # a suited card
            out.append(CARD_AT[piece])
        elif verb == "call-friend" and piece in ORDINAL_AT:
            out.append(ORDINAL_AT[piece])
        else:
            for ch in piece:
                at = CARD_AT.get(ch, MARK_AT.get(ch))
                if at is None:
                    raise TokenError(f"no token for {ch!r} in {text!r}")
                out.append(at)
    out.append(END_AT)
    return tuple(out)


def bare(action: Action) -> str:
    """An action's text without the ``@S`` tag an answer in a shared window carries."""
    return action.text if action.seat is None else action.text.split(" ", 1)[1]


@dataclass
class Decision:
    """One seat's choice among the game's legal actions, a token at a time.

    Only the sequences that continue the tokens chosen so far are kept (``_live``),
    and the mask is read from them when asked: most decisions are a word or a short
    play, so building every prefix of every action up front would be wasted work.
    """

    actions: dict[tuple[int, ...], Action]
    chosen: list[int] = field(default_factory=list)
    _live: list[tuple[int, ...]] = field(default_factory=list, repr=False)
    _legal: set[int] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        k, prefix = len(self.chosen), tuple(self.chosen)
        self._live = [seq for seq in self.actions if seq[:k] == prefix]

    @classmethod
    def of(cls, state: GameState, seat: int) -> Decision:
        found: dict[tuple[int, ...], Action] = {}
        for action in state.legal_actions(seat):
            seq = tokens(bare(action))
            if seq in found:
                raise TokenError(f"{found[seq].text!r} and {action.text!r} share tokens")
            found[seq] = action
        return cls(found)

    def legal(self) -> set[int]:
        if self._legal is None:
            k = len(self.chosen)
            self._legal = {seq[k] for seq in self._live if len(seq) > k}
        return self._legal

    def mask(self) -> list[int]:
        """The legal tokens, ascending (the action mask's ones)."""
        return sorted(self.legal())

    def choose(self, token: int) -> Action | None:
        """Take one token (it must be legal); the action once the tokens name one."""
        k = len(self.chosen)
        self.chosen.append(token)
        self._live = [seq for seq in self._live if len(seq) > k and seq[k] == token]
        self._legal = None
        return self.actions.get(tuple(self.chosen))

    def text_after(self, token: int) -> str:
        """The canonical text of the action ``token`` completes, or the text so far."""
        seq = (*self.chosen, token)
        done = self.actions.get(seq)
        return bare(done) if done is not None else spell(seq)


#: 找朋友 buries this many cards.
BURY = KITTY


@dataclass
class BuryDecision:
    """找朋友's bury: any seven cards of the hand, chosen a card at a time, then ``end``.

    Cards come in the vocabulary's order (a card never before one chosen already), so
    each set of cards is one sequence; the game's own ``check`` judges the result.
    """

    state: GameState
    seat: int
    hand: Counter[int]
    chosen: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, state: GameState, seat: int) -> BuryDecision:
        hand = Counter(CARD_AT[c] for c in state.observe(seat)["hand"])
        return cls(state, seat, hand)

    def legal(self) -> set[int]:
        if not self.chosen:
            return {VERB_AT["bury"]}
        cards = self.chosen[1:]
        if len(cards) == BURY:
            return {END_AT}
        left = self.hand - Counter(cards)
        low, need = (cards[-1] if cards else -1), BURY - len(cards)
        # only cards after which enough cards remain in order: no sequence dead-ends
        return {t for t in left if t >= low
                and sum(k for u, k in left.items() if u >= t) >= need}

    def mask(self) -> list[int]:
        return sorted(self.legal())

    def choose(self, token: int) -> Action | None:
        self.chosen.append(token)
        if token != END_AT:
            return None
        action = self.state.resolve(spell(tuple(self.chosen[:-1])), self.seat)
        return action

    def text_after(self, token: int) -> str:
        seq = (*self.chosen, token)
        text = spell(seq[:-1] if token == END_AT else seq)
        return self.state.canonical(text, self.seat) if token == END_AT else text


def spell(seq: tuple[int, ...]) -> str:
    """Text of a token sequence as far as it goes (``play 33``)."""
    if not seq:
        return ""
    head = TOKENS[seq[0]]
    if seq[0] < len(WORDS):
        return head
    words = [head.removesuffix(" …")]
    rest = [t for t in seq[1:] if t != END_AT]
    suited = any(len(TOKENS[t]) == 2 or TOKENS[t].startswith("#") for t in rest)
    parts = [TOKENS[t].lstrip("#") for t in rest]
    if parts:
        words.append(" ".join(parts) if suited else "".join(parts))
    return " ".join(words)


__all__ = ["BURY", "END", "HEADS", "SIZE", "TOKENS", "VERBS", "WORDS", "BuryDecision",
           "Decision", "TokenError", "bare", "spell", "tokens"]
